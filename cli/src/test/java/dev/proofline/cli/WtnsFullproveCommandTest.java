package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code proofline wtns calculate} and {@code proofline fullprove} against snarkjs's fixtures. */
class WtnsFullproveCommandTest {

    @TempDir
    Path tmp;


    @ParameterizedTest
    @CsvSource({"bn128, multiplier", "bls12381, poseidon", "bn128, allprivate"})
    void wtnsCalculateWritesSnarkjsBytesAndFullproveVerifies(String curve, String circuit) throws IOException {
        Fixture fx = CircomFixtures.build(curve, circuit);
        Path wtns = tmp.resolve("w.wtns");
        CliRun calc = CliRun.of("wtns", "calculate", fx.wasm().toString(), fx.input().toString(), wtns.toString());
        assertEquals(0, calc.code(), calc.err());
        assertArrayEquals(Files.readAllBytes(fx.wtns()), Files.readAllBytes(wtns), "snarkjs wtns calculate's bytes");
        // the compiled classes kept in the state directory, which fullprove then loads instead of compiling
        Path classes = EngineHome.fromEnvironment().wasmClassCacheDir().orElseThrow();
        try (var jars = Files.list(classes)) {
            assertTrue(jars.anyMatch(j -> j.getFileName().toString().endsWith(".jar")), "no jar in " + classes);
        }

        Path proof = tmp.resolve("proof.json");
        Path pub = tmp.resolve("public.json");
        Path wtns2 = tmp.resolve("w2.wtns");
        CliRun full = CliRun.of("fullprove", fx.input().toString(), fx.wasm().toString(), fx.zkey().toString(), proof.toString(),
                pub.toString(), "--wtns", wtns2.toString(), "--timings");
        assertEquals(0, full.code(), full.err());
        assertTrue(full.err().contains("witness") && full.err().contains("prove"), full.err());
        assertArrayEquals(Files.readAllBytes(fx.wtns()), Files.readAllBytes(wtns2));
        assertEquals(Files.readString(fx.publicJson()).replaceAll("\\s", ""), Files.readString(pub).replaceAll("\\s", ""));
        assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), pub, proof), "snarkjs accepts fullprove's proof");
    }

    @Test
    void theStateDirectorysClassCacheIsMadeOwnerOnlyAndNotUsedWhenOthersMayWriteIt() throws IOException {
        EngineHome home = new EngineHome(tmp.resolve("home"));
        Path dir = home.wasmClassCacheDir().orElseThrow();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertTrue(home.wasmClassCacheDir().isEmpty(), "a cache others may write is not used");
    }

    @Test
    void inputTheCircuitDoesNotTakeExitsTwo() throws IOException {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        Path input = tmp.resolve("input.json");
        Path wtns = tmp.resolve("w.wtns");
        Files.writeString(input, "{\"a\": 3, \"b\": 11, \"x\": 5, \"y\": 7, \"z\": 1, \"w\": 2}");
        CliRun unknown = CliRun.of("wtns", "calculate", fx.wasm().toString(), input.toString(), wtns.toString());
        assertEquals(2, unknown.code());
        assertEquals("proofline wtns calculate: circuit has no input signal 'w'", unknown.err().strip());
        assertFalse(Files.exists(wtns));

        Files.writeString(input, "{\"a\": 3, \"b\": 11, \"x\": 5, \"y\": 7}");
        CliRun missing = CliRun.of("fullprove", input.toString(), fx.wasm().toString(), fx.zkey().toString(),
                tmp.resolve("p.json").toString(), tmp.resolve("q.json").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("Not all inputs have been set. Only 4 out of 5"), missing.err());

        Files.writeString(input, "{\"a\": \"three\", \"b\": 11, \"x\": 5, \"y\": 7, \"z\": 1}");
        CliRun bad = CliRun.of("wtns", "calculate", fx.wasm().toString(), input.toString(), wtns.toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("input 'a': \"three\" is not an integer"), bad.err());

        CliRun noWasm = CliRun.of("wtns", "calculate", tmp.resolve("none.wasm").toString(), fx.input().toString(),
                wtns.toString());
        assertEquals(2, noWasm.code());
        assertTrue(noWasm.err().contains("none.wasm: no such file"), noWasm.err());

        // a witness of the other curve's circuit does not fit the key
        Fixture bls = CircomFixtures.build("bls12381", "multiplier");
        CliRun mismatch = CliRun.of("fullprove", fx.input().toString(), bls.wasm().toString(), fx.zkey().toString(),
                tmp.resolve("p.json").toString(), tmp.resolve("q.json").toString());
        assertEquals(2, mismatch.code());
        assertTrue(mismatch.err().contains("bls12381"), mismatch.err());
    }
}
