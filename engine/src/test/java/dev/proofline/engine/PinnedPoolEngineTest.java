package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.CpuBackend;
import dev.proofline.engine.groth16.ProofResult;
import dev.proofline.groth16.Proof;
import dev.proofline.groth16.ProofRandomness;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A backend whose pool buffers are pinned (here: native memory from a counting allocator, as a GPU
 * backend's page-locked allocator would give): CircuitJob computes a, b, c straight into them (by the
 * PCE) or leaves them to the prover's prepare (from the key's coefficients), the witness's words go
 * into a fourth buffer, and the proofs equal the CPU backend's. The budget counts each pooled buffer
 * once, and every buffer goes back to the allocator.
 */
class PinnedPoolEngineTest {

    @TempDir
    Path tmp;

    private static final ProofRandomness RS = ProofRandomness.fixedForTesting(BigInteger.valueOf(99), BigInteger.valueOf(77));

    /** The CPU prover on native vectors: prepare outside the device lock, start inside. */
    static final class PinnedCpu implements ProverBackend<Object, Object, ProofResult> {
        final CountingAllocator allocator = new CountingAllocator();
        final AtomicInteger prepared = new AtomicInteger();
        private final Prover prover = Prover.create().withRandomness(RS);

        @Override
        public String name() {
            return "pinned-cpu";
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
        public Object prepare(Object synthesized, int device) {
            CircuitJob.NativeSynthesized s = (CircuitJob.NativeSynthesized) synthesized;
            prepared.incrementAndGet();
            return prover.prepare(s.key(), s.witness(), s.workspace(), s.rows(), false);
        }

        @Override
        public Object start(Object prepared, int device) {
            return prover.start((Prover.Prepared) prepared);
        }

        @Override
        public ProofResult finish(Object started) {
            Prover.Started st = (Prover.Started) started;
            return new ProofResult(prover.finish(st), st.witness().publicSignals(st.key().publicCount()));
        }
    }

    private static void assertSameProofs(List<ProofResult> expected, List<ProofResult> actual) {
        assertEquals(expected.size(), actual.size());
        for (int p = 0; p < expected.size(); p++) {
            Proof x = expected.get(p).proof();
            Proof y = actual.get(p).proof();
            assertArrayEquals(x.a(), y.a(), "partition " + p);
            assertArrayEquals(x.b(), y.b(), "partition " + p);
            assertArrayEquals(x.c(), y.c(), "partition " + p);
            assertEquals(expected.get(p).publicSignals(), actual.get(p).publicSignals());
        }
    }

    private static List<ProofResult> prove(ProverBackend<?, ?, ? extends ProofResult> backend, Circuits.Registered circuit,
            List<CircuitJob.Partition> parts) throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(2).finalizerThreads(2)
                .budgetBytes(1L << 32).timelineCapacity(10_000).build();
        try (var e = new Engine<ProofResult>(cfg, backend)) {
            Circuits.of(e).register(circuit);
            var proofs = e.submit(new CircuitJob(Circuits.of(e), circuit.id(), parts), Priority.NORMAL)
                    .await(Duration.ofMinutes(3));
            // quiescent: the partitions gave their bytes back, the idle buffers are the pool's (once)
            assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PARTITION));
            assertEquals(e.pool().stats().idleBytes(), e.budget().reserved(MemoryBudget.Kind.POOL));
            assertEquals(0, e.pool().stats().outBytes());
            if (backend instanceof PinnedCpu) {
                assertEquals(4L * parts.size(), e.pool().stats().checkouts(), "a, b, c and the witness, pooled");
            }
            return proofs;
        }
    }

    @Test
    void javaCircuitPartitionsThroughThePceIntoPinnedBuffersMakeTheCpuBackendsProofs() throws Exception {
        PairingCurve curve = PairingCurve.BN254;
        List<MerklePost> instances = List.of(MerklePost.instance(curve, 3, 6, 1), MerklePost.instance(curve, 3, 6, 2),
                MerklePost.instance(curve, 3, 6, 3));
        R1cs r1cs = RecordingSystem.record(curve, instances.get(0));
        Path zkey = tmp.resolve("mp.zkey");
        DevSetup.run(r1cs, zkey, new Random(5));
        List<CircuitJob.Partition> parts = new ArrayList<>();
        for (MerklePost m : instances) {
            parts.add(new CircuitJob.Instance(m));
        }
        Circuits.Java circuit = new Circuits.Java("mp", zkey, curve, instances.get(0));
        List<ProofResult> cpu = prove(new CpuBackend(Prover.create().withRandomness(RS)), circuit, parts);
        PinnedCpu pinned = new PinnedCpu();
        assertSameProofs(cpu, prove(pinned, circuit, parts));
        assertEquals(instances.size(), pinned.prepared.get());
        assertTrue(pinned.allocator.allocations.get() >= 4, "a, b, c and the witness from the pinned allocator");
        assertEquals(0, pinned.allocator.live(), "every pinned buffer freed when the engine closed");
        assertEquals(0, pinned.allocator.doubleFrees.get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void circomPartitionsWithAndWithoutAPceMakeTheCpuBackendsProofs(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        List<CircuitJob.Partition> parts = List.of(new CircuitJob.Wtns(Files.readAllBytes(fx.wtns())),
                new CircuitJob.Wtns(Files.readAllBytes(fx.wtns())));
        for (Path r1cs : new Path[] {null, fx.r1cs()}) {
            Circuits.Circom circuit = new Circuits.Circom("poseidon", fx.zkey(), null, r1cs);
            List<ProofResult> cpu = prove(new CpuBackend(Prover.create().withRandomness(RS)), circuit, parts);
            PinnedCpu pinned = new PinnedCpu();
            assertSameProofs(cpu, prove(pinned, circuit, parts));
            assertEquals(0, pinned.allocator.live());
        }
    }
}
