package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.Prover;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Step times from begin and end calls: in order, and with steps side by side. */
class StepClockTest {

    private static final int N = Prover.STEPS.size();

    private static int index(String name) {
        return Prover.STEPS.indexOf(name);
    }

    private static void pause() throws InterruptedException {
        Thread.sleep(20);
    }

    @Test
    void stepsInOrderEndWhereTheNextBeginsAndDoNotOverlap() throws InterruptedException {
        List<String> passed = new ArrayList<>();
        StepClock clock = new StepClock((i, n, name) -> passed.add(name));
        clock.step(index("a, b, c"), N, "a, b, c");
        pause();
        clock.step(index("H (NTTs)"), N, "H (NTTs)");
        pause();
        long end = System.nanoTime();
        double[] ms = clock.millis(end);
        assertEquals(List.of("a, b, c", "H (NTTs)"), clock.names());
        assertEquals(List.of("a, b, c", "H (NTTs)"), passed, "passed on");
        assertTrue(ms[0] >= 20 && ms[1] >= 20, ms[0] + ", " + ms[1]);
        assertFalse(clock.overlapped());
    }

    @Test
    void stepsSideBySideHaveTheirOwnTimesAndAreSaidToOverlap() throws InterruptedException {
        List<String> ended = new ArrayList<>();
        StepClock clock = new StepClock(new Prover.Listener() {
            @Override
            public void step(int index, int total, String name) {
            }

            @Override
            public void ended(int index, int total, String name) {
                ended.add(name);
            }
        });
        clock.step(index("H (NTTs)"), N, "H (NTTs)");
        clock.step(index("MSM B2"), N, "MSM B2");
        clock.ended(index("MSM B2"), N, "MSM B2");   // B2 ends at once, while H's transforms go on
        pause();
        clock.ended(index("H (NTTs)"), N, "H (NTTs)");
        clock.step(index("MSM H"), N, "MSM H");
        pause();
        double[] ms = clock.millis(System.nanoTime());
        assertEquals(List.of("H (NTTs)", "MSM B2", "MSM H"), clock.names());
        assertEquals(List.of("MSM B2", "H (NTTs)"), ended, "passed on");
        assertTrue(ms[0] >= 20, "H runs to its own end, past B2's beginning: " + ms[0]);
        assertTrue(ms[1] < 20, "B2 ends where it said it ended, not where MSM H began: " + ms[1]);
        assertTrue(ms[2] >= 20, "the last step runs to the end: " + ms[2]);
        assertTrue(clock.overlapped());
    }
}
