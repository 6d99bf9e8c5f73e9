package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pipeline on the simulated backend: order, priorities, reactive dispatch, failures, and no leaks. */
class EngineTest {

    private static EngineConfig config(int depth, int synth, int provers) {
        return EngineConfig.builder().permits(depth).synthesisThreads(synth).proverWorkers(provers).finalizerThreads(2)
                .budgetBytes(1L << 30).timelineCapacity(100_000).build();
    }

    /** Waits until every permit is back (partitions of ended jobs stop at stage boundaries), then a little more. */
    private static void awaitDrained(Engine<?> e) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (e.permits().available() != e.permits().max() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(50);
    }

    private static void assertQuiescent(Engine<?> e) {
        assertEquals(e.permits().max(), e.permits().available(), "every permit back");
        assertEquals(0, e.permits().doubleReleases());
        assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PARTITION), "no partition bytes reserved");
        assertEquals(e.pool().stats().idleBytes(), e.budget().reserved(), "only the pool's idle buffers");
        assertEquals(0, e.pool().stats().outBytes(), "every buffer checked in");
        assertEquals(1, e.budget().openReservations(), "only the pool's");
        assertEquals(0, e.budget().doubleReleases());
        assertEquals(0, e.status().doubleReleases(), "nothing released twice");
    }

    @Test
    void proofsComeBackInPartitionOrderAndNothingLeaks() throws Exception {
        try (var e = new Engine<>(config(2, 2, 1), new SimBackend(2, 1, x -> false))) {
            Engine.Job<?> job = e.submit(new SimBackend.Job(8, 3, 1 << 20, p -> false), Priority.NORMAL);
            var proofs = job.result().get(30, TimeUnit.SECONDS);
            List<String> expected = new ArrayList<>();
            for (int p = 0; p < 8; p++) {
                expected.add("proof-" + p);
            }
            assertEquals(expected, proofs);
            assertTrue(e.budget().peak() < 8L << 20,
                    "the permits bound the partitions in memory: not all eight at once, peak " + e.budget().peak());
            awaitDrained(e);
            assertQuiescent(e);
        }
    }

    @Test
    void aSynthesisStartsOnlyWhenAPermitIsFree() throws Exception {
        // slow prover, fast synthesis: without permits every partition would synthesize at once
        try (var e = new Engine<>(config(2, 4, 1), new SimBackend(20, 0, x -> false))) {
            Engine.Job<?> job = e.submit(new SimBackend.Job(10, 1, 1024, p -> false), Priority.NORMAL);
            job.result().get(30, TimeUnit.SECONDS);
            List<Timeline.Event> events = e.timeline().ofJob(job.id());
            // two permits: at no moment more than two partitions between their synthesis start and their
            // prover end (a permit is given back only after the prover start), and two at some moment
            int inFlight = 0;
            int most = 0;
            for (Timeline.Event ev : events) {
                if (ev.kind() == Timeline.Kind.SYNTH_START) {
                    most = Math.max(most, ++inFlight);
                }
                if (ev.kind() == Timeline.Kind.PROVER_END) {
                    inFlight--;
                }
            }
            assertEquals(2, most, "two permits: two partitions in flight at most, and at some moment two");
            awaitDrained(e);
            assertQuiescent(e);
        }
    }

    @Test
    void higherPriorityJobsOvertakeQueuedPartitions() throws Exception {
        try (var e = new Engine<>(config(1, 1, 1), new SimBackend(5, 0, x -> false))) {
            Engine.Job<?> low = e.submit(new SimBackend.Job(6, 5, 1024, p -> false), Priority.LOW);
            while (low.state(0) == PartitionState.QUEUED) { // the first LOW partition is dispatched
                Thread.sleep(1);
            }
            Engine.Job<?> critical = e.submit(new SimBackend.Job(2, 5, 1024, p -> false), Priority.CRITICAL);
            critical.result().get(30, TimeUnit.SECONDS);
            low.result().get(30, TimeUnit.SECONDS);
            List<String> order = new ArrayList<>();
            for (Timeline.Event ev : e.timeline().snapshot()) {
                if (ev.kind() == Timeline.Kind.SYNTH_START) {
                    order.add(ev.job());
                }
            }
            int firstCritical = order.indexOf(critical.id());
            assertTrue(firstCritical >= 1 && firstCritical <= 2, "critical starts next: " + order);
            assertEquals(critical.id(), order.get(firstCritical + 1), "both critical partitions first: " + order);
            awaitDrained(e);
            assertQuiescent(e);
        }
    }

    @Test
    void failuresAndCancelsEverywhereEndEveryJobAndLeakNothing() throws Exception {
        Random rnd = new Random(7);
        try (var e = new Engine<>(config(3, 2, 2), new SimBackend(0, 0, x -> x % 17 == 5))) {
            List<Engine.Job<?>> jobs = new ArrayList<>();
            for (int j = 0; j < 300; j++) {
                int failAt = rnd.nextInt(10);
                Engine.Job<?> job = e.submit(new SimBackend.Job(1 + rnd.nextInt(4), 0, 1 + rnd.nextInt(4096),
                        p -> p == failAt), Priority.values()[rnd.nextInt(4)]);
                jobs.add(job);
                if (rnd.nextInt(5) == 0) {
                    job.cancel();
                }
            }
            int ok = 0;
            int failed = 0;
            int cancelled = 0;
            for (Engine.Job<?> job : jobs) {
                try {
                    job.result().get(60, TimeUnit.SECONDS);
                    ok++;
                } catch (ExecutionException ex) {
                    failed++;
                } catch (java.util.concurrent.CancellationException ex) {
                    cancelled++;
                }
                assertTrue(job.result().isDone());
            }
            assertEquals(300, ok + failed + cancelled);
            assertTrue(ok > 0 && failed > 0 && cancelled > 0, ok + " ok, " + failed + " failed, " + cancelled + " cancelled");
            awaitDrained(e); // partitions of failed or cancelled jobs still drain
            assertQuiescent(e);
        }
    }

    @Test
    void aFailingPartitionFailsItsJobWithTheCause() throws Exception {
        try (var e = new Engine<>(config(2, 2, 1), new SimBackend(0, 0, x -> false))) {
            Engine.Job<?> job = e.submit(new SimBackend.Job(4, 0, 1024, p -> p == 2), Priority.HIGH);
            ExecutionException ex = assertThrows(ExecutionException.class, () -> job.result().get(30, TimeUnit.SECONDS));
            assertTrue(ex.getCause().getMessage().contains("partition 2"), ex.getCause().getMessage());
            Engine.Job<?> next = e.submit(new SimBackend.Job(2, 0, 1024, p -> false), Priority.HIGH);
            assertEquals(List.of("proof-0", "proof-1"), next.result().get(30, TimeUnit.SECONDS), "the engine goes on");
        }
    }

    @Test
    void buffersAreReusedAndTheStatsAddUp() throws Exception {
        try (var e = new Engine<>(config(2, 2, 1), new SimBackend(2, 0, x -> false))) {
            Engine.Job<?> job = e.submit(new SimBackend.Job(40, 1, 1 << 20, p -> false), Priority.NORMAL);
            job.result().get(60, TimeUnit.SECONDS);
            Thread.sleep(50);
            BufferPool.Stats s = e.pool().stats();
            assertEquals(40, s.checkouts());
            assertEquals(40, s.checkins());
            assertTrue(s.allocations() <= 6, "a handful of buffers serve all partitions: " + s);
            assertTrue(s.reuseRatio() >= 0.85, "reuse " + s.reuseRatio());
            Engine.Stats st = e.stats();
            assertEquals(40, st.proofs());
            assertTrue(st.proverBusy() > 0 && st.proverBusy() <= 1.0, "busy " + st.proverBusy());
            assertTrue(st.proverMsAvg() >= 2.0, "the simulated prover sleeps 2 ms: " + st.proverMsAvg());
            assertQuiescent(e);
        }
    }

    @Test
    void partitionsWaitingAtOnceStartOnlyAsPermitsFreeUp() throws Exception {
        // slow prover, fast synthesis, more synthesis threads than permits: twelve partitions wait at once, and
        // only the two holding a permit have their bytes reserved
        try (var e = new Engine<>(config(2, 4, 1), new SimBackend(5, 0, x -> false))) {
            Engine.Job<?> job = e.submit(new SimBackend.Job(12, 1, 1 << 20, p -> false), Priority.NORMAL);
            assertEquals(12, job.result().get(60, TimeUnit.SECONDS).size());
            assertTrue(e.budget().peak() <= 4L << 20, "two permits' worth of partitions and idle buffers, peak "
                    + e.budget().peak());
            awaitDrained(e);
            assertQuiescent(e);
        }
    }

    /** A simulated job that counts its syntheses. */
    private static final class Counting implements JobSpec<Object> {
        final java.util.concurrent.atomic.AtomicInteger syntheses = new java.util.concurrent.atomic.AtomicInteger();
        final int partitions;
        final long millis;
        final int failAt;

        Counting(int partitions, long millis, int failAt) {
            this.partitions = partitions;
            this.millis = millis;
            this.failAt = failAt;
        }

        @Override
        public int partitions() {
            return partitions;
        }

        @Override
        public long workingSetBytes(int p) {
            return 1024;
        }

        @Override
        public Object synthesize(int p) throws Exception {
            syntheses.incrementAndGet();
            Thread.sleep(millis);
            if (p == failAt) {
                throw new IllegalStateException("partition " + p + " fails");
            }
            return p;
        }
    }

    @Test
    void theSameIdempotencyKeyGivesTheSameJobAndRunsItOnce() throws Exception {
        try (var e = new Engine<>(config(2, 2, 1), new SimBackend(1, 0, x -> false))) {
            Counting spec = new Counting(3, 1, -1);
            Engine.Job<?> a = e.submit(spec, Priority.NORMAL, "request-42", null);
            Engine.Job<?> b = e.submit(new Counting(5, 1, -1), Priority.HIGH, "request-42", null);
            org.junit.jupiter.api.Assertions.assertSame(a, b, "the second submission is the first job");
            assertEquals(3, a.result().get(30, TimeUnit.SECONDS).size());
            assertEquals(3, spec.syntheses.get(), "each partition synthesized once");
        }
    }

    @Test
    void aDeadlineFailsTheJobWithATimeoutAndItsPartitionsGiveEverythingBack() throws Exception {
        try (var e = new Engine<>(config(1, 1, 1), new SimBackend(1, 0, x -> false))) {
            Counting spec = new Counting(50, 20, -1);
            Engine.Job<?> job = e.submit(spec, Priority.NORMAL, null, java.time.Duration.ofMillis(100));
            ExecutionException ex = assertThrows(ExecutionException.class, () -> job.result().get(30, TimeUnit.SECONDS));
            assertTrue(ex.getCause() instanceof java.util.concurrent.TimeoutException, String.valueOf(ex.getCause()));
            awaitDrained(e);
            assertTrue(spec.syntheses.get() < 50, "the rest stopped: " + spec.syntheses.get() + " syntheses");
            assertQuiescent(e);
        }
    }

    @Test
    void aFailedPartitionStopsTheRestOfItsJob() throws Exception {
        try (var e = new Engine<>(config(1, 1, 1), new SimBackend(1, 0, x -> false))) {
            Counting spec = new Counting(20, 5, 0);
            Engine.Job<?> job = e.submit(spec, Priority.NORMAL);
            assertThrows(ExecutionException.class, () -> job.result().get(30, TimeUnit.SECONDS));
            awaitDrained(e);
            assertTrue(spec.syntheses.get() < 20, spec.syntheses.get() + " syntheses after partition 0 failed");
            assertQuiescent(e);
        }
    }
}
