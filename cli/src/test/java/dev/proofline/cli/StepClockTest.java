package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.Prover;
import dev.proofline.groth16.Step;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Step times from begin and end calls: in order, and with steps side by side. */
class StepClockTest {

    private static void pause() throws InterruptedException {
        Thread.sleep(20);
    }

    @Test
    void stepsInOrderEndWhereTheNextBeginsAndDoNotOverlap() throws InterruptedException {
        List<Step> passed = new ArrayList<>();
        StepClock clock = new StepClock(passed::add);
        clock.step(Step.ABC);
        pause();
        clock.step(Step.H);
        pause();
        long end = System.nanoTime();
        double[] ms = clock.millis(end);
        assertEquals(List.of(Step.ABC, Step.H), clock.steps());
        assertEquals(List.of(Step.ABC, Step.H), passed, "passed on");
        assertTrue(ms[0] >= 20 && ms[1] >= 20, ms[0] + ", " + ms[1]);
        assertFalse(clock.overlapped());
    }

    @Test
    void stepsSideBySideHaveTheirOwnTimesAndAreSaidToOverlap() throws InterruptedException {
        List<Step> ended = new ArrayList<>();
        StepClock clock = new StepClock(new Prover.Listener() {
            @Override
            public void step(Step step) {
            }

            @Override
            public void ended(Step step) {
                ended.add(step);
            }
        });
        clock.step(Step.H);
        clock.step(Step.MSM_B2);
        clock.ended(Step.MSM_B2);   // B2 ends at once, while H's transforms go on
        pause();
        clock.ended(Step.H);
        clock.step(Step.MSM_H);
        pause();
        double[] ms = clock.millis(System.nanoTime());
        assertEquals(List.of(Step.H, Step.MSM_B2, Step.MSM_H), clock.steps());
        assertEquals(List.of(Step.MSM_B2, Step.H), ended, "passed on");
        assertTrue(ms[0] >= 20, "H runs to its own end, past B2's beginning: " + ms[0]);
        assertTrue(ms[1] < 20, "B2 ends where it said it ended, not where MSM H began: " + ms[1]);
        assertTrue(ms[2] >= 20, "the last step runs to the end: " + ms[2]);
        assertTrue(clock.overlapped());
    }
}
