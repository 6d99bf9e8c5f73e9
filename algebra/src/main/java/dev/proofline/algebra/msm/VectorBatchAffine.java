package dev.proofline.algebra.msm;

import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.LimbProducts;
import dev.proofline.algebra.field.PrimeField;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The batch-affine additions of {@link BatchAffineBuckets} eight at a time, one per 64-bit lane of a
 * 512-bit vector of the incubating Vector API, for 4-word base fields (BN254's Fp). The only class of
 * the MSM that touches that module: {@link BatchAdder#of} loads it by name.
 *
 * <p>Entry j of a batch goes to lane j mod 8 of group j / 8. The prefix products of Montgomery's trick
 * run as eight interleaved chains (lane l multiplies the denominators of entries l, l + 8, ...), so
 * that every multiplication of the batch is a vector one; the eight chain totals are inverted together
 * with the scalar code (one inversion). Elements are split into 9 limbs of 29 bits as in the NTT's
 * kernel, with a Montgomery reduction by exactly 2^256 (eight 29-bit steps and one of 24 bits), so the
 * data stay in the Montgomery form of the scalar code, and every result is reduced to [0, q): the
 * outputs equal the scalar code's word for word. The rare entries whose x equal the destination's
 * (a doubling, or a cancellation) are detected per lane and patched in with the scalar code.
 *
 * <p>Like the NTT's kernel, the vector code is far slower than the scalar code until C2 has compiled
 * it, so {@link #ready} is false until a background warm-up ({@link VectorWarmUp}) has seen it beat
 * the scalar code. The warm-up starts with {@link #warmUp}, or by itself once the scalar code has done
 * {@link VectorWarmUp#WARM_UP_AFTER} additions in this kernel's place.
 */
abstract class VectorBatchAffine extends BatchAdder {

    static final VectorSpecies<Long> S = LongVector.SPECIES_512;
    static final long M = (1L << 29) - 1;
    /** The limb products' operand mask ({@link LimbProducts}). */
    static final long LO = LimbProducts.MASK;

    /** Limbs of 8 elements; per group of 8 entries: xD, yD, xS, numerator, denominator, prefix product. */
    private final int E;
    private final int XD;
    private final int YD;
    private final int XS;
    private final int NUM;
    private final int DEN;
    private final int PRE;
    private final int GROUP;
    private final int L;

    private final PrimeField f;
    private final int fw;
    /** The modulus in 29-bit limbs. */
    final long[] q;
    /** -q^-1 mod 2^29. */
    final long qInv;
    private final boolean eager;

    private long[] x = new long[0];
    /** Temporaries after the groups: inverse, its product with a prefix, lambda, x3, y3, a difference, columns. */
    private int inv;
    private int tt;
    private int lam;
    private int x3;
    private int y3;
    private int w;
    private int col;
    private final long[] words;
    private final long[] words2;
    private final boolean[] lanes = new boolean[8];
    private boolean[] cancel = new boolean[0];
    private final long[] e1;
    private final long[] e2;
    private final long[] totals;
    private final long[] pp;
    private final long[] one;

    /**
     * 4-word fields with q below 2^255 and 6-word fields with q below 2^383 (the limbs, 9 or 14 of 29
     * bits, hold sums of two elements), on 512-bit vectors.
     */
    static boolean applies(PrimeField f) {
        int n = f.limbs();
        if (n != 4 && n != 6) {
            return false;
        }
        long top = f.modulusWords()[n - 1];
        if (top < 0 || top >= 0x7FFFFFFFFFFFFFFEL) {
            return false;
        }
        return LongVector.SPECIES_PREFERRED.vectorBitSize() >= 512;
    }

    /** Limbs of 29 bits per element: 9 or 14. */
    final int limbCount() {
        return L;
    }

    /** The kernel for the field (which {@link #applies}). */
    static VectorBatchAffine create(PrimeField f, boolean eager) {
        return f.limbs() == 4 ? new VectorBatchAffine4(f, eager) : new VectorBatchAffine6(f, eager);
    }

    /** The kernel for a prime field or for an Fp2 over one (whose base field {@link #applies}). */
    static BatchAdder create(Field f, boolean eager) {
        if (f instanceof Fp2 e) {
            return new VectorBatchAffine2(e, create((PrimeField) e.base().forThread(), eager));
        }
        return create((PrimeField) f, eager);
    }

    VectorBatchAffine(PrimeField f, boolean eager, int limbs) {
        if (!applies(f)) {
            throw new IllegalArgumentException("no 8-lane batch additions for " + f);
        }
        this.f = f;
        this.fw = f.width();
        this.L = limbs;
        this.E = 8 * limbs;
        this.XD = 0;
        this.YD = E;
        this.XS = 2 * E;
        this.NUM = 3 * E;
        this.DEN = 4 * E;
        this.PRE = 5 * E;
        this.GROUP = 6 * E;
        this.q = limbs(f.modulusWords(), 0, fw, limbs);
        this.qInv = f.negInvWord() & M;
        this.eager = eager;
        this.one = new long[fw];
        f.setOne(one, 0);
        this.words = new long[8 * fw];
        this.words2 = new long[8 * fw];
        this.e1 = new long[fw];
        this.e2 = new long[fw];
        this.totals = new long[8 * fw];
        this.pp = new long[8 * fw];
    }

    @Override
    void scalarWork(int additions) {
        if (!eager) {
            VectorWarmUp.scalarWork(f, additions);
        }
    }

    @Override
    boolean ready() {
        return eager || VectorWarmUp.compiled(fw);
    }

    @Override
    boolean warmUp(long timeoutMillis) throws InterruptedException {
        VectorWarmUp.warmUp(f, timeoutMillis);
        return ready();
    }

    /** Whether the warm-up is under way: the kernel is not ready yet and may be soon. */
    boolean warming() {
        return !eager && VectorWarmUp.running(fw);
    }

    /** The n limbs of 29 bits of the value of w words at w[off ..]. */
    static long[] limbs(long[] w, int off, int words, int n) {
        long[] l = new long[n];
        for (int k = 0; k < n; k++) {
            int bit = 29 * k;
            int word = bit >>> 6;
            int sh = bit & 63;
            long v = word < words ? w[off + word] >>> sh : 0;
            if (sh > 64 - 29 && word + 1 < words) {
                v |= w[off + word + 1] << (64 - sh);
            }
            l[k] = v & M;
        }
        return l;
    }

    /** Writes the limbs of the element at w[off ..] into lane l of the 8 elements at xo. */
    private void setLane(long[] w, int off, int xo, int l) {
        long[] limbs = limbs(w, off, fw, L);
        for (int k = 0; k < L; k++) {
            x[xo + 8 * k + l] = limbs[k];
        }
    }

    private void ensure(int groups) {
        int need = groups * GROUP + 6 * E + (2 * L - 1) * 8;
        if (x.length < need) {
            x = new long[need];
            cancel = new boolean[groups * 8];
            int t = groups * GROUP;
            inv = t;
            tt = t + E;
            lam = t + 2 * E;
            x3 = t + 3 * E;
            y3 = t + 4 * E;
            w = t + 5 * E;
            col = t + 6 * E;
        }
    }

    private void mul(int ao, int bo, int ro) {
        mulReduce(x, ao, bo, col);
        finish(x, col, ro);
    }

    /**
     * The product below 2q, not reduced to [0, q): for values that only go into other products (which
     * take factors below 2q: (2q)^2 / R + q < 2q, R = 2^(64 fw) > 4q).
     */
    private void mulLazy(int ao, int bo, int ro) {
        mulReduce(x, ao, bo, col);
        finishLazy(x, col, ro);
    }

    private void sqr(int ao, int ro) {
        square(x, ao, col);
        reduce(x, col);
        finish(x, col, ro);
    }

    @Override
    void completeBatch(long[] dst, boolean[] dstSet, long[] src, int[] eDst, int[] eSrc, boolean[] eNeg, int m,
            int aw) {
        if (m == 0) {
            return;
        }
        final int groups = (m + 7) >>> 3;
        ensure(groups);
        final long[] wb = words;
        final long[] wb2 = words2;
        // pass 1: load the group, denominators xS - xD and numerators yS - yD (S negated where asked),
        // then the prefix products of the eight chains
        for (int g = 0; g < groups; g++) {
            final int base = g * GROUP;
            final int j0 = g * 8;
            for (int l = 0; l < 8; l++) {
                int j = j0 + l;
                if (j < m) {
                    int d = eDst[j] * aw;
                    System.arraycopy(dst, d, wb, fw * l, fw);
                    System.arraycopy(dst, d + fw, wb2, fw * l, fw);
                    lanes[l] = eNeg[j];
                } else {
                    // a lane past the batch: xD = 0, yD = 0, xS = 1, yS = 0 (denominator 1), never stored
                    for (int k = 0; k < fw; k++) {
                        wb[fw * l + k] = 0;
                        wb2[fw * l + k] = 0;
                    }
                    lanes[l] = false;
                }
            }
            load(wb, 0, x, base + XD);
            load(wb2, 0, x, base + YD);
            for (int l = 0; l < 8; l++) {
                int j = j0 + l;
                if (j < m) {
                    int s = eSrc[j];
                    System.arraycopy(src, s, wb, fw * l, fw);
                    System.arraycopy(src, s + fw, wb2, fw * l, fw);
                } else {
                    wb[fw * l] = 1;
                }
            }
            load(wb, 0, x, base + XS);
            load(wb2, 0, x, tt);
            negWhere(x, tt, lanes);
            sub(x, base + XS, base + XD, base + DEN);
            sub(x, tt, base + YD, base + NUM);
            long zero = zeroLanes(x, base + DEN);
            if (zero != 0) {
                special(zero, g, dst, dstSet, src, eDst, eSrc, eNeg, m, aw);
            } else {
                for (int l = 0; l < 8; l++) {
                    cancel[j0 + l] = false;
                }
            }
            if (g == 0) {
                System.arraycopy(x, base + DEN, x, base + PRE, E);
            } else if (g < groups - 1) {
                mulLazy(base - GROUP + PRE, base + DEN, base + PRE);
            } else {
                mul(base - GROUP + PRE, base + DEN, base + PRE); // the chain totals, to the scalar code
            }
        }
        // the eight chain totals inverted together
        store(x, (groups - 1) * GROUP + PRE, totals, 0);
        invertEight(f, fw, totals, pp, e1, wb);
        load(wb, 0, x, inv);
        // pass 2, backwards: 1/den = inv * prefix of the group before; inv *= den; then the additions
        for (int g = groups - 1; g >= 0; g--) {
            final int base = g * GROUP;
            int t;
            if (g > 0) {
                mulLazy(inv, base - GROUP + PRE, tt);
                mulLazy(inv, base + DEN, inv);
                t = tt;
            } else {
                t = inv;
            }
            mulLazy(base + NUM, t, lam);                // lambda (below 2q)
            sqr(lam, x3);
            sub(x, x3, base + XD, x3);
            sub(x, x3, base + XS, x3);                  // x3 = lambda^2 - xD - xS
            sub(x, base + XD, x3, w);
            mul(lam, w, y3);
            sub(x, y3, base + YD, y3);                  // y3 = lambda (xD - x3) - yD
            store(x, x3, wb, 0);
            store(x, y3, wb2, 0);
            final int j0 = g * 8;
            final int n = Math.min(8, m - j0);
            for (int l = 0; l < n; l++) {
                int j = j0 + l;
                if (cancel[j]) {
                    continue;
                }
                int d = eDst[j] * aw;
                System.arraycopy(wb, fw * l, dst, d, fw);
                System.arraycopy(wb2, fw * l, dst, d + fw, fw);
            }
        }
    }

    /**
     * Lanes of group g whose denominator is zero (same x): a doubling when the y agree (and are not zero),
     * denominator 2 yD and numerator 3 xD^2; otherwise D + S = O, the destination is unset and the
     * denominator set to one.
     */
    private void special(long zero, int g, long[] dst, boolean[] dstSet, long[] src, int[] eDst, int[] eSrc,
            boolean[] eNeg, int m, int aw) {
        final int base = g * GROUP;
        for (int l = 0; l < 8; l++) {
            int j = g * 8 + l;
            cancel[j] = false;
            if (j >= m || (zero >>> l & 1) == 0) {
                continue;
            }
            if (isDoubling(f, fw, dst, eDst[j] * aw, src, eSrc[j], eNeg[j], e1, e2)) {
                setLane(e1, 0, base + DEN, l);
                setLane(e2, 0, base + NUM, l);
            } else {
                cancel[j] = true;
                dstSet[eDst[j]] = false;
                setLane(one, 0, base + DEN, l);
            }
        }
    }

    /**
     * For an entry whose source S (at src[s], negated when neg) has the x of its destination D (at
     * dst[d]), in field f with coordinates of cw words: whether D + S is a doubling (S = D, yD not zero),
     * with its denominator 2 yD to den and numerator 3 xD^2 to num; otherwise D + S = O (den and num
     * then hold scratch).
     */
    static boolean isDoubling(Field f, int cw, long[] dst, int d, long[] src, int s, boolean neg, long[] den,
            long[] num) {
        if (neg) {
            f.add(src, s + cw, dst, d + cw, den, 0);
        } else {
            f.sub(src, s + cw, dst, d + cw, den, 0);
        }
        if (!f.isZero(den, 0) || f.isZero(dst, d + cw)) {
            return false;
        }
        f.sqr(dst, d, num, 0);
        f.add(num, 0, num, 0, den, 0);
        f.add(num, 0, den, 0, num, 0);                  // 3 xD^2
        f.dbl(dst, d + cw, den, 0);                     // 2 yD
        return true;
    }

    /**
     * out[fw l ..] = 1 / t[fw l ..] for the 8 elements of t, with one inversion (Montgomery's trick):
     * prefix products in pp (8 fw words; out may be pp), e (fw words) scratch.
     */
    static void invertEight(Field f, int fw, long[] t, long[] pp, long[] e, long[] out) {
        System.arraycopy(t, 0, pp, 0, fw);
        for (int l = 1; l < 8; l++) {
            f.mul(pp, fw * (l - 1), t, fw * l, pp, fw * l);
        }
        f.invVartime(pp, 7 * fw, e, 0);
        for (int l = 7; l > 0; l--) {
            f.mul(e, 0, pp, fw * (l - 1), out, fw * l);     // reads slot l - 1 of pp before out's slot l - 1
            f.mul(e, 0, t, fw * l, e, 0);
        }
        System.arraycopy(e, 0, out, 0, fw);
    }

    /** The limbs of the 8 elements at a[off ..] (element l at off + l fw) to x[xo + 8 k + lane]. */
    abstract void load(long[] a, int off, long[] x, int xo);

    /** The inverse of {@link #load}, for canonical values. */
    abstract void store(long[] x, int xo, long[] a, int off);

    /** The 2L - 1 column sums of the square of the limbs at ao, to x[co + 8 k + lane]. */
    abstract void square(long[] x, int ao, int co);

    /**
     * Montgomery reduction of the columns at co (a product of two values below 2q), first part: the
     * L + 1 normalised limbs of (c + m q) / 2^(29 (L - 1)), a multiple of 2^(64 fw - 29 (L - 1)), back to co.
     * (In one method with {@link #finish}, C1 runs out of registers on it, and C2 never gets it.)
     */
    abstract void reduce(long[] x, int co);

    /**
     * The Montgomery product of the limbs at ao and bo, as {@link #reduce} leaves it: L + 1 limbs at co,
     * for {@link #finish} or {@link #finishLazy} (the schoolbook rows interleaved with the reduction's
     * steps, the columns kept in locals in parts).
     */
    abstract void mulReduce(long[] x, int ao, int bo, int co);

    /** Second part of the reduction: the limbs at co shifted down to c 2^(-64 fw) mod q, canonical, to ro. */
    abstract void finish(long[] x, int co, int ro);

    /** As {@link #finish}, without the final subtraction of q: the result is below 2q. */
    abstract void finishLazy(long[] x, int co, int ro);

    /** x at ro = a + b mod q, canonical, from canonical a (at ao) and b (at bo). */
    abstract void add(long[] x, int ao, int bo, int ro);

    /** x at ro = a - b mod q, canonical, from canonical a (at ao) and b (at bo). */
    abstract void sub(long[] x, int ao, int bo, int ro);

    /** Negates (mod q) the canonical elements at o in the lanes where neg[lane]. */
    abstract void negWhere(long[] x, int o, boolean[] neg);

    /** The lanes (bit l for lane l) where the element at o is zero. */
    abstract long zeroLanes(long[] x, int o);

    /**
     * The 2L - 1 columns at co += those at ao (sums of two squares of values below q stay below the
     * reduction's bound of (2q)^2, and each column below 2^63).
     */
    final void addColumns(long[] x, int ao, int co) {
        for (int i = 0; i < 8 * (2 * L - 1); i += 8) {
            LongVector.fromArray(S, x, co + i).add(LongVector.fromArray(S, x, ao + i)).intoArray(x, co + i);
        }
    }
}
