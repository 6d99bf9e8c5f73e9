package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.Node;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The powersoftau commands with snarkjs's arguments, a ceremony end to end, checked by snarkjs. */
class PowersOfTauCommandTest {

    @TempDir
    Path dir;

    private String f(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void aCeremonyRunWithSnarkjsArgumentsIsAcceptedBySnarkjs() throws Exception {
        CliRun r = CliRun.of("powersoftau", "new", "bn128", "4", f("0.ptau"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("First Contribution Hash:\n\t\t"), r.out());
        r = CliRun.of("powersoftau", "contribute", f("0.ptau"), f("1.ptau"), "--name=first", "-e=some text");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Next Challenge Hash:"), r.out());
        r = CliRun.of("powersoftau", "beacon", f("1.ptau"), f("2.ptau"),
                "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "10", "-n=final");
        assertEquals(0, r.code(), r.err());
        r = CliRun.of("powersoftau", "prepare", "phase2", f("2.ptau"), f("final.ptau"));
        assertEquals(0, r.code(), r.err());
        r = CliRun.of("powersoftau", "verify", f("final.ptau"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Contribution #2 final (beacon)") && r.out().endsWith("Powers of Tau Ok!\n"), r.out());
        Node.snarkjs("powersoftau", "verify", f("final.ptau"));   // throws unless snarkjs accepts it
    }

    @Test
    void aContributionMadeFromAChallengeIsImportedAndVerifies() throws Exception {
        assertEquals(0, CliRun.of("powersoftau", "new", "bn128", "3", f("0.ptau")).code());
        CliRun r = CliRun.of("powersoftau", "export", "challenge", f("0.ptau"), f("challenge"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Current Challenge Hash: \n\t\t"), r.out());
        Node.snarkjs("powersoftau", "challenge", "contribute", "bn128", f("challenge"), f("response"), "-e=text");
        r = CliRun.of("powersoftau", "import", "response", f("0.ptau"), f("response"), f("1.ptau"), "-n=outside");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Next Challenge Hash:"), r.out());
        r = CliRun.of("powersoftau", "verify", f("1.ptau"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Contribution #1 outside"), r.out());
        // the same response again: it answers the challenge before it, not 1.ptau's
        r = CliRun.of("powersoftau", "import", "response", f("1.ptau"), f("response"), f("2.ptau"));
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("response: it answers the challenge"), r.err());
        assertTrue(Files.notExists(dir.resolve("2.ptau")));
    }

    @Test
    void verifyRefusesANewAccumulatorWithExitCodeOne() {
        assertEquals(0, CliRun.of("powersoftau", "new", "bls12381", "2", f("0.ptau")).code());
        CliRun r = CliRun.of("powersoftau", "verify", f("0.ptau"));
        assertEquals(1, r.code());
        assertTrue(r.err().contains("0.ptau: section 7 (contributions): no contribution"), r.err());
        assertTrue(Files.exists(dir.resolve("0.ptau")));
    }
}
