package dev.proofline.algebra.field;

import java.math.BigInteger;

/**
 * The quadratic extension Fp2 = Fp[u]/(u^2 + 1), used by both BN254 and BLS12-381 (q = 3 mod 4, so -1
 * is a non-residue). An element c0 + c1*u is stored as c0 then c1, each {@code base.width()} longs.
 *
 * <p>Holds scratch space: one instance per thread ({@link #forThread()}).
 */
public final class Fp2 extends Field {

    private final PrimeField fp;
    private final int n;       // base width
    private final long[] t;    // scratch: 4 base elements
    private final long[] pMinus3Over4;
    private final long[] pMinus1Over2;

    public Fp2(PrimeField fp) {
        if (!fp.modulus().testBit(0) || !fp.modulus().testBit(1)) {
            throw new IllegalArgumentException("Fp2 = Fp[u]/(u^2+1) needs q = 3 mod 4");
        }
        this.fp = fp;
        this.n = fp.width();
        this.t = new long[4 * n];
        BigInteger q = fp.modulus();
        this.pMinus3Over4 = PrimeField.words(q.subtract(BigInteger.valueOf(3)).shiftRight(2), n);
        this.pMinus1Over2 = PrimeField.words(q.subtract(BigInteger.ONE).shiftRight(1), n);
    }

    public PrimeField base() {
        return fp;
    }

    @Override
    public int width() {
        return 2 * n;
    }

    @Override
    public Field forThread() {
        return new Fp2(fp);
    }

    @Override
    public void mul(long[] a, int ai, long[] b, int bi, long[] r, int ri) {
        // Karatsuba: v0 = a0 b0, v1 = a1 b1, c1 = (a0 + a1)(b0 + b1) - v0 - v1, c0 = v0 - v1
        fp.mul(a, ai, b, bi, t, 0);
        fp.mul(a, ai + n, b, bi + n, t, n);
        fp.add(a, ai, a, ai + n, t, 2 * n);
        fp.add(b, bi, b, bi + n, t, 3 * n);
        fp.mul(t, 2 * n, t, 3 * n, t, 2 * n);
        fp.sub(t, 2 * n, t, 0, t, 2 * n);
        fp.sub(t, 2 * n, t, n, r, ri + n);
        fp.sub(t, 0, t, n, r, ri);
    }

    @Override
    public void sqr(long[] a, int ai, long[] r, int ri) {
        // (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u
        fp.add(a, ai, a, ai + n, t, 0);
        fp.sub(a, ai, a, ai + n, t, n);
        fp.mul(a, ai, a, ai + n, t, 2 * n);
        fp.mul(t, 0, t, n, r, ri);
        fp.dbl(t, 2 * n, r, ri + n);
    }

    @Override
    public void add(long[] a, int ai, long[] b, int bi, long[] r, int ri) {
        fp.add(a, ai, b, bi, r, ri);
        fp.add(a, ai + n, b, bi + n, r, ri + n);
    }

    @Override
    public void sub(long[] a, int ai, long[] b, int bi, long[] r, int ri) {
        fp.sub(a, ai, b, bi, r, ri);
        fp.sub(a, ai + n, b, bi + n, r, ri + n);
    }

    @Override
    public void dbl(long[] a, int ai, long[] r, int ri) {
        fp.dbl(a, ai, r, ri);
        fp.dbl(a, ai + n, r, ri + n);
    }

    @Override
    public void neg(long[] a, int ai, long[] r, int ri) {
        fp.neg(a, ai, r, ri);
        fp.neg(a, ai + n, r, ri + n);
    }

    /** r = conj(a) = a0 - a1 u, which is also the Frobenius map a^q. */
    public void conjugate(long[] a, int ai, long[] r, int ri) {
        fp.copy(a, ai, r, ri);
        fp.neg(a, ai + n, r, ri + n);
    }

    /** r = a * s for s in the base field. */
    public void mulByBase(long[] a, int ai, long[] s, int si, long[] r, int ri) {
        fp.mul(a, ai, s, si, r, ri);
        fp.mul(a, ai + n, s, si, r, ri + n);
    }

    @Override
    public void inv(long[] a, int ai, long[] r, int ri) {
        inv(a, ai, r, ri, false);
    }

    /** As {@link #inv}, with the base field's variable-time inversion. */
    @Override
    public void invVartime(long[] a, int ai, long[] r, int ri) {
        inv(a, ai, r, ri, true);
    }

    /**
     * r (a base-field element, {@code base().width()} words) = N(a) = a conj(a) = a0^2 + a1^2, zero only
     * for a = 0 (u^2 = -1 is not a square in Fp). Uses this instance's scratch.
     */
    public void norm(long[] a, int ai, long[] r, int ri) {
        fp.sqr(a, ai, t, 0);
        fp.sqr(a, ai + n, r, ri);
        fp.add(t, 0, r, ri, r, ri);
    }

    private void inv(long[] a, int ai, long[] r, int ri, boolean vartime) {
        // 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2)
        norm(a, ai, t, n);
        if (vartime) {
            fp.invVartime(t, n, t, n);
        } else {
            fp.inv(t, n, t, n);
        }
        fp.mul(a, ai, t, n, r, ri);
        fp.mul(a, ai + n, t, n, t, 0);
        fp.neg(t, 0, r, ri + n);
    }

    @Override
    public boolean isZero(long[] a, int ai) {
        return fp.isZero(a, ai) && fp.isZero(a, ai + n);
    }

    @Override
    public boolean isOne(long[] a, int ai) {
        return fp.isOne(a, ai) && fp.isZero(a, ai + n);
    }

    @Override
    public void setOne(long[] r, int ri) {
        fp.setOne(r, ri);
        fp.setZero(r, ri + n);
    }

    /** Builds c0 + c1 u from canonical integers. */
    public long[] of(BigInteger c0, BigInteger c1) {
        long[] r = newElement();
        fp.fromBigInteger(c0, r, 0);
        fp.fromBigInteger(c1, r, n);
        return r;
    }

    /**
     * r = a square root of a, or false (r untouched) when a is not a square. For q = 3 mod 4
     * (Adj and Rodríguez-Henríquez, "Square root computation over even extension fields", Alg. 9).
     */
    public boolean sqrt(long[] a, int ai, long[] r, int ri) {
        if (isZero(a, ai)) {
            setZero(r, ri);
            return true;
        }
        long[] a1 = newElement();
        pow(a, ai, pMinus3Over4, a1, 0);          // a1 = a^((q-3)/4)
        long[] alpha = newElement();
        sqr(a1, 0, alpha, 0);
        mul(alpha, 0, a, ai, alpha, 0);           // alpha = a1^2 a
        long[] a0 = newElement();
        conjugate(alpha, 0, a0, 0);
        mul(a0, 0, alpha, 0, a0, 0);              // a0 = alpha^q alpha
        long[] minusOne = one();
        neg(minusOne, 0, minusOne, 0);
        if (eq(a0, 0, minusOne, 0)) {
            return false;
        }
        long[] x0 = newElement();
        mul(a1, 0, a, ai, x0, 0);                 // x0 = a1 a
        long[] x = newElement();
        if (eq(alpha, 0, minusOne, 0)) {
            // x = u * x0 = -x0.c1 + x0.c0 u
            fp.neg(x0, n, x, 0);
            fp.copy(x0, 0, x, n);
        } else {
            long[] b = one();
            add(b, 0, alpha, 0, b, 0);
            pow(b, 0, pMinus1Over2, b, 0);        // b = (1 + alpha)^((q-1)/2)
            mul(b, 0, x0, 0, x, 0);
        }
        long[] check = newElement();
        sqr(x, 0, check, 0);
        if (!eq(check, 0, a, ai)) {
            return false;
        }
        copy(x, 0, r, ri);
        return true;
    }

    @Override
    public String toString() {
        return "Fp2 over " + fp.name();
    }
}
