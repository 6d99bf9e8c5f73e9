package dev.proofline.algebra.msm;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;

import dev.proofline.algebra.field.PrimeField;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

// Written by algebra/src/codegen/vector_batch_affine.py: edit that, not this.
/** The limb arithmetic of {@link VectorBatchAffine} for 4-word fields: 9 limbs of 29 bits. */
final class VectorBatchAffine4 extends VectorBatchAffine {

    private static final long MLAST = (1L << 24) - 1;

    /** Two-vector selections for the 4 x 8 transposition between element order and word order. */
    private static final LongVector PAIRS_LO = LongVector.fromArray(S, new long[] {0, 4, 8, 12, 1, 5, 9, 13}, 0);
    private static final LongVector PAIRS_HI = LongVector.fromArray(S, new long[] {2, 6, 10, 14, 3, 7, 11, 15}, 0);
    private static final LongVector HALVES_LO = LongVector.fromArray(S, new long[] {0, 1, 2, 3, 8, 9, 10, 11}, 0);
    private static final LongVector HALVES_HI = LongVector.fromArray(S, new long[] {4, 5, 6, 7, 12, 13, 14, 15}, 0);

    VectorBatchAffine4(PrimeField f, boolean eager) {
        super(f, eager, 9);
    }

    @Override
    void load(long[] a, int off, long[] x, int xo) {
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

    @Override
    void store(long[] x, int xo, long[] a, int off) {
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

    @Override
    void product(long[] x, int ao, int bo, int co) {
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
        LongVector c13 = LongVector.zero(S);
        LongVector c14 = LongVector.zero(S);
        LongVector c15 = LongVector.zero(S);
        LongVector c16 = LongVector.zero(S);
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
        productRows1(x, ao, bo, co);
    }

    /** Adds rows 5 to 8 of the product to the columns at co. */
    private static void productRows1(long[] x, int ao, int bo, int co) {
        LongVector a0 = LongVector.fromArray(S, x, ao + 0);
        LongVector a1 = LongVector.fromArray(S, x, ao + 8);
        LongVector a2 = LongVector.fromArray(S, x, ao + 16);
        LongVector a3 = LongVector.fromArray(S, x, ao + 24);
        LongVector a4 = LongVector.fromArray(S, x, ao + 32);
        LongVector a5 = LongVector.fromArray(S, x, ao + 40);
        LongVector a6 = LongVector.fromArray(S, x, ao + 48);
        LongVector a7 = LongVector.fromArray(S, x, ao + 56);
        LongVector a8 = LongVector.fromArray(S, x, ao + 64);
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
        LongVector b5 = LongVector.fromArray(S, x, bo + 40);
        c5 = c5.add(a0.mul(b5));
        c6 = c6.add(a1.mul(b5));
        c7 = c7.add(a2.mul(b5));
        c8 = c8.add(a3.mul(b5));
        c9 = c9.add(a4.mul(b5));
        c10 = c10.add(a5.mul(b5));
        c11 = c11.add(a6.mul(b5));
        c12 = c12.add(a7.mul(b5));
        c13 = c13.add(a8.mul(b5));
        LongVector b6 = LongVector.fromArray(S, x, bo + 48);
        c6 = c6.add(a0.mul(b6));
        c7 = c7.add(a1.mul(b6));
        c8 = c8.add(a2.mul(b6));
        c9 = c9.add(a3.mul(b6));
        c10 = c10.add(a4.mul(b6));
        c11 = c11.add(a5.mul(b6));
        c12 = c12.add(a6.mul(b6));
        c13 = c13.add(a7.mul(b6));
        c14 = c14.add(a8.mul(b6));
        LongVector b7 = LongVector.fromArray(S, x, bo + 56);
        c7 = c7.add(a0.mul(b7));
        c8 = c8.add(a1.mul(b7));
        c9 = c9.add(a2.mul(b7));
        c10 = c10.add(a3.mul(b7));
        c11 = c11.add(a4.mul(b7));
        c12 = c12.add(a5.mul(b7));
        c13 = c13.add(a6.mul(b7));
        c14 = c14.add(a7.mul(b7));
        c15 = c15.add(a8.mul(b7));
        LongVector b8 = LongVector.fromArray(S, x, bo + 64);
        c8 = c8.add(a0.mul(b8));
        c9 = c9.add(a1.mul(b8));
        c10 = c10.add(a2.mul(b8));
        c11 = c11.add(a3.mul(b8));
        c12 = c12.add(a4.mul(b8));
        c13 = c13.add(a5.mul(b8));
        c14 = c14.add(a6.mul(b8));
        c15 = c15.add(a7.mul(b8));
        c16 = c16.add(a8.mul(b8));
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

    @Override
    void square(long[] x, int ao, int co) {
        LongVector a0 = LongVector.fromArray(S, x, ao + 0);
        LongVector a1 = LongVector.fromArray(S, x, ao + 8);
        LongVector a2 = LongVector.fromArray(S, x, ao + 16);
        LongVector a3 = LongVector.fromArray(S, x, ao + 24);
        LongVector a4 = LongVector.fromArray(S, x, ao + 32);
        LongVector a5 = LongVector.fromArray(S, x, ao + 40);
        LongVector c0 = a0.mul(a0);
        LongVector d1 = a1.lanewise(LSHL, 1);
        LongVector c1 = a0.mul(d1);
        LongVector c2 = a1.mul(a1);
        LongVector d2 = a2.lanewise(LSHL, 1);
        c2 = c2.add(a0.mul(d2));
        LongVector c3 = a1.mul(d2);
        LongVector c4 = a2.mul(a2);
        LongVector d3 = a3.lanewise(LSHL, 1);
        c3 = c3.add(a0.mul(d3));
        c4 = c4.add(a1.mul(d3));
        LongVector c5 = a2.mul(d3);
        LongVector c6 = a3.mul(a3);
        LongVector d4 = a4.lanewise(LSHL, 1);
        c4 = c4.add(a0.mul(d4));
        c5 = c5.add(a1.mul(d4));
        c6 = c6.add(a2.mul(d4));
        LongVector c7 = a3.mul(d4);
        LongVector c8 = a4.mul(a4);
        LongVector d5 = a5.lanewise(LSHL, 1);
        c5 = c5.add(a0.mul(d5));
        c6 = c6.add(a1.mul(d5));
        c7 = c7.add(a2.mul(d5));
        c8 = c8.add(a3.mul(d5));
        LongVector c9 = a4.mul(d5);
        LongVector c10 = a5.mul(a5);
        LongVector c11 = LongVector.zero(S);
        LongVector c12 = LongVector.zero(S);
        LongVector c13 = LongVector.zero(S);
        LongVector c14 = LongVector.zero(S);
        LongVector c15 = LongVector.zero(S);
        LongVector c16 = LongVector.zero(S);
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
        squareRows1(x, ao, co);
    }

    /** Adds rows 6 to 8 of the square to the columns at co. */
    private static void squareRows1(long[] x, int ao, int co) {
        LongVector a0 = LongVector.fromArray(S, x, ao + 0);
        LongVector a1 = LongVector.fromArray(S, x, ao + 8);
        LongVector a2 = LongVector.fromArray(S, x, ao + 16);
        LongVector a3 = LongVector.fromArray(S, x, ao + 24);
        LongVector a4 = LongVector.fromArray(S, x, ao + 32);
        LongVector a5 = LongVector.fromArray(S, x, ao + 40);
        LongVector a6 = LongVector.fromArray(S, x, ao + 48);
        LongVector a7 = LongVector.fromArray(S, x, ao + 56);
        LongVector a8 = LongVector.fromArray(S, x, ao + 64);
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
        LongVector d6 = a6.lanewise(LSHL, 1);
        c6 = c6.add(a0.mul(d6));
        c7 = c7.add(a1.mul(d6));
        c8 = c8.add(a2.mul(d6));
        c9 = c9.add(a3.mul(d6));
        c10 = c10.add(a4.mul(d6));
        c11 = c11.add(a5.mul(d6));
        c12 = c12.add(a6.mul(a6));
        LongVector d7 = a7.lanewise(LSHL, 1);
        c7 = c7.add(a0.mul(d7));
        c8 = c8.add(a1.mul(d7));
        c9 = c9.add(a2.mul(d7));
        c10 = c10.add(a3.mul(d7));
        c11 = c11.add(a4.mul(d7));
        c12 = c12.add(a5.mul(d7));
        c13 = c13.add(a6.mul(d7));
        c14 = c14.add(a7.mul(a7));
        LongVector d8 = a8.lanewise(LSHL, 1);
        c8 = c8.add(a0.mul(d8));
        c9 = c9.add(a1.mul(d8));
        c10 = c10.add(a2.mul(d8));
        c11 = c11.add(a3.mul(d8));
        c12 = c12.add(a4.mul(d8));
        c13 = c13.add(a5.mul(d8));
        c14 = c14.add(a6.mul(d8));
        c15 = c15.add(a7.mul(d8));
        c16 = c16.add(a8.mul(a8));
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

    @Override
    void reduce(long[] x, int co) {
        final long Q0 = q[0], Q1 = q[1], Q2 = q[2], Q3 = q[3], Q4 = q[4], Q5 = q[5], Q6 = q[6], Q7 = q[7], Q8 = q[8];
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
            c1 = c1.add(c0.lanewise(LSHR, 29)); }
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
            c2 = c2.add(c1.lanewise(LSHR, 29)); }
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
            c3 = c3.add(c2.lanewise(LSHR, 29)); }
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
            c4 = c4.add(c3.lanewise(LSHR, 29)); }
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
            c5 = c5.add(c4.lanewise(LSHR, 29)); }
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
            c6 = c6.add(c5.lanewise(LSHR, 29)); }
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
            c7 = c7.add(c6.lanewise(LSHR, 29)); }
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
            c8 = c8.add(c7.lanewise(LSHR, 29)); }
        { LongVector m = c8.mul(QINV).and(MLAST);
            c8 = c8.add(m.mul(Q0));
            c9 = c9.add(m.mul(Q1));
            c10 = c10.add(m.mul(Q2));
            c11 = c11.add(m.mul(Q3));
            c12 = c12.add(m.mul(Q4));
            c13 = c13.add(m.mul(Q5));
            c14 = c14.add(m.mul(Q6));
            c15 = c15.add(m.mul(Q7));
            c16 = c16.add(m.mul(Q8));
        }
        LongVector n0 = c8.and(M);
        c9 = c9.add(c8.lanewise(LSHR, 29));
        LongVector n1 = c9.and(M);
        c10 = c10.add(c9.lanewise(LSHR, 29));
        LongVector n2 = c10.and(M);
        c11 = c11.add(c10.lanewise(LSHR, 29));
        LongVector n3 = c11.and(M);
        c12 = c12.add(c11.lanewise(LSHR, 29));
        LongVector n4 = c12.and(M);
        c13 = c13.add(c12.lanewise(LSHR, 29));
        LongVector n5 = c13.and(M);
        c14 = c14.add(c13.lanewise(LSHR, 29));
        LongVector n6 = c14.and(M);
        c15 = c15.add(c14.lanewise(LSHR, 29));
        LongVector n7 = c15.and(M);
        c16 = c16.add(c15.lanewise(LSHR, 29));
        LongVector n8 = c16.and(M);
        LongVector n9 = c16.lanewise(LSHR, 29);
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

    @Override
    void finish(long[] x, int co, int ro) {
        final long Q0 = q[0], Q1 = q[1], Q2 = q[2], Q3 = q[3], Q4 = q[4], Q5 = q[5], Q6 = q[6], Q7 = q[7], Q8 = q[8];
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
        LongVector r0 = n0.lanewise(LSHR, 24).or(n1.lanewise(LSHL, 5).and(M));
        LongVector r1 = n1.lanewise(LSHR, 24).or(n2.lanewise(LSHL, 5).and(M));
        LongVector r2 = n2.lanewise(LSHR, 24).or(n3.lanewise(LSHL, 5).and(M));
        LongVector r3 = n3.lanewise(LSHR, 24).or(n4.lanewise(LSHL, 5).and(M));
        LongVector r4 = n4.lanewise(LSHR, 24).or(n5.lanewise(LSHL, 5).and(M));
        LongVector r5 = n5.lanewise(LSHR, 24).or(n6.lanewise(LSHL, 5).and(M));
        LongVector r6 = n6.lanewise(LSHR, 24).or(n7.lanewise(LSHL, 5).and(M));
        LongVector r7 = n7.lanewise(LSHR, 24).or(n8.lanewise(LSHL, 5).and(M));
        LongVector r8 = n8.lanewise(LSHR, 24).or(n9.lanewise(LSHL, 5));
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

    @Override
    void finishLazy(long[] x, int co, int ro) {
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
        n0.lanewise(LSHR, 24).or(n1.lanewise(LSHL, 5).and(M)).intoArray(x, ro + 0);
        n1.lanewise(LSHR, 24).or(n2.lanewise(LSHL, 5).and(M)).intoArray(x, ro + 8);
        n2.lanewise(LSHR, 24).or(n3.lanewise(LSHL, 5).and(M)).intoArray(x, ro + 16);
        n3.lanewise(LSHR, 24).or(n4.lanewise(LSHL, 5).and(M)).intoArray(x, ro + 24);
        n4.lanewise(LSHR, 24).or(n5.lanewise(LSHL, 5).and(M)).intoArray(x, ro + 32);
        n5.lanewise(LSHR, 24).or(n6.lanewise(LSHL, 5).and(M)).intoArray(x, ro + 40);
        n6.lanewise(LSHR, 24).or(n7.lanewise(LSHL, 5).and(M)).intoArray(x, ro + 48);
        n7.lanewise(LSHR, 24).or(n8.lanewise(LSHL, 5).and(M)).intoArray(x, ro + 56);
        n8.lanewise(LSHR, 24).or(n9.lanewise(LSHL, 5)).intoArray(x, ro + 64);
    }

    @Override
    void sub(long[] x, int ao, int bo, int ro) {
        final long Q0 = q[0], Q1 = q[1], Q2 = q[2], Q3 = q[3], Q4 = q[4], Q5 = q[5], Q6 = q[6], Q7 = q[7], Q8 = q[8];
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

    @Override
    void negWhere(long[] x, int o, boolean[] neg) {
        final long Q0 = q[0], Q1 = q[1], Q2 = q[2], Q3 = q[3], Q4 = q[4], Q5 = q[5], Q6 = q[6], Q7 = q[7], Q8 = q[8];
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

    @Override
    long zeroLanes(long[] x, int o) {
        LongVector a0 = LongVector.fromArray(S, x, o + 0);
        LongVector a1 = LongVector.fromArray(S, x, o + 8);
        LongVector a2 = LongVector.fromArray(S, x, o + 16);
        LongVector a3 = LongVector.fromArray(S, x, o + 24);
        LongVector a4 = LongVector.fromArray(S, x, o + 32);
        LongVector a5 = LongVector.fromArray(S, x, o + 40);
        LongVector a6 = LongVector.fromArray(S, x, o + 48);
        LongVector a7 = LongVector.fromArray(S, x, o + 56);
        LongVector a8 = LongVector.fromArray(S, x, o + 64);
        LongVector or = a0;
        or = or.or(a1);
        or = or.or(a2);
        or = or.or(a3);
        or = or.or(a4);
        or = or.or(a5);
        or = or.or(a6);
        or = or.or(a7);
        or = or.or(a8);
        return or.compare(VectorOperators.EQ, 0).toLong();
    }
}
