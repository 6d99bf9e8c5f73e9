package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.Priority;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.DeviceBackendAdapter;
import dev.proofline.engine.groth16.ProofResult;
import dev.proofline.groth16.Proof;
import dev.proofline.groth16.ProofRandomness;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The CUDA backend: without a driver it is unavailable with the reason; on a GPU its proofs equal the
 * CPU backend's for the same r and s, through the engine, on both curves (skipped without a device).
 */
class CudaBackendTest {

    @TempDir
    Path tmp;

    @Test
    void withoutADriverTheBackendIsUnavailableWithTheReason() {
        String before = System.getProperty(CudaDriver.LIBRARY_PROPERTY);
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, tmp.resolve("libcuda.so.1").toString());
        try {
            List<String> why = new ArrayList<>();
            Optional<CudaBackend> b = CudaBackend.open(why::add);
            assertTrue(b.isEmpty());
            assertEquals(1, why.size());
            assertTrue(why.get(0).contains("not found"), why.get(0));
        } finally {
            if (before == null) {
                System.clearProperty(CudaDriver.LIBRARY_PROPERTY);
            } else {
                System.setProperty(CudaDriver.LIBRARY_PROPERTY, before);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void onAGpuTheEngineMakesTheCpuBackendsProofs(PairingCurve curve) throws Exception {
        ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(31337), BigInteger.valueOf(4242));
        List<String> why = new ArrayList<>();
        Optional<CudaBackend> opened = CudaBackend.open(why::add);
        Assumptions.assumeTrue(opened.isPresent(), () -> "no usable CUDA device: " + why);
        List<MerklePost> instances = List.of(MerklePost.instance(curve, 3, 8, 1), MerklePost.instance(curve, 3, 8, 2));
        R1cs r1cs = RecordingSystem.record(curve, instances.get(0));
        Path zkey = tmp.resolve("mp.zkey");
        DevSetup.run(r1cs, zkey, new Random(5));
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(2).finalizerThreads(2)
                .budgetBytes(1L << 32).timelineCapacity(1000).build();
        try (CudaBackend gpu = opened.get();
                var e = new Engine<>(cfg, DeviceBackendAdapter.of(gpu, Prover.create().withRandomness(rs)));
                ProvingKey key = ZkeyFile.open(zkey)) {
            Circuits.of(e).register(new Circuits.Java("mp", zkey, curve, instances.get(0)));
            List<CircuitJob.Partition> parts = new ArrayList<>();
            for (MerklePost m : instances) {
                parts.add(new CircuitJob.Instance(m));
            }
            var proofs = e.submit(new CircuitJob(Circuits.of(e), "mp", parts), Priority.NORMAL)
                    .await(Duration.ofMinutes(5));
            for (int p = 0; p < instances.size(); p++) {
                Witness w = WitnessSystem.witness(curve, instances.get(p));
                Proof cpu = Prover.create().withRandomness(rs).prove(key, w);
                Proof onGpu = proofs.get(p).proof();
                assertArrayEquals(cpu.a(), onGpu.a(), "partition " + p);
                assertArrayEquals(cpu.b(), onGpu.b(), "partition " + p);
                assertArrayEquals(cpu.c(), onGpu.c(), "partition " + p);
            }
        }
    }
}
