package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * Batches in the prover stage: partitions of one batch key queued behind a busy device start in one
 * call, up to the backend's most, never mixed with another key nor overtaking one; each then goes on
 * alone, a failed call fails each of its partitions, a cancelled partition is never started, and a
 * backend that does not batch gets one partition a call.
 */
class ProverBatchesTest {

    /** A partition's payload: its job's batch key and its number. */
    record Keyed(String key, int partition) {
    }

    /** One device that batches by the payload's key, holds its calls until let go and notes each call. */
    static final class KeyedDevice implements ProverBackend<Keyed, Keyed, String> {
        final int maxBatch;
        final boolean failBatches;
        final CountDownLatch held = new CountDownLatch(1);
        /** Opens when the first call begins. */
        final CountDownLatch busy = new CountDownLatch(1);
        /** Each device call's partitions, in the order the calls ran. */
        final List<List<Keyed>> calls = new CopyOnWriteArrayList<>();
        final AtomicInteger batchCalls = new AtomicInteger();

        /** {@code failBatches}: a call of more than one partition throws. */
        KeyedDevice(int maxBatch, boolean failBatches) {
            this.maxBatch = maxBatch;
            this.failBatches = failBatches;
        }

        @Override
        public String name() {
            return "keyed";
        }

        @Override
        public Object batchKey(Object synthesized) {
            return ((Keyed) synthesized).key();
        }

        @Override
        public int maxBatch() {
            return maxBatch;
        }

        @Override
        public Keyed start(Keyed prepared, int device) throws Exception {
            return startBatch(List.of(prepared), device).getFirst();
        }

        @Override
        public List<Keyed> startBatch(List<Keyed> batch, int device) throws Exception {
            if (batch.size() > 1) {
                batchCalls.incrementAndGet();
            }
            calls.add(List.copyOf(batch));
            busy.countDown();
            held.await();
            if (failBatches && batch.size() > 1) {
                throw new IllegalStateException("the device failed a batch of " + batch.size());
            }
            return batch;
        }

        @Override
        public String finish(Keyed started) {
            return "proof-" + started.key() + "/" + started.partition();
        }

        /** The sizes of the calls, in order. */
        List<Integer> sizes() {
            return calls.stream().map(List::size).toList();
        }
    }

    /**
     * A job whose partitions all carry {@code key}, counting how often each partition is released; where
     * {@code firstAlone} is given, its partitions after the first are synthesized once it opens (so that
     * the first reaches the device alone).
     */
    record KeyedJob(String key, int partitions, AtomicIntegerArray released, CountDownLatch firstAlone)
            implements JobSpec<Keyed> {
        KeyedJob(String key, int partitions, CountDownLatch firstAlone) {
            this(key, partitions, new AtomicIntegerArray(partitions), firstAlone);
        }

        KeyedJob(String key, int partitions) {
            this(key, partitions, null);
        }

        @Override
        public long workingSetBytes(int p) {
            return 4096;
        }

        @Override
        public Keyed synthesize(int p) throws InterruptedException {
            if (p > 0 && firstAlone != null) {
                firstAlone.await();
            }
            return new Keyed(key, p);
        }

        @Override
        public void release(int p) {
            released.incrementAndGet(p);
        }
    }

    /** One device, one worker, permits for everything: what queues behind the held device stays queued. */
    private static EngineConfig config() {
        return EngineConfig.builder().permits(16).synthesisThreads(2).proverWorkers(1).finalizerThreads(2)
                .budgetBytes(1L << 28).timelineCapacity(10_000).build();
    }

    private static void await(IntSupplier count, int expected, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (count.getAsInt() != expected && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertEquals(expected, count.getAsInt(), what);
    }

    private static List<String> proofs(String key, int partitions) {
        List<String> out = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            out.add("proof-" + key + "/" + p);
        }
        return out;
    }

    private static void assertNothingLeft(Engine<?> e, KeyedJob... jobs) throws InterruptedException {
        await(() -> e.permits().available(), e.permits().max(), "every permit back");
        for (KeyedJob job : jobs) {
            await(() -> {
                int total = 0;
                for (int p = 0; p < job.partitions(); p++) {
                    total += job.released().get(p);
                }
                return total;
            }, job.partitions(), job.key() + ": each partition released");
            for (int p = 0; p < job.partitions(); p++) {
                assertEquals(1, job.released().get(p), job.key() + "/" + p + " released once");
            }
        }
        assertEquals(0, e.doubleReleases(), "nothing released twice");
        assertEquals(0, e.permits().doubleReleases());
        assertEquals(0, e.budget().doubleReleases());
        assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PARTITION), "every partition's bytes back");
        assertEquals(0, e.pool().stats().outBytes(), "every buffer checked in");
    }

    @Test
    void partitionsOfOneKeyQueuedBehindABusyDeviceStartTogetherUpToTheMost() throws Exception {
        KeyedDevice device = new KeyedDevice(4, false);
        try (var e = new Engine<>(config(), device)) {
            KeyedJob spec = new KeyedJob("a", 7, device.busy);
            Engine.Job<String> job = e.submit(spec, Priority.NORMAL);
            await(device.calls::size, 1, "the first partition on the device");
            await(e::proverQueueCount, 6, "the other six queued behind it");
            device.held.countDown();
            assertEquals(proofs("a", 7), job.await(Duration.ofMinutes(1)), "each partition's own proof, in order");
            assertEquals(List.of(1, 4, 2), device.sizes(), "batches as queued, four at most, none waited for");
            assertEquals(3, e.deviceStatus().getFirst().proverRuns(), "a device run a call");
            for (int p = 0; p < 7; p++) {
                int partition = p;
                List<Timeline.Kind> kinds = e.timeline().ofJob(job.id()).stream()
                        .filter(ev -> ev.partition() == partition).map(Timeline.Event::kind).toList();
                assertTrue(kinds.contains(Timeline.Kind.PROVER_START) && kinds.contains(Timeline.Kind.PROVER_END)
                        && kinds.contains(Timeline.Kind.FINALIZE_END), "partition " + p + ": " + kinds);
            }
            assertNothingLeft(e, spec);
        }
    }

    @Test
    void partitionsOfTwoKeysNeverShareABatchNorOvertakeOneAnother() throws Exception {
        KeyedDevice device = new KeyedDevice(4, false);
        try (var e = new Engine<>(config(), device)) {
            KeyedJob a = new KeyedJob("a", 5, device.busy);
            KeyedJob b = new KeyedJob("b", 3);
            KeyedJob a2 = new KeyedJob("a", 2);
            Engine.Job<String> jobA = e.submit(a, Priority.NORMAL);
            await(e::proverQueueCount, 4, "a's last four queued behind its first");
            Engine.Job<String> jobB = e.submit(b, Priority.NORMAL);
            await(e::proverQueueCount, 7, "then b's three");
            Engine.Job<String> jobA2 = e.submit(a2, Priority.NORMAL);
            await(e::proverQueueCount, 9, "then two more of a");
            device.held.countDown();
            assertEquals(proofs("a", 5), jobA.await(Duration.ofMinutes(1)));
            assertEquals(proofs("b", 3), jobB.await(Duration.ofMinutes(1)));
            assertEquals(proofs("a", 2), jobA2.await(Duration.ofMinutes(1)));
            List<String> keys = new ArrayList<>();
            for (List<Keyed> call : device.calls) {
                assertEquals(1, call.stream().map(Keyed::key).distinct().count(), "one key a call: " + call);
                keys.add(call.getFirst().key() + "x" + call.size());
            }
            assertEquals(List.of("ax1", "ax4", "bx3", "ax2"), keys, "in queue order; the later a's wait for b");
            assertNothingLeft(e, a, b, a2);
        }
    }

    @Test
    void aFailedBatchFailsEachOfItsPartitionsWithItsErrorAndGivesEachBackOnce() throws Exception {
        KeyedDevice device = new KeyedDevice(4, true);
        try (var e = new Engine<>(config(), device)) {
            KeyedJob spec = new KeyedJob("a", 5, device.busy);
            Engine.Job<String> job = e.submit(spec, Priority.NORMAL);
            await(e::proverQueueCount, 4, "four queued behind the first");
            device.held.countDown();
            ExecutionException x = assertThrows(ExecutionException.class, () -> job.await(Duration.ofMinutes(1)));
            assertInstanceOf(IllegalStateException.class, x.getCause());
            assertEquals("the device failed a batch of 4", x.getCause().getMessage());
            assertNothingLeft(e, spec);
            assertEquals(List.of(1, 4), device.sizes());
            // the job fails with its first failed partition; the others' failures are recorded as they come
            await(() -> (int) e.timeline().ofJob(job.id()).stream().filter(ev -> ev.kind() == Timeline.Kind.FAILED)
                    .count(), 4, "each partition of the batch failed");
            List<Integer> failed = new ArrayList<>();
            for (Timeline.Event ev : e.timeline().ofJob(job.id())) {
                if (ev.kind() == Timeline.Kind.FAILED) {
                    assertTrue(ev.detail().contains("the device failed a batch of 4"), ev.detail());
                    failed.add(ev.partition());
                }
            }
            assertEquals(4, failed.size(), "each partition of the batch failed: " + failed);
            assertEquals(device.calls.get(1).stream().map(Keyed::partition).sorted().toList(),
                    failed.stream().sorted().toList(), "the batch's partitions");
            for (int p : failed) {
                assertEquals(PartitionState.FAILED, job.state(p));
            }
        }
    }

    @Test
    void aPartitionCancelledWhileQueuedIsNeverStartedNorCountedInABatch() throws Exception {
        KeyedDevice device = new KeyedDevice(3, false);
        try (var e = new Engine<>(config(), device)) {
            KeyedJob a = new KeyedJob("k", 3, device.busy);
            KeyedJob b = new KeyedJob("k", 3);
            Engine.Job<String> jobA = e.submit(a, Priority.NORMAL);
            await(e::proverQueueCount, 2, "a's last two queued behind its first");
            Engine.Job<String> jobB = e.submit(b, Priority.NORMAL);
            await(e::proverQueueCount, 5, "then b's three");
            jobA.cancel();
            device.held.countDown();
            assertEquals(proofs("k", 3), jobB.await(Duration.ofMinutes(1)));
            assertEquals(List.of(1, 3), device.sizes(), "a's queued two taken along, ended, not counted");
            int started = device.calls.stream().mapToInt(List::size).sum();
            assertEquals(4, started, "a's first and b's three started, nothing else");
            assertNothingLeft(e, a, b);
            for (int p = 1; p < 3; p++) {
                assertEquals(PartitionState.CANCELLED, jobA.state(p), "a/" + p);
            }
        }
    }

    @Test
    void aBackendThatTakesOneAtATimeGetsOnePartitionACall() throws Exception {
        KeyedDevice device = new KeyedDevice(1, true);
        try (var e = new Engine<>(config(), device)) {
            KeyedJob spec = new KeyedJob("a", 5, device.busy);
            Engine.Job<String> job = e.submit(spec, Priority.NORMAL);
            await(e::proverQueueCount, 4, "four queued behind the first");
            device.held.countDown();
            assertEquals(proofs("a", 5), job.await(Duration.ofMinutes(1)));
            assertEquals(List.of(1, 1, 1, 1, 1), device.sizes());
            assertEquals(0, device.batchCalls.get());
            assertNothingLeft(e, spec);
        }
    }
}
