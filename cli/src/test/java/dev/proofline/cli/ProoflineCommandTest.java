package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProoflineCommandTest {

    private static String capture(Runnable r) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void versionNamesTheBuildVersionAndTheJava() {
        int[] rc = new int[1];
        String out = capture(() -> rc[0] = Main.run("--version"));
        assertEquals(0, rc[0]);
        assertTrue(out.startsWith("proofline 0."), out);
        assertTrue(out.contains("Java " + Runtime.version().feature()), out);
    }

    @Test
    void helpListsTheOptions() {
        int[] rc = new int[1];
        String out = capture(() -> rc[0] = Main.run("--help"));
        assertEquals(0, rc[0]);
        assertTrue(out.contains("Usage: proofline"), out);
        assertTrue(out.contains("--version"), out);
    }

    @Test
    void unknownOptionIsAUsageError() {
        assertEquals(2, Main.run("--no-such-option"));
    }
}
