package dev.proofline.algebra.ntt;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;

import dev.proofline.algebra.field.PrimeField;
import java.util.concurrent.ForkJoinPool;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Butterflies of the 4-limb scalar fields (q < 2^255) eight at a time, one per 64-bit lane of a
 * 512-bit vector of the incubating Vector API ({@code jdk.incubator.vector}). The only class of the
 * transform that touches that module: {@link Butterflies#of} loads it by name, and only when the
 * module is in the boot layer and the preferred vectors are 512 bits wide.
 *
 * <p>Elements stay in memory as they are everywhere else (4 words of 64 bits, Montgomery form with
 * R = 2^256, canonical). While a block of 8 butterflies is worked on, each element is split into 9
 * limbs of 29 bits, so that the 81 products of a multiplication (below 2^58 each) and the reduction
 * terms add up in a column without carrying out of 64 bits. The multiplication is a Montgomery
 * multiplication with R' = 2^261: for data x~ = x 2^256 and a twiddle stored as w 2^261 mod q,
 * x~ (w 2^261) / 2^261 = (x w) 2^256, the product in the data's own form. Its result (below 2q) is
 * reduced to [0, q) and the additions and subtractions are reduced too, so every output is canonical
 * and equal, word for word, to the scalar kernel's ({@link Montgomery4Butterflies}).
 *
 * <p>Stages with fewer than 8 butterflies per twiddle group, and the ends of a range that do not fill
 * 8 lanes, go to the scalar kernel.
 *
 * <p>The block methods are long and fully unrolled: C1 gives up on them, and under tiered
 * compilation they need C2 straight away to run fast ({@code proofline-vector.directives.json}).
 */
final class VectorButterflies extends Butterflies {

    private static final VectorSpecies<Long> S = LongVector.SPECIES_512;
    private static final VectorSpecies<Integer> SI = IntVector.SPECIES_256;
    private static final long M = (1L << 29) - 1;

    /** Two-vector selections for the 4 x 8 transposition between element order and word order. */
    private static final LongVector PAIRS_LO = LongVector.fromArray(S, new long[] {0, 4, 8, 12, 1, 5, 9, 13}, 0);
    private static final LongVector PAIRS_HI = LongVector.fromArray(S, new long[] {2, 6, 10, 14, 3, 7, 11, 15}, 0);
    private static final LongVector HALVES_LO = LongVector.fromArray(S, new long[] {0, 1, 2, 3, 8, 9, 10, 11}, 0);
    private static final LongVector HALVES_HI = LongVector.fromArray(S, new long[] {4, 5, 6, 7, 12, 13, 14, 15}, 0);
    private static final IntVector REVERSE = IntVector.fromArray(SI, new int[] {7, 6, 5, 4, 3, 2, 1, 0}, 0);

    private final PrimeField f;
    private final Montgomery4Butterflies scalar;
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

    VectorButterflies(PrimeField f) {
        if (!applies(f)) {
            throw new IllegalArgumentException("no 8-lane butterflies for " + f);
        }
        this.f = f;
        this.scalar = new Montgomery4Butterflies(f);
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
        this.qInv = f.negInvWord() & M; // -q^-1 mod 2^64, reduced mod 2^29
    }

    /** A 4-limb field with q < 2^255 (below 2^261, with room for the sums), on 512-bit vectors. */
    static boolean applies(PrimeField f) {
        return Montgomery4Butterflies.applies(f) && LongVector.SPECIES_PREFERRED.vectorBitSize() >= 512;
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

    /** The 4 words of the value with 29-bit limbs l (below 2^256). */
    static long[] words(long[] l) {
        long[] w = new long[4];
        for (int k = 0; k < 9; k++) {
            int bit = 29 * k;
            int word = bit >>> 6;
            int sh = bit & 63;
            w[word] |= l[k] << sh;
            if (sh > 64 - 29 && word + 1 < 4) {
                w[word + 1] |= l[k] >>> (64 - sh);
            }
        }
        return w;
    }

    @Override
    int width() {
        return 4;
    }

    /**
     * Stage tables for stages with at least 8 butterflies per group: for the stage of half-size h,
     * limb k of w_{2h}^j 2^261 mod q at k (h + 1) + j, for j = 0 .. h (j = h: -1).
     */
    @Override
    int[][] vectorTables(long[][] tw, ForkJoinPool pool) {
        int[][] vt = new int[tw.length][];
        long[] minusOne = f.newElement();
        f.sub(f.newElement(), 0, f.one(), 0, minusOne, 0);
        for (int s = 3; s < tw.length; s++) {
            int half = 1 << s;
            int stride = half + 1;
            int[] t = new int[9 * stride];
            long[] ts = tw[s];
            Parallel.forRange(pool, 0, half + 1, 1 << 12, (from, to) -> {
                long[] x = f.newElement();
                for (int j = from; j < to; j++) {
                    f.copy(j == half ? minusOne : ts, j == half ? 0 : j * 4, x, 0);
                    for (int i = 0; i < 5; i++) {
                        f.add(x, 0, x, 0, x, 0);
                    }
                    long[] l = limbs(x, 0);
                    for (int k = 0; k < 9; k++) {
                        t[k * stride + j] = (int) l[k];
                    }
                }
            });
            vt[s] = t;
        }
        return vt;
    }

    @Override
    void row(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] scratch) {
        int j = j0;
        if (half >= 8 && vt != null) {
            int stride = half + 1;
            for (; j + 8 <= j1; j += 8) {
                ditBlock(a, (base + j) << 2, (base + j + half) << 2, vt, j, stride);
            }
        }
        if (j < j1) {
            scalar.row(a, base, half, j, j1, tw, null, scratch);
        }
    }

    @Override
    void rowDif(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] scratch) {
        int j = j0;
        if (half >= 8 && vt != null) {
            int stride = half + 1;
            for (; j + 8 <= j1; j += 8) {
                difBlock(a, (base + j) << 2, (base + j + half) << 2, vt, half - j - 7, stride);
            }
        }
        if (j < j1) {
            scalar.rowDif(a, base, half, j, j1, tw, null, scratch);
        }
    }

    // GENERATED BEGIN (algebra/src/codegen/vector_butterflies.py)
    /**
    * The 8 elements at a[off .. off + 32) to 29-bit limbs (limb k of element l to limbs[8 k + l])
    * and back to a (for tests of the conversion).
    */
    static void roundTrip(long[] a, int off, long[] limbs) {
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
        LongVector x0 = w0.and(M);
        LongVector x1 = w0.lanewise(LSHR, 29).and(M);
        LongVector x2 = w0.lanewise(LSHR, 58).or(w1.lanewise(LSHL, 6).and(M));
        LongVector x3 = w1.lanewise(LSHR, 23).and(M);
        LongVector x4 = w1.lanewise(LSHR, 52).or(w2.lanewise(LSHL, 12).and(M));
        LongVector x5 = w2.lanewise(LSHR, 17).and(M);
        LongVector x6 = w2.lanewise(LSHR, 46).or(w3.lanewise(LSHL, 18).and(M));
        LongVector x7 = w3.lanewise(LSHR, 11).and(M);
        LongVector x8 = w3.lanewise(LSHR, 40);
        x0.intoArray(limbs, 0);
        x1.intoArray(limbs, 8);
        x2.intoArray(limbs, 16);
        x3.intoArray(limbs, 24);
        x4.intoArray(limbs, 32);
        x5.intoArray(limbs, 40);
        x6.intoArray(limbs, 48);
        x7.intoArray(limbs, 56);
        x8.intoArray(limbs, 64);
        LongVector y0 = x0.or(x1.lanewise(LSHL, 29)).or(x2.lanewise(LSHL, 58));
        LongVector y1 = x2.lanewise(LSHR, 6).or(x3.lanewise(LSHL, 23)).or(x4.lanewise(LSHL, 52));
        LongVector y2 = x4.lanewise(LSHR, 12).or(x5.lanewise(LSHL, 17)).or(x6.lanewise(LSHL, 46));
        LongVector y3 = x6.lanewise(LSHR, 18).or(x7.lanewise(LSHL, 11)).or(x8.lanewise(LSHL, 40));
        LongVector yA = HALVES_LO.selectFrom(y0, y1);
        LongVector yC = HALVES_HI.selectFrom(y0, y1);
        LongVector yB = HALVES_LO.selectFrom(y2, y3);
        LongVector yD = HALVES_HI.selectFrom(y2, y3);
        PAIRS_LO.selectFrom(yA, yB).intoArray(a, off);
        PAIRS_HI.selectFrom(yA, yB).intoArray(a, off + 8);
        PAIRS_LO.selectFrom(yC, yD).intoArray(a, off + 16);
        PAIRS_HI.selectFrom(yC, yD).intoArray(a, off + 24);
    }

    /**
    * Eight decimation-in-time butterflies: elements at long offsets u and v (8 consecutive
    * elements each), twiddles at t + k * stride of the stage's limb table for limb k.
    */
    private void ditBlock(long[] a, int u, int v, int[] tw, int t, int stride) {
        final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8, QINV = qInv;
        LongVector vwv0 = LongVector.fromArray(S, a, v);
        LongVector vwv1 = LongVector.fromArray(S, a, v + 8);
        LongVector vwv2 = LongVector.fromArray(S, a, v + 16);
        LongVector vwv3 = LongVector.fromArray(S, a, v + 24);
        LongVector vwA = PAIRS_LO.selectFrom(vwv0, vwv1);
        LongVector vwB = PAIRS_HI.selectFrom(vwv0, vwv1);
        LongVector vwC = PAIRS_LO.selectFrom(vwv2, vwv3);
        LongVector vwD = PAIRS_HI.selectFrom(vwv2, vwv3);
        LongVector vw0 = HALVES_LO.selectFrom(vwA, vwC);
        LongVector vw1 = HALVES_HI.selectFrom(vwA, vwC);
        LongVector vw2 = HALVES_LO.selectFrom(vwB, vwD);
        LongVector vw3 = HALVES_HI.selectFrom(vwB, vwD);
        LongVector x0 = vw0.and(M);
        LongVector x1 = vw0.lanewise(LSHR, 29).and(M);
        LongVector x2 = vw0.lanewise(LSHR, 58).or(vw1.lanewise(LSHL, 6).and(M));
        LongVector x3 = vw1.lanewise(LSHR, 23).and(M);
        LongVector x4 = vw1.lanewise(LSHR, 52).or(vw2.lanewise(LSHL, 12).and(M));
        LongVector x5 = vw2.lanewise(LSHR, 17).and(M);
        LongVector x6 = vw2.lanewise(LSHR, 46).or(vw3.lanewise(LSHL, 18).and(M));
        LongVector x7 = vw3.lanewise(LSHR, 11).and(M);
        LongVector x8 = vw3.lanewise(LSHR, 40);
        LongVector y0 = (LongVector) IntVector.fromArray(SI, tw, t).convertShape(VectorOperators.I2L, S, 0);
        LongVector y1 = (LongVector) IntVector.fromArray(SI, tw, t + 1 * stride).convertShape(VectorOperators.I2L, S, 0);
        LongVector y2 = (LongVector) IntVector.fromArray(SI, tw, t + 2 * stride).convertShape(VectorOperators.I2L, S, 0);
        LongVector y3 = (LongVector) IntVector.fromArray(SI, tw, t + 3 * stride).convertShape(VectorOperators.I2L, S, 0);
        LongVector y4 = (LongVector) IntVector.fromArray(SI, tw, t + 4 * stride).convertShape(VectorOperators.I2L, S, 0);
        LongVector y5 = (LongVector) IntVector.fromArray(SI, tw, t + 5 * stride).convertShape(VectorOperators.I2L, S, 0);
        LongVector y6 = (LongVector) IntVector.fromArray(SI, tw, t + 6 * stride).convertShape(VectorOperators.I2L, S, 0);
        LongVector y7 = (LongVector) IntVector.fromArray(SI, tw, t + 7 * stride).convertShape(VectorOperators.I2L, S, 0);
        LongVector y8 = (LongVector) IntVector.fromArray(SI, tw, t + 8 * stride).convertShape(VectorOperators.I2L, S, 0);
        {
            LongVector c0 = x0.mul(y0);
            LongVector c1 = x1.mul(y0);
            LongVector c2 = x2.mul(y0);
            LongVector c3 = x3.mul(y0);
            LongVector c4 = x4.mul(y0);
            LongVector c5 = x5.mul(y0);
            LongVector c6 = x6.mul(y0);
            LongVector c7 = x7.mul(y0);
            LongVector c8 = x8.mul(y0);
            c1 = c1.add(x0.mul(y1));
            c2 = c2.add(x1.mul(y1));
            c3 = c3.add(x2.mul(y1));
            c4 = c4.add(x3.mul(y1));
            c5 = c5.add(x4.mul(y1));
            c6 = c6.add(x5.mul(y1));
            c7 = c7.add(x6.mul(y1));
            c8 = c8.add(x7.mul(y1));
            LongVector c9 = x8.mul(y1);
            c2 = c2.add(x0.mul(y2));
            c3 = c3.add(x1.mul(y2));
            c4 = c4.add(x2.mul(y2));
            c5 = c5.add(x3.mul(y2));
            c6 = c6.add(x4.mul(y2));
            c7 = c7.add(x5.mul(y2));
            c8 = c8.add(x6.mul(y2));
            c9 = c9.add(x7.mul(y2));
            LongVector c10 = x8.mul(y2);
            c3 = c3.add(x0.mul(y3));
            c4 = c4.add(x1.mul(y3));
            c5 = c5.add(x2.mul(y3));
            c6 = c6.add(x3.mul(y3));
            c7 = c7.add(x4.mul(y3));
            c8 = c8.add(x5.mul(y3));
            c9 = c9.add(x6.mul(y3));
            c10 = c10.add(x7.mul(y3));
            LongVector c11 = x8.mul(y3);
            c4 = c4.add(x0.mul(y4));
            c5 = c5.add(x1.mul(y4));
            c6 = c6.add(x2.mul(y4));
            c7 = c7.add(x3.mul(y4));
            c8 = c8.add(x4.mul(y4));
            c9 = c9.add(x5.mul(y4));
            c10 = c10.add(x6.mul(y4));
            c11 = c11.add(x7.mul(y4));
            LongVector c12 = x8.mul(y4);
            c5 = c5.add(x0.mul(y5));
            c6 = c6.add(x1.mul(y5));
            c7 = c7.add(x2.mul(y5));
            c8 = c8.add(x3.mul(y5));
            c9 = c9.add(x4.mul(y5));
            c10 = c10.add(x5.mul(y5));
            c11 = c11.add(x6.mul(y5));
            c12 = c12.add(x7.mul(y5));
            LongVector c13 = x8.mul(y5);
            c6 = c6.add(x0.mul(y6));
            c7 = c7.add(x1.mul(y6));
            c8 = c8.add(x2.mul(y6));
            c9 = c9.add(x3.mul(y6));
            c10 = c10.add(x4.mul(y6));
            c11 = c11.add(x5.mul(y6));
            c12 = c12.add(x6.mul(y6));
            c13 = c13.add(x7.mul(y6));
            LongVector c14 = x8.mul(y6);
            c7 = c7.add(x0.mul(y7));
            c8 = c8.add(x1.mul(y7));
            c9 = c9.add(x2.mul(y7));
            c10 = c10.add(x3.mul(y7));
            c11 = c11.add(x4.mul(y7));
            c12 = c12.add(x5.mul(y7));
            c13 = c13.add(x6.mul(y7));
            c14 = c14.add(x7.mul(y7));
            LongVector c15 = x8.mul(y7);
            c8 = c8.add(x0.mul(y8));
            c9 = c9.add(x1.mul(y8));
            c10 = c10.add(x2.mul(y8));
            c11 = c11.add(x3.mul(y8));
            c12 = c12.add(x4.mul(y8));
            c13 = c13.add(x5.mul(y8));
            c14 = c14.add(x6.mul(y8));
            c15 = c15.add(x7.mul(y8));
            LongVector c16 = x8.mul(y8);
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
                                            { LongVector m = c8.mul(QINV).and(M);
                                                c8 = c8.add(m.mul(Q0));
                                                c9 = c9.add(m.mul(Q1));
                                                c10 = c10.add(m.mul(Q2));
                                                c11 = c11.add(m.mul(Q3));
                                                c12 = c12.add(m.mul(Q4));
                                                c13 = c13.add(m.mul(Q5));
                                                c14 = c14.add(m.mul(Q6));
                                                c15 = c15.add(m.mul(Q7));
                                                c16 = c16.add(m.mul(Q8));
                                                c9 = c9.add(c8.lanewise(VectorOperators.LSHR, 29)); }
                                                LongVector r0 = c9.and(M);
                                                c10 = c10.add(c9.lanewise(VectorOperators.LSHR, 29));
                                                LongVector r1 = c10.and(M);
                                                c11 = c11.add(c10.lanewise(VectorOperators.LSHR, 29));
                                                LongVector r2 = c11.and(M);
                                                c12 = c12.add(c11.lanewise(VectorOperators.LSHR, 29));
                                                LongVector r3 = c12.and(M);
                                                c13 = c13.add(c12.lanewise(VectorOperators.LSHR, 29));
                                                LongVector r4 = c13.and(M);
                                                c14 = c14.add(c13.lanewise(VectorOperators.LSHR, 29));
                                                LongVector r5 = c14.and(M);
                                                c15 = c15.add(c14.lanewise(VectorOperators.LSHR, 29));
                                                LongVector r6 = c15.and(M);
                                                c16 = c16.add(c15.lanewise(VectorOperators.LSHR, 29));
                                                LongVector r7 = c16.and(M);
                                                LongVector r8 = c16.lanewise(VectorOperators.LSHR, 29);
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
                                                LongVector uwv0 = LongVector.fromArray(S, a, u);
                                                LongVector uwv1 = LongVector.fromArray(S, a, u + 8);
                                                LongVector uwv2 = LongVector.fromArray(S, a, u + 16);
                                                LongVector uwv3 = LongVector.fromArray(S, a, u + 24);
                                                LongVector uwA = PAIRS_LO.selectFrom(uwv0, uwv1);
                                                LongVector uwB = PAIRS_HI.selectFrom(uwv0, uwv1);
                                                LongVector uwC = PAIRS_LO.selectFrom(uwv2, uwv3);
                                                LongVector uwD = PAIRS_HI.selectFrom(uwv2, uwv3);
                                                LongVector uw0 = HALVES_LO.selectFrom(uwA, uwC);
                                                LongVector uw1 = HALVES_HI.selectFrom(uwA, uwC);
                                                LongVector uw2 = HALVES_LO.selectFrom(uwB, uwD);
                                                LongVector uw3 = HALVES_HI.selectFrom(uwB, uwD);
                                                LongVector z0 = uw0.and(M);
                                                LongVector z1 = uw0.lanewise(LSHR, 29).and(M);
                                                LongVector z2 = uw0.lanewise(LSHR, 58).or(uw1.lanewise(LSHL, 6).and(M));
                                                LongVector z3 = uw1.lanewise(LSHR, 23).and(M);
                                                LongVector z4 = uw1.lanewise(LSHR, 52).or(uw2.lanewise(LSHL, 12).and(M));
                                                LongVector z5 = uw2.lanewise(LSHR, 17).and(M);
                                                LongVector z6 = uw2.lanewise(LSHR, 46).or(uw3.lanewise(LSHL, 18).and(M));
                                                LongVector z7 = uw3.lanewise(LSHR, 11).and(M);
                                                LongVector z8 = uw3.lanewise(LSHR, 40);
                                                LongVector s0, s1, s2, s3, s4, s5, s6, s7, s8;
                                                {
                                                    LongVector ts0 = z0.add(p0);
                                                    LongVector ts1 = z1.add(p1);
                                                    LongVector ts2 = z2.add(p2);
                                                    LongVector ts3 = z3.add(p3);
                                                    LongVector ts4 = z4.add(p4);
                                                    LongVector ts5 = z5.add(p5);
                                                    LongVector ts6 = z6.add(p6);
                                                    LongVector ts7 = z7.add(p7);
                                                    LongVector ts8 = z8.add(p8);
                                                    LongVector te0 = ts0;
                                                    LongVector td0 = ts0.sub(Q0);
                                                    LongVector te1 = ts1.add(te0.lanewise(VectorOperators.LSHR, 29));
                                                    LongVector td1 = ts1.sub(Q1).add(td0.lanewise(VectorOperators.ASHR, 29));
                                                    LongVector te2 = ts2.add(te1.lanewise(VectorOperators.LSHR, 29));
                                                    LongVector td2 = ts2.sub(Q2).add(td1.lanewise(VectorOperators.ASHR, 29));
                                                    LongVector te3 = ts3.add(te2.lanewise(VectorOperators.LSHR, 29));
                                                    LongVector td3 = ts3.sub(Q3).add(td2.lanewise(VectorOperators.ASHR, 29));
                                                    LongVector te4 = ts4.add(te3.lanewise(VectorOperators.LSHR, 29));
                                                    LongVector td4 = ts4.sub(Q4).add(td3.lanewise(VectorOperators.ASHR, 29));
                                                    LongVector te5 = ts5.add(te4.lanewise(VectorOperators.LSHR, 29));
                                                    LongVector td5 = ts5.sub(Q5).add(td4.lanewise(VectorOperators.ASHR, 29));
                                                    LongVector te6 = ts6.add(te5.lanewise(VectorOperators.LSHR, 29));
                                                    LongVector td6 = ts6.sub(Q6).add(td5.lanewise(VectorOperators.ASHR, 29));
                                                    LongVector te7 = ts7.add(te6.lanewise(VectorOperators.LSHR, 29));
                                                    LongVector td7 = ts7.sub(Q7).add(td6.lanewise(VectorOperators.ASHR, 29));
                                                    LongVector te8 = ts8.add(te7.lanewise(VectorOperators.LSHR, 29));
                                                    LongVector td8 = ts8.sub(Q8).add(td7.lanewise(VectorOperators.ASHR, 29));
                                                    VectorMask<Long> under = td8.compare(VectorOperators.LT, 0);
                                                    s0 = td0.and(M).blend(te0.and(M), under);
                                                    s1 = td1.and(M).blend(te1.and(M), under);
                                                    s2 = td2.and(M).blend(te2.and(M), under);
                                                    s3 = td3.and(M).blend(te3.and(M), under);
                                                    s4 = td4.and(M).blend(te4.and(M), under);
                                                    s5 = td5.and(M).blend(te5.and(M), under);
                                                    s6 = td6.and(M).blend(te6.and(M), under);
                                                    s7 = td7.and(M).blend(te7.and(M), under);
                                                    s8 = td8.and(M).blend(te8.and(M), under);
                                                }
                                                LongVector d0, d1, d2, d3, d4, d5, d6, d7, d8;
                                                {
                                                    LongVector ts0 = z0.sub(p0);
                                                    LongVector ts1 = z1.sub(p1);
                                                    LongVector ts2 = z2.sub(p2);
                                                    LongVector ts3 = z3.sub(p3);
                                                    LongVector ts4 = z4.sub(p4);
                                                    LongVector ts5 = z5.sub(p5);
                                                    LongVector ts6 = z6.sub(p6);
                                                    LongVector ts7 = z7.sub(p7);
                                                    LongVector ts8 = z8.sub(p8);
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
                                                LongVector sw0 = s0.or(s1.lanewise(LSHL, 29)).or(s2.lanewise(LSHL, 58));
                                                LongVector sw1 = s2.lanewise(LSHR, 6).or(s3.lanewise(LSHL, 23)).or(s4.lanewise(LSHL, 52));
                                                LongVector sw2 = s4.lanewise(LSHR, 12).or(s5.lanewise(LSHL, 17)).or(s6.lanewise(LSHL, 46));
                                                LongVector sw3 = s6.lanewise(LSHR, 18).or(s7.lanewise(LSHL, 11)).or(s8.lanewise(LSHL, 40));
                                                LongVector swA = HALVES_LO.selectFrom(sw0, sw1);
                                                LongVector swC = HALVES_HI.selectFrom(sw0, sw1);
                                                LongVector swB = HALVES_LO.selectFrom(sw2, sw3);
                                                LongVector swD = HALVES_HI.selectFrom(sw2, sw3);
                                                PAIRS_LO.selectFrom(swA, swB).intoArray(a, u);
                                                PAIRS_HI.selectFrom(swA, swB).intoArray(a, u + 8);
                                                PAIRS_LO.selectFrom(swC, swD).intoArray(a, u + 16);
                                                PAIRS_HI.selectFrom(swC, swD).intoArray(a, u + 24);
                                                LongVector dw0 = d0.or(d1.lanewise(LSHL, 29)).or(d2.lanewise(LSHL, 58));
                                                LongVector dw1 = d2.lanewise(LSHR, 6).or(d3.lanewise(LSHL, 23)).or(d4.lanewise(LSHL, 52));
                                                LongVector dw2 = d4.lanewise(LSHR, 12).or(d5.lanewise(LSHL, 17)).or(d6.lanewise(LSHL, 46));
                                                LongVector dw3 = d6.lanewise(LSHR, 18).or(d7.lanewise(LSHL, 11)).or(d8.lanewise(LSHL, 40));
                                                LongVector dwA = HALVES_LO.selectFrom(dw0, dw1);
                                                LongVector dwC = HALVES_HI.selectFrom(dw0, dw1);
                                                LongVector dwB = HALVES_LO.selectFrom(dw2, dw3);
                                                LongVector dwD = HALVES_HI.selectFrom(dw2, dw3);
                                                PAIRS_LO.selectFrom(dwA, dwB).intoArray(a, v);
                                                PAIRS_HI.selectFrom(dwA, dwB).intoArray(a, v + 8);
                                                PAIRS_LO.selectFrom(dwC, dwD).intoArray(a, v + 16);
                                                PAIRS_HI.selectFrom(dwC, dwD).intoArray(a, v + 24);
                                            }
                                        }

                                        /**
                                        * Eight decimation-in-frequency butterflies: a[u] = u + v, a[v] = (v - u) w^(h - j), the
                                        * twiddles read backwards from t + k * stride (lane l takes entry t + 7 - l).
                                        */
                                        private void difBlock(long[] a, int u, int v, int[] tw, int t, int stride) {
                                            final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8, QINV = qInv;
                                            LongVector uwv0 = LongVector.fromArray(S, a, u);
                                            LongVector uwv1 = LongVector.fromArray(S, a, u + 8);
                                            LongVector uwv2 = LongVector.fromArray(S, a, u + 16);
                                            LongVector uwv3 = LongVector.fromArray(S, a, u + 24);
                                            LongVector uwA = PAIRS_LO.selectFrom(uwv0, uwv1);
                                            LongVector uwB = PAIRS_HI.selectFrom(uwv0, uwv1);
                                            LongVector uwC = PAIRS_LO.selectFrom(uwv2, uwv3);
                                            LongVector uwD = PAIRS_HI.selectFrom(uwv2, uwv3);
                                            LongVector uw0 = HALVES_LO.selectFrom(uwA, uwC);
                                            LongVector uw1 = HALVES_HI.selectFrom(uwA, uwC);
                                            LongVector uw2 = HALVES_LO.selectFrom(uwB, uwD);
                                            LongVector uw3 = HALVES_HI.selectFrom(uwB, uwD);
                                            LongVector z0 = uw0.and(M);
                                            LongVector z1 = uw0.lanewise(LSHR, 29).and(M);
                                            LongVector z2 = uw0.lanewise(LSHR, 58).or(uw1.lanewise(LSHL, 6).and(M));
                                            LongVector z3 = uw1.lanewise(LSHR, 23).and(M);
                                            LongVector z4 = uw1.lanewise(LSHR, 52).or(uw2.lanewise(LSHL, 12).and(M));
                                            LongVector z5 = uw2.lanewise(LSHR, 17).and(M);
                                            LongVector z6 = uw2.lanewise(LSHR, 46).or(uw3.lanewise(LSHL, 18).and(M));
                                            LongVector z7 = uw3.lanewise(LSHR, 11).and(M);
                                            LongVector z8 = uw3.lanewise(LSHR, 40);
                                            LongVector vwv0 = LongVector.fromArray(S, a, v);
                                            LongVector vwv1 = LongVector.fromArray(S, a, v + 8);
                                            LongVector vwv2 = LongVector.fromArray(S, a, v + 16);
                                            LongVector vwv3 = LongVector.fromArray(S, a, v + 24);
                                            LongVector vwA = PAIRS_LO.selectFrom(vwv0, vwv1);
                                            LongVector vwB = PAIRS_HI.selectFrom(vwv0, vwv1);
                                            LongVector vwC = PAIRS_LO.selectFrom(vwv2, vwv3);
                                            LongVector vwD = PAIRS_HI.selectFrom(vwv2, vwv3);
                                            LongVector vw0 = HALVES_LO.selectFrom(vwA, vwC);
                                            LongVector vw1 = HALVES_HI.selectFrom(vwA, vwC);
                                            LongVector vw2 = HALVES_LO.selectFrom(vwB, vwD);
                                            LongVector vw3 = HALVES_HI.selectFrom(vwB, vwD);
                                            LongVector x0 = vw0.and(M);
                                            LongVector x1 = vw0.lanewise(LSHR, 29).and(M);
                                            LongVector x2 = vw0.lanewise(LSHR, 58).or(vw1.lanewise(LSHL, 6).and(M));
                                            LongVector x3 = vw1.lanewise(LSHR, 23).and(M);
                                            LongVector x4 = vw1.lanewise(LSHR, 52).or(vw2.lanewise(LSHL, 12).and(M));
                                            LongVector x5 = vw2.lanewise(LSHR, 17).and(M);
                                            LongVector x6 = vw2.lanewise(LSHR, 46).or(vw3.lanewise(LSHL, 18).and(M));
                                            LongVector x7 = vw3.lanewise(LSHR, 11).and(M);
                                            LongVector x8 = vw3.lanewise(LSHR, 40);
                                            LongVector s0, s1, s2, s3, s4, s5, s6, s7, s8;
                                            {
                                                LongVector ts0 = z0.add(x0);
                                                LongVector ts1 = z1.add(x1);
                                                LongVector ts2 = z2.add(x2);
                                                LongVector ts3 = z3.add(x3);
                                                LongVector ts4 = z4.add(x4);
                                                LongVector ts5 = z5.add(x5);
                                                LongVector ts6 = z6.add(x6);
                                                LongVector ts7 = z7.add(x7);
                                                LongVector ts8 = z8.add(x8);
                                                LongVector te0 = ts0;
                                                LongVector td0 = ts0.sub(Q0);
                                                LongVector te1 = ts1.add(te0.lanewise(VectorOperators.LSHR, 29));
                                                LongVector td1 = ts1.sub(Q1).add(td0.lanewise(VectorOperators.ASHR, 29));
                                                LongVector te2 = ts2.add(te1.lanewise(VectorOperators.LSHR, 29));
                                                LongVector td2 = ts2.sub(Q2).add(td1.lanewise(VectorOperators.ASHR, 29));
                                                LongVector te3 = ts3.add(te2.lanewise(VectorOperators.LSHR, 29));
                                                LongVector td3 = ts3.sub(Q3).add(td2.lanewise(VectorOperators.ASHR, 29));
                                                LongVector te4 = ts4.add(te3.lanewise(VectorOperators.LSHR, 29));
                                                LongVector td4 = ts4.sub(Q4).add(td3.lanewise(VectorOperators.ASHR, 29));
                                                LongVector te5 = ts5.add(te4.lanewise(VectorOperators.LSHR, 29));
                                                LongVector td5 = ts5.sub(Q5).add(td4.lanewise(VectorOperators.ASHR, 29));
                                                LongVector te6 = ts6.add(te5.lanewise(VectorOperators.LSHR, 29));
                                                LongVector td6 = ts6.sub(Q6).add(td5.lanewise(VectorOperators.ASHR, 29));
                                                LongVector te7 = ts7.add(te6.lanewise(VectorOperators.LSHR, 29));
                                                LongVector td7 = ts7.sub(Q7).add(td6.lanewise(VectorOperators.ASHR, 29));
                                                LongVector te8 = ts8.add(te7.lanewise(VectorOperators.LSHR, 29));
                                                LongVector td8 = ts8.sub(Q8).add(td7.lanewise(VectorOperators.ASHR, 29));
                                                VectorMask<Long> under = td8.compare(VectorOperators.LT, 0);
                                                s0 = td0.and(M).blend(te0.and(M), under);
                                                s1 = td1.and(M).blend(te1.and(M), under);
                                                s2 = td2.and(M).blend(te2.and(M), under);
                                                s3 = td3.and(M).blend(te3.and(M), under);
                                                s4 = td4.and(M).blend(te4.and(M), under);
                                                s5 = td5.and(M).blend(te5.and(M), under);
                                                s6 = td6.and(M).blend(te6.and(M), under);
                                                s7 = td7.and(M).blend(te7.and(M), under);
                                                s8 = td8.and(M).blend(te8.and(M), under);
                                            }
                                            LongVector sw0 = s0.or(s1.lanewise(LSHL, 29)).or(s2.lanewise(LSHL, 58));
                                            LongVector sw1 = s2.lanewise(LSHR, 6).or(s3.lanewise(LSHL, 23)).or(s4.lanewise(LSHL, 52));
                                            LongVector sw2 = s4.lanewise(LSHR, 12).or(s5.lanewise(LSHL, 17)).or(s6.lanewise(LSHL, 46));
                                            LongVector sw3 = s6.lanewise(LSHR, 18).or(s7.lanewise(LSHL, 11)).or(s8.lanewise(LSHL, 40));
                                            LongVector swA = HALVES_LO.selectFrom(sw0, sw1);
                                            LongVector swC = HALVES_HI.selectFrom(sw0, sw1);
                                            LongVector swB = HALVES_LO.selectFrom(sw2, sw3);
                                            LongVector swD = HALVES_HI.selectFrom(sw2, sw3);
                                            PAIRS_LO.selectFrom(swA, swB).intoArray(a, u);
                                            PAIRS_HI.selectFrom(swA, swB).intoArray(a, u + 8);
                                            PAIRS_LO.selectFrom(swC, swD).intoArray(a, u + 16);
                                            PAIRS_HI.selectFrom(swC, swD).intoArray(a, u + 24);
                                            LongVector e0, e1, e2, e3, e4, e5, e6, e7, e8;
                                            {
                                                LongVector ts0 = x0.sub(z0);
                                                LongVector ts1 = x1.sub(z1);
                                                LongVector ts2 = x2.sub(z2);
                                                LongVector ts3 = x3.sub(z3);
                                                LongVector ts4 = x4.sub(z4);
                                                LongVector ts5 = x5.sub(z5);
                                                LongVector ts6 = x6.sub(z6);
                                                LongVector ts7 = x7.sub(z7);
                                                LongVector ts8 = x8.sub(z8);
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
                                                e0 = te0.and(M).blend(td0.and(M), under);
                                                e1 = te1.and(M).blend(td1.and(M), under);
                                                e2 = te2.and(M).blend(td2.and(M), under);
                                                e3 = te3.and(M).blend(td3.and(M), under);
                                                e4 = te4.and(M).blend(td4.and(M), under);
                                                e5 = te5.and(M).blend(td5.and(M), under);
                                                e6 = te6.and(M).blend(td6.and(M), under);
                                                e7 = te7.and(M).blend(td7.and(M), under);
                                                e8 = te8.and(M).blend(td8.and(M), under);
                                            }
                                            LongVector y0 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t)).convertShape(VectorOperators.I2L, S, 0);
                                            LongVector y1 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 1 * stride)).convertShape(VectorOperators.I2L, S, 0);
                                            LongVector y2 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 2 * stride)).convertShape(VectorOperators.I2L, S, 0);
                                            LongVector y3 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 3 * stride)).convertShape(VectorOperators.I2L, S, 0);
                                            LongVector y4 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 4 * stride)).convertShape(VectorOperators.I2L, S, 0);
                                            LongVector y5 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 5 * stride)).convertShape(VectorOperators.I2L, S, 0);
                                            LongVector y6 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 6 * stride)).convertShape(VectorOperators.I2L, S, 0);
                                            LongVector y7 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 7 * stride)).convertShape(VectorOperators.I2L, S, 0);
                                            LongVector y8 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 8 * stride)).convertShape(VectorOperators.I2L, S, 0);
                                            {
                                                LongVector c0 = e0.mul(y0);
                                                LongVector c1 = e1.mul(y0);
                                                LongVector c2 = e2.mul(y0);
                                                LongVector c3 = e3.mul(y0);
                                                LongVector c4 = e4.mul(y0);
                                                LongVector c5 = e5.mul(y0);
                                                LongVector c6 = e6.mul(y0);
                                                LongVector c7 = e7.mul(y0);
                                                LongVector c8 = e8.mul(y0);
                                                c1 = c1.add(e0.mul(y1));
                                                c2 = c2.add(e1.mul(y1));
                                                c3 = c3.add(e2.mul(y1));
                                                c4 = c4.add(e3.mul(y1));
                                                c5 = c5.add(e4.mul(y1));
                                                c6 = c6.add(e5.mul(y1));
                                                c7 = c7.add(e6.mul(y1));
                                                c8 = c8.add(e7.mul(y1));
                                                LongVector c9 = e8.mul(y1);
                                                c2 = c2.add(e0.mul(y2));
                                                c3 = c3.add(e1.mul(y2));
                                                c4 = c4.add(e2.mul(y2));
                                                c5 = c5.add(e3.mul(y2));
                                                c6 = c6.add(e4.mul(y2));
                                                c7 = c7.add(e5.mul(y2));
                                                c8 = c8.add(e6.mul(y2));
                                                c9 = c9.add(e7.mul(y2));
                                                LongVector c10 = e8.mul(y2);
                                                c3 = c3.add(e0.mul(y3));
                                                c4 = c4.add(e1.mul(y3));
                                                c5 = c5.add(e2.mul(y3));
                                                c6 = c6.add(e3.mul(y3));
                                                c7 = c7.add(e4.mul(y3));
                                                c8 = c8.add(e5.mul(y3));
                                                c9 = c9.add(e6.mul(y3));
                                                c10 = c10.add(e7.mul(y3));
                                                LongVector c11 = e8.mul(y3);
                                                c4 = c4.add(e0.mul(y4));
                                                c5 = c5.add(e1.mul(y4));
                                                c6 = c6.add(e2.mul(y4));
                                                c7 = c7.add(e3.mul(y4));
                                                c8 = c8.add(e4.mul(y4));
                                                c9 = c9.add(e5.mul(y4));
                                                c10 = c10.add(e6.mul(y4));
                                                c11 = c11.add(e7.mul(y4));
                                                LongVector c12 = e8.mul(y4);
                                                c5 = c5.add(e0.mul(y5));
                                                c6 = c6.add(e1.mul(y5));
                                                c7 = c7.add(e2.mul(y5));
                                                c8 = c8.add(e3.mul(y5));
                                                c9 = c9.add(e4.mul(y5));
                                                c10 = c10.add(e5.mul(y5));
                                                c11 = c11.add(e6.mul(y5));
                                                c12 = c12.add(e7.mul(y5));
                                                LongVector c13 = e8.mul(y5);
                                                c6 = c6.add(e0.mul(y6));
                                                c7 = c7.add(e1.mul(y6));
                                                c8 = c8.add(e2.mul(y6));
                                                c9 = c9.add(e3.mul(y6));
                                                c10 = c10.add(e4.mul(y6));
                                                c11 = c11.add(e5.mul(y6));
                                                c12 = c12.add(e6.mul(y6));
                                                c13 = c13.add(e7.mul(y6));
                                                LongVector c14 = e8.mul(y6);
                                                c7 = c7.add(e0.mul(y7));
                                                c8 = c8.add(e1.mul(y7));
                                                c9 = c9.add(e2.mul(y7));
                                                c10 = c10.add(e3.mul(y7));
                                                c11 = c11.add(e4.mul(y7));
                                                c12 = c12.add(e5.mul(y7));
                                                c13 = c13.add(e6.mul(y7));
                                                c14 = c14.add(e7.mul(y7));
                                                LongVector c15 = e8.mul(y7);
                                                c8 = c8.add(e0.mul(y8));
                                                c9 = c9.add(e1.mul(y8));
                                                c10 = c10.add(e2.mul(y8));
                                                c11 = c11.add(e3.mul(y8));
                                                c12 = c12.add(e4.mul(y8));
                                                c13 = c13.add(e5.mul(y8));
                                                c14 = c14.add(e6.mul(y8));
                                                c15 = c15.add(e7.mul(y8));
                                                LongVector c16 = e8.mul(y8);
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
                                                                                { LongVector m = c8.mul(QINV).and(M);
                                                                                    c8 = c8.add(m.mul(Q0));
                                                                                    c9 = c9.add(m.mul(Q1));
                                                                                    c10 = c10.add(m.mul(Q2));
                                                                                    c11 = c11.add(m.mul(Q3));
                                                                                    c12 = c12.add(m.mul(Q4));
                                                                                    c13 = c13.add(m.mul(Q5));
                                                                                    c14 = c14.add(m.mul(Q6));
                                                                                    c15 = c15.add(m.mul(Q7));
                                                                                    c16 = c16.add(m.mul(Q8));
                                                                                    c9 = c9.add(c8.lanewise(VectorOperators.LSHR, 29)); }
                                                                                    LongVector r0 = c9.and(M);
                                                                                    c10 = c10.add(c9.lanewise(VectorOperators.LSHR, 29));
                                                                                    LongVector r1 = c10.and(M);
                                                                                    c11 = c11.add(c10.lanewise(VectorOperators.LSHR, 29));
                                                                                    LongVector r2 = c11.and(M);
                                                                                    c12 = c12.add(c11.lanewise(VectorOperators.LSHR, 29));
                                                                                    LongVector r3 = c12.and(M);
                                                                                    c13 = c13.add(c12.lanewise(VectorOperators.LSHR, 29));
                                                                                    LongVector r4 = c13.and(M);
                                                                                    c14 = c14.add(c13.lanewise(VectorOperators.LSHR, 29));
                                                                                    LongVector r5 = c14.and(M);
                                                                                    c15 = c15.add(c14.lanewise(VectorOperators.LSHR, 29));
                                                                                    LongVector r6 = c15.and(M);
                                                                                    c16 = c16.add(c15.lanewise(VectorOperators.LSHR, 29));
                                                                                    LongVector r7 = c16.and(M);
                                                                                    LongVector r8 = c16.lanewise(VectorOperators.LSHR, 29);
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
                                                                                    LongVector pw0 = p0.or(p1.lanewise(LSHL, 29)).or(p2.lanewise(LSHL, 58));
                                                                                    LongVector pw1 = p2.lanewise(LSHR, 6).or(p3.lanewise(LSHL, 23)).or(p4.lanewise(LSHL, 52));
                                                                                    LongVector pw2 = p4.lanewise(LSHR, 12).or(p5.lanewise(LSHL, 17)).or(p6.lanewise(LSHL, 46));
                                                                                    LongVector pw3 = p6.lanewise(LSHR, 18).or(p7.lanewise(LSHL, 11)).or(p8.lanewise(LSHL, 40));
                                                                                    LongVector pwA = HALVES_LO.selectFrom(pw0, pw1);
                                                                                    LongVector pwC = HALVES_HI.selectFrom(pw0, pw1);
                                                                                    LongVector pwB = HALVES_LO.selectFrom(pw2, pw3);
                                                                                    LongVector pwD = HALVES_HI.selectFrom(pw2, pw3);
                                                                                    PAIRS_LO.selectFrom(pwA, pwB).intoArray(a, v);
                                                                                    PAIRS_HI.selectFrom(pwA, pwB).intoArray(a, v + 8);
                                                                                    PAIRS_LO.selectFrom(pwC, pwD).intoArray(a, v + 16);
                                                                                    PAIRS_HI.selectFrom(pwC, pwD).intoArray(a, v + 24);
                                                                                }
                                                                            }
    // GENERATED END
}
