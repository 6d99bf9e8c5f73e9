package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProoflineCommandTest {

    @Test
    void versionNamesTheBuildVersionAndTheJava() {
        CliRun r = CliRun.of("--version");
        String out = r.out();
        assertEquals(0, r.code());
        assertTrue(out.startsWith("proofline 0."), out);
        assertTrue(out.contains("Java " + Runtime.version().feature()), out);
    }

    @Test
    void helpListsTheOptions() {
        CliRun r = CliRun.of("--help");
        String out = r.out();
        assertEquals(0, r.code());
        assertTrue(out.contains("Usage: proofline"), out);
        assertTrue(out.contains("--version"), out);
    }

    @Test
    void unknownOptionIsAUsageError() {
        assertEquals(2, Main.run("--no-such-option"));
    }
}
