package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The engine's contracts under load: everything given back exactly once, whatever ends a partition. */
class EngineContractsTest {

    /**
     * A backend that fails start or finish for some payloads and takes a random short time; with a most
     * over 1, it batches payloads by their remainder mod 3, and a batch fails whole where one of its
     * partitions would.
     */
    private static final class ChaosBackend implements ProverBackend<Object, Object, String> {
        final int maxBatch;
        final AtomicInteger batches = new AtomicInteger();

        ChaosBackend(int maxBatch) {
            this.maxBatch = maxBatch;
        }

        @Override
        public String name() {
            return "chaos";
        }

        @Override
        public Object batchKey(Object synthesized) {
            return (int) synthesized % 3;
        }

        @Override
        public int maxBatch() {
            return maxBatch;
        }

        @Override
        public List<Object> startBatch(List<Object> batch, int device) throws Exception {
            batches.incrementAndGet();
            return ProverBackend.super.startBatch(batch, device);
        }

        @Override
        public Object start(Object synthesized, int device) throws Exception {
            Thread.sleep(ThreadLocalRandom.current().nextInt(2));
            if ((int) synthesized % 23 == 7) {
                throw new IllegalStateException("start fails on " + synthesized);
            }
            return synthesized;
        }

        @Override
        public String finish(Object started) throws Exception {
            Thread.sleep(ThreadLocalRandom.current().nextInt(2));
            if ((int) started % 29 == 11) {
                throw new IllegalStateException("finish fails on " + started);
            }
            return "proof-" + started;
        }
    }

    /** Partitions whose synthesis may fail, counting how often each partition is released. */
    private static final class Counted implements JobSpec<Object> {
        final int partitions;
        final int base;
        final AtomicIntegerArray released;
        final AtomicInteger synthesized = new AtomicInteger();

        Counted(int partitions, int base) {
            this.partitions = partitions;
            this.base = base;
            this.released = new AtomicIntegerArray(partitions);
        }

        @Override
        public int partitions() {
            return partitions;
        }

        @Override
        public long workingSetBytes(int p) {
            return 1 + (base + p) % 3 * 70_000;
        }

        @Override
        public Object synthesize(int p) throws Exception {
            synthesized.incrementAndGet();
            if ((base + p) % 31 == 3) {
                throw new IllegalStateException("synthesis fails on " + (base + p));
            }
            if ((base + p) % 5 == 0) {
                Thread.sleep(1);
            }
            return base + p;
        }

        @Override
        public void release(int p) {
            released.incrementAndGet(p);
        }
    }

    private static void awaitDrained(Engine<?> e) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((e.permits().available() != e.permits().max() || e.status().jobsActive() > 0)
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    /**
     * With 3 fixed permits, with permits sized by the engine while the work runs, and with a backend that
     * batches.
     */
    @ParameterizedTest(name = "permits {0} (0: auto), batches of up to {1}")
    @CsvSource({"3, 1", EngineConfig.AUTO_PERMITS + ", 1", "8, 4"})
    void thousandsOfPartitionsWithFailuresCancelsAndDeadlinesEverywhereLeaveNothingBehind(int permits, int maxBatch)
            throws Exception {
        Random rnd = new Random(2026);
        EngineConfig cfg = EngineConfig.builder().permits(permits).synthesisThreads(3).proverWorkers(2)
                .finalizerThreads(2).budgetBytes(1L << 28).timelineCapacity(1 << 16).build();
        int jobs = 1200;
        List<Engine.Job<?>> submitted = new ArrayList<>();
        List<Counted> specs = new ArrayList<>();
        AtomicInteger completions = new AtomicInteger();
        int partitions = 0;
        ChaosBackend backend = new ChaosBackend(maxBatch);
        try (var e = new Engine<>(cfg, backend)) {
            for (int j = 0; j < jobs; j++) {
                Counted spec = new Counted(1 + rnd.nextInt(6), rnd.nextInt(1 << 20));
                partitions += spec.partitions;
                Duration deadline = rnd.nextInt(6) == 0 ? Duration.ofMillis(1 + rnd.nextInt(30)) : null;
                Engine.Job<?> job = e.submit(spec, Priority.values()[rnd.nextInt(4)], null, deadline);
                job.result().whenComplete((v, x) -> completions.incrementAndGet());
                submitted.add(job);
                specs.add(spec);
                if (rnd.nextInt(7) == 0) {
                    job.cancel(); // while queued
                } else if (rnd.nextInt(7) == 0) {
                    Engine.Job<?> later = submitted.get(rnd.nextInt(submitted.size()));
                    later.cancel(); // somewhere in the pipeline, or already over
                }
            }
            int ok = 0;
            int failed = 0;
            int cancelled = 0;
            int timedOut = 0;
            for (Engine.Job<?> job : submitted) {
                try {
                    var proofs = job.await(Duration.ofMinutes(2));
                    assertEquals(job.partitions(), proofs.size());
                    ok++;
                } catch (ExecutionException ex) {
                    if (ex.getCause() instanceof TimeoutException) {
                        timedOut++;
                    } else {
                        failed++;
                    }
                } catch (CancellationException ex) {
                    cancelled++;
                }
            }
            assertTrue(partitions > 2000, partitions + " partitions");
            assertTrue(ok > 0 && failed > 0 && cancelled > 0 && timedOut > 0,
                    ok + " ok, " + failed + " failed, " + cancelled + " cancelled, " + timedOut + " timed out");
            awaitDrained(e);
            assertEquals(jobs, completions.get(), "every job ended exactly once");
            for (int j = 0; j < jobs; j++) {
                Engine.Job<?> job = submitted.get(j);
                for (int p = 0; p < job.partitions(); p++) {
                    assertTrue(job.state(p).isFinal(), job.id() + "/" + p + " is " + job.state(p));
                    assertEquals(1, specs.get(j).released.get(p), job.id() + "/" + p + " released once");
                }
            }
            assertEquals(e.permits().max(), e.permits().available(), "every permit back");
            assertEquals(0, e.permits().waiting(), "no permit request left behind");
            assertEquals(0, e.permits().doubleReleases());
            assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PARTITION));
            assertEquals(e.pool().stats().idleBytes(), e.budget().reserved(), "only idle pool buffers reserved");
            assertEquals(0, e.pool().stats().outBytes(), "every buffer checked in");
            assertEquals(e.pool().stats().checkouts(), e.pool().stats().checkins());
            assertEquals(0, e.budget().doubleReleases());
            assertTrue(e.budget().peak() <= e.budget().total());
            EngineStatus st = e.status();
            assertEquals(partitions, st.proofs() + st.failed() + st.cancelled(), "each partition counted once");
            assertEquals(0, st.doubleReleases(), "nothing released twice");
            assertTrue(maxBatch == 1 || backend.batches.get() > 0, "partitions queued together were batched");
        }
        // close() returned: no prover, synthesis or finalizer thread is stuck
    }

    @Test
    void cancellingAJobFreesItsQueuedPartitionsAtOnce() throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(1).synthesisThreads(1).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(1L << 30).timelineCapacity(1000).build();
        try (var e = new Engine<>(cfg, new SimBackend(200, 0, x -> false))) {
            Engine.Job<?> job = e.submit(new SimBackend.Job(10, 0, 1024, p -> false), Priority.NORMAL);
            Thread.sleep(50); // partition 0 is in the prover, the rest wait for the one permit
            assertEquals(9, e.permits().waiting());
            job.cancel();
            // no waiting for a stage boundary: the queued nine ended in cancel(), requests withdrawn
            long ended = job.states().stream().filter(s -> s == PartitionState.CANCELLED).count();
            assertEquals(9, ended, job.states().toString());
            assertEquals(0, e.permits().waiting());
            assertEquals(0, e.scheduledCount());
        }
    }

    @Test
    void aRestartedEngineNeverIssuesAnIdItIssuedBefore() throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(1).synthesisThreads(1).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(1L << 30).timelineCapacity(100).build();
        List<String> ids = new ArrayList<>();
        for (int life = 0; life < 2; life++) {
            try (var e = new Engine<>(cfg, new SimBackend(0, 0, x -> false))) {
                for (int j = 0; j < 3; j++) {
                    ids.add(e.submit(new SimBackend.Job(1, 0, 1024, p -> false), Priority.NORMAL).id());
                }
            }
        }
        assertEquals(6, new java.util.HashSet<>(ids).size(), "no id issued twice, before and after the restart: " + ids);
        for (int i = 0; i < ids.size(); i++) {
            assertTrue(ids.get(i).startsWith("job-" + (i % 3 + 1) + "-"), "numbered in order: " + ids);
        }
    }

    @Test
    void endedJobsAndTheirIdempotencyKeysAreForgottenAfterTheRetentionTime() throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(1).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(1L << 30).timelineCapacity(1000).resultRetention(Duration.ofMillis(100)).build();
        try (var e = new Engine<>(cfg, new SimBackend(0, 0, x -> false))) {
            Engine.Job<?> first = e.submit(new SimBackend.Job(2, 0, 1024, p -> false), Priority.NORMAL, "req-1", null);
            first.await(Duration.ofSeconds(10));
            assertSame(first, e.job(first.id()).orElseThrow(), "findable while retained");
            assertSame(first, e.submit(new SimBackend.Job(2, 0, 1024, p -> false), Priority.NORMAL, "req-1", null));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (e.job(first.id()).isPresent() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(e.job(first.id()).isEmpty(), "forgotten after the retention time");
            Engine.Job<?> second = e.submit(new SimBackend.Job(2, 0, 1024, p -> false), Priority.NORMAL, "req-1", null);
            assertNotSame(first, second, "the key is free again");
            second.await(Duration.ofSeconds(10));
        }
    }

    @Test
    void theStatusSnapshotAndTheMetersShowWhatRuns() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(1L << 30).timelineCapacity(1000).build();
        try (var e = new Engine<>(cfg, new SimBackend(40, 0, x -> false))) {
            e.bindMetrics(registry);
            Engine.Job<?> job = e.submit(new SimBackend.Job(6, 1, 1 << 20, p -> false), Priority.HIGH);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (job.state(0) != PartitionState.DONE && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            EngineStatus running = e.status();
            assertEquals("sim", running.backend());
            assertEquals(1, running.jobsActive());
            assertEquals(2, running.permitsInUse(), "both permits held while the prover is the bottleneck");
            int inFlight = running.partitions().values().stream().mapToInt(Integer::intValue).sum();
            assertEquals(6, inFlight, running.partitions().toString());
            assertTrue(running.partitions().get(PartitionState.DONE) >= 1, running.partitions().toString());
            assertTrue(running.budgetByKind().get(MemoryBudget.Kind.PARTITION) > 0);
            assertTrue(running.proverBusyLastMinute() > 0 && running.proverBusyLastMinute() <= 1,
                    "prover busy " + running.proverBusyLastMinute());
            // the gauge reads the permits live: between a partition's end and the next one's start it may
            // read one, so it is read until it shows both (or the job ends)
            double permitsGauge = registry.get("proofline.permits.in.use").gauge().value();
            while (permitsGauge != 2.0 && !job.isOver() && System.nanoTime() < deadline) {
                Thread.sleep(1);
                permitsGauge = registry.get("proofline.permits.in.use").gauge().value();
            }
            assertEquals(2.0, permitsGauge, "the permits gauge while the prover is the bottleneck");
            job.await(Duration.ofSeconds(30));
            awaitDrained(e);
            EngineStatus after = e.status();
            assertEquals(0, after.jobsActive());
            assertEquals("done", after.jobs().get(0).state());
            assertEquals(List.of(PartitionState.DONE, PartitionState.DONE, PartitionState.DONE, PartitionState.DONE,
                    PartitionState.DONE, PartitionState.DONE), after.jobs().get(0).partitions());
            assertEquals(6.0, registry.get("proofline.partitions").tags("outcome", "done", "circuit", "sim").counter().count());
            assertEquals(6, registry.get("proofline.stage").tags("stage", "prover", "circuit", "sim").timer().count());
            assertTrue(registry.get("proofline.stage").tags("stage", "prover", "circuit", "sim").timer().mean(TimeUnit.MILLISECONDS) >= 40);
            assertEquals((double) e.pool().stats().checkouts(),
                    registry.get("proofline.pool.checkouts").functionCounter().count());
            assertEquals(2.0, registry.get("proofline.permits.max").gauge().value());
        }
    }

    @Test
    void twoWorkersOverlapStagingWithTheDeviceRegionButNeverShareTheDevice() throws Exception {
        AtomicInteger inStart = new AtomicInteger();
        AtomicInteger maxInStart = new AtomicInteger();
        AtomicInteger prepareDuringStart = new AtomicInteger();
        ProverBackend<Object, Object, Object> backend = new ProverBackend<>() {
            @Override
            public String name() {
                return "staged";
            }

            @Override
            public Object prepare(Object synthesized, int device) throws Exception {
                if (inStart.get() > 0) {
                    prepareDuringStart.incrementAndGet();
                }
                Thread.sleep(5);
                return synthesized;
            }

            @Override
            public Object start(Object prepared, int device) throws Exception {
                maxInStart.accumulateAndGet(inStart.incrementAndGet(), Math::max);
                Thread.sleep(10);
                inStart.decrementAndGet();
                return prepared;
            }

            @Override
            public Object finish(Object started) {
                return started;
            }
        };
        EngineConfig cfg = EngineConfig.builder().permits(4).synthesisThreads(2).proverWorkers(2).finalizerThreads(1)
                .budgetBytes(1L << 30).timelineCapacity(1000).build();
        try (var e = new Engine<>(cfg, backend)) {
            var out = e.submit(new SimBackend.Job(20, 0, 1024, p -> false), Priority.NORMAL)
                    .await(Duration.ofSeconds(30));
            assertEquals(20, out.size());
            assertEquals(1, maxInStart.get(), "one partition in the device region at a time");
            assertTrue(prepareDuringStart.get() > 0, "the second worker stages while the first holds the device");
        }
    }

    @Test
    void closingWithWorkInFlightEndsEveryJobAndGivesEverythingBack() throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(1L << 30).timelineCapacity(1000).build();
        var e = new Engine<>(cfg, new SimBackend(20, 5, x -> false));
        List<Engine.Job<?>> jobs = new ArrayList<>();
        for (int j = 0; j < 10; j++) {
            jobs.add(e.submit(new SimBackend.Job(5, 2, 1 << 16, p -> false), Priority.NORMAL));
        }
        Thread.sleep(60);
        e.close();
        int failed = 0;
        for (Engine.Job<?> j : jobs) {
            assertTrue(j.result().isDone(), j.id() + " ended");
            if (j.result().isCompletedExceptionally()) {
                failed++;
                ExecutionException ex = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                        () -> j.await(Duration.ofSeconds(1)));
                assertTrue(ex.getCause().getMessage().contains("engine was closed"), ex.getCause().getMessage());
            }
            for (PartitionState s : j.states()) {
                assertTrue(s.isFinal(), j.id() + ": " + j.states());
            }
        }
        assertTrue(failed > 0, "jobs still queued at close fail");
        assertEquals(e.permits().max(), e.permits().available());
        assertEquals(0, e.permits().waiting());
        assertEquals(0, e.budget().reserved(), "partition bytes and idle buffers all given back");
        assertEquals(0, e.budget().openReservations(), "the pool's reservation too");
        assertEquals(0, e.doubleReleases());
    }

    @ParameterizedTest(name = "batches of up to {0}")
    @ValueSource(ints = {1, 4})
    void closingMidRunUnderAutoPermitsGivesBackEveryPermitByteBufferAndRelease(int maxBatch) throws Exception {
        Random rnd = new Random(7);
        var e = new Engine<>(EngineConfig.builder().permits(EngineConfig.AUTO_PERMITS).synthesisThreads(3)
                .proverWorkers(2).finalizerThreads(2).budgetBytes(1L << 28).timelineCapacity(1 << 16).build(),
                new ChaosBackend(maxBatch));
        List<Engine.Job<?>> jobs = new ArrayList<>();
        List<Counted> specs = new ArrayList<>();
        for (int j = 0; j < 600; j++) {
            Counted spec = new Counted(1 + rnd.nextInt(6), rnd.nextInt(1 << 20));
            specs.add(spec);
            jobs.add(e.submit(spec, Priority.values()[rnd.nextInt(4)]));
        }
        // until the sizer has measured partitions and the pipeline is full
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (e.status().proofs() < 50 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertTrue(e.status().proofs() >= 50, "the engine proved while it ran");
        e.close();
        int closedEarly = 0;
        for (int j = 0; j < jobs.size(); j++) {
            Engine.Job<?> job = jobs.get(j);
            assertTrue(job.result().isDone(), job.id() + " ended");
            for (int p = 0; p < job.partitions(); p++) {
                assertTrue(job.state(p).isFinal(), job.id() + "/" + p + " is " + job.state(p));
                assertEquals(1, specs.get(j).released.get(p), job.id() + "/" + p + " released once");
            }
            if (job.result().isCompletedExceptionally()) {
                closedEarly++;
            }
        }
        assertTrue(closedEarly > 0, "jobs still running at close ended");
        assertEquals(0, e.permits().inUse(), "every permit back");
        assertEquals(0, e.permits().waiting(), "no permit request left behind");
        assertEquals(0, e.budget().reserved(), "partition bytes and idle buffers all given back");
        assertEquals(0, e.budget().openReservations(), "the pool's reservation too");
        assertEquals(0, e.pool().stats().outBytes(), "every buffer checked in");
        assertEquals(0, e.doubleReleases(), "nothing released twice");
        assertEquals("auto", e.permitSizing().mode());
    }

    @Test
    void aPartitionWaitingForMemoryGivesUpAtOnceWhenItsJobIsCancelled() throws Exception {
        long mib = 1L << 20;
        // room for one partition's megabyte at a time; two permits, so the second waits for memory
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(mib + mib / 2).timelineCapacity(1000).build();
        try (var e = new Engine<>(cfg, new SimBackend(2000, 0, x -> false))) {
            Engine.Job<?> first = e.submit(new SimBackend.Job(1, 0, mib, p -> false), Priority.NORMAL);
            Thread.sleep(50);
            Engine.Job<?> waiting = e.submit(new SimBackend.Job(1, 0, mib, p -> false), Priority.NORMAL);
            Thread.sleep(50);
            assertEquals(PartitionState.QUEUED, waiting.state(0), "dispatched, but no memory for its synthesis yet");
            waiting.cancel();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (waiting.state(0) != PartitionState.CANCELLED && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(PartitionState.CANCELLED, waiting.state(0));
            assertEquals(PartitionState.PROVING, first.state(0), "ended while the first still proves");
            first.await(Duration.ofSeconds(10));
        }
    }

    @Test
    void cancellingAHundredThousandWaitingPartitionsWhileAPermitIsHandedOnNeedsNoDeepStack() throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(1).synthesisThreads(1).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(1L << 30).timelineCapacity(1000).build();
        try (var e = new Engine<>(cfg, new SimBackend(0, 0, x -> false))) {
            // the one permit is held from outside the engine (as a cluster node's claim would), so every
            // partition waits; it comes back while the job's partitions are being purged, its requests
            // not yet withdrawn: the dispatcher hands it from request to request, none with a partition
            ProverPermits.Permit held = e.permits().tryAcquire().orElseThrow();
            int n = 100_000;
            AtomicBoolean handedBack = new AtomicBoolean();
            JobSpec<Object> spec = new JobSpec<>() {
                @Override
                public int partitions() {
                    return n;
                }

                @Override
                public long workingSetBytes(int p) {
                    return 1;
                }

                @Override
                public Object synthesize(int p) {
                    return p;
                }

                @Override
                public void release(int p) {
                    if (handedBack.compareAndSet(false, true)) {
                        held.close();
                    }
                }
            };
            Engine.Job<?> job = e.submit(spec, Priority.NORMAL);
            assertEquals(n, e.permits().waiting());
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread small = new Thread(null, () -> {
                try {
                    job.cancel();
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "small", 256 * 1024);
            small.start();
            small.join();
            assertNull(thrown.get(), () -> "the cancel threw " + thrown.get());
            assertTrue(handedBack.get());
            assertEquals(1, e.permits().available(), "the permit is back");
            assertEquals(0, e.permits().waiting());
            assertEquals(0, e.permits().doubleReleases());
            assertTrue(job.states().stream().allMatch(s -> s == PartitionState.CANCELLED));
        }
    }

    @Test
    void buffersAreAlwaysPaidForSoTheirMemoryNeverExceedsTheBudget() throws Exception {
        long mib = 1L << 20;
        CountingAllocator allocator = new CountingAllocator();
        ProverBackend<Object, Object, Object> backend = new ProverBackend<>() {
            @Override
            public String name() {
                return "pinned-sim";
            }

            @Override
            public BufferPool.Memory bufferMemory() {
                return BufferPool.Memory.PINNED;
            }

            @Override
            public BufferPool.Allocator bufferAllocator() {
                return allocator;
            }

            @Override
            public Object start(Object synthesized, int device) {
                return synthesized;
            }

            @Override
            public Object finish(Object started) {
                return "proof-" + started;
            }
        };
        // room for one partition's buffer at a time, two permits: the second partition always waits for
        // the first one's bytes, and takes them the moment they are given back
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(mib + mib / 2).timelineCapacity(1000).build();
        try (var e = new Engine<>(cfg, backend)) {
            // the prover thread pauses after each release, as on a loaded machine, so that a waiting
            // partition runs in whatever gap the release leaves before the buffers are back in the pool
            e.budget().addReleaseListener(() -> {
                if (Thread.currentThread().getName().startsWith("prover")) {
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            var proofs = e.submit(new SimBackend.Job(100, 0, mib, p -> false), Priority.NORMAL)
                    .await(Duration.ofMinutes(1));
            assertEquals(100, proofs.size());
            assertTrue(allocator.peakLiveBytes.get() <= e.budget().total(), "buffers of " + allocator.peakLiveBytes.get()
                    + " bytes allocated at once, on a budget of " + e.budget().total());
            assertTrue(e.budget().peak() <= e.budget().total());
            awaitDrained(e);
            assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PARTITION));
            assertEquals(e.pool().stats().idleBytes(), e.budget().reserved(), "only idle pool buffers reserved");
            assertEquals(e.pool().stats().idleBytes(), allocator.liveBytes.get(), "and they are all that is allocated");
            assertEquals(0, e.doubleReleases());
        }
        assertEquals(0, allocator.live(), "every buffer freed at close");
    }
}
