package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.Step;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.io.BinFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code proofline prove / verify / zkey export-vk} as a user runs them, against snarkjs's files. */
class ProveVerifyCommandTest {

    @TempDir
    Path tmp;


    @Test
    void outputsAreWrittenAllOrNoneAndAnOutputThatCannotBeWrittenIsNamed() throws IOException {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        Path dir = Files.createDirectories(tmp.resolve("all-or-none"));
        Path proof = dir.resolve("proof.json");
        // public.json in a directory that does not exist: proof.json is not left behind
        CliRun missing = CliRun.of("prove", fx.zkey().toString(), fx.wtns().toString(), proof.toString(),
                dir.resolve("no/such/public.json").toString());
        assertEquals(2, missing.code(), missing.err());
        assertTrue(missing.err().contains("public.json") && missing.err().contains("does not exist"), missing.err());
        assertFalse(Files.exists(proof), "proof.json left behind");
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "temporary files left behind");
        }
        // a full device: its name and the problem, and again nothing left behind ("No space left on device"
        // alone before)
        Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "no /dev/full here");
        CliRun full = CliRun.of("prove", fx.zkey().toString(), fx.wtns().toString(), proof.toString(), "/dev/full");
        assertEquals(2, full.code(), full.err());
        assertTrue(full.err().contains("/dev/full: cannot be written: No space left on device"), full.err());
        assertFalse(Files.exists(proof), "proof.json left behind");
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "temporary files left behind");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void proveThenVerifyBothWaysAndExportTheKey(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path proof = tmp.resolve("proof.json");
        Path pub = tmp.resolve("public.json");
        Path bin = tmp.resolve("proof.bin");
        CliRun prove = CliRun.of("prove", fx.zkey().toString(), fx.wtns().toString(), proof.toString(), pub.toString(),
                "--binary", bin.toString());
        assertEquals(0, prove.code(), prove.err());
        assertEquals(curve.equals("bn128") ? 128 : 192, Files.size(bin));
        assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), pub, proof), "snarkjs accepts the CLI's proof");

        CliRun ok = CliRun.of("verify", fx.vk().toString(), pub.toString(), proof.toString());
        assertEquals(0, ok.code(), ok.err());
        assertEquals("OK", ok.out().strip());
        CliRun theirs = CliRun.of("verify", fx.vk().toString(), fx.publicJson().toString(), fx.proof().toString());
        assertEquals(0, theirs.code(), theirs.err());

        // swap A and C: both valid points, not a valid proof
        String text = Files.readString(proof);
        String a = text.substring(text.indexOf("\"pi_a\""), text.indexOf("\"pi_b\""));
        String c = text.substring(text.indexOf("\"pi_c\""), text.indexOf("\"protocol\""));
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, text.replace(a, "@A@").replace(c, a.replace("pi_a", "pi_c"))
                .replace("@A@", c.replace("pi_c", "pi_a")));
        CliRun invalid = CliRun.of("verify", fx.vk().toString(), pub.toString(), bad.toString());
        assertEquals(1, invalid.code());
        assertEquals("Invalid proof", invalid.out().strip());

        CliRun unreadable = CliRun.of("verify", fx.vk().toString(), pub.toString(), tmp.resolve("none.json").toString());
        assertEquals(2, unreadable.code());
        assertTrue(unreadable.err().contains("none.json") && unreadable.err().contains("no such file"), unreadable.err());

        Path vk = tmp.resolve("vk.json");
        CliRun export = CliRun.of("zkey", "export-vk", fx.zkey().toString(), vk.toString());
        assertEquals(0, export.code(), export.err());
        assertEquals(Files.readString(fx.vk()), Files.readString(vk));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128"})
    void repeatProvesSeveralTimesAndPrintsEachRunsTimings(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path proof = tmp.resolve("proof.json");
        Path pub = tmp.resolve("public.json");
        CliRun prove = CliRun.of("prove", fx.zkey().toString(), fx.wtns().toString(), proof.toString(), pub.toString(),
                "--repeat", "3", "--timings");
        assertEquals(0, prove.code(), prove.err());
        for (int run = 1; run <= 3; run++) {
            assertTrue(prove.err().contains("run " + run + ": load "), prove.err());
        }
        assertTrue(!prove.err().contains("run 4:"), prove.err());
        for (Step step : Step.values()) {   // each step's time, on each run's line
            assertTrue(prove.err().lines().filter(l -> l.startsWith("run "))
                    .allMatch(l -> l.contains(", " + step + " ")), step + ": " + prove.err());
        }
        assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), pub, proof), "snarkjs accepts the last run's proof");

        CliRun none = CliRun.of("prove", fx.zkey().toString(), fx.wtns().toString(), proof.toString(), pub.toString(),
                "--repeat", "0");
        assertEquals(2, none.code(), none.err());
        assertTrue(none.err().contains("--repeat must be at least 1"), none.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128"})
    void proveRejectsAWitnessOfAnotherCircuitWithExitCode2(String curve) {
        Fixture key = CircomFixtures.build(curve, "multiplier");
        Fixture other = CircomFixtures.build(curve, "poseidon");
        CliRun r = CliRun.of("prove", key.zkey().toString(), other.wtns().toString(), tmp.resolve("p.json").toString(),
                tmp.resolve("q.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("the witness has"), r.err());
        assertTrue(Files.notExists(tmp.resolve("p.json")), "no proof file is written");
    }

    /**
     * A one-off {@code prove} does not check the key's points before proving; a point off its curve
     * makes a proof that fails its verification, and the error then names the key's bad section, with
     * exit code 2 and no proof written, as when every point is checked first.
     */
    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void aKeyPointOffItsCurveIsNamedAfterTheProofFailsItsVerification(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        int n8 = curve.equals("bn128") ? 32 : 48;
        long h;
        try (Arena arena = Arena.ofConfined()) {
            h = BinFile.open(fx.zkey(), "zkey", 2, Map.of(), arena).section(9).offset();
        }
        byte[] b = Files.readAllBytes(fx.zkey());
        b[(int) (h + 2 * n8 + n8)] ^= 1;   // the y of H's second point, changed by one bit
        Path bad = tmp.resolve("offcurve.zkey");
        Files.write(bad, b);
        Path proof = tmp.resolve("p.json");
        CliRun r = CliRun.of("prove", bad.toString(), fx.wtns().toString(), proof.toString(),
                tmp.resolve("q.json").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("offcurve.zkey") && r.err().contains("section 9 (H)")
                && r.err().contains("not on the curve"), r.err());
        assertTrue(Files.notExists(proof), "no proof file is written");
    }
}
