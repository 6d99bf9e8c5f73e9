package dev.proofline.algebra.msm;

import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;

/**
 * {@link LaneField} on the limb arithmetic of {@link VectorBatchAffine}: a prime field's register is
 * its L limbs of 29 bits in 8 lanes; an Fp2 = Fp[u]/(u^2 + 1) register is the two coordinates'
 * registers one after the other, a product three base products (Karatsuba), a square two.
 */
abstract class VectorLaneField extends LaneField {

    final VectorBatchAffine k;
    /** Longs of one base register. */
    final int e;
    /** Where the base products' columns go. */
    int col;

    VectorLaneField(VectorBatchAffine k) {
        this.k = k;
        this.e = 8 * k.limbCount();
    }

    static LaneField create(Field f, boolean eager) {
        PrimeField base = f instanceof PrimeField p ? p : ((Fp2) f).base();
        if (!VectorBatchAffine.applies(base)) {
            return null;
        }
        VectorBatchAffine k = VectorBatchAffine.create((PrimeField) base.forThread(), eager);
        return f instanceof Fp2 ? new Quadratic(k, base.width()) : new Prime(k, base.width());
    }

    @Override
    void scratchAt(int offset) {
        col = offset;
    }

    @Override
    boolean ready() {
        return k.ready();
    }

    @Override
    boolean warmUp(long timeoutMillis) throws InterruptedException {
        return k.warmUp(timeoutMillis);
    }

    @Override
    boolean warming() {
        return k.warming();
    }

    final void baseMul(long[] x, int a, int b, int r) {
        k.mulReduce(x, a, b, col);
        k.finish(x, col, r);
    }

    final void baseSqr(long[] x, int a, int r) {
        k.square(x, a, col);
        k.reduce(x, col);
        k.finish(x, col, r);
    }

    private static final class Prime extends VectorLaneField {

        private final int fw;

        Prime(VectorBatchAffine k, int fw) {
            super(k);
            this.fw = fw;
        }

        @Override
        int register() {
            return e;
        }

        @Override
        int scratch() {
            return (2 * k.limbCount() - 1) * 8;
        }

        @Override
        int width() {
            return fw;
        }

        @Override
        void mul(long[] x, int a, int b, int r) {
            baseMul(x, a, b, r);
        }

        @Override
        void sqr(long[] x, int a, int r) {
            baseSqr(x, a, r);
        }

        @Override
        void add(long[] x, int a, int b, int r) {
            k.add(x, a, b, r);
        }

        @Override
        void sub(long[] x, int a, int b, int r) {
            k.sub(x, a, b, r);
        }

        @Override
        void negWhere(long[] x, int o, boolean[] neg) {
            k.negWhere(x, o, neg);
        }

        @Override
        void conjugate(long[] x, int o) {
            throw new UnsupportedOperationException("no conjugation in a prime field");
        }

        @Override
        long zeroLanes(long[] x, int o) {
            return k.zeroLanes(x, o);
        }

        @Override
        void load(long[] words, int off, long[] x, int xo) {
            k.load(words, off, x, xo);
        }

        @Override
        void store(long[] x, int xo, long[] words, int off) {
            k.store(x, xo, words, off);
        }
    }

    /** Fp2 = Fp[u]/(u^2 + 1): the register of c0, then that of c1. */
    private static final class Quadratic extends VectorLaneField {

        private static final boolean[] ALL = {true, true, true, true, true, true, true, true};
        private final int fw;
        private final long[] c0;
        private final long[] c1;
        /** Three base registers of scratch, before the columns. */
        private int t;

        Quadratic(VectorBatchAffine k, int fw) {
            super(k);
            this.fw = fw;
            this.c0 = new long[8 * fw];
            this.c1 = new long[8 * fw];
        }

        @Override
        void scratchAt(int offset) {
            t = offset;
            col = offset + 3 * e;
        }

        @Override
        int register() {
            return 2 * e;
        }

        @Override
        int scratch() {
            return 3 * e + (2 * k.limbCount() - 1) * 8;
        }

        @Override
        int width() {
            return 2 * fw;
        }

        @Override
        void mul(long[] x, int a, int b, int r) {
            // (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u
            int t0 = t;
            int t1 = t + e;
            int t2 = t + 2 * e;
            k.add(x, a, a + e, t0);
            k.add(x, b, b + e, t1);
            baseMul(x, t0, t1, t2);          // (a0 + a1)(b0 + b1)
            baseMul(x, a, b, t0);            // a0 b0
            baseMul(x, a + e, b + e, t1);    // a1 b1
            k.sub(x, t2, t0, t2);
            k.sub(x, t2, t1, r + e);
            k.sub(x, t0, t1, r);
        }

        @Override
        void sqr(long[] x, int a, int r) {
            // (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u
            int t0 = t;
            int t1 = t + e;
            int t2 = t + 2 * e;
            k.add(x, a, a + e, t0);
            k.sub(x, a, a + e, t1);
            baseMul(x, a, a + e, t2);
            baseMul(x, t0, t1, r);
            k.add(x, t2, t2, r + e);
        }

        @Override
        void add(long[] x, int a, int b, int r) {
            k.add(x, a, b, r);
            k.add(x, a + e, b + e, r + e);
        }

        @Override
        void sub(long[] x, int a, int b, int r) {
            k.sub(x, a, b, r);
            k.sub(x, a + e, b + e, r + e);
        }

        @Override
        void negWhere(long[] x, int o, boolean[] neg) {
            k.negWhere(x, o, neg);
            k.negWhere(x, o + e, neg);
        }

        @Override
        void conjugate(long[] x, int o) {
            k.negWhere(x, o + e, ALL);
        }

        @Override
        long zeroLanes(long[] x, int o) {
            return k.zeroLanes(x, o) & k.zeroLanes(x, o + e);
        }

        @Override
        void load(long[] words, int off, long[] x, int xo) {
            for (int l = 0; l < 8; l++) {
                System.arraycopy(words, off + l * 2 * fw, c0, l * fw, fw);
                System.arraycopy(words, off + l * 2 * fw + fw, c1, l * fw, fw);
            }
            k.load(c0, 0, x, xo);
            k.load(c1, 0, x, xo + e);
        }

        @Override
        void store(long[] x, int xo, long[] words, int off) {
            k.store(x, xo, c0, 0);
            k.store(x, xo + e, c1, 0);
            for (int l = 0; l < 8; l++) {
                System.arraycopy(c0, l * fw, words, off + l * 2 * fw, fw);
                System.arraycopy(c1, l * fw, words, off + l * 2 * fw + fw, fw);
            }
        }
    }
}
