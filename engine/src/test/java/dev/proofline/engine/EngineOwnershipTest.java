package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.CpuBackend;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One owner per partition, on real circuits: its permit, reservation, pooled buffers and key leases
 * come back exactly once when the engine closes under a synthesis that outlives the close, and a
 * partition's own reservation never evicts the key it is about to use.
 */
class EngineOwnershipTest {

    private static final PairingCurve CURVE = PairingCurve.BN254;

    @TempDir
    static Path dir;

    /** A development key of a small Java circuit (a Merkle proof of storage), made once. */
    static Path zkey;

    @BeforeAll
    static void key() throws Exception {
        zkey = dir.resolve("merkle.zkey");
        DevSetup.run(RecordingSystem.record(CURVE, instance(0)), zkey, new Random(5));
    }

    private static MerklePost instance(long seed) {
        return MerklePost.instance(CURVE, 2, 4, seed);
    }

    /** An instance whose witness waits for {@code go}, deaf to interrupts (as a long witness generator is). */
    private record Stalled(Circuit inner, CountDownLatch started, CountDownLatch go) implements Circuit {
        @Override
        public void synthesize(ConstraintSystem cs) {
            started.countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    go.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            inner.synthesize(cs);
        }
    }

    private static void awaitTrue(java.util.function.BooleanSupplier done, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(done.getAsBoolean(), what);
    }

    @Test
    void closingUnderASynthesisThatOutlivesTheCloseStillGivesEverythingBack() throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(1L << 32).timelineCapacity(1000).build();
        var e = new Engine<>(cfg, new CpuBackend());
        Circuits.of(e).register(new Circuits.Java("merkle", zkey, CURVE, instance(0)));
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch go = new CountDownLatch(1);
        List<CircuitJob.Partition> parts = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            parts.add(new CircuitJob.Instance(new Stalled(instance(p + 1), started, go)));
        }
        Engine.Job<?> job = e.submit(new CircuitJob(Circuits.of(e), "merkle", parts), Priority.NORMAL);
        assertTrue(started.await(60, TimeUnit.SECONDS), "two syntheses hold their permits, bytes, buffers and key");
        try {
            e.close(); // returns while both still synthesize
        } finally {
            go.countDown();
        }
        assertTrue(job.result().isCompletedExceptionally(), "the job failed at close");
        awaitTrue(() -> job.states().stream().allMatch(PartitionState::isFinal), () -> "every partition ended: "
                + job.states());
        awaitTrue(() -> e.permits().available() == e.permits().max(), () -> "every permit back");
        assertEquals(0, e.permits().waiting());
        assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PARTITION), "no partition bytes");
        assertEquals(0, e.pool().stats().outBytes(), "every buffer checked in");
        assertEquals(e.pool().stats().checkouts(), e.pool().stats().checkins());
        assertEquals(0, Circuits.of(e).keys().references(), "every key lease closed");
        assertEquals(0, Circuits.of(e).pces().references(), "every PCE lease closed");
        assertEquals(0, e.budget().reserved(), "idle buffers, keys and PCEs freed by the close, late ones too");
        assertEquals(0, e.budget().openReservations());
        assertEquals(0, e.budget().doubleReleases());
        assertEquals(0, e.permits().doubleReleases());
    }

    @Test
    void aDoubleReleaseOfAPermitABufferOrAKeyLeaseIsCountedAndChangesNothingElse() throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(1).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(1L << 30).timelineCapacity(1000).build();
        try (var e = new Engine<>(cfg, new CpuBackend())) {
            Circuits.of(e).register(new Circuits.Circom("merkle", zkey));
            assertEquals(0, e.status().doubleReleases());
            ProverPermits.Permit permit = e.permits().tryAcquire().orElseThrow();
            permit.close();
            permit.close();
            assertEquals(1, e.status().doubleReleases(), "a permit closed twice");
            assertEquals(2, e.permits().available());
            MemoryBudget.Reservation r = e.budget().tryAcquire(BufferPool.MIN_CLASS, MemoryBudget.Kind.PARTITION)
                    .orElseThrow();
            BufferPool.Buffer b = e.pool().checkout(1);
            e.pool().checkin(b);
            r.close();
            BufferPool.Stats pool = e.pool().stats();
            e.pool().checkin(b);
            assertEquals(2, e.status().doubleReleases(), "a buffer checked in twice");
            assertEquals(pool, e.pool().stats());
            var key = Circuits.of(e).key("merkle");
            key.close();
            key.close();
            assertEquals(3, e.status().doubleReleases(), "a key lease closed twice");
            assertEquals(0, Circuits.of(e).keys().references());
            r.close();
            assertEquals(4, e.status().doubleReleases(), "a reservation closed twice");
            assertEquals(e.pool().stats().idleBytes() + e.budget().reserved(MemoryBudget.Kind.KEY), e.budget().reserved());
        }
    }

    @Test
    void aPartitionNeverEvictsTheKeyItIsAboutToUse() throws Exception {
        // registered by its key alone (no PCE: a, b, c from the key's coefficients), partitions as witnesses
        Circuits.Circom circuit = new Circuits.Circom("merkle", zkey);
        List<CircuitJob.Partition> parts = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            parts.add(new CircuitJob.Values(WitnessSystem.witness(CURVE, instance(p + 1))));
        }
        // the sizes: the key (its file), one partition (its buffers' classes and its extra bytes)
        long keyBytes;
        long partitionBytes = 0;
        EngineConfig cfg = EngineConfig.builder().permits(1).synthesisThreads(1).proverWorkers(1).finalizerThreads(1)
                .budgetBytes(1L << 32).timelineCapacity(1000).build();
        try (var sizing = new Engine<>(cfg, new CpuBackend())) {
            Circuits.of(sizing).register(circuit);
            CircuitJob job = new CircuitJob(Circuits.of(sizing), "merkle", parts);
            keyBytes = sizing.budget().reserved(MemoryBudget.Kind.KEY);
            for (long size : job.bufferSizes(0, BufferPool.Memory.HEAP)) {
                partitionBytes += BufferPool.sizeClass(size);
            }
            partitionBytes += job.extraBytes(0, BufferPool.Memory.HEAP);
        }
        // room for the key and one partition: the next partition's reservation finds the last one's
        // buffers idle in the pool and must make room by trimming them, not by unloading its own key
        long budget = keyBytes + partitionBytes;
        try (var e = new Engine<>(EngineConfig.builder().permits(1).synthesisThreads(1).proverWorkers(1)
                .finalizerThreads(1).budgetBytes(budget).timelineCapacity(1000).loadTimeout(Duration.ofSeconds(5))
                .build(),
                new CpuBackend())) {
            Circuits.of(e).register(circuit);
            Circuits.of(e).preload("merkle");
            // one job after the other: each finds the key idle, the last one's buffers idle in the pool
            for (CircuitJob.Partition part : parts) {
                var proofs = e.submit(new CircuitJob(Circuits.of(e), "merkle", List.of(part)), Priority.NORMAL)
                        .await(Duration.ofMinutes(2));
                assertEquals(1, proofs.size());
            }
            assertEquals(0, Circuits.of(e).keys().evictions(), "the key stayed resident");
            assertEquals(1, Circuits.of(e).keys().loads(), "loaded once");
            assertTrue(e.budget().peak() <= budget);
        }
    }
}
