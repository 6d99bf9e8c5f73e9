package dev.proofline.algebra.msm;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;

import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
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
 * it, so {@link #ready} is false until a background warm-up has seen it beat the scalar code.
 */
final class VectorBatchAffine extends BatchAdder {

    private static final VectorSpecies<Long> S = LongVector.SPECIES_512;
    private static final long M = (1L << 29) - 1;
    private static final long M24 = (1L << 24) - 1;

    /** Two-vector selections for the 4 x 8 transposition between element order and word order. */
    private static final LongVector PAIRS_LO = LongVector.fromArray(S, new long[] {0, 4, 8, 12, 1, 5, 9, 13}, 0);
    private static final LongVector PAIRS_HI = LongVector.fromArray(S, new long[] {2, 6, 10, 14, 3, 7, 11, 15}, 0);
    private static final LongVector HALVES_LO = LongVector.fromArray(S, new long[] {0, 1, 2, 3, 8, 9, 10, 11}, 0);
    private static final LongVector HALVES_HI = LongVector.fromArray(S, new long[] {4, 5, 6, 7, 12, 13, 14, 15}, 0);

    /** Limbs of 8 elements. */
    private static final int E = 72;
    // per group of 8 entries: xD, yD, xS, numerator, denominator, prefix product
    private static final int XD = 0;
    private static final int YD = E;
    private static final int XS = 2 * E;
    private static final int NUM = 3 * E;
    private static final int DEN = 4 * E;
    private static final int PRE = 5 * E;
    private static final int GROUP = 6 * E;

    private static volatile boolean compiled;
    private static final AtomicBoolean WARMING = new AtomicBoolean();
    private static final CountDownLatch WARMED = new CountDownLatch(1);
    private static final long WARM_UP_LIMIT_NANOS = 60_000_000_000L;

    private final PrimeField f;
    private final int fw;
    private final long q0;
    private final long q1;
    private final long q2;
    private final long q3;
    private final long q4;
    private final long q5;
    private final long q6;
    private final long q7;
    private final long q8;
    /** -q^-1 mod 2^29. */
    private final long qInv;
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
    private final long[] words = new long[32];
    private final long[] words2 = new long[32];
    private final boolean[] lanes = new boolean[8];
    private boolean[] cancel = new boolean[0];
    private final long[] e1 = new long[4];
    private final long[] e2 = new long[4];
    private final long[] totals = new long[32];
    private final long[] pp = new long[32];
    private final long[] one;

    /** 4-word fields with q below 2^255 (9 limbs of 29 bits hold sums of two elements), 512-bit vectors. */
    static boolean applies(PrimeField f) {
        if (f.limbs() != 4 || f.modulusWords()[3] < 0 || f.modulusWords()[3] >= 0x7FFFFFFFFFFFFFFEL) {
            return false;
        }
        return LongVector.SPECIES_PREFERRED.vectorBitSize() >= 512;
    }

    VectorBatchAffine(PrimeField f, boolean eager) {
        if (!applies(f)) {
            throw new IllegalArgumentException("no 8-lane batch additions for " + f);
        }
        this.f = f;
        this.fw = f.width();
        long[] q = limbs(f.modulusWords(), 0);
        this.q0 = q[0];
        this.q1 = q[1];
        this.q2 = q[2];
        this.q3 = q[3];
        this.q4 = q[4];
        this.q5 = q[5];
        this.q6 = q[6];
        this.q7 = q[7];
        this.q8 = q[8];
        this.qInv = f.negInvWord() & M;
        this.eager = eager;
        this.one = new long[fw];
        f.setOne(one, 0);
        if (!eager && !compiled) {
            startWarmUp(f);
        }
    }

    @Override
    boolean ready() {
        return eager || compiled;
    }

    @Override
    boolean warmUp(long timeoutMillis) throws InterruptedException {
        startWarmUp(f);
        WARMED.await(timeoutMillis, TimeUnit.MILLISECONDS);
        return ready();
    }

    /** The 9 limbs of 29 bits of the 256-bit value at w[off .. off + 4). */
    static long[] limbs(long[] w, int off) {
        long[] l = new long[9];
        for (int k = 0; k < 9; k++) {
            int bit = 29 * k;
            int word = bit >>> 6;
            int sh = bit & 63;
            long v = w[off + word] >>> sh;
            if (sh > 64 - 29 && word + 1 < 4) {
                v |= w[off + word + 1] << (64 - sh);
            }
            l[k] = v & M;
        }
        return l;
    }

    /** Writes the limbs of the element at w[off ..] into lane l of the 8 elements at xo. */
    private void setLane(long[] w, int off, int xo, int l) {
        long[] limbs = limbs(w, off);
        for (int k = 0; k < 9; k++) {
            x[xo + 8 * k + l] = limbs[k];
        }
    }

    private void ensure(int groups) {
        int need = groups * GROUP + 6 * E + 17 * 8;
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
        product(x, ao, bo, col);
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
                    System.arraycopy(dst, d, wb, 4 * l, 4);
                    System.arraycopy(dst, d + fw, wb2, 4 * l, 4);
                    lanes[l] = eNeg[j];
                } else {
                    // a lane past the batch: xD = 0, yD = 0, xS = 1, yS = 0 (denominator 1), never stored
                    for (int k = 0; k < 4; k++) {
                        wb[4 * l + k] = 0;
                        wb2[4 * l + k] = 0;
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
                    System.arraycopy(src, s, wb, 4 * l, 4);
                    System.arraycopy(src, s + fw, wb2, 4 * l, 4);
                } else {
                    wb[4 * l] = 1;
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
            } else {
                mul(base - GROUP + PRE, base + DEN, base + PRE);
            }
        }
        // the eight chain totals inverted together: 1 / t_l = (t_0 ... t_7)^-1 times the others
        store(x, (groups - 1) * GROUP + PRE, totals, 0);
        System.arraycopy(totals, 0, pp, 0, 4);
        for (int l = 1; l < 8; l++) {
            f.mul(pp, 4 * (l - 1), totals, 4 * l, pp, 4 * l);
        }
        f.inv(pp, 28, e1, 0);
        for (int l = 7; l > 0; l--) {
            f.mul(e1, 0, pp, 4 * (l - 1), wb, 4 * l);
            f.mul(e1, 0, totals, 4 * l, e1, 0);
        }
        System.arraycopy(e1, 0, wb, 0, 4);
        load(wb, 0, x, inv);
        // pass 2, backwards: 1/den = inv * prefix of the group before; inv *= den; then the additions
        for (int g = groups - 1; g >= 0; g--) {
            final int base = g * GROUP;
            int t;
            if (g > 0) {
                mul(inv, base - GROUP + PRE, tt);
                mul(inv, base + DEN, inv);
                t = tt;
            } else {
                t = inv;
            }
            mul(base + NUM, t, lam);                    // lambda
            mul(lam, lam, x3);
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
                System.arraycopy(wb, 4 * l, dst, d, 4);
                System.arraycopy(wb2, 4 * l, dst, d + fw, 4);
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
            int d = eDst[j] * aw;
            int s = eSrc[j];
            if (eNeg[j]) {
                f.add(src, s + fw, dst, d + fw, e1, 0);
            } else {
                f.sub(src, s + fw, dst, d + fw, e1, 0);
            }
            if (f.isZero(e1, 0) && !f.isZero(dst, d + fw)) {
                f.dbl(dst, d + fw, e1, 0);
                setLane(e1, 0, base + DEN, l);
                f.sqr(dst, d, e1, 0);
                f.add(e1, 0, e1, 0, e2, 0);
                f.add(e1, 0, e2, 0, e1, 0);             // 3 xD^2
                setLane(e1, 0, base + NUM, l);
            } else {
                cancel[j] = true;
                dstSet[eDst[j]] = false;
                setLane(one, 0, base + DEN, l);
            }
        }
    }

    private static void startWarmUp(PrimeField field) {
        if (!WARMING.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> warmUp((PrimeField) field.forThread()), "proofline-msm-vector-warm-up");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Runs the kernel on random batches until it is faster than the scalar multiplications alone of the
     * same batch (six a point) three times in a row, which it is only once C2 has compiled it.
     */
    private static void warmUp(PrimeField f) {
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
        VectorBatchAffine k = new VectorBatchAffine(f, true);
        long[] a = new long[f.width()];
        f.setOne(a, 0);
        long[] b = src.clone();
        long start = System.nanoTime();
        int wins = 0;
        while (wins < 3 && System.nanoTime() - start < WARM_UP_LIMIT_NANOS) {
            java.util.Arrays.fill(set, true);
            long t0 = System.nanoTime();
            k.completeBatch(dst, set, src, eDst, eSrc, eNeg, m, aw);
            long t1 = System.nanoTime();
            for (int j = 0; j < 6 * m; j++) {
                f.mul(a, 0, b, (j % m) * aw, a, 0);
            }
            long t2 = System.nanoTime();
            wins = t1 - t0 < t2 - t1 ? wins + 1 : 0;
        }
        sink = a[0];
        compiled = wins >= 3;
        WARMED.countDown();
    }

    static volatile long sink;

    // GENERATED BEGIN (algebra/src/codegen/vector_batch_affine.py)
    /** The limbs of the 8 elements at a[off .. off + 32) to x[xo + 8 k + lane], k < 9. */
    static void load(long[] a, int off, long[] x, int xo) {
        LongVector wv0 = LongVector.fromArray(S, a, off);
        LongVector wv1 = LongVector.fromArray(S, a, off + 8);
        LongVector wv2 = LongVector.fromArray(S, a, off + 16);
        LongVector wv3 = LongVector.fromArray(S, a, off + 24);
        LongVector wA = PAIRS_LO.selectFrom(wv0, wv1);
        LongVector wB = PAIRS_HI.selectFrom(wv0, wv1);
        LongVector wC = PAIRS_LO.selectFrom(wv2, wv3);
        LongVector wD = PAIRS_HI.selectFrom(wv2, wv3);
        LongVector w0 = HALVES_LO.selectFrom(wA, wC);
        LongVector w1 = HALVES_HI.selectFrom(wA, wC);
        LongVector w2 = HALVES_LO.selectFrom(wB, wD);
        LongVector w3 = HALVES_HI.selectFrom(wB, wD);
        LongVector l0 = w0.and(M);
        LongVector l1 = w0.lanewise(LSHR, 29).and(M);
        LongVector l2 = w0.lanewise(LSHR, 58).or(w1.lanewise(LSHL, 6).and(M));
        LongVector l3 = w1.lanewise(LSHR, 23).and(M);
        LongVector l4 = w1.lanewise(LSHR, 52).or(w2.lanewise(LSHL, 12).and(M));
        LongVector l5 = w2.lanewise(LSHR, 17).and(M);
        LongVector l6 = w2.lanewise(LSHR, 46).or(w3.lanewise(LSHL, 18).and(M));
        LongVector l7 = w3.lanewise(LSHR, 11).and(M);
        LongVector l8 = w3.lanewise(LSHR, 40);
        l0.intoArray(x, xo + 0);
        l1.intoArray(x, xo + 8);
        l2.intoArray(x, xo + 16);
        l3.intoArray(x, xo + 24);
        l4.intoArray(x, xo + 32);
        l5.intoArray(x, xo + 40);
        l6.intoArray(x, xo + 48);
        l7.intoArray(x, xo + 56);
        l8.intoArray(x, xo + 64);
    }

    /** The inverse of {@link #load}: normalised limbs (values below 2^256) back to 8 elements. */
    static void store(long[] x, int xo, long[] a, int off) {
        LongVector l0 = LongVector.fromArray(S, x, xo + 0);
        LongVector l1 = LongVector.fromArray(S, x, xo + 8);
        LongVector l2 = LongVector.fromArray(S, x, xo + 16);
        LongVector l3 = LongVector.fromArray(S, x, xo + 24);
        LongVector l4 = LongVector.fromArray(S, x, xo + 32);
        LongVector l5 = LongVector.fromArray(S, x, xo + 40);
        LongVector l6 = LongVector.fromArray(S, x, xo + 48);
        LongVector l7 = LongVector.fromArray(S, x, xo + 56);
        LongVector l8 = LongVector.fromArray(S, x, xo + 64);
        LongVector w0 = l0.or(l1.lanewise(LSHL, 29)).or(l2.lanewise(LSHL, 58));
        LongVector w1 = l2.lanewise(LSHR, 6).or(l3.lanewise(LSHL, 23)).or(l4.lanewise(LSHL, 52));
        LongVector w2 = l4.lanewise(LSHR, 12).or(l5.lanewise(LSHL, 17)).or(l6.lanewise(LSHL, 46));
        LongVector w3 = l6.lanewise(LSHR, 18).or(l7.lanewise(LSHL, 11)).or(l8.lanewise(LSHL, 40));
        LongVector wA = HALVES_LO.selectFrom(w0, w1);
        LongVector wC = HALVES_HI.selectFrom(w0, w1);
        LongVector wB = HALVES_LO.selectFrom(w2, w3);
        LongVector wD = HALVES_HI.selectFrom(w2, w3);
        PAIRS_LO.selectFrom(wA, wB).intoArray(a, off);
        PAIRS_HI.selectFrom(wA, wB).intoArray(a, off + 8);
        PAIRS_LO.selectFrom(wC, wD).intoArray(a, off + 16);
        PAIRS_HI.selectFrom(wC, wD).intoArray(a, off + 24);
    }

    /** The 17 column sums of the products of the limbs at ao and bo, to x[co + 8 k + lane]. */
    private static void product(long[] x, int ao, int bo, int co) {
        LongVector a0 = LongVector.fromArray(S, x, ao + 0);
        LongVector a1 = LongVector.fromArray(S, x, ao + 8);
        LongVector a2 = LongVector.fromArray(S, x, ao + 16);
        LongVector a3 = LongVector.fromArray(S, x, ao + 24);
        LongVector a4 = LongVector.fromArray(S, x, ao + 32);
        LongVector a5 = LongVector.fromArray(S, x, ao + 40);
        LongVector a6 = LongVector.fromArray(S, x, ao + 48);
        LongVector a7 = LongVector.fromArray(S, x, ao + 56);
        LongVector a8 = LongVector.fromArray(S, x, ao + 64);
        LongVector b0 = LongVector.fromArray(S, x, bo + 0);
        LongVector c0 = a0.mul(b0);
        LongVector c1 = a1.mul(b0);
        LongVector c2 = a2.mul(b0);
        LongVector c3 = a3.mul(b0);
        LongVector c4 = a4.mul(b0);
        LongVector c5 = a5.mul(b0);
        LongVector c6 = a6.mul(b0);
        LongVector c7 = a7.mul(b0);
        LongVector c8 = a8.mul(b0);
        LongVector b1 = LongVector.fromArray(S, x, bo + 8);
        c1 = c1.add(a0.mul(b1));
        c2 = c2.add(a1.mul(b1));
        c3 = c3.add(a2.mul(b1));
        c4 = c4.add(a3.mul(b1));
        c5 = c5.add(a4.mul(b1));
        c6 = c6.add(a5.mul(b1));
        c7 = c7.add(a6.mul(b1));
        c8 = c8.add(a7.mul(b1));
        LongVector c9 = a8.mul(b1);
        LongVector b2 = LongVector.fromArray(S, x, bo + 16);
        c2 = c2.add(a0.mul(b2));
        c3 = c3.add(a1.mul(b2));
        c4 = c4.add(a2.mul(b2));
        c5 = c5.add(a3.mul(b2));
        c6 = c6.add(a4.mul(b2));
        c7 = c7.add(a5.mul(b2));
        c8 = c8.add(a6.mul(b2));
        c9 = c9.add(a7.mul(b2));
        LongVector c10 = a8.mul(b2);
        LongVector b3 = LongVector.fromArray(S, x, bo + 24);
        c3 = c3.add(a0.mul(b3));
        c4 = c4.add(a1.mul(b3));
        c5 = c5.add(a2.mul(b3));
        c6 = c6.add(a3.mul(b3));
        c7 = c7.add(a4.mul(b3));
        c8 = c8.add(a5.mul(b3));
        c9 = c9.add(a6.mul(b3));
        c10 = c10.add(a7.mul(b3));
        LongVector c11 = a8.mul(b3);
        LongVector b4 = LongVector.fromArray(S, x, bo + 32);
        c4 = c4.add(a0.mul(b4));
        c5 = c5.add(a1.mul(b4));
        c6 = c6.add(a2.mul(b4));
        c7 = c7.add(a3.mul(b4));
        c8 = c8.add(a4.mul(b4));
        c9 = c9.add(a5.mul(b4));
        c10 = c10.add(a6.mul(b4));
        c11 = c11.add(a7.mul(b4));
        LongVector c12 = a8.mul(b4);
        LongVector b5 = LongVector.fromArray(S, x, bo + 40);
        c5 = c5.add(a0.mul(b5));
        c6 = c6.add(a1.mul(b5));
        c7 = c7.add(a2.mul(b5));
        c8 = c8.add(a3.mul(b5));
        c9 = c9.add(a4.mul(b5));
        c10 = c10.add(a5.mul(b5));
        c11 = c11.add(a6.mul(b5));
        c12 = c12.add(a7.mul(b5));
        LongVector c13 = a8.mul(b5);
        LongVector b6 = LongVector.fromArray(S, x, bo + 48);
        c6 = c6.add(a0.mul(b6));
        c7 = c7.add(a1.mul(b6));
        c8 = c8.add(a2.mul(b6));
        c9 = c9.add(a3.mul(b6));
        c10 = c10.add(a4.mul(b6));
        c11 = c11.add(a5.mul(b6));
        c12 = c12.add(a6.mul(b6));
        c13 = c13.add(a7.mul(b6));
        LongVector c14 = a8.mul(b6);
        LongVector b7 = LongVector.fromArray(S, x, bo + 56);
        c7 = c7.add(a0.mul(b7));
        c8 = c8.add(a1.mul(b7));
        c9 = c9.add(a2.mul(b7));
        c10 = c10.add(a3.mul(b7));
        c11 = c11.add(a4.mul(b7));
        c12 = c12.add(a5.mul(b7));
        c13 = c13.add(a6.mul(b7));
        c14 = c14.add(a7.mul(b7));
        LongVector c15 = a8.mul(b7);
        LongVector b8 = LongVector.fromArray(S, x, bo + 64);
        c8 = c8.add(a0.mul(b8));
        c9 = c9.add(a1.mul(b8));
        c10 = c10.add(a2.mul(b8));
        c11 = c11.add(a3.mul(b8));
        c12 = c12.add(a4.mul(b8));
        c13 = c13.add(a5.mul(b8));
        c14 = c14.add(a6.mul(b8));
        c15 = c15.add(a7.mul(b8));
        LongVector c16 = a8.mul(b8);
        c0.intoArray(x, co + 0);
        c1.intoArray(x, co + 8);
        c2.intoArray(x, co + 16);
        c3.intoArray(x, co + 24);
        c4.intoArray(x, co + 32);
        c5.intoArray(x, co + 40);
        c6.intoArray(x, co + 48);
        c7.intoArray(x, co + 56);
        c8.intoArray(x, co + 64);
        c9.intoArray(x, co + 72);
        c10.intoArray(x, co + 80);
        c11.intoArray(x, co + 88);
        c12.intoArray(x, co + 96);
        c13.intoArray(x, co + 104);
        c14.intoArray(x, co + 112);
        c15.intoArray(x, co + 120);
        c16.intoArray(x, co + 128);
    }

    /**
    * Montgomery reduction of the columns at co (a product of two values below q), first part: the
    * 10 normalised limbs of (c + m q) 2^-232, a multiple of 2^24, back to x[co + 8 k + lane]. (In one
    * method with {@link #finish}, C1 runs out of registers on it, and C2 never gets it.)
    */
    private void reduce(long[] x, int co) {
        final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8;
        final long QINV = qInv;
        LongVector c0 = LongVector.fromArray(S, x, co + 0);
        LongVector c1 = LongVector.fromArray(S, x, co + 8);
        LongVector c2 = LongVector.fromArray(S, x, co + 16);
        LongVector c3 = LongVector.fromArray(S, x, co + 24);
        LongVector c4 = LongVector.fromArray(S, x, co + 32);
        LongVector c5 = LongVector.fromArray(S, x, co + 40);
        LongVector c6 = LongVector.fromArray(S, x, co + 48);
        LongVector c7 = LongVector.fromArray(S, x, co + 56);
        LongVector c8 = LongVector.fromArray(S, x, co + 64);
        LongVector c9 = LongVector.fromArray(S, x, co + 72);
        LongVector c10 = LongVector.fromArray(S, x, co + 80);
        LongVector c11 = LongVector.fromArray(S, x, co + 88);
        LongVector c12 = LongVector.fromArray(S, x, co + 96);
        LongVector c13 = LongVector.fromArray(S, x, co + 104);
        LongVector c14 = LongVector.fromArray(S, x, co + 112);
        LongVector c15 = LongVector.fromArray(S, x, co + 120);
        LongVector c16 = LongVector.fromArray(S, x, co + 128);
        { LongVector m = c0.mul(QINV).and(M);
            c0 = c0.add(m.mul(Q0));
            c1 = c1.add(m.mul(Q1));
            c2 = c2.add(m.mul(Q2));
            c3 = c3.add(m.mul(Q3));
            c4 = c4.add(m.mul(Q4));
            c5 = c5.add(m.mul(Q5));
            c6 = c6.add(m.mul(Q6));
            c7 = c7.add(m.mul(Q7));
            c8 = c8.add(m.mul(Q8));
            c1 = c1.add(c0.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c1.mul(QINV).and(M);
            c1 = c1.add(m.mul(Q0));
            c2 = c2.add(m.mul(Q1));
            c3 = c3.add(m.mul(Q2));
            c4 = c4.add(m.mul(Q3));
            c5 = c5.add(m.mul(Q4));
            c6 = c6.add(m.mul(Q5));
            c7 = c7.add(m.mul(Q6));
            c8 = c8.add(m.mul(Q7));
            c9 = c9.add(m.mul(Q8));
            c2 = c2.add(c1.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c2.mul(QINV).and(M);
            c2 = c2.add(m.mul(Q0));
            c3 = c3.add(m.mul(Q1));
            c4 = c4.add(m.mul(Q2));
            c5 = c5.add(m.mul(Q3));
            c6 = c6.add(m.mul(Q4));
            c7 = c7.add(m.mul(Q5));
            c8 = c8.add(m.mul(Q6));
            c9 = c9.add(m.mul(Q7));
            c10 = c10.add(m.mul(Q8));
            c3 = c3.add(c2.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c3.mul(QINV).and(M);
            c3 = c3.add(m.mul(Q0));
            c4 = c4.add(m.mul(Q1));
            c5 = c5.add(m.mul(Q2));
            c6 = c6.add(m.mul(Q3));
            c7 = c7.add(m.mul(Q4));
            c8 = c8.add(m.mul(Q5));
            c9 = c9.add(m.mul(Q6));
            c10 = c10.add(m.mul(Q7));
            c11 = c11.add(m.mul(Q8));
            c4 = c4.add(c3.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c4.mul(QINV).and(M);
            c4 = c4.add(m.mul(Q0));
            c5 = c5.add(m.mul(Q1));
            c6 = c6.add(m.mul(Q2));
            c7 = c7.add(m.mul(Q3));
            c8 = c8.add(m.mul(Q4));
            c9 = c9.add(m.mul(Q5));
            c10 = c10.add(m.mul(Q6));
            c11 = c11.add(m.mul(Q7));
            c12 = c12.add(m.mul(Q8));
            c5 = c5.add(c4.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c5.mul(QINV).and(M);
            c5 = c5.add(m.mul(Q0));
            c6 = c6.add(m.mul(Q1));
            c7 = c7.add(m.mul(Q2));
            c8 = c8.add(m.mul(Q3));
            c9 = c9.add(m.mul(Q4));
            c10 = c10.add(m.mul(Q5));
            c11 = c11.add(m.mul(Q6));
            c12 = c12.add(m.mul(Q7));
            c13 = c13.add(m.mul(Q8));
            c6 = c6.add(c5.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c6.mul(QINV).and(M);
            c6 = c6.add(m.mul(Q0));
            c7 = c7.add(m.mul(Q1));
            c8 = c8.add(m.mul(Q2));
            c9 = c9.add(m.mul(Q3));
            c10 = c10.add(m.mul(Q4));
            c11 = c11.add(m.mul(Q5));
            c12 = c12.add(m.mul(Q6));
            c13 = c13.add(m.mul(Q7));
            c14 = c14.add(m.mul(Q8));
            c7 = c7.add(c6.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c7.mul(QINV).and(M);
            c7 = c7.add(m.mul(Q0));
            c8 = c8.add(m.mul(Q1));
            c9 = c9.add(m.mul(Q2));
            c10 = c10.add(m.mul(Q3));
            c11 = c11.add(m.mul(Q4));
            c12 = c12.add(m.mul(Q5));
            c13 = c13.add(m.mul(Q6));
            c14 = c14.add(m.mul(Q7));
            c15 = c15.add(m.mul(Q8));
            c8 = c8.add(c7.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c8.mul(QINV).and(M24);
            c8 = c8.add(m.mul(Q0));
            c9 = c9.add(m.mul(Q1));
            c10 = c10.add(m.mul(Q2));
            c11 = c11.add(m.mul(Q3));
            c12 = c12.add(m.mul(Q4));
            c13 = c13.add(m.mul(Q5));
            c14 = c14.add(m.mul(Q6));
            c15 = c15.add(m.mul(Q7));
            c16 = c16.add(m.mul(Q8)); }
        LongVector n0 = c8.and(M);
        c9 = c9.add(c8.lanewise(VectorOperators.LSHR, 29));
        LongVector n1 = c9.and(M);
        c10 = c10.add(c9.lanewise(VectorOperators.LSHR, 29));
        LongVector n2 = c10.and(M);
        c11 = c11.add(c10.lanewise(VectorOperators.LSHR, 29));
        LongVector n3 = c11.and(M);
        c12 = c12.add(c11.lanewise(VectorOperators.LSHR, 29));
        LongVector n4 = c12.and(M);
        c13 = c13.add(c12.lanewise(VectorOperators.LSHR, 29));
        LongVector n5 = c13.and(M);
        c14 = c14.add(c13.lanewise(VectorOperators.LSHR, 29));
        LongVector n6 = c14.and(M);
        c15 = c15.add(c14.lanewise(VectorOperators.LSHR, 29));
        LongVector n7 = c15.and(M);
        c16 = c16.add(c15.lanewise(VectorOperators.LSHR, 29));
        LongVector n8 = c16.and(M);
        LongVector n9 = c16.lanewise(VectorOperators.LSHR, 29);
        n0.intoArray(x, co + 0);
        n1.intoArray(x, co + 8);
        n2.intoArray(x, co + 16);
        n3.intoArray(x, co + 24);
        n4.intoArray(x, co + 32);
        n5.intoArray(x, co + 40);
        n6.intoArray(x, co + 48);
        n7.intoArray(x, co + 56);
        n8.intoArray(x, co + 64);
        n9.intoArray(x, co + 72);
    }

    /** Second part of the reduction: the 10 limbs at co divided by 2^24, canonical, to ro. */
    private void finish(long[] x, int co, int ro) {
        final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8;
        LongVector n0 = LongVector.fromArray(S, x, co + 0);
        LongVector n1 = LongVector.fromArray(S, x, co + 8);
        LongVector n2 = LongVector.fromArray(S, x, co + 16);
        LongVector n3 = LongVector.fromArray(S, x, co + 24);
        LongVector n4 = LongVector.fromArray(S, x, co + 32);
        LongVector n5 = LongVector.fromArray(S, x, co + 40);
        LongVector n6 = LongVector.fromArray(S, x, co + 48);
        LongVector n7 = LongVector.fromArray(S, x, co + 56);
        LongVector n8 = LongVector.fromArray(S, x, co + 64);
        LongVector n9 = LongVector.fromArray(S, x, co + 72);
        LongVector r0 = n0.lanewise(VectorOperators.LSHR, 24).or(n1.lanewise(VectorOperators.LSHL, 5).and(M));
        LongVector r1 = n1.lanewise(VectorOperators.LSHR, 24).or(n2.lanewise(VectorOperators.LSHL, 5).and(M));
        LongVector r2 = n2.lanewise(VectorOperators.LSHR, 24).or(n3.lanewise(VectorOperators.LSHL, 5).and(M));
        LongVector r3 = n3.lanewise(VectorOperators.LSHR, 24).or(n4.lanewise(VectorOperators.LSHL, 5).and(M));
        LongVector r4 = n4.lanewise(VectorOperators.LSHR, 24).or(n5.lanewise(VectorOperators.LSHL, 5).and(M));
        LongVector r5 = n5.lanewise(VectorOperators.LSHR, 24).or(n6.lanewise(VectorOperators.LSHL, 5).and(M));
        LongVector r6 = n6.lanewise(VectorOperators.LSHR, 24).or(n7.lanewise(VectorOperators.LSHL, 5).and(M));
        LongVector r7 = n7.lanewise(VectorOperators.LSHR, 24).or(n8.lanewise(VectorOperators.LSHL, 5).and(M));
        LongVector r8 = n8.lanewise(VectorOperators.LSHR, 24).or(n9.lanewise(VectorOperators.LSHL, 5));
        LongVector p0, p1, p2, p3, p4, p5, p6, p7, p8;
        {
            LongVector td0 = r0.sub(Q0);
            LongVector td1 = r1.sub(Q1).add(td0.lanewise(VectorOperators.ASHR, 29));
            LongVector td2 = r2.sub(Q2).add(td1.lanewise(VectorOperators.ASHR, 29));
            LongVector td3 = r3.sub(Q3).add(td2.lanewise(VectorOperators.ASHR, 29));
            LongVector td4 = r4.sub(Q4).add(td3.lanewise(VectorOperators.ASHR, 29));
            LongVector td5 = r5.sub(Q5).add(td4.lanewise(VectorOperators.ASHR, 29));
            LongVector td6 = r6.sub(Q6).add(td5.lanewise(VectorOperators.ASHR, 29));
            LongVector td7 = r7.sub(Q7).add(td6.lanewise(VectorOperators.ASHR, 29));
            LongVector td8 = r8.sub(Q8).add(td7.lanewise(VectorOperators.ASHR, 29));
            VectorMask<Long> under = td8.compare(VectorOperators.LT, 0);
            p0 = td0.and(M).blend(r0, under);
            p1 = td1.and(M).blend(r1, under);
            p2 = td2.and(M).blend(r2, under);
            p3 = td3.and(M).blend(r3, under);
            p4 = td4.and(M).blend(r4, under);
            p5 = td5.and(M).blend(r5, under);
            p6 = td6.and(M).blend(r6, under);
            p7 = td7.and(M).blend(r7, under);
            p8 = td8.and(M).blend(r8, under);
        }
        p0.intoArray(x, ro + 0);
        p1.intoArray(x, ro + 8);
        p2.intoArray(x, ro + 16);
        p3.intoArray(x, ro + 24);
        p4.intoArray(x, ro + 32);
        p5.intoArray(x, ro + 40);
        p6.intoArray(x, ro + 48);
        p7.intoArray(x, ro + 56);
        p8.intoArray(x, ro + 64);
    }

    /** x at ro = a - b mod q, canonical, from canonical a (at ao) and b (at bo). */
    private void sub(long[] x, int ao, int bo, int ro) {
        final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8;
        LongVector a0 = LongVector.fromArray(S, x, ao + 0);
        LongVector a1 = LongVector.fromArray(S, x, ao + 8);
        LongVector a2 = LongVector.fromArray(S, x, ao + 16);
        LongVector a3 = LongVector.fromArray(S, x, ao + 24);
        LongVector a4 = LongVector.fromArray(S, x, ao + 32);
        LongVector a5 = LongVector.fromArray(S, x, ao + 40);
        LongVector a6 = LongVector.fromArray(S, x, ao + 48);
        LongVector a7 = LongVector.fromArray(S, x, ao + 56);
        LongVector a8 = LongVector.fromArray(S, x, ao + 64);
        LongVector b0 = LongVector.fromArray(S, x, bo + 0);
        LongVector b1 = LongVector.fromArray(S, x, bo + 8);
        LongVector b2 = LongVector.fromArray(S, x, bo + 16);
        LongVector b3 = LongVector.fromArray(S, x, bo + 24);
        LongVector b4 = LongVector.fromArray(S, x, bo + 32);
        LongVector b5 = LongVector.fromArray(S, x, bo + 40);
        LongVector b6 = LongVector.fromArray(S, x, bo + 48);
        LongVector b7 = LongVector.fromArray(S, x, bo + 56);
        LongVector b8 = LongVector.fromArray(S, x, bo + 64);
        LongVector d0, d1, d2, d3, d4, d5, d6, d7, d8;
        {
            LongVector ts0 = a0.sub(b0);
            LongVector ts1 = a1.sub(b1);
            LongVector ts2 = a2.sub(b2);
            LongVector ts3 = a3.sub(b3);
            LongVector ts4 = a4.sub(b4);
            LongVector ts5 = a5.sub(b5);
            LongVector ts6 = a6.sub(b6);
            LongVector ts7 = a7.sub(b7);
            LongVector ts8 = a8.sub(b8);
            LongVector te0 = ts0;
            LongVector td0 = ts0.add(Q0);
            LongVector te1 = ts1.add(te0.lanewise(VectorOperators.ASHR, 29));
            LongVector td1 = ts1.add(Q1).add(td0.lanewise(VectorOperators.ASHR, 29));
            LongVector te2 = ts2.add(te1.lanewise(VectorOperators.ASHR, 29));
            LongVector td2 = ts2.add(Q2).add(td1.lanewise(VectorOperators.ASHR, 29));
            LongVector te3 = ts3.add(te2.lanewise(VectorOperators.ASHR, 29));
            LongVector td3 = ts3.add(Q3).add(td2.lanewise(VectorOperators.ASHR, 29));
            LongVector te4 = ts4.add(te3.lanewise(VectorOperators.ASHR, 29));
            LongVector td4 = ts4.add(Q4).add(td3.lanewise(VectorOperators.ASHR, 29));
            LongVector te5 = ts5.add(te4.lanewise(VectorOperators.ASHR, 29));
            LongVector td5 = ts5.add(Q5).add(td4.lanewise(VectorOperators.ASHR, 29));
            LongVector te6 = ts6.add(te5.lanewise(VectorOperators.ASHR, 29));
            LongVector td6 = ts6.add(Q6).add(td5.lanewise(VectorOperators.ASHR, 29));
            LongVector te7 = ts7.add(te6.lanewise(VectorOperators.ASHR, 29));
            LongVector td7 = ts7.add(Q7).add(td6.lanewise(VectorOperators.ASHR, 29));
            LongVector te8 = ts8.add(te7.lanewise(VectorOperators.ASHR, 29));
            LongVector td8 = ts8.add(Q8).add(td7.lanewise(VectorOperators.ASHR, 29));
            VectorMask<Long> under = te8.compare(VectorOperators.LT, 0);
            d0 = te0.and(M).blend(td0.and(M), under);
            d1 = te1.and(M).blend(td1.and(M), under);
            d2 = te2.and(M).blend(td2.and(M), under);
            d3 = te3.and(M).blend(td3.and(M), under);
            d4 = te4.and(M).blend(td4.and(M), under);
            d5 = te5.and(M).blend(td5.and(M), under);
            d6 = te6.and(M).blend(td6.and(M), under);
            d7 = te7.and(M).blend(td7.and(M), under);
            d8 = te8.and(M).blend(td8.and(M), under);
        }
        d0.intoArray(x, ro + 0);
        d1.intoArray(x, ro + 8);
        d2.intoArray(x, ro + 16);
        d3.intoArray(x, ro + 24);
        d4.intoArray(x, ro + 32);
        d5.intoArray(x, ro + 40);
        d6.intoArray(x, ro + 48);
        d7.intoArray(x, ro + 56);
        d8.intoArray(x, ro + 64);
    }

    /** Negates (mod q) the canonical elements at o in the lanes where neg[lane]. */
    private void negWhere(long[] x, int o, boolean[] neg) {
        final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8;
        VectorMask<Long> mask = VectorMask.fromArray(S, neg, 0);
        LongVector z0 = LongVector.zero(S);
        LongVector z1 = LongVector.zero(S);
        LongVector z2 = LongVector.zero(S);
        LongVector z3 = LongVector.zero(S);
        LongVector z4 = LongVector.zero(S);
        LongVector z5 = LongVector.zero(S);
        LongVector z6 = LongVector.zero(S);
        LongVector z7 = LongVector.zero(S);
        LongVector z8 = LongVector.zero(S);
        LongVector a0 = LongVector.fromArray(S, x, o + 0);
        LongVector a1 = LongVector.fromArray(S, x, o + 8);
        LongVector a2 = LongVector.fromArray(S, x, o + 16);
        LongVector a3 = LongVector.fromArray(S, x, o + 24);
        LongVector a4 = LongVector.fromArray(S, x, o + 32);
        LongVector a5 = LongVector.fromArray(S, x, o + 40);
        LongVector a6 = LongVector.fromArray(S, x, o + 48);
        LongVector a7 = LongVector.fromArray(S, x, o + 56);
        LongVector a8 = LongVector.fromArray(S, x, o + 64);
        LongVector d0, d1, d2, d3, d4, d5, d6, d7, d8;
        {
            LongVector ts0 = z0.sub(a0);
            LongVector ts1 = z1.sub(a1);
            LongVector ts2 = z2.sub(a2);
            LongVector ts3 = z3.sub(a3);
            LongVector ts4 = z4.sub(a4);
            LongVector ts5 = z5.sub(a5);
            LongVector ts6 = z6.sub(a6);
            LongVector ts7 = z7.sub(a7);
            LongVector ts8 = z8.sub(a8);
            LongVector te0 = ts0;
            LongVector td0 = ts0.add(Q0);
            LongVector te1 = ts1.add(te0.lanewise(VectorOperators.ASHR, 29));
            LongVector td1 = ts1.add(Q1).add(td0.lanewise(VectorOperators.ASHR, 29));
            LongVector te2 = ts2.add(te1.lanewise(VectorOperators.ASHR, 29));
            LongVector td2 = ts2.add(Q2).add(td1.lanewise(VectorOperators.ASHR, 29));
            LongVector te3 = ts3.add(te2.lanewise(VectorOperators.ASHR, 29));
            LongVector td3 = ts3.add(Q3).add(td2.lanewise(VectorOperators.ASHR, 29));
            LongVector te4 = ts4.add(te3.lanewise(VectorOperators.ASHR, 29));
            LongVector td4 = ts4.add(Q4).add(td3.lanewise(VectorOperators.ASHR, 29));
            LongVector te5 = ts5.add(te4.lanewise(VectorOperators.ASHR, 29));
            LongVector td5 = ts5.add(Q5).add(td4.lanewise(VectorOperators.ASHR, 29));
            LongVector te6 = ts6.add(te5.lanewise(VectorOperators.ASHR, 29));
            LongVector td6 = ts6.add(Q6).add(td5.lanewise(VectorOperators.ASHR, 29));
            LongVector te7 = ts7.add(te6.lanewise(VectorOperators.ASHR, 29));
            LongVector td7 = ts7.add(Q7).add(td6.lanewise(VectorOperators.ASHR, 29));
            LongVector te8 = ts8.add(te7.lanewise(VectorOperators.ASHR, 29));
            LongVector td8 = ts8.add(Q8).add(td7.lanewise(VectorOperators.ASHR, 29));
            VectorMask<Long> under = te8.compare(VectorOperators.LT, 0);
            d0 = te0.and(M).blend(td0.and(M), under);
            d1 = te1.and(M).blend(td1.and(M), under);
            d2 = te2.and(M).blend(td2.and(M), under);
            d3 = te3.and(M).blend(td3.and(M), under);
            d4 = te4.and(M).blend(td4.and(M), under);
            d5 = te5.and(M).blend(td5.and(M), under);
            d6 = te6.and(M).blend(td6.and(M), under);
            d7 = te7.and(M).blend(td7.and(M), under);
            d8 = te8.and(M).blend(td8.and(M), under);
        }
        a0.blend(d0, mask).intoArray(x, o + 0);
        a1.blend(d1, mask).intoArray(x, o + 8);
        a2.blend(d2, mask).intoArray(x, o + 16);
        a3.blend(d3, mask).intoArray(x, o + 24);
        a4.blend(d4, mask).intoArray(x, o + 32);
        a5.blend(d5, mask).intoArray(x, o + 40);
        a6.blend(d6, mask).intoArray(x, o + 48);
        a7.blend(d7, mask).intoArray(x, o + 56);
        a8.blend(d8, mask).intoArray(x, o + 64);
    }

    /** The lanes (bit l for lane l) where the element at o is zero. */
    private static long zeroLanes(long[] x, int o) {
        LongVector a0 = LongVector.fromArray(S, x, o + 0);
        LongVector a1 = LongVector.fromArray(S, x, o + 8);
        LongVector a2 = LongVector.fromArray(S, x, o + 16);
        LongVector a3 = LongVector.fromArray(S, x, o + 24);
        LongVector a4 = LongVector.fromArray(S, x, o + 32);
        LongVector a5 = LongVector.fromArray(S, x, o + 40);
        LongVector a6 = LongVector.fromArray(S, x, o + 48);
        LongVector a7 = LongVector.fromArray(S, x, o + 56);
        LongVector a8 = LongVector.fromArray(S, x, o + 64);
        LongVector or = a0.or(a1.or(a2.or(a3.or(a4.or(a5.or(a6.or(a7.or(a8))))))));
        return or.compare(VectorOperators.EQ, 0).toLong();
    }
    // GENERATED END
}
