package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The zkey ceremony commands with snarkjs's arguments, end to end, the result checked by snarkjs. */
class ZkeyCeremonyCommandTest {

    @TempDir
    Path dir;

    private String f(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void aPhaseTwoCeremonyRunWithSnarkjsArgumentsIsAcceptedBySnarkjs() throws Exception {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        String r1cs = fx.r1cs().toString();
        String ptau = CircomFixtures.cacheDir().resolve("ptau/bn128_" + fx.power() + ".ptau").toString();
        CliRun r = CliRun.of("zkey", "new", r1cs, ptau, f("0.zkey"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Circuit hash: \n\t\t"), r.out());
        r = CliRun.of("zkey", "contribute", f("0.zkey"), f("1.zkey"), "--name=first", "-e=some text");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Contribution Hash: \n\t\t"), r.out());
        r = CliRun.of("zkey", "beacon", f("1.zkey"), f("2.zkey"),
                "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "10", "-n=final");
        assertEquals(0, r.code(), r.err());
        r = CliRun.of("zkey", "verify", r1cs, ptau, f("2.zkey"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("contribution #2 final:") && r.out().endsWith("ZKey Ok!\n"), r.out());
        CircomFixtures.SnarkjsRun s = CircomFixtures.snarkjs("zkey", "verify", r1cs, ptau, f("2.zkey"));
        assertTrue(s.output().contains("ZKey Ok!"), s.output());
    }

    @Test
    void verifyRefusesAKeyOfAnotherCircuitWithExitCodeOne() {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        Fixture other = CircomFixtures.build(CircomFixtures.BN128, "nopublic");
        String ptau = CircomFixtures.cacheDir().resolve("ptau/bn128_" + fx.power() + ".ptau").toString();
        assertEquals(0, CliRun.of("zkey", "new", other.r1cs().toString(), ptau, f("0.zkey")).code());
        CliRun r = CliRun.of("zkey", "verify", fx.r1cs().toString(), ptau, f("0.zkey"));
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("INVALID: " + f("0.zkey") + ": section 2"), r.err());
        assertTrue(Files.exists(dir.resolve("0.zkey")));
    }

    @Test
    void aKeySentThroughBellmansFormatAndBackVerifiesAndParamsOfAnotherKeyAreRefused() {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        String r1cs = fx.r1cs().toString();
        String ptau = CircomFixtures.cacheDir().resolve("ptau/bn128_" + fx.power() + ".ptau").toString();
        assertEquals(0, CliRun.of("zkey", "new", r1cs, ptau, f("0.zkey")).code());
        assertEquals(0, CliRun.of("zkey", "contribute", f("0.zkey"), f("1.zkey"), "-e=text").code());
        CliRun r = CliRun.of("zkey", "export", "bellman", f("1.zkey"), f("1.mpcparams"));
        assertEquals(0, r.code(), r.err());
        r = CliRun.of("zkey", "import", "bellman", f("1.zkey"), f("1.mpcparams"), f("2.zkey"), "-n=none");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("0 new contributions imported"), r.err());
        r = CliRun.of("zkey", "verify", r1cs, ptau, f("2.zkey"));
        assertEquals(0, r.code(), r.err());
        // the parameters do not continue the initial key's chain (it has no contribution, they have one)
        assertEquals(0, CliRun.of("zkey", "contribute", f("0.zkey"), f("other.zkey"), "-e=other").code());
        r = CliRun.of("zkey", "import", "bellman", f("other.zkey"), f("1.mpcparams"), f("3.zkey"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(f("1.mpcparams") + ": contribution #1"), r.err());
        assertTrue(!Files.exists(dir.resolve("3.zkey")));
    }

    @Test
    void aBellmanContributionWithSnarkjsArgumentsImportsAndVerifiesAndParamsOfTheOtherCurveAreRefused() {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        String r1cs = fx.r1cs().toString();
        String ptau = CircomFixtures.cacheDir().resolve("ptau/bn128_" + fx.power() + ".ptau").toString();
        assertEquals(0, CliRun.of("zkey", "new", r1cs, ptau, f("0.zkey")).code());
        assertEquals(0, CliRun.of("zkey", "contribute", f("0.zkey"), f("1.zkey"), "-e=text").code());
        assertEquals(0, CliRun.of("zkey", "export", "bellman", f("1.zkey"), f("1.mpcparams")).code());
        CliRun r = CliRun.of("zkey", "bellman", "contribute", "bn128", f("1.mpcparams"), f("2.mpcparams"),
                "-e=bellman text");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Contribution Hash: \n\t\t"), r.out());
        String hash = r.out().substring("Contribution Hash: ".length()).strip();
        r = CliRun.of("zkey", "import", "bellman", f("1.zkey"), f("2.mpcparams"), f("2.zkey"), "-n=bellman");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("1 new contribution imported"), r.err());
        r = CliRun.of("zkey", "verify", r1cs, ptau, f("2.zkey"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("contribution #2 bellman:\n\t\t" + hash), r.out());
        CircomFixtures.SnarkjsRun s = CircomFixtures.snarkjs("zkey", "verify", r1cs, ptau, f("2.zkey"));
        assertTrue(s.output().contains("ZKey Ok!"), s.output());

        r = CliRun.of("zkey", "bellman", "contribute", "bls12381", f("1.mpcparams"), f("3.mpcparams"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(f("1.mpcparams") + ": alpha1: not a point of BLS12-381 G1"), r.err());
        assertTrue(!Files.exists(dir.resolve("3.mpcparams")));
    }
}
