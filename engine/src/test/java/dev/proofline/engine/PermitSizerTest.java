package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The sizer's rules, played in made-up time: events in the order the stages send them, a clock moved
 * by hand, queues whose lengths the test sets.
 */
class PermitSizerTest {

    private static final long MS = 1_000_000;
    private static final long MIB = 1 << 20;

    private final AtomicLong clock = new AtomicLong(1_000 * MS);
    private final AtomicInteger waitingForPermit = new AtomicInteger();
    private final AtomicInteger waitingForProver = new AtomicInteger();
    private final List<ProverPermits.Permit> held = new ArrayList<>();

    private PermitSizer sizer(ProverPermits permits, MemoryBudget budget, int synthesisThreads) {
        return new PermitSizer(permits, budget, synthesisThreads, 1, 64, waitingForPermit::get, waitingForProver::get,
                clock::get);
    }

    /** One proved partition every {@code everyMs}: synthesis 40 ms, prover start 20 ms, 61 ms of work. */
    private void proofs(PermitSizer s, int n, long everyMs) {
        proofs(s, n, everyMs, 40, 20);
    }

    private void proofs(PermitSizer s, int n, long everyMs, long synthesisMs, long proverMs) {
        for (int i = 0; i < n; i++) {
            clock.addAndGet(everyMs * MS);
            s.measured("c", 0, synthesisMs * MS, proverMs * MS, (synthesisMs + proverMs + 1) * MS, MIB);
        }
    }

    /** Takes every free permit, so that the permits are all out. */
    private void holdAll(ProverPermits permits) {
        while (true) {
            var p = permits.tryAcquire();
            if (p.isEmpty()) {
                return;
            }
            held.add(p.get());
        }
    }

    @Test
    void theFirstEstimateIsLittlesLawFromTheFastestOfTheFirstPartitions() {
        ProverPermits permits = new ProverPermits(PermitSizer.initial(1, 64));
        PermitSizer s = sizer(permits, new MemoryBudget(1L << 30), 4);
        assertEquals(2, permits.max(), "one proving, one synthesizing");
        clock.addAndGet(300 * MS);
        s.measured("c", 0, 250 * MS, 90 * MS, 340 * MS, MIB); // the first: JIT, first allocations
        proofs(s, 1, 20);
        assertEquals(2, permits.max(), "no estimate before three partitions");
        proofs(s, 1, 20);
        // min(4 threads / 40 ms, 1 device / 20 ms) = 0.05 per ms, × 61 ms = 3.05, rounded down: 3 permits
        assertEquals(3, permits.max());
        assertTrue(s.snapshot().reason().startsWith("estimated 3"), s.snapshot().reason());
        // per circuit, a moving average (weight 0.2 on the newest): 250, then 208, then 174.4
        assertEquals(174.4, s.snapshot().circuits().get("c").synthesisMs(), 1e-9, "kept per circuit");
    }

    @Test
    void anEstimateBelowTheStartingPermitsKeepsThem() {
        ProverPermits permits = new ProverPermits(2);
        PermitSizer s = sizer(permits, new MemoryBudget(1L << 30), 4);
        assertTrue(s.snapshot().reason().startsWith("2 to begin with (one partition proving, one synthesizing)"),
                s.snapshot().reason());
        for (int i = 0; i < 3; i++) {
            clock.addAndGet(20 * MS);
            s.measured("c", 0, 5 * MS, 20 * MS, 26 * MS, MIB); // 0.05 per ms × 26 ms = 1.3
        }
        assertEquals(2, permits.max(), "never below where it started by an estimate; only a surplus shrinks it");
        // the status no longer says the permits wait for measurements once they were measured
        assertTrue(s.snapshot().reason().startsWith("kept 2: the first partitions ask for 1;"), s.snapshot().reason());
        proofs(s, 8, 20, 5, 20);
        String after = s.snapshot().reason();
        assertTrue(after.startsWith("kept 2 after the last 8 proofs") && after.contains("Little's law"), after);
    }

    @Test
    void growsWhenTheSlowerStageSitsIdleTwoWindowsInARowWhilePartitionsWaitForAPermit() {
        ProverPermits permits = new ProverPermits(2);
        PermitSizer s = sizer(permits, new MemoryBudget(1L << 30), 4);
        proofs(s, 3, 20); // estimated: 4
        int before = permits.max();
        holdAll(permits);
        waitingForPermit.set(10);
        s.demandChanged();
        proofs(s, 8, 25); // the prover (the slower stage) idle, nothing queued: starved all window long
        assertEquals(before, permits.max(), "one starved window may be a hiccup");
        proofs(s, 8, 25);
        assertEquals(before + 1, permits.max(), "two in a row: one permit more");
        assertTrue(s.snapshot().reason().startsWith("grew to " + (before + 1)), s.snapshot().reason());
    }

    @Test
    void neverGrowsWhileEverySynthesisThreadIsBusySoSynthesisCannotRunAway() {
        ProverPermits permits = new ProverPermits(2);
        PermitSizer s = sizer(permits, new MemoryBudget(1L << 30), 2);
        // synthesis the slower stage (2 threads / 80 ms against 1 device / 10 ms): the prover's idling is normal
        proofs(s, 3, 40, 80, 10);
        int before = permits.max();
        holdAll(permits);
        waitingForPermit.set(10);
        s.synthesisQueued();
        s.synthesisStarted();
        s.synthesisQueued();
        s.synthesisStarted(); // both threads synthesizing: more permits would only queue
        for (int w = 0; w < 5; w++) {
            proofs(s, 8, 40, 80, 10);
        }
        assertEquals(before, permits.max());
    }

    @Test
    void neverGrowsPastOnePermitOverLittlesLaw() {
        ProverPermits permits = new ProverPermits(2);
        PermitSizer s = sizer(permits, new MemoryBudget(1L << 30), 4);
        proofs(s, 3, 20); // Little's law 3.05: estimated 3
        waitingForPermit.set(10);
        for (int w = 0; w < 20; w++) {
            holdAll(permits); // starved, window after window
            s.demandChanged();
            proofs(s, Math.max(8, 2 * permits.max()), 25);
        }
        assertEquals(5, permits.max(), "ceil(3.05) + 1: beyond, starvation is the stages' variance");
    }

    @Test
    void neverGrowsPastTheMemoryBudget() {
        ProverPermits permits = new ProverPermits(2);
        MemoryBudget budget = new MemoryBudget(8 * MIB);
        PermitSizer s = sizer(permits, budget, 4);
        proofs(s, 3, 20);
        int before = permits.max();
        try (MemoryBudget.Reservation full = budget.tryAcquire(8 * MIB - MIB / 2, MemoryBudget.Kind.PARTITION)
                .orElseThrow()) {
            holdAll(permits);
            waitingForPermit.set(10);
            s.demandChanged();
            for (int w = 0; w < 4; w++) {
                proofs(s, 8, 25);
            }
            assertEquals(before, permits.max(), "half a MiB free, partitions of one MiB: no room for another");
        }
    }

    @Test
    void shrinksWhenAPartitionWithAPermitWaitedForTheProverThroughoutAWindow() {
        ProverPermits permits = new ProverPermits(2);
        PermitSizer s = sizer(permits, new MemoryBudget(1L << 30), 4);
        proofs(s, 3, 20);
        int before = permits.max();
        waitingForProver.set(1);
        s.demandChanged();
        proofs(s, 8, 20);
        assertEquals(before - 1, permits.max());
        assertTrue(s.snapshot().reason().startsWith("shrank to " + (before - 1)), s.snapshot().reason());
    }

    @Test
    void aBriefMomentWithNobodyWaitingKeepsThePermits() {
        ProverPermits permits = new ProverPermits(2);
        PermitSizer s = sizer(permits, new MemoryBudget(1L << 30), 4);
        proofs(s, 3, 20);
        int before = permits.max();
        waitingForProver.set(1);
        s.demandChanged();
        proofs(s, 4, 20);
        waitingForProver.set(0);
        s.demandChanged();
        clock.addAndGet(MS);
        waitingForProver.set(1);
        s.demandChanged();
        proofs(s, 4, 20);
        assertEquals(before, permits.max(), "the prover queue ran dry once: no permit was surplus");
    }

    @Test
    void aLimitThatStarvedIsNotReturnedToForEightWindows() {
        ProverPermits permits = new ProverPermits(2);
        PermitSizer s = sizer(permits, new MemoryBudget(1L << 30), 4);
        proofs(s, 3, 20);
        int starved = permits.max();
        holdAll(permits);
        waitingForPermit.set(10);
        s.demandChanged();
        proofs(s, 16, 25);
        assertEquals(starved + 1, permits.max());
        // now a partition always waits for the prover: surplus, but shrinking would starve again
        held.forEach(ProverPermits.Permit::close);
        waitingForProver.set(1);
        s.demandChanged();
        int window = Math.max(8, 2 * permits.max());
        for (int w = 0; w < 7; w++) {
            proofs(s, window, 20);
            assertEquals(starved + 1, permits.max(), "held after window " + w);
        }
        proofs(s, window, 20);
        assertEquals(starved, permits.max(), "after the hold, the surplus permit goes");
    }
}
