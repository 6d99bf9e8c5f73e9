package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;

/**
 * Field elements and curve points drawn from a {@link ChaChaStream} exactly as ffjavascript draws
 * them ({@code fromRng}), so that a beacon's secrets and the G2 points of a contribution's proof
 * come out as snarkjs computes them:
 * <ul>
 *   <li>an element of a prime field: one 64-bit word per limb (least significant limb first, each
 *       word's high half drawn first), masked to the modulus's bit length, redrawn while not below the
 *       modulus. The words are the element's Montgomery form: the element is their value over R.
 *   <li>an element of Fp2: c0, then c1.
 *   <li>a point: x drawn, then a bit; redrawn until x^3 + b is a square; y its root whose sign
 *       ({@link PointBytes#isNegative}) is the bit; then multiplied by ffjavascript's cofactor of the
 *       group (none for BN254 G1).
 * </ul>
 */
final class ChaChaSampler {

    /** ffjavascript's cofactors: BN254 G2's, BLS12-381 G1's and the effective one of BLS12-381 G2. */
    private static final BigInteger BN254_G2 =
            new BigInteger("30644e72e131a029b85045b68181585e06ceecda572a2489345f2299c0f9fa8d", 16);
    private static final BigInteger BLS12_381_G1 = new BigInteger("396c8c005555e1568c00aaab0000aaab", 16);
    private static final BigInteger BLS12_381_G2 = new BigInteger("5d543a95414e7f1091d50792876a202cd91de4547085abaa"
            + "68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5", 16);

    private ChaChaSampler() {
    }

    /** An element of f, Montgomery form. */
    static long[] element(PrimeField f, ChaChaStream rng) {
        int limbs = f.limbs();
        int topBits = f.bits() - 64 * (limbs - 1);
        long topMask = topBits == 64 ? -1L : (1L << topBits) - 1;
        long[] v = new long[limbs];
        do {
            for (int i = 0; i < limbs; i++) {
                v[i] = rng.nextU64();
            }
            v[limbs - 1] &= topMask;
        } while (!f.isCanonical(v, 0));
        return v;
    }

    static long[] g1(PairingCurve c, ChaChaStream rng) {
        return point(c, c.g1(), c == PairingCurve.BLS12_381 ? BLS12_381_G1 : null, rng);
    }

    static long[] g2(PairingCurve c, ChaChaStream rng) {
        return point(c, c.g2(), c == PairingCurve.BLS12_381 ? BLS12_381_G2 : BN254_G2, rng);
    }

    /** An affine point of {@code curve}. */
    private static long[] point(PairingCurve c, WeierstrassCurve curve, BigInteger cofactor, ChaChaStream rng) {
        PrimeField fp = c.fp();
        Field f = curve.field();
        int degree = curve.coordinateWidth() / fp.limbs();
        int w = curve.coordinateWidth();
        long[] p = new long[2 * w];
        long[] rhs = new long[w];
        boolean negative;
        while (true) {
            for (int d = 0; d < degree; d++) {
                System.arraycopy(element(fp, rng), 0, p, d * fp.limbs(), fp.limbs());
            }
            negative = rng.nextBool();
            f.sqr(p, 0, rhs, 0);
            f.mul(rhs, 0, p, 0, rhs, 0);
            f.add(rhs, 0, curve.b(), 0, rhs, 0);
            if (sqrt(f, rhs, p, w)) {
                break;
            }
        }
        PointBytes bytes = new PointBytes(curve, fp);
        if (bytes.isNegative(p, w) != negative) {
            f.neg(p, w, p, w);
        }
        if (cofactor == null) {
            return p;
        }
        PointArithmetic pa = curve.arithmetic();
        long[] j = new long[curve.jacobianWidth()];
        pa.mulAffine(p, 0, cofactor, j, 0);
        long[] r = new long[curve.affineWidth()];
        pa.toAffine(j, 0, r, 0);
        return r;
    }

    private static boolean sqrt(Field f, long[] a, long[] r, int ri) {
        if (f instanceof PrimeField pf) {
            return pf.sqrt(a, 0, r, ri);
        }
        return ((dev.proofline.algebra.field.Fp2) f).sqrt(a, 0, r, ri);
    }
}
