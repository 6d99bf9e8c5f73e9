package dev.proofline.algebra.msm;

import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;

/**
 * The batch-affine additions of {@link VectorBatchAffine} over Fp2 = Fp[u]/(u^2 + 1) (the G2 of BN254
 * and BLS12-381), 8 at a time, on the base field's 8-lane limb arithmetic: an Fp2 element is its two
 * coordinates' limbs, one block after the other; a product is three base products (Karatsuba), a
 * square two. The denominators are inverted through their norms: 1/d = conj(d) / N(d) with
 * N(d) = d0^2 + d1^2 in Fp (u^2 = -1 is not a square in Fp, so N(d) = 0 only for d = 0), so that the
 * prefix products of Montgomery's trick and their unwinding are base-field products (seven base
 * multiplications a denominator instead of nine, and no Fp2 additions); the chain totals are
 * inverted with the scalar Fp code, doublings and cancellations patched in with the scalar Fp2 code,
 * as for Fp. Results equal the scalar code's word for word.
 *
 * <p>Ready when the base field's kernel is (its warm-up compiles the methods used here).
 */
final class VectorBatchAffine2 extends BatchAdder {

    private final VectorBatchAffine k;
    private final Fp2 f;
    private final PrimeField fp;
    /** Base field words. */
    private final int n;
    private final int L;
    /** Longs of one base element's limbs (8 lanes), and of one Fp2 element's (two of those). */
    private final int E;
    private final int E2;
    private final int XD;
    private final int YD;
    private final int XS;
    private final int NUM;
    private final int DEN;
    private final int PRE;
    private final int GROUP;

    private long[] x = new long[0];
    private int inv;
    private int tt;
    private int lam;
    private int x3;
    private int y3;
    private int w;
    private int t0;
    private int t1;
    private int t2;
    private int t3;
    private int col;
    private int col2;
    private final long[] words;
    private final long[] words2;
    private final boolean[] lanes = new boolean[8];
    private boolean[] cancel = new boolean[0];
    private final long[] e1;
    private final long[] e2;
    private final long[] pp;
    private final long[] one;
    private final boolean[] allLanes = {true, true, true, true, true, true, true, true};

    VectorBatchAffine2(Fp2 f, VectorBatchAffine k) {
        this.k = k;
        this.f = f;
        this.fp = f.base();
        this.n = fp.width();
        this.L = k.limbCount();
        this.E = 8 * L;
        this.E2 = 2 * E;
        this.XD = 0;
        this.YD = E2;
        this.XS = 2 * E2;
        this.NUM = 3 * E2;
        this.DEN = 4 * E2;
        this.PRE = 5 * E2;
        this.GROUP = 6 * E2;
        this.words = new long[8 * n];
        this.words2 = new long[8 * n];
        this.e1 = new long[2 * n];
        this.e2 = new long[2 * n];
        this.pp = new long[16 * n];
        this.one = new long[2 * n];
        f.setOne(one, 0);
    }

    @Override
    boolean ready() {
        return k.ready();
    }

    @Override
    void scalarWork(int additions) {
        k.scalarWork(3 * additions); // an Fp2 addition is about three base ones
    }

    @Override
    boolean warmUp(long timeoutMillis) throws InterruptedException {
        return k.warmUp(timeoutMillis);
    }

    private void ensure(int groups) {
        int need = groups * GROUP + 6 * E2 + 4 * E + 2 * (2 * L - 1) * 8;
        if (x.length < need) {
            x = new long[need];
            cancel = new boolean[groups * 8];
            int t = groups * GROUP;
            inv = t;
            tt = t + E2;
            lam = t + 2 * E2;
            x3 = t + 3 * E2;
            y3 = t + 4 * E2;
            w = t + 5 * E2;
            t0 = t + 6 * E2;
            t1 = t0 + E;
            t2 = t1 + E;
            t3 = t2 + E;
            col = t3 + E;
            col2 = col + (2 * L - 1) * 8;
        }
    }

    /** r = N(a) = a0^2 + a1^2 in Fp: the two squares' columns summed, one reduction. */
    private void norm(int a, int r) {
        k.square(x, a, col);
        k.square(x, a + E, col2);
        k.addColumns(x, col2, col);
        k.reduce(x, col);
        k.finish(x, col, r);
    }

    /** Base product of the limbs at a and b, reduced, to r. */
    private void mulBase(int a, int b, int r) {
        k.mulReduce(x, a, b, col);
        k.finish(x, col, r);
    }

    /** r = a b in Fp2 (r may be a or b). */
    private void mul(int a, int b, int r) {
        mulBase(a, b, t0);                          // v0 = a0 b0
        mulBase(a + E, b + E, t1);                  // v1 = a1 b1
        k.add(x, a, a + E, t2);
        k.add(x, b, b + E, t3);
        mulBase(t2, t3, t2);                        // (a0 + a1)(b0 + b1)
        k.sub(x, t2, t0, t2);
        k.sub(x, t2, t1, r + E);                    // c1 = that - v0 - v1
        k.sub(x, t0, t1, r);                        // c0 = v0 - v1
    }

    /** r = a^2 in Fp2 (r distinct from a): (a0 + a1)(a0 - a1) + 2 a0 a1 u. */
    private void sqr(int a, int r) {
        k.add(x, a, a + E, t2);
        k.sub(x, a, a + E, t3);
        mulBase(a, a + E, t1);
        mulBase(t2, t3, r);
        k.add(x, t1, t1, r + E);
    }

    private void sub(int a, int b, int r) {
        k.sub(x, a, b, r);
        k.sub(x, a + E, b + E, r + E);
    }

    /** The Fp2 elements of 8 lanes (lane l's at a[8 ... ]: c0 in wb, c1 in wb2) to limbs at xo. */
    private void load(long[] wb, long[] wb2, int xo) {
        k.load(wb, 0, x, xo);
        k.load(wb2, 0, x, xo + E);
    }

    /** Lane l's Fp2 element from a[s ..] (c0, then c1) into the staging arrays. */
    private void stage(long[] a, int s, int l) {
        System.arraycopy(a, s, words, n * l, n);
        System.arraycopy(a, s + n, words2, n * l, n);
    }

    @Override
    void completeBatch(long[] dst, boolean[] dstSet, long[] src, int[] eDst, int[] eSrc, boolean[] eNeg, int m,
            int aw) {
        if (m == 0) {
            return;
        }
        final int fw = 2 * n;
        final int groups = (m + 7) >>> 3;
        ensure(groups);
        // pass 1: the group's xD, yD, xS, yS (S negated where asked), denominators and numerators, and
        // the prefix products of the eight chains
        for (int g = 0; g < groups; g++) {
            final int base = g * GROUP;
            final int j0 = g * 8;
            for (int part = 0; part < 2; part++) {
                for (int l = 0; l < 8; l++) {
                    int j = j0 + l;
                    if (j < m) {
                        stage(dst, eDst[j] * aw + part * fw, l);
                    } else {
                        java.util.Arrays.fill(words, n * l, n * l + n, 0);
                        java.util.Arrays.fill(words2, n * l, n * l + n, 0);
                    }
                }
                load(words, words2, base + (part == 0 ? XD : YD));
            }
            for (int part = 0; part < 2; part++) {
                for (int l = 0; l < 8; l++) {
                    int j = j0 + l;
                    if (j < m) {
                        stage(src, eSrc[j] + part * fw, l);
                        lanes[l] = eNeg[j];
                    } else {
                        // a lane past the batch: xS = 1 (denominator 1), yS = 0; never stored
                        java.util.Arrays.fill(words, n * l, n * l + n, 0);
                        java.util.Arrays.fill(words2, n * l, n * l + n, 0);
                        words[n * l] = part == 0 ? 1 : 0;
                        lanes[l] = false;
                    }
                }
                load(words, words2, part == 0 ? base + XS : tt);
            }
            k.negWhere(x, tt, lanes);
            k.negWhere(x, tt + E, lanes);
            sub(base + XS, base + XD, base + DEN);
            sub(tt, base + YD, base + NUM);
            long zero = k.zeroLanes(x, base + DEN) & k.zeroLanes(x, base + DEN + E);
            if (zero != 0) {
                special(zero, g, dst, dstSet, src, eDst, eSrc, eNeg, m, aw);
            } else {
                for (int l = 0; l < 8; l++) {
                    cancel[j0 + l] = false;
                }
            }
            // the denominator's norm (base field) after PRE, and the prefix product of the norms at PRE
            norm(base + DEN, base + PRE + E);
            if (g == 0) {
                System.arraycopy(x, base + PRE + E, x, base + PRE, E);
            } else {
                mulBase(base - GROUP + PRE, base + PRE + E, base + PRE);
            }
        }
        // the eight chain totals (norms' products) inverted together, with the scalar base-field code
        final int last = (groups - 1) * GROUP + PRE;
        k.store(x, last, words, 0);
        VectorBatchAffine.invertEight(fp, n, words, pp, e1, pp);
        k.load(pp, 0, x, inv);
        // pass 2, backwards: 1/N = inv * prefix of the group before; inv *= N; 1/den = conj(den) / N;
        // then the additions
        for (int g = groups - 1; g >= 0; g--) {
            final int base = g * GROUP;
            int t;
            if (g > 0) {
                mulBase(inv, base - GROUP + PRE, tt);
                mulBase(inv, base + PRE + E, inv);
                t = tt;
            } else {
                t = inv;
            }
            mulBase(base + DEN, t, w);                  // 1/den = (den0 / N, -den1 / N)
            mulBase(base + DEN + E, t, w + E);
            k.negWhere(x, w + E, allLanes);
            mul(base + NUM, w, lam);                    // lambda
            sqr(lam, x3);
            sub(x3, base + XD, x3);
            sub(x3, base + XS, x3);                     // x3 = lambda^2 - xD - xS
            sub(base + XD, x3, w);
            mul(lam, w, y3);
            sub(y3, base + YD, y3);                     // y3 = lambda (xD - x3) - yD
            final int j0 = g * 8;
            final int lanesUsed = Math.min(8, m - j0);
            for (int part = 0; part < 2; part++) {
                int r = part == 0 ? x3 : y3;
                k.store(x, r, words, 0);
                k.store(x, r + E, words2, 0);
                for (int l = 0; l < lanesUsed; l++) {
                    int j = j0 + l;
                    if (cancel[j]) {
                        continue;
                    }
                    int d = eDst[j] * aw + part * fw;
                    System.arraycopy(words, n * l, dst, d, n);
                    System.arraycopy(words2, n * l, dst, d + n, n);
                }
            }
        }
    }

    /** As {@link VectorBatchAffine}'s: lanes whose denominator is zero become doublings or cancellations. */
    private void special(long zero, int g, long[] dst, boolean[] dstSet, long[] src, int[] eDst, int[] eSrc,
            boolean[] eNeg, int m, int aw) {
        final int fw = 2 * n;
        final int base = g * GROUP;
        for (int l = 0; l < 8; l++) {
            int j = g * 8 + l;
            cancel[j] = false;
            if (j >= m || (zero >>> l & 1) == 0) {
                continue;
            }
            if (VectorBatchAffine.isDoubling(f, fw, dst, eDst[j] * aw, src, eSrc[j], eNeg[j], e1, e2)) {
                setLane(e1, base + DEN, l);
                setLane(e2, base + NUM, l);
            } else {
                cancel[j] = true;
                dstSet[eDst[j]] = false;
                setLane(one, base + DEN, l);
            }
        }
    }

    /** Writes the limbs of the Fp2 element at v[0 ..] into lane l of the 8 elements at xo. */
    private void setLane(long[] v, int xo, int l) {
        for (int c = 0; c < 2; c++) {
            long[] limbs = VectorBatchAffine.limbs(v, c * n, n, L);
            for (int q = 0; q < L; q++) {
                x[xo + c * E + 8 * q + l] = limbs[q];
            }
        }
    }
}
