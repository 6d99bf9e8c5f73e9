package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.Parallel;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.ScalarMultiplier;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.math.BigInteger;

/**
 * A proof from its MSM sums and the blinding r and s, with the key's alpha, beta and delta:
 * <pre>
 *   A = alpha + sum w_i A_i + r delta                                   (G1)
 *   B = beta + sum w_i B_i + s delta                                    (G2; B1 the same in G1)
 *   C = sum_private w_i C_i + sum h_i H_i + s A + r B1 - r s delta      (G1)
 * </pre>
 */
final class Assembly {

    private Assembly() {
    }

    /**
     * The sums are Jacobian points ({@code sumB2} over Fp2) and are left as they are. B (in G2) is
     * computed on a second thread where there is one, beside the G1 points (scalar products by a signed
     * window, which made a small proof's assembly quicker than double-and-add on one thread:
     * docs/decisions/0013-circom-matrix-intel-2-6.md).
     */
    static Proof proof(ProvingKey key, long[] sumA, long[] sumB1, long[] sumB2, long[] sumC, long[] sumH,
            BigInteger r, BigInteger s) {
        PairingCurve curve = key.curve();
        long[][] out = new long[3][];
        Parallel.run(Runtime.getRuntime().availableProcessors(), 2, () -> t -> {
            if (t == 0) {
                long[][] ac = g1(key, sumA, sumB1, sumC, sumH, r, s);
                out[0] = ac[0];
                out[2] = ac[1];
            } else {
                out[1] = b(key, sumB2, s);
            }
        });
        return new Proof(curve, out[0], out[1], out[2]);
    }

    /** A and C, affine. */
    private static long[][] g1(ProvingKey key, long[] sumA, long[] sumB1, long[] sumC, long[] sumH, BigInteger r,
            BigInteger s) {
        WeierstrassCurve g1 = key.curve().g1();
        ScalarMultiplier m = new ScalarMultiplier(g1.arithmetic());
        PointArithmetic p1 = m.arithmetic();

        // A = alpha + sum w_i A_i + r delta
        long[] a = sumA.clone();
        addAffine(p1, a, key.alpha1());
        addMultiple(m, a, key.delta1(), r);

        // C = sum_private w_i C_i + sum h_i H_i + s A + r B1 - r s delta, and B1 = B1' + s delta with
        // B1' = beta + sum w_i B_i in G1, so r B1 - r s delta = r B1': C = ... + s A + r B1', three
        // scalar products in all instead of five (neither s delta nor r s delta is needed)
        long[] b1 = sumB1.clone();
        addAffine(p1, b1, key.beta1());
        long[] c = sumC.clone();
        p1.add(c, 0, sumH, 0, c, 0);
        long[] t = new long[g1.jacobianWidth()];
        m.mul(a, 0, s, t, 0);
        p1.add(c, 0, t, 0, c, 0);
        m.mul(b1, 0, r, t, 0);
        p1.add(c, 0, t, 0, c, 0);
        return new long[][] {affine(p1, a, g1.affineWidth()), affine(p1, c, g1.affineWidth())};
    }

    /** B = beta + sum w_i B_i + s delta, in G2, affine. */
    private static long[] b(ProvingKey key, long[] sumB2, BigInteger s) {
        WeierstrassCurve g2 = key.curve().g2();
        ScalarMultiplier m = new ScalarMultiplier(g2.arithmetic());
        long[] b = sumB2.clone();
        addAffine(m.arithmetic(), b, key.beta2());
        addMultiple(m, b, key.delta2(), s);
        return affine(m.arithmetic(), b, g2.affineWidth());
    }

    private static void addAffine(PointArithmetic pa, long[] acc, long[] affine) {
        pa.addMixed(acc, 0, affine, 0, acc, 0);
    }

    private static void addMultiple(ScalarMultiplier m, long[] acc, long[] affine, BigInteger k) {
        long[] t = new long[acc.length];
        m.mulAffine(affine, 0, k, t, 0);
        m.arithmetic().add(acc, 0, t, 0, acc, 0);
    }

    private static long[] affine(PointArithmetic pa, long[] jac, int aw) {
        long[] r = new long[aw];
        pa.toAffine(jac, 0, r, 0);
        return r;
    }
}
