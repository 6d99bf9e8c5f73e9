package dev.proofline.algebra.encoding;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.SubgroupCheck;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;

/**
 * The checks every decoder ends with, and the field operations decoders share, for one call on one
 * thread (it holds a {@link PointArithmetic}).
 */
final class Validator {

    final CurveGroup group;
    final PointArithmetic pa;
    final Field f;
    final PrimeField fp;
    private final SubgroupCheck check;   // null: subgroup check skipped
    private final int limbs;

    Validator(CurveGroup group, boolean checkSubgroup) {
        this.group = group;
        this.check = checkSubgroup ? group.subgroupCheck() : null;
        this.pa = check != null ? check.arithmetic() : group.curve().arithmetic();
        this.f = pa.field();
        this.fp = group.baseField();
        this.limbs = fp.limbs();
    }

    PointEncodingException error(String problem) {
        return new PointEncodingException(group.displayName() + " point: " + problem);
    }

    PointEncodingException notCanonical(int component) {
        return error("coordinate " + group.componentName(component) + " is not below the field modulus");
    }

    /** Throws unless every Fp component of the affine point at ri is below p (Montgomery or canonical words). */
    void requireCanonicalWords(long[] r, int ri) {
        int n = 2 * group.degree();
        for (int i = 0; i < n; i++) {
            if (!fp.isCanonical(r, ri + i * limbs)) {
                throw notCanonical(i);
            }
        }
    }

    /**
     * Throws unless the affine point is on the curve and, when checked, in the subgroup. (0, 0) is the
     * point at infinity and passes.
     */
    void requireValid(long[] p, int pi) {
        requireValid(p, pi, -1);
    }

    /** As {@link #requireValid(long[], int)}; index >= 0 names the point's position in a vector. */
    void requireValid(long[] p, int pi, long index) {
        requireOnCurve(p, pi, index);
        requireInSubgroup(p, pi, index);
    }

    /** The first half of {@link #requireValid(long[], int, long)}. */
    void requireOnCurve(long[] p, int pi, long index) {
        if (!pa.isOnCurveAffine(p, pi)) {
            throw new PointEncodingException(group.displayName() + " point" + which(index) + " is not on the curve");
        }
    }

    /** The second half of {@link #requireValid(long[], int, long)}, for a point on the curve. */
    void requireInSubgroup(long[] p, int pi, long index) {
        if (check != null && !check.isInSubgroupAffine(p, pi)) {
            throw new PointEncodingException(group.displayName() + " point" + which(index)
                    + " is not in the subgroup of order r");
        }
    }

    private static String which(long index) {
        return index < 0 ? "" : " #" + index;
    }

    /** r = x^3 + b, in the coordinate field. */
    void curveRhs(long[] x, int xi, long[] r, int ri) {
        long[] t = f.newElement();
        f.sqr(x, xi, t, 0);
        f.mul(t, 0, x, xi, t, 0);
        f.add(t, 0, group.curve().b(), 0, r, ri);
    }

    boolean sqrt(long[] a, int ai, long[] r, int ri) {
        if (f instanceof Fp2 fp2) {
            return fp2.sqrt(a, ai, r, ri);
        }
        return ((PrimeField) f).sqrt(a, ai, r, ri);
    }

    /**
     * Whether y is the lexicographically largest of {y, -y}: for Fp, y > (p-1)/2; for Fp2 the c1
     * coefficient decides, c0 only when c1 = 0 (zkcrypto/bls12_381 Fp2::lexicographically_largest,
     * gnark-crypto E2.LexicographicallyLargest).
     */
    boolean isLexicographicallyLargest(long[] y, int yi) {
        if (group.degree() == 2 && !fp.isZero(y, yi + limbs)) {
            return fp.isLexicographicallyLarge(y, yi + limbs);
        }
        return fp.isLexicographicallyLarge(y, yi);
    }
}
