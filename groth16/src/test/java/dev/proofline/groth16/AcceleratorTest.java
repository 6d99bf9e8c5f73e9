package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.msm.Msm;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import java.math.BigInteger;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The prover's accelerator seam: an accelerator that computes H and the G1 sums as the CPU does gives
 * the same proof, and one that gets them wrong gives no proof (finish verifies).
 */
class AcceleratorTest {

    /** H and the G1 sums by the CPU code, counting its calls. */
    static final class OnCpu implements Prover.Accelerator {
        final AtomicInteger calls = new AtomicInteger();
        final boolean corruptH;

        OnCpu(boolean corruptH) {
            this.corruptH = corruptH;
        }

        @Override
        public long[] quotient(ProvingKey key, long[] a, long[] b, long[] c) {
            calls.incrementAndGet();
            long[] h = Prover.quotient(key, a, b, c, Prover.create());
            if (corruptH) {
                h[0] ^= 1;
            }
            return h;
        }

        @Override
        public long[][] g1Sums(ProvingKey key, long[] w, long[] h) {
            calls.incrementAndGet();
            Msm msm = Msm.on(key.curve().g1());
            int nVars = key.variableCount();
            int nPublic = key.publicCount();
            return new long[][] {msm.multiply(key.pointsA(), 0, w, 0, nVars), msm.multiply(key.pointsB1(), 0, w, 0, nVars),
                msm.multiply(key.pointsC(), 0, w, nPublic + 1, nVars - nPublic - 1),
                msm.multiply(key.pointsH(), 0, h, 0, key.domainSize())};
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void anAcceleratorDoingTheCpuWorkGivesTheSameProofAndAWrongOneGivesNone(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        Witness w = WtnsFile.read(fx.wtns());
        ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(1234567), BigInteger.valueOf(7654321));
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            Proof plain = Prover.create().withRandomness(rs).prove(key, w);
            OnCpu acc = new OnCpu(false);
            Proof accelerated = Prover.create().withRandomness(rs).withAccelerator(acc).prove(key, w);
            assertEquals(2, acc.calls.get(), "H and the G1 sums went through the accelerator");
            assertTrue(java.util.Arrays.equals(plain.a(), accelerated.a()) && java.util.Arrays.equals(plain.b(),
                    accelerated.b()) && java.util.Arrays.equals(plain.c(), accelerated.c()), "the same proof");
            Prover wrong = Prover.create().withRandomness(rs).withAccelerator(new OnCpu(true));
            assertThrows(Prover.ProofRejectedException.class, () -> wrong.prove(key, w));
        }
    }
}
