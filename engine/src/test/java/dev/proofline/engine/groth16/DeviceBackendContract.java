package dev.proofline.engine.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.BufferPool;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.MemoryBudget;
import dev.proofline.engine.Priority;
import dev.proofline.groth16.Proof;
import dev.proofline.groth16.ProofRandomness;
import dev.proofline.groth16.ProofSums;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.pce.Pce;
import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link DeviceBackend} must do, run against each backend by a subclass that opens it: its
 * devices described one line each, every device's sums (from the payload its buffer memory asks for, with
 * a, b, c from the PCE or from the key) finishing into the CPU prover's proof for the same r and s, a
 * batch of one key's partitions giving one sums a partition in order, and proofs through the engine
 * (by the one adapter) equal to the CPU prover's, with nothing released twice.
 */
public abstract class DeviceBackendContract {

    private static final PairingCurve CURVE = PairingCurve.BN254;
    private static final ProofRandomness RS = ProofRandomness.fixedForTesting(BigInteger.valueOf(8675309),
            BigInteger.valueOf(5551212));

    @TempDir
    static Path dir;

    private static Path zkey;
    private static R1cs r1cs;
    private static List<MerklePost> instances;

    /** The backend under test, freshly opened; the test closes it. */
    protected abstract DeviceBackend<?> open() throws Exception;

    @BeforeAll
    static void circuitAndKey() throws Exception {
        instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            instances.add(MerklePost.instance(CURVE, 2, 5, 40 + i));
        }
        r1cs = RecordingSystem.record(CURVE, instances.getFirst());
        zkey = dir.resolve("contract.zkey");
        DevSetup.run(r1cs, zkey, new Random(11));
    }

    private static Witness witness(int i) {
        return WitnessSystem.witness(CURVE, instances.get(i));
    }

    @Test
    void itsDevicesAreDescribedOneLineAndOneMemoryEach() throws Exception {
        try (DeviceBackend<?> backend = open()) {
            assertFalse(backend.name().isBlank(), "a name configurations can use");
            assertTrue(backend.deviceCount() >= 1, backend.deviceCount() + " devices");
            assertEquals(backend.deviceCount(), backend.devices().size(), "a line a device: " + backend.devices());
            assertEquals(backend.deviceCount(), backend.deviceMemory().size(), "a memory a device");
            if (backend.bufferMemory() == BufferPool.Memory.PINNED) {
                assertNotNull(backend.bufferAllocator(), "pinned buffers need an allocator");
            }
        }
    }

    @Test
    void everyDevicesSumsFinishIntoTheCpuProversProof() throws Exception {
        try (DeviceBackend<?> backend = open(); ProvingKey key = ZkeyFile.open(zkey); Arena arena = Arena.ofShared()) {
            Prover prover = Prover.create().withRandomness(RS);
            Witness w = witness(0);
            Proof expected = prover.prove(key, w);
            for (int d = 0; d < backend.deviceCount(); d++) {
                for (boolean pce : new boolean[] {false, true}) {
                    CircuitJob.Payload payload = payload(backend, key, w, pce, arena);
                    Proof proof = proveOne(backend, new DeviceBackend.DeviceContext(d, prover), key, payload);
                    assertEquals(expected, proof, "device " + d + (pce ? ", a, b, c from the PCE" : ", from the key"));
                }
            }
        }
    }

    @Test
    void aBatchOfOneKeysPartitionsGivesOneSumsAPartitionInOrder() throws Exception {
        try (DeviceBackend<?> backend = open(); ProvingKey key = ZkeyFile.open(zkey); Arena arena = Arena.ofShared()) {
            batch(backend, key, arena);
            assertThrows(IllegalArgumentException.class, () -> new DeviceBackend.Batch<>(key, List.of()));
        }
    }

    private static <S> void batch(DeviceBackend<S> backend, ProvingKey key, Arena arena) throws Exception {
        Prover prover = Prover.create().withRandomness(RS);
        DeviceBackend.DeviceContext context = new DeviceBackend.DeviceContext(backend.deviceCount() - 1, prover);
        List<S> staged = new ArrayList<>();
        for (int i = 0; i < instances.size(); i++) {
            staged.add(backend.stage(context, payload(backend, key, witness(i), i % 2 == 1, arena)));
        }
        List<ProofSums> sums = backend.sums(context, new DeviceBackend.Batch<>(key, staged));
        assertEquals(instances.size(), sums.size(), "one sums a partition");
        for (int i = 0; i < instances.size(); i++) {
            Witness w = witness(i);
            assertEquals(prover.prove(key, w), prover.finish(Prover.started(key, w, sums.get(i), 0, 0)),
                    "partition " + i + " of the batch, in order");
        }
    }

    @Test
    void throughTheEngineItsProofsEqualTheCpuProversAndNothingIsReleasedTwice() throws Exception {
        try (DeviceBackend<?> backend = open(); ProvingKey key = ZkeyFile.open(zkey)) {
            EngineConfig cfg = EngineConfig.builder().permits(3).synthesisThreads(2).proverWorkers(2)
                    .finalizerThreads(2).budgetBytes(1L << 31).timelineCapacity(1000).build();
            List<ProofResult> results;
            try (var e = new Engine<>(cfg, DeviceBackendAdapter.of(backend, Prover.create().withRandomness(RS)))) {
                assertEquals(backend.deviceCount(), e.deviceCount());
                Circuits.of(e).register(new Circuits.Java("contract", zkey, CURVE, instances.getFirst()));
                List<CircuitJob.Partition> parts = new ArrayList<>();
                for (MerklePost m : instances) {
                    parts.add(new CircuitJob.Instance(m));
                }
                results = e.submit(new CircuitJob(Circuits.of(e), "contract", parts), Priority.NORMAL)
                        .await(Duration.ofMinutes(5));
                assertEquals(0, e.doubleReleases());
                assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PARTITION), "every partition's bytes back");
            }
            Prover cpu = Prover.create().withRandomness(RS);
            for (int i = 0; i < instances.size(); i++) {
                ProofResult r = results.get(i);
                assertEquals(cpu.prove(key, witness(i)), r.proof(), "partition " + i);
            }
        }
    }

    @Test
    void aPartitionOfAnotherKindOfJobIsRefusedBeforeTheDevice() throws Exception {
        try (DeviceBackend<?> backend = open()) {
            DeviceBackendAdapter<?> adapter = DeviceBackendAdapter.of(backend, Prover.create());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> adapter.prepare("x", 0));
            assertEquals("the " + backend.name() + " backend proves circuit jobs; this job's synthesis gave "
                    + "java.lang.String", e.getMessage());
        }
    }

    private static <S> Proof proveOne(DeviceBackend<S> backend, DeviceBackend.DeviceContext context, ProvingKey key,
            CircuitJob.Payload payload) throws Exception {
        S staged = backend.stage(context, payload);
        ProofSums sums = backend.sums(context, staged);
        return context.prover().finish(Prover.started(key, payload.witness(), sums, 0, 0));
    }

    /**
     * What synthesis would give the backend for {@code w}: native vectors where it asks for pinned
     * buffers, heap vectors otherwise; a, b, c by the PCE when {@code pce} and the backend does not
     * compute them itself.
     */
    static CircuitJob.Payload payload(DeviceBackend<?> backend, ProvingKey key, Witness w, boolean pce, Arena arena) {
        boolean byPce = pce && !backend.computesAbc(key);
        Pce evaluator = byPce ? new Pce(r1cs) : null;
        int rows = byPce ? r1cs.constraintCount() : -1;
        if (backend.bufferMemory() == BufferPool.Memory.PINNED) {
            long vector = Prover.NativeWorkspace.vectorBytes(key);
            Prover.NativeWorkspace ws = new Prover.NativeWorkspace(arena.allocate(vector, 64), arena.allocate(vector, 64),
                    arena.allocate(vector, 64), arena.allocate(Prover.NativeWorkspace.witnessBytes(key), 64));
            if (byPce) {
                evaluator.evaluate(w, new long[w.size() * 4], ws.a(), ws.b(), ws.c());
            }
            return new CircuitJob.NativeSynthesized(key, w, ws, rows);
        }
        Prover.Workspace ws = Prover.Workspace.allocate(key);
        if (byPce) {
            evaluator.evaluate(w, new long[w.size() * 4], ws.a(), ws.b(), ws.c());
        }
        return new CircuitJob.HeapSynthesized(key, w, ws, rows);
    }
}
