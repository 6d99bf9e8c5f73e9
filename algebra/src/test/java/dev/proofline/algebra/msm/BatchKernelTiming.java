package dev.proofline.algebra.msm;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;

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
        final int aw = 2 * f.width();
        Random rnd = new Random(1);
        long[] dst = new long[m * aw];
        long[] src = new long[m * aw];
        for (int i = 0; i < m * aw; i += f.width()) {
            f.fromBigInteger(new BigInteger(f.bits() + 8, rnd).mod(f.modulus()), dst, i);
            f.fromBigInteger(new BigInteger(f.bits() + 8, rnd).mod(f.modulus()), src, i);
        }
        int[] eDst = new int[m];
        int[] eSrc = new int[m];
        boolean[] eNeg = new boolean[m];
        boolean[] set = new boolean[m];
        for (int j = 0; j < m; j++) {
            eDst[j] = j;
            eSrc[j] = j * aw;
            eNeg[j] = rnd.nextBoolean();
        }
        VectorBatchAffine k = VectorBatchAffine.create(f, true);
        final int reps = 500;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 30; round++) {
            long t0 = System.nanoTime();
            for (int r = 0; r < reps; r++) {
                Arrays.fill(set, true);
                k.completeBatch(dst, set, src, eDst, eSrc, eNeg, m, aw);
            }
            best = Math.min(best, (System.nanoTime() - t0) / (double) (reps * m));
        }
        System.out.printf("%s: best %.1f ns per addition%n", curve, best);
    }
}
