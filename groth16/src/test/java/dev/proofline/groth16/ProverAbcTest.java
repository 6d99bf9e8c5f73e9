package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.cs.ProvingAssignment;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.pce.Pce;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The prover fed a, b, c from the PCE or the enforce path gives the same proof (same r, s) as the
 * prover that computes them from the key's coefficients.
 */
class ProverAbcTest {

    @TempDir
    Path tmp;

    private static final ProofRandomness FIXED = ProofRandomness.fixedForTesting(BigInteger.valueOf(31337),
            BigInteger.valueOf(4242));

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"bn128, poseidon", "bls12381, poseidon", "bn128, multiplier", "bls12381, allprivate"})
    void pceProductsOfACircomCircuitGiveTheSameProof(String curve, String circuit) {
        Fixture fx = CircomFixtures.build(curve, circuit);
        Witness w = WtnsFile.read(fx.wtns());
        Pce.Evaluation e = new Pce(R1csFile.read(fx.r1cs())).evaluate(w);
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            Prover p = Prover.create().withRandomness(FIXED);
            Proof fromKey = p.prove(key, w);
            Proof fromPce = p.finish(p.start(key, w, e.a(), e.b(), e.c()));
            assertEquals(fromKey, fromPce);
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void enforcePathProductsOfAJavaCircuitGiveTheSameProof(PairingCurve curve) throws IOException {
        JavaCircuitInteropTest.Chain circuit = new JavaCircuitInteropTest.Chain();
        R1cs r1cs = RecordingSystem.record(curve, circuit);
        Path zkey = tmp.resolve("chain.zkey");
        DevSetup.run(r1cs, zkey, new Random(3));
        ProvingAssignment.Result r = ProvingAssignment.synthesize(curve, circuit);
        try (ProvingKey key = ZkeyFile.open(zkey)) {
            Prover p = Prover.create().withRandomness(FIXED);
            assertEquals(p.prove(key, r.witness()), p.finish(p.start(key, r.witness(), r.a(), r.b(), r.c())));
            // a, b, c that do not fit the key's domain
            long[] big = new long[4 * key.domainSize()];
            assertThrows(IllegalArgumentException.class, () -> p.start(key, r.witness(), big, big, big));
        }
    }
}
