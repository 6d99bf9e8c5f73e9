package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
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

    /** The sums are Jacobian points ({@code sumB2} over Fp2) and are left as they are. */
    static Proof proof(ProvingKey key, long[] sumA, long[] sumB1, long[] sumB2, long[] sumC, long[] sumH,
            BigInteger r, BigInteger s) {
        PairingCurve curve = key.curve();
        WeierstrassCurve g1 = curve.g1();
        WeierstrassCurve g2 = curve.g2();
        PointArithmetic p1 = g1.arithmetic();
        PointArithmetic p2 = g2.arithmetic();

        // A = alpha + sum w_i A_i + r delta
        long[] a = sumA.clone();
        addAffine(p1, a, key.alpha1());
        addMultiple(p1, a, key.delta1(), r);

        // B = beta + sum w_i B_i + s delta, in G2
        long[] b = sumB2.clone();
        addAffine(p2, b, key.beta2());
        addMultiple(p2, b, key.delta2(), s);

        // B1 = beta + sum w_i B_i + s delta, in G1
        long[] b1 = sumB1.clone();
        addAffine(p1, b1, key.beta1());
        addMultiple(p1, b1, key.delta1(), s);

        // C = sum_private w_i C_i + sum h_i H_i + s A + r B1 - r s delta
        long[] c = sumC.clone();
        p1.add(c, 0, sumH, 0, c, 0);
        long[] t = new long[g1.jacobianWidth()];
        p1.mul(a, 0, s, t, 0);
        p1.add(c, 0, t, 0, c, 0);
        p1.mul(b1, 0, r, t, 0);
        p1.add(c, 0, t, 0, c, 0);
        BigInteger rs = r.multiply(s).mod(g1.order());
        addMultiple(p1, c, key.delta1(), g1.order().subtract(rs).mod(g1.order()));

        return new Proof(curve, affine(p1, a, g1.affineWidth()), affine(p2, b, g2.affineWidth()),
                affine(p1, c, g1.affineWidth()));
    }

    private static void addAffine(PointArithmetic pa, long[] acc, long[] affine) {
        pa.addMixed(acc, 0, affine, 0, acc, 0);
    }

    private static void addMultiple(PointArithmetic pa, long[] acc, long[] affine, BigInteger k) {
        long[] t = new long[acc.length];
        pa.mulAffine(affine, 0, k, t, 0);
        pa.add(acc, 0, t, 0, acc, 0);
    }

    private static long[] affine(PointArithmetic pa, long[] jac, int aw) {
        long[] r = new long[aw];
        pa.toAffine(jac, 0, r, 0);
        return r;
    }
}
