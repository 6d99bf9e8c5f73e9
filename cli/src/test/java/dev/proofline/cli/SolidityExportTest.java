package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.groth16.testing.CircomFixtures.SnarkjsRun;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code zkey export soliditycalldata} and {@code zkey export solidityverifier} against snarkjs 0.7.6:
 * the calldata is the text snarkjs prints for the same files; the verifier, compiled by solc and run in
 * an EVM ({@code interop/solidity/evm-verify.cjs}), accepts our proofs and snarkjs's and refuses
 * tampered ones, as snarkjs's own verifier does on the same calls.
 */
class SolidityExportTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final BigInteger Q = PairingCurve.BN254.fp().modulus();
    private static final BigInteger R = PairingCurve.BN254.fr().modulus();

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void soliditycalldataPrintsWhatSnarkjsPrints(String curve) {
        for (String circuit : List.of("multiplier", "allprivate")) {
            Fixture fx = CircomFixtures.build(curve, circuit);
            SnarkjsRun snarkjs = CircomFixtures.snarkjs("zkey", "export", "soliditycalldata", fx.publicJson().toString(),
                    fx.proof().toString());
            assertEquals(0, snarkjs.exitCode(), snarkjs.output());
            CliRun ours = CliRun.of("zkey", "export", "soliditycalldata", fx.publicJson().toString(),
                    fx.proof().toString());
            assertEquals(new CliRun(0, snarkjs.stdout(), ""), ours, circuit);
        }
    }

    @Test
    void theVerifierAcceptsOurProofsAndSnarkjssAndRefusesTamperedOnesInAnEvm() throws IOException {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        Path verifier = tmp.resolve("verifier.sol");
        CliRun export = CliRun.of("zkey", "export", "solidityverifier", fx.zkey().toString(), verifier.toString());
        assertEquals(0, export.code(), export.err());
        Path snarkjsVerifier = tmp.resolve("snarkjs-verifier.sol");
        SnarkjsRun theirs = CircomFixtures.snarkjs("zkey", "export", "solidityverifier", fx.zkey().toString(),
                snarkjsVerifier.toString());
        assertEquals(0, theirs.exitCode(), theirs.output());

        Path proof = tmp.resolve("proof.json");
        Path pub = tmp.resolve("public.json");
        CliRun prove = CliRun.of("groth16", "prove", fx.zkey().toString(), fx.wtns().toString(), proof.toString(),
                pub.toString());
        assertEquals(0, prove.code(), prove.err());
        String ourProof = calldata(pub, proof);
        String snarkjsProof = calldata(fx.publicJson(), fx.proof());

        List<Path> calls = new ArrayList<>();
        List<Object> expected = new ArrayList<>();
        call(calls, expected, "ours", ourProof, true);
        call(calls, expected, "snarkjs", snarkjsProof, true);
        call(calls, expected, "signal+1", tampered(ourProof, c -> c.set(3, 0, add(c.get(3).get(0), BigInteger.ONE))), false);
        call(calls, expected, "signal+r", tampered(ourProof, c -> c.set(3, 0, add(c.get(3).get(0), R))), false);
        call(calls, expected, "A<->C", tampered(ourProof, c -> {
            JsonNode a = c.get(0);
            c.root.set(0, c.get(2));
            c.root.set(2, a);
        }), false);
        call(calls, expected, "A.y+q", tampered(ourProof, c -> c.set(0, 1, add(c.get(0).get(1), Q))), false);
        call(calls, expected, "B.x re<->im", tampered(ourProof, c -> {
            ArrayNode x = (ArrayNode) c.get(1).get(0);
            JsonNode im = x.get(0);
            x.set(0, x.get(1));
            x.set(1, im);
        }), false);
        call(calls, expected, "another proof's C", tampered(ourProof,
                c -> c.root.set(2, parse(snarkjsProof).get(2))), false);

        JsonNode ran = evm(verifier, calls);
        assertEquals(expected, results(ran), "our verifier: " + ran);
        assertTrue(ran.path("compiler").asText().startsWith("0.8."), ran.toString());
        // snarkjs's own verifier gives the same answers to the same calls
        assertEquals(expected, results(evm(snarkjsVerifier, calls)), "snarkjs's verifier");
    }

    @Test
    void aCircuitWithoutPublicSignalsGetsAVerifierOfThreeArguments() throws IOException {
        Fixture fx = CircomFixtures.build("bn128", "allprivate");
        Path verifier = tmp.resolve("verifier.sol");
        CliRun export = CliRun.of("zkey", "export", "solidityverifier", fx.zkey().toString(), verifier.toString());
        assertEquals(0, export.code(), export.err());
        assertTrue(Files.readString(verifier).contains("uint[2] calldata _pC\n    ) public view returns (bool)"),
                "no _pubSignals argument");
        List<Path> calls = new ArrayList<>();
        List<Object> expected = new ArrayList<>();
        String proof = calldata(fx.publicJson(), fx.proof());
        call(calls, expected, "snarkjs", proof, true);
        call(calls, expected, "A<->C", tampered(proof, c -> {
            JsonNode a = c.get(0);
            c.root.set(0, c.get(2));
            c.root.set(2, a);
        }), false);
        assertEquals(expected, results(evm(verifier, calls)));
    }

    @Test
    void aBls12381KeyGetsNoSolidityVerifier() {
        Fixture fx = CircomFixtures.build("bls12381", "multiplier");
        Path verifier = tmp.resolve("verifier.sol");
        CliRun export = CliRun.of("zkey", "export", "solidityverifier", fx.zkey().toString(), verifier.toString());
        assertEquals(2, export.code(), export.err());
        assertTrue(export.err().startsWith("proofline zkey export solidityverifier: a Solidity verifier is made for"
                + " BN254 (bn128) keys only, this key is on bls12381"), export.err());
        assertTrue(Files.notExists(verifier), "nothing written");
    }

    /** What {@code zkey export soliditycalldata} prints for the files. */
    private static String calldata(Path publicJson, Path proof) {
        CliRun r = CliRun.of("zkey", "export", "soliditycalldata", publicJson.toString(), proof.toString());
        assertEquals(0, r.code(), r.err());
        return r.out().strip();
    }

    private void call(List<Path> calls, List<Object> expected, String name, String calldata, boolean valid)
            throws IOException {
        Path file = tmp.resolve(name.replaceAll("[^A-Za-z0-9+]", "_") + ".txt");
        Files.writeString(file, calldata);
        calls.add(file);
        expected.add(valid);
    }

    private static JsonNode evm(Path verifier, List<Path> calls) {
        List<String> args = new ArrayList<>(List.of("solidity/evm-verify.cjs", verifier.toString()));
        calls.forEach(c -> args.add(c.toString()));
        return Node.scriptJson(args.toArray(String[]::new));
    }

    private static List<Object> results(JsonNode ran) {
        List<Object> out = new ArrayList<>();
        ran.path("results").forEach(r -> out.add(r.isBoolean() ? r.booleanValue() : r.asText()));
        return out;
    }

    /** The calldata's four arguments as JSON arrays: [a, b, c, signals] of "0x..." strings. */
    private record Calldata(ArrayNode root) {
        JsonNode get(int i) {
            return root.get(i);
        }

        void set(int argument, int index, String value) {
            ((ArrayNode) root.get(argument)).set(index, TextNode.valueOf(value));
        }
    }

    private static Calldata parse(String calldata) {
        try {
            return new Calldata((ArrayNode) JSON.readTree("[" + calldata + "]"));
        } catch (IOException e) {
            throw new IllegalStateException("not calldata: " + calldata, e);
        }
    }

    private static String tampered(String calldata, Consumer<Calldata> change) {
        Calldata c = parse(calldata);
        change.accept(c);
        String all = c.root().toString();
        return all.substring(1, all.length() - 1);
    }

    private static String add(JsonNode hex, BigInteger n) {
        return "0x" + new BigInteger(hex.asText().substring(2), 16).add(n).toString(16);
    }
}
