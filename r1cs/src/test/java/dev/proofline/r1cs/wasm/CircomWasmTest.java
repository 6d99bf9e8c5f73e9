package dev.proofline.r1cs.wasm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.wasm.WitnessException.Reason;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** circom's witness generators run on the JVM: the same .wtns bytes as {@code snarkjs wtns calculate}. */
class CircomWasmTest {

    @TempDir
    Path tmp;

    private static final Map<String, CircomWasm> LOADED = new LinkedHashMap<>();

    private static synchronized CircomWasm load(Path source, String curve) {
        return LOADED.computeIfAbsent(curve + ":" + source, k -> CircomWasm.load(CircomBuild.wasm(source, curve)));
    }

    private static CircomWasm interop(String circuit, String curve) {
        return load(CircomBuild.interopCircuit(circuit), curve);
    }

    /** Our .wtns of {@code json} on the interop circuit equals snarkjs's, byte for byte. */
    private byte[] assertSameAsSnarkjs(String circuit, String curve, String json) throws IOException {
        Path input = tmp.resolve("input.json");
        Files.writeString(input, json);
        Path wasm = CircomBuild.wasm(CircomBuild.interopCircuit(circuit), curve);
        byte[] theirs = CircomBuild.snarkjsWtns(wasm, input, tmp.resolve("snarkjs.wtns"));
        byte[] ours = WtnsFile.write(interop(circuit, curve).calculate(CircomInput.read(input)));
        assertArrayEquals(theirs, ours, circuit + " on " + curve + " with " + json);
        return ours;
    }

    @ParameterizedTest
    @CsvSource({"multiplier, bn128", "poseidon, bn128", "nopublic, bn128", "allprivate, bn128",
        "multiplier, bls12381", "poseidon, bls12381", "nopublic, bls12381", "allprivate, bls12381"})
    void sameWitnessBytesAsSnarkjs(String circuit, String curve) throws IOException {
        CircomWasm wasm = interop(circuit, curve);
        assertEquals(PairingCurve.bySnarkjsName(curve).orElseThrow(), wasm.curve());
        assertTrue(wasm.circomVersion().startsWith("2."), wasm.circomVersion());
        byte[] ours = assertSameAsSnarkjs(circuit, curve, Files.readString(CircomBuild.interopInput(circuit)));
        Witness w = WtnsFile.read(ours, "ours.wtns");
        assertEquals(wasm.witnessSize(), w.size());
        assertEquals(BigInteger.ONE, w.value(0));
    }

    @Test
    void reusedAcrossInputsAndThreads() throws Exception {
        CircomWasm wasm = interop("poseidon", "bn128");
        List<CircomInput> inputs = new ArrayList<>();
        List<Witness> expected = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            CircomInput in = CircomInput.of(Map.of("nonce", i, "secret", List.of(BigInteger.valueOf(1000 + i), "7")));
            inputs.add(in);
            expected.add(wasm.calculate(in));
        }
        assertTrue(!expected.get(0).value(1).equals(expected.get(1).value(1)), "different inputs, different digests");
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<Witness>> results = new ArrayList<>();
            for (int rep = 0; rep < 3; rep++) {
                for (CircomInput in : inputs) {
                    results.add(pool.submit(() -> wasm.calculate(in)));
                }
            }
            for (int i = 0; i < results.size(); i++) {
                assertArrayEquals(expected.get(i % inputs.size()).words(), results.get(i).get().words());
            }
        } finally {
            pool.shutdownNow();
        }
        // the input of the snarkjs fixture, after all those
        assertArrayEquals(WtnsFile.write(wasm.calculate(CircomInput.read(CircomBuild.interopInput("poseidon")))),
                CircomBuild.snarkjsWtns(CircomBuild.wasm(CircomBuild.interopCircuit("poseidon"), "bn128"),
                        CircomBuild.interopInput("poseidon"), tmp.resolve("p.wtns")));
    }

    @ParameterizedTest
    @CsvSource({"bn128", "bls12381"})
    void valuesAreReducedAsSnarkjsReducesThem(String curve) throws IOException {
        BigInteger p = PairingCurve.bySnarkjsName(curve).orElseThrow().fr().modulus();
        // negative: -3 is p - 3; p + 5 is 5; hex, octal, binary, numbers, booleans, white space
        byte[] a = assertSameAsSnarkjs("multiplier", curve, "{\"a\": \"-3\", \"b\": \"" + p.add(BigInteger.valueOf(5))
                + "\", \"x\": \"0x1f\", \"y\": -7, \"z\": \" 0b101 \"}");
        byte[] b = WtnsFile.write(interop("multiplier", curve).calculate(CircomInput.parse(
                "{\"a\": \"" + p.subtract(BigInteger.valueOf(3)) + "\", \"b\": 5, \"x\": 31, \"y\": \"" + p.subtract(
                        BigInteger.valueOf(7)) + "\", \"z\": \"0o5\"}", null)));
        assertArrayEquals(a, b);
        assertSameAsSnarkjs("multiplier", curve, "{\"a\": true, \"b\": false, \"x\": 1e3, \"y\": 2.0,"
                + " \"z\": 1152921504606846976}");
    }

    @Test
    void arraySignalsFromNestedArraysAndBusesFromNestedObjects() throws IOException {
        // snarkjs takes the qualified names; circom's own generate_witness.js the nested objects
        String flat = "{\"p.x\": \"2\", \"p.y\": \"3\", \"q[0].x\": \"4\", \"q[0].y\": \"5\", \"q[1].x\": \"6\","
                + " \"q[1].y\": \"7\", \"k\": [[\"1\", \"2\"], [\"3\", \"4\"]]}";
        Path input = tmp.resolve("flat.json");
        Files.writeString(input, flat);
        Path wasmFile = CircomBuild.wasm(CircomBuild.testCircuit("buses"), "bn128");
        byte[] theirs = CircomBuild.snarkjsWtns(wasmFile, input, tmp.resolve("b.wtns"));
        CircomWasm wasm = load(CircomBuild.testCircuit("buses"), "bn128");
        assertArrayEquals(theirs, WtnsFile.write(wasm.calculate(CircomInput.read(input))));
        String nested = "{\"k\": [1, 2, 3, 4], \"p\": {\"x\": 2, \"y\": 3}, \"q\": [{\"x\": 4, \"y\": 5}, {\"x\": 6,"
                + " \"y\": 7}]}";
        assertArrayEquals(theirs, WtnsFile.write(wasm.calculate(CircomInput.parse(nested, null))));
        assertArrayEquals(theirs, WtnsFile.write(wasm.calculate(CircomInput.of(Map.of(
                "p", Map.of("x", 2, "y", 3), "q", List.of(Map.of("x", 4, "y", 5), Map.of("x", 6, "y", 7)),
                "k", new long[] {1, 2, 3, 4})))));
    }

    private static WitnessException fails(CircomWasm wasm, String json) {
        return assertThrows(WitnessException.class, () -> wasm.calculate(CircomInput.parse(json, "in.json")));
    }

    @Test
    void inputsThatDoNotFitTheCircuit() {
        CircomWasm wasm = interop("poseidon", "bn128");
        WitnessException e = fails(wasm, "{\"nonce\": 1, \"secret\": [1, 2], \"nonse\": 3}");
        assertEquals(Reason.UNKNOWN_SIGNAL, e.reason());
        assertEquals("nonse", e.signal());
        assertEquals("circuit has no input signal 'nonse'", e.getMessage());

        e = fails(wasm, "{\"nonce\": 1, \"secret\": [1, 2, 3]}");
        assertEquals(Reason.WRONG_COUNT, e.reason());
        assertEquals("input signal 'secret' has 2 values, the input gives 3", e.getMessage());
        e = fails(wasm, "{\"nonce\": 1, \"secret\": 5}");
        assertEquals(Reason.WRONG_COUNT, e.reason());
        assertEquals("input signal 'secret' has 2 values, the input gives 1", e.getMessage());
        e = fails(wasm, "{\"nonce\": [1, 2], \"secret\": [1, 2]}");
        assertEquals("input signal 'nonce' has 1 value, the input gives 2", e.getMessage());

        e = fails(wasm, "{\"secret\": [1, 2]}");
        assertEquals(Reason.MISSING_INPUTS, e.reason());
        assertEquals("nonce", e.signal());
        assertEquals("Not all inputs have been set. Only 2 out of 3 input values are given; not given: 'nonce'",
                e.getMessage());
        e = fails(wasm, "{}");
        assertEquals(Reason.MISSING_INPUTS, e.reason());
        assertTrue(e.getMessage().endsWith("not given: 'secret', 'nonce'") || e.getMessage().endsWith(
                "not given: 'nonce', 'secret'"), e.getMessage());
    }

    @Test
    void withoutASymbolFileTheMissingInputsAreCountedAndTheFileNamed() throws IOException {
        Path alone = Files.createDirectories(tmp.resolve("poseidon_js")).resolve("poseidon.wasm");
        Files.copy(CircomBuild.wasm(CircomBuild.interopCircuit("poseidon"), "bn128"), alone);
        WitnessException e = fails(CircomWasm.load(alone), "{\"secret\": [1, 2]}");
        assertEquals(Reason.MISSING_INPUTS, e.reason());
        assertEquals("Not all inputs have been set. Only 2 out of 3 input values are given (circom --sym writes the"
                + " symbol file that names the missing ones)", e.getMessage());
    }

    @Test
    void valuesThatAreNotFieldElements() {
        CircomWasm wasm = interop("poseidon", "bn128");
        WitnessException e = fails(wasm, "{\"nonce\": \"12abc\", \"secret\": [1, 2]}");
        assertEquals(Reason.BAD_VALUE, e.reason());
        assertEquals("nonce", e.signal());
        assertEquals("in.json: input 'nonce': \"12abc\" is not an integer (decimal, or hexadecimal with 0x)",
                e.getMessage());
        e = fails(wasm, "{\"nonce\": 1, \"secret\": [1, 2.5]}");
        assertEquals("in.json: input 'secret[1]': 2.5 is not an integer", e.getMessage());
        e = fails(wasm, "{\"nonce\": 1, \"secret\": [null, 2]}");
        assertEquals("in.json: input 'secret[0]': null is not a number", e.getMessage());
        e = fails(wasm, "{\"nonce\": \"\", \"secret\": [1, 2]}");
        assertEquals(Reason.BAD_VALUE, e.reason());
        e = fails(wasm, "{\"nonce\": \"-0x5\", \"secret\": [1, 2]}");
        assertEquals(Reason.BAD_VALUE, e.reason());
        e = fails(wasm, "{\"nonce\": 12345678901234567891, \"secret\": [1, 2]}");
        assertEquals(Reason.BAD_VALUE, e.reason());
        assertTrue(e.getMessage().contains("12345678901234567891") && e.getMessage().contains("12345678901234567168")
                && e.getMessage().contains("write it as a string"), e.getMessage());
        e = fails(wasm, "{\"nonce\": 1e400, \"secret\": [1, 2]}");
        assertEquals(Reason.BAD_VALUE, e.reason());

        e = fails(wasm, "{\"nonce\": 1, \"secret\": [1, 2]");
        assertEquals(Reason.MALFORMED_INPUT, e.reason());
        assertTrue(e.getMessage().startsWith("in.json: not valid JSON"), e.getMessage());
        e = fails(wasm, "[1, 2, 3]");
        assertEquals(Reason.MALFORMED_INPUT, e.reason());
        e = fails(wasm, "{\"nonce\": 1, \"secret\": [{\"a\": 1}, 2]}");
        assertEquals(Reason.BAD_VALUE, e.reason());
    }

    @Test
    void assertionsAndConstraintsThatFailAndLogLines() {
        CircomWasm wasm = load(CircomBuild.testCircuit("checks"), "bn128");
        List<String> log = new ArrayList<>();
        Witness ok = wasm.calculate(CircomInput.parse("{\"x\": 3, \"y\": 4}", null), log::add);
        assertEquals(BigInteger.valueOf(12), ok.value(1));
        assertEquals(List.of("x is 3 and y is 4"), log);

        WitnessException e = assertThrows(WitnessException.class,
                () -> wasm.calculate(CircomInput.parse("{\"x\": 0, \"y\": 4}", null)));
        assertEquals(Reason.CIRCUIT_ERROR, e.reason());
        assertEquals(4, e.circomCode());
        assertEquals("the circuit rejected the input: Assert Failed. Error in template Checks_0 line: 11",
                e.getMessage());
        e = assertThrows(WitnessException.class, () -> wasm.calculate(CircomInput.parse("{\"x\": 3, \"y\": 5}", null)));
        assertEquals("the circuit rejected the input: Assert Failed. Error in template Checks_0 line: 13",
                e.getMessage());
        // each computation starts afresh: the earlier errors are not carried over
        assertEquals(BigInteger.valueOf(12), wasm.calculate(CircomInput.parse("{\"x\": 6, \"y\": 2}", null)).value(1));
    }

    @Test
    void filesThatAreNotWitnessGeneratorsForOurCurves() throws IOException {
        Path none = tmp.resolve("none.wasm");
        FormatException e = assertThrows(FormatException.class, () -> CircomWasm.load(none));
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());

        Path text = tmp.resolve("text.wasm");
        Files.writeString(text, "hello, not wasm");
        e = assertThrows(FormatException.class, () -> CircomWasm.load(text));
        assertTrue(e.getMessage().contains("not a WebAssembly module"), e.getMessage());

        // a valid module without circom's exports: (module (func (export "f")))
        byte[] minimal = {0, 'a', 's', 'm', 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 7, 5, 1, 1, 'f', 0, 0,
            10, 4, 1, 2, 0, 0x0b};
        e = assertThrows(FormatException.class, () -> CircomWasm.load(minimal, "minimal.wasm"));
        assertTrue(e.getMessage().contains("not a circom 2 witness generator"), e.getMessage());

        // (module (memory 32768)): 2 GiB, one byte more than an array holds; was "-2147483648" from the runtime
        byte[] huge = {0, 'a', 's', 'm', 1, 0, 0, 0, 5, 5, 1, 0, (byte) 0x80, (byte) 0x80, 2};
        e = assertThrows(FormatException.class, () -> CircomWasm.load(huge, "huge.wasm"));
        assertEquals("huge.wasm: memory: declares 32768 pages of 64 KiB to start with; at most 32767 (2 GiB less"
                + " 64 KiB, one Java array) can be held", e.getMessage());

        Path goldilocks = CircomBuild.wasm(CircomBuild.interopCircuit("multiplier"), "goldilocks");
        e = assertThrows(FormatException.class, () -> CircomWasm.load(goldilocks));
        assertTrue(e.getMessage().contains("18446744069414584321") && e.getMessage().contains("--prime bn128"),
                e.getMessage());
    }

    @Test
    void compiledClassesCachedInADirectory() throws IOException {
        Path wasmFile = CircomBuild.wasm(CircomBuild.interopCircuit("multiplier"), "bn128");
        CircomInput in = CircomInput.read(CircomBuild.interopInput("multiplier"));
        Witness expected = interop("multiplier", "bn128").calculate(in);
        Path cache = tmp.resolve("cache");
        assertArrayEquals(expected.words(), CircomWasm.load(wasmFile, cache).calculate(in).words());
        List<Path> files;
        try (var s = Files.list(cache)) {
            files = s.toList();
        }
        assertEquals(1, files.size(), files.toString());
        assertTrue(files.getFirst().getFileName().toString().endsWith(".jar"), files.toString());
        assertArrayEquals(expected.words(), CircomWasm.load(wasmFile, cache).calculate(in).words());
        // a damaged entry is compiled afresh
        Files.write(files.getFirst(), new byte[] {1, 2, 3});
        assertArrayEquals(expected.words(), CircomWasm.load(wasmFile, cache).calculate(in).words());
    }

    @Test
    void signalNamesHashLikeCircomsRuntime() {
        // fnvHash of circom_runtime (JavaScript), over UTF-16 code units
        assertEquals(0xcbf29ce484222325L, CircomWasm.fnv1a(""));
        assertEquals(0xaf63dc4c8601ec8cL, CircomWasm.fnv1a("a"));
        assertEquals(0xab23f0eec020c951L, CircomWasm.fnv1a("secret"));
        assertEquals(0xc35d99fcfa7e375aL, CircomWasm.fnv1a("q[1].y"));
        assertEquals(0x0a897607b702f698L, CircomWasm.fnv1a("é€"));
    }
}
