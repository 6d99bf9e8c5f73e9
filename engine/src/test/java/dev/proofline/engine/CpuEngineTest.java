package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.Proof;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.pce.Pce;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Real proofs through the engine on the CPU backend, both curves, each verified. */
class CpuEngineTest {

    @TempDir
    Path tmp;

    private static Engine.Config config() {
        return new Engine.Config(2, 2, 1, 2, 1L << 32, 10_000);
    }

    private static List<BigInteger> publicSignals(Witness w, int n) {
        List<BigInteger> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(w.value(i));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void circomPartitionsAreProvedAndVerify(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        Witness w = WtnsFile.read(fx.wtns());
        try (ProvingKey key = ZkeyFile.open(fx.zkey()); Engine e = new Engine(config(), new CpuBackend())) {
            JobSpec job = new JobSpec() {
                @Override
                public int partitions() {
                    return 3;
                }

                @Override
                public long workingSetBytes(int p) {
                    return CpuBackend.workingSetBytes(key);
                }

                @Override
                public Object synthesize(int p) {
                    return CpuBackend.Synthesized.of(key, w);
                }
            };
            List<Object> proofs = e.submit(job, Priority.NORMAL).result().get(120, TimeUnit.SECONDS);
            assertEquals(3, proofs.size());
            for (Object p : proofs) {
                assertTrue(Verifier.verify(key.verificationKey(), publicSignals(w, key.publicCount()), (Proof) p));
            }
            assertEquals(e.permits().max(), e.permits().available());
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void javaCircuitPartitionsGoThroughThePceAndVerify(PairingCurve curve) throws Exception {
        // partitions of one circuit shape (same depth and challenge count), different instances
        List<MerklePost> instances = List.of(MerklePost.instance(curve, 3, 6, 1), MerklePost.instance(curve, 3, 6, 2));
        R1cs r1cs = RecordingSystem.record(curve, instances.get(0));
        Pce pce = new Pce(r1cs);
        Path zkey = tmp.resolve("mp.zkey");
        DevSetup.run(r1cs, zkey, new Random(5));
        try (ProvingKey key = ZkeyFile.open(zkey); Engine e = new Engine(config(), new CpuBackend())) {
            List<Witness> witnesses = new ArrayList<>();
            for (MerklePost instance : instances) {
                witnesses.add(WitnessSystem.witness(curve, instance));
            }
            JobSpec job = new PceJob(key, pce, instances);
            List<Object> proofs = e.submit(job, Priority.HIGH).result().get(120, TimeUnit.SECONDS);
            for (int p = 0; p < proofs.size(); p++) {
                assertTrue(Verifier.verify(key.verificationKey(), publicSignals(witnesses.get(p), key.publicCount()),
                        (Proof) proofs.get(p)), "partition " + p);
            }
            assertEquals(instances.get(1).root(), witnesses.get(1).value(1), "partition 1 proves its own root");
        }
    }
}
