package dev.proofline.engine.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.MemoryBudget;
import dev.proofline.engine.Priority;
import dev.proofline.groth16.ProofRandomness;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batching backend through the engine: partitions of one proving key queued behind its busy device
 * reach it as one batch, partitions of two keys never share one, and every proof equals the one the CPU
 * prover makes alone for the same r and s, with nothing released twice.
 */
class BatchingEngineTest {

    private static final PairingCurve CURVE = PairingCurve.BN254;
    private static final ProofRandomness RS = ProofRandomness.fixedForTesting(BigInteger.valueOf(8675309),
            BigInteger.valueOf(5551212));

    @TempDir
    Path dir;

    private static void await(IntSupplier count, int expected, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (count.getAsInt() != expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(expected, count.getAsInt(), what);
    }

    private static CircuitJob job(Engine<?> e, String circuit, List<MerklePost> instances) throws Exception {
        List<CircuitJob.Partition> parts = new ArrayList<>();
        for (MerklePost m : instances) {
            parts.add(new CircuitJob.Instance(m));
        }
        return new CircuitJob(Circuits.of(e), circuit, parts);
    }

    @Test
    void partitionsOfOneKeyQueuedBehindTheBusyDeviceAreProvedInOneBatchAsTheyWouldBeAlone() throws Exception {
        MerklePost first = MerklePost.instance(CURVE, 2, 5, 59);
        List<MerklePost> ones = new ArrayList<>();
        List<MerklePost> twos = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ones.add(MerklePost.instance(CURVE, 2, 5, 60 + i));
        }
        for (int i = 0; i < 3; i++) {
            twos.add(MerklePost.instance(CURVE, 2, 5, 70 + i));
        }
        R1cs r1cs = RecordingSystem.record(CURVE, ones.getFirst());
        Path zkeyOne = dir.resolve("one.zkey");
        Path zkeyTwo = dir.resolve("two.zkey");
        DevSetup.run(r1cs, zkeyOne, new Random(11));
        DevSetup.run(r1cs, zkeyTwo, new Random(12));

        BatchingTestBackend backend = new BatchingTestBackend(1, 4);
        EngineConfig cfg = EngineConfig.builder().permits(16).synthesisThreads(2).proverWorkers(1)
                .finalizerThreads(2).budgetBytes(1L << 31).timelineCapacity(1000).build();
        List<ProofResult> alone;
        List<ProofResult> one;
        List<ProofResult> two;
        try (var e = new Engine<>(cfg, DeviceBackendAdapter.of(backend, Prover.create().withRandomness(RS)))) {
            Circuits.of(e).register(new Circuits.Java("one", zkeyOne, CURVE, ones.getFirst()));
            Circuits.of(e).register(new Circuits.Java("two", zkeyTwo, CURVE, twos.getFirst()));
            backend.hold();
            // the device busy with a partition of one's key, held there until the others are queued
            Engine.Job<ProofResult> jobAlone = e.submit(job(e, "one", List.of(first)), Priority.NORMAL);
            await(backend.batches::size, 1, "the first partition on the device");
            Engine.Job<ProofResult> jobOne = e.submit(job(e, "one", ones), Priority.NORMAL);
            await(e::proverQueueCount, 4, "one's partitions queued behind it");
            Engine.Job<ProofResult> jobTwo = e.submit(job(e, "two", twos), Priority.NORMAL);
            await(e::proverQueueCount, 7, "then two's, behind one's");
            backend.letGo();
            alone = jobAlone.await(Duration.ofMinutes(5));
            one = jobOne.await(Duration.ofMinutes(5));
            two = jobTwo.await(Duration.ofMinutes(5));
            assertEquals(0, e.doubleReleases(), "nothing released twice");
            assertEquals(e.permits().max(), e.permits().available(), "every permit back");
            assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PARTITION), "every partition's bytes back");
        }

        List<BatchingTestBackend.Run> runs = backend.batches;
        assertEquals(8, runs.stream().mapToInt(BatchingTestBackend.Run::size).sum(), "each partition once: " + runs);
        for (BatchingTestBackend.Run run : runs) {
            assertTrue(run.size() <= 4, "at most the backend's most: " + run);
            for (ProvingKey k : run.partitionKeys()) {
                assertSame(run.key(), k, "one key a batch");
            }
        }
        // the first alone, one's four queued behind it in one batch, then two's three
        assertEquals(List.of(1, 4, 3), runs.stream().map(BatchingTestBackend.Run::size).toList(), runs.toString());
        assertSame(runs.get(0).key(), runs.get(1).key());
        assertNotSame(runs.get(1).key(), runs.get(2).key());

        Prover cpu = Prover.create().withRandomness(RS);
        try (ProvingKey keyOne = ZkeyFile.open(zkeyOne); ProvingKey keyTwo = ZkeyFile.open(zkeyTwo)) {
            assertEquals(cpu.prove(keyOne, WitnessSystem.witness(CURVE, first)), alone.getFirst().proof(), "the first");
            for (int i = 0; i < ones.size(); i++) {
                assertEquals(cpu.prove(keyOne, WitnessSystem.witness(CURVE, ones.get(i))), one.get(i).proof(),
                        "one's partition " + i);
            }
            for (int i = 0; i < twos.size(); i++) {
                assertEquals(cpu.prove(keyTwo, WitnessSystem.witness(CURVE, twos.get(i))), two.get(i).proof(),
                        "two's partition " + i);
            }
        }
    }
}
