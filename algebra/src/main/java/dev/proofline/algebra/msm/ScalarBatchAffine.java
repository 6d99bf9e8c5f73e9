package dev.proofline.algebra.msm;

import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;

/**
 * Completes a batch of affine additions of {@link BatchAffineBuckets} with the scalar field code, the
 * batch's denominators inverted together (Montgomery's trick: prefix products, one inversion, then
 * the unwinding). A doubling (S = D) is done in the same batch; S = -D unsets the destination.
 *
 * <p>Over Fp2 (G2) the denominators are inverted through their norms, 1/d = conj(d) / N(d) with
 * N(d) = d0^2 + d1^2 in Fp (zero only for d = 0, u^2 = -1 being a non-square): the prefix products
 * and their unwinding are then base-field products, seven base multiplications a denominator
 * instead of nine.
 */
final class ScalarBatchAffine {

    private static final byte ADD = 0;
    private static final byte DOUBLE = 1;
    private static final byte CANCEL = 2;

    private final Field f;
    /** Over Fp2: the field and its base (the norms' products), else null. */
    private final Fp2 f2;
    private final PrimeField fp;
    private final int bw;
    private final int fw;
    private final int aw;
    /** Over Fp2: the denominators' norms, entry j at j * bw; an inverse norm. */
    private final long[] norm;
    private final long[] tn;
    // per entry: its kind; denominators, prefix products
    private final byte[] eKind;
    private final long[] den;
    private final long[] prefix;
    private final long[] inv;
    private final long[] t;
    private final long[] lambda;
    private final long[] x3;

    /** Over {@code f}, coordinates of {@code fw} words, affine points of {@code aw}; batches of up to {@code entries}. */
    ScalarBatchAffine(Field f, int fw, int aw, int entries) {
        this.f = f;
        this.f2 = f instanceof Fp2 e ? e : null;
        this.fp = f2 != null ? f2.base() : null;
        this.bw = f2 != null ? fp.width() : 0;
        this.fw = fw;
        this.aw = aw;
        this.eKind = new byte[entries];
        this.den = new long[entries * fw];
        this.prefix = new long[entries * fw];
        this.norm = new long[entries * bw];
        this.tn = new long[bw];
        this.inv = new long[fw];
        this.t = new long[fw];
        this.lambda = new long[fw];
        this.x3 = new long[fw];
    }

    /**
     * dst[eDst[j]] += (eNeg[j] ? -1 : 1) src at eSrc[j], for the m entries (m > 0), with one inversion.
     * Every destination is set and distinct, no source is infinity; a destination that cancels is unset.
     */
    void complete(long[] dst, boolean[] dstSet, long[] src, int[] eDst, int[] eSrc, boolean[] eNeg, int m) {
        // pass 1: denominators xS - xD, or xD - xS when S is negated (so that lambda needs no
        // negation: (-yS - yD) / (xS - xD) = (yS + yD) / (xD - xS)), or 2 yD for a doubling
        for (int j = 0; j < m; j++) {
            final int jo = j * fw;
            final int d = eDst[j] * aw;
            final int s = eSrc[j];
            final boolean neg = eNeg[j];
            if (neg) {
                f.sub(dst, d, src, s, den, jo);
            } else {
                f.sub(src, s, dst, d, den, jo);
            }
            byte kind = ADD;
            if (f.isZero(den, jo)) {
                // same x: S = D when their y agree (yS - yD = 0, or yS + yD = 0 for a negated S)
                if (neg) {
                    f.add(src, s + fw, dst, d + fw, t, 0);
                } else {
                    f.sub(src, s + fw, dst, d + fw, t, 0);
                }
                if (f.isZero(t, 0) && !f.isZero(dst, d + fw)) {
                    kind = DOUBLE;
                    f.dbl(dst, d + fw, den, jo);
                } else {
                    kind = CANCEL; // S = -D (or a point of order two doubled): D + S = O
                    dstSet[eDst[j]] = false;
                    f.setOne(den, jo);
                }
            }
            eKind[j] = kind;
            if (f2 != null) {
                final int no = j * bw;
                f2.norm(den, jo, norm, no);
                if (j == 0) {
                    fp.copy(norm, 0, prefix, 0);
                } else {
                    fp.mul(prefix, no - bw, norm, no, prefix, no);
                }
            } else if (j == 0) {
                f.copy(den, 0, prefix, 0);
            } else {
                f.mul(prefix, jo - fw, den, jo, prefix, jo);
            }
        }
        if (f2 != null) {
            fp.invVartime(prefix, (m - 1) * bw, inv, 0);       // inv = 1 / (N_0 ... N_{m-1})
        } else {
            f.invVartime(prefix, (m - 1) * fw, inv, 0);        // inv = 1 / (den_0 ... den_{m-1})
        }
        // pass 2, backwards: 1/den_j = inv * prefix_{j-1}; then inv *= den_j. (Computing all the
        // inverses first, for independent additions after, measured slower.)
        for (int j = m - 1; j >= 0; j--) {
            final int jo = j * fw;
            if (f2 != null) {
                // 1/N_j = inv * prefix_{j-1}, inv *= N_j; 1/den_j = conj(den_j) / N_j
                if (j > 0) {
                    fp.mul(inv, 0, prefix, (j - 1) * bw, tn, 0);
                    fp.mul(inv, 0, norm, j * bw, inv, 0);
                } else {
                    fp.copy(inv, 0, tn, 0);
                }
                f2.conjugate(den, jo, t, 0);
                f2.mulByBase(t, 0, tn, 0, t, 0);
            } else if (j > 0) {
                f.mul(inv, 0, prefix, jo - fw, t, 0);
                f.mul(inv, 0, den, jo, inv, 0);
            } else {
                f.copy(inv, 0, t, 0);
            }
            final byte kind = eKind[j];
            if (kind == CANCEL) {
                continue;
            }
            final int d = eDst[j] * aw;
            final int s = eSrc[j];
            if (kind == DOUBLE) {
                f.sqr(dst, d, lambda, 0);
                f.add(lambda, 0, lambda, 0, x3, 0);
                f.add(lambda, 0, x3, 0, lambda, 0);     // 3 xD^2
            } else if (eNeg[j]) {
                f.add(src, s + fw, dst, d + fw, lambda, 0); // over xD - xS
            } else {
                f.sub(src, s + fw, dst, d + fw, lambda, 0);
            }
            f.mul(lambda, 0, t, 0, lambda, 0);
            f.sqr(lambda, 0, x3, 0);
            f.sub(x3, 0, dst, d, x3, 0);
            f.sub(x3, 0, src, s, x3, 0);                // x3 = lambda^2 - xD - xS (xS = xD when doubling)
            f.sub(dst, d, x3, 0, t, 0);
            f.mul(lambda, 0, t, 0, t, 0);
            f.sub(t, 0, dst, d + fw, dst, d + fw);      // y3 = lambda (xD - x3) - yD
            f.copy(x3, 0, dst, d);
        }
    }
}
