package dev.proofline.algebra.msm;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.field.PrimeField;

/**
 * Times the 8-lane batch-affine additions alone (not a test): batches of 1024 random additions,
 * 500 batches a round, prints the best of 30 rounds in ns per addition. Compare versions by running
 * each in several JVMs, alternating:
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -cp algebra/target/classes:algebra/target/test-classes \
 *     dev.proofline.algebra.msm.BatchKernelTiming bls12381      # or bn254
 * </pre>
 */
public final class BatchKernelTiming {

    private BatchKernelTiming() {
    }

    public static void main(String[] args) {
        String curve = args.length > 0 ? args[0] : "bn254";
        PrimeField f = (PrimeField) (curve.startsWith("bls") ? Bls12381.G1 : Bn254.G1).arithmetic().field();
        final int m = 1024;
        VectorWarmUp.Batch batch = VectorWarmUp.Batch.random(f, m);
        VectorBatchAffine k = VectorBatchAffine.create(f, true);
        final int reps = 500;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 30; round++) {
            long t0 = System.nanoTime();
            for (int r = 0; r < reps; r++) {
                batch.completeWith(k);
            }
            best = Math.min(best, (System.nanoTime() - t0) / (double) (reps * m));
        }
        System.out.printf("%s: best %.1f ns per addition%n", curve, best);
    }
}
