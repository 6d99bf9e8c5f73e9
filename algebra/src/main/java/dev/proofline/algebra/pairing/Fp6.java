package dev.proofline.algebra.pairing;

import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;

/**
 * The cubic extension Fp6 = Fp2[v]/(v^3 - ξ) with ξ = ξ0 + u a cubic non-residue of Fp2 (9 + u for
 * BN254, 1 + u for BLS12-381, as in ffjavascript, arkworks and the EIP-197/zcash towers). An element
 * c0 + c1 v + c2 v^2 is stored as c0, c1, c2, each an Fp2 element of {@code 2 * base.width()} longs.
 *
 * <p>Holds scratch space: one instance per thread ({@link #forThread()}). Every operation may write
 * its result over its inputs.
 */
public final class Fp6 extends Field {

    private final PrimeField fp;
    private final Fp2 fp2;
    private final int xi0;
    private final int n;   // Fp width
    private final int w2;  // Fp2 width
    private final long[] t;   // scratch: 8 Fp2 elements, for mul/sqr/inv/sparse products
    private final long[] tx;  // scratch: 2 Fp elements, for mulByXi only

    /**
     * @param xi0 the integer ξ0 in ξ = ξ0 + u; the caller guarantees ξ is neither a square nor a cube
     *            in Fp2 (checked by the tower tests)
     */
    public Fp6(PrimeField fp, int xi0) {
        if (xi0 < 1) {
            throw new IllegalArgumentException("xi0 must be positive");
        }
        this.fp = fp;
        this.fp2 = new Fp2(fp);
        this.xi0 = xi0;
        this.n = fp.width();
        this.w2 = 2 * n;
        this.t = new long[8 * w2];
        this.tx = new long[2 * n];
    }

    public PrimeField base() {
        return fp;
    }

    /** This instance's Fp2 (same thread confinement as this). */
    public Fp2 fp2() {
        return fp2;
    }

    /** ξ0 in the non-residue ξ = ξ0 + u. */
    public int xi0() {
        return xi0;
    }

    @Override
    public int width() {
        return 3 * w2;
    }

    @Override
    public Field forThread() {
        return new Fp6(fp, xi0);
    }

    // ------------------------------------------------------------------ Fp2 helpers

    /** r = ξ0 a in Fp by doubling and adding (ξ0 is tiny, e.g. 9 a = 2(2(2a)) + a); r must not alias a. */
    private void mulSmall(long[] a, int ai, long[] r, int ri) {
        int top = 31 - Integer.numberOfLeadingZeros(xi0);   // xi0 >= 2 here
        fp.dbl(a, ai, r, ri);
        if (((xi0 >>> (top - 1)) & 1) != 0) {
            fp.add(r, ri, a, ai, r, ri);
        }
        for (int i = top - 2; i >= 0; i--) {
            fp.dbl(r, ri, r, ri);
            if (((xi0 >>> i) & 1) != 0) {
                fp.add(r, ri, a, ai, r, ri);
            }
        }
    }

    /** r = ξ a for a in Fp2: (a0 + a1 u)(ξ0 + u) = (ξ0 a0 - a1) + (a0 + ξ0 a1) u. r may alias a. */
    public void mulByXi(long[] a, int ai, long[] r, int ri) {
        switch (xi0) {
            case 1 -> {
                fp.sub(a, ai, a, ai + n, tx, 0);
                fp.add(a, ai, a, ai + n, r, ri + n);
                fp.copy(tx, 0, r, ri);
            }
            default -> {
                mulSmall(a, ai + n, tx, n);         // ξ0 a1
                fp.add(tx, n, a, ai, tx, n);        // a0 + ξ0 a1
                mulSmall(a, ai, tx, 0);             // ξ0 a0
                fp.sub(tx, 0, a, ai + n, r, ri);    // a1 read before r1 is written
                fp.copy(tx, n, r, ri + n);
            }
        }
    }

    // ------------------------------------------------------------------ field operations

    @Override
    public void mul(long[] a, int ai, long[] b, int bi, long[] r, int ri) {
        // Karatsuba over the cubic extension (Devegili, Ó hÉigeartaigh, Scott, Dahab 2006):
        // v_i = a_i b_i
        // c0 = v0 + ξ((a1 + a2)(b1 + b2) - v1 - v2)
        // c1 = (a0 + a1)(b0 + b1) - v0 - v1 + ξ v2
        // c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1
        final int a0 = ai, a1 = ai + w2, a2 = ai + 2 * w2;
        final int b0 = bi, b1 = bi + w2, b2 = bi + 2 * w2;
        final int v0 = 0, v1 = w2, v2 = 2 * w2, x = 3 * w2, y = 4 * w2, c0 = 5 * w2, c1 = 6 * w2;
        fp2.mul(a, a0, b, b0, t, v0);
        fp2.mul(a, a1, b, b1, t, v1);
        fp2.mul(a, a2, b, b2, t, v2);

        fp2.add(a, a1, a, a2, t, x);
        fp2.add(b, b1, b, b2, t, y);
        fp2.mul(t, x, t, y, t, x);
        fp2.sub(t, x, t, v1, t, x);
        fp2.sub(t, x, t, v2, t, x);
        mulByXi(t, x, t, x);
        fp2.add(t, x, t, v0, t, c0);

        fp2.add(a, a0, a, a1, t, x);
        fp2.add(b, b0, b, b1, t, y);
        fp2.mul(t, x, t, y, t, x);
        fp2.sub(t, x, t, v0, t, x);
        fp2.sub(t, x, t, v1, t, x);
        mulByXi(t, v2, t, y);
        fp2.add(t, x, t, y, t, c1);

        fp2.add(a, a0, a, a2, t, x);
        fp2.add(b, b0, b, b2, t, y);
        fp2.mul(t, x, t, y, t, x);
        fp2.sub(t, x, t, v0, t, x);
        fp2.sub(t, x, t, v2, t, x);
        fp2.add(t, x, t, v1, r, ri + 2 * w2);   // inputs are no longer read
        fp2.copy(t, c0, r, ri);
        fp2.copy(t, c1, r, ri + w2);
    }

    @Override
    public void sqr(long[] a, int ai, long[] r, int ri) {
        // CH-SQR2 (Chung and Hasan 2007):
        // s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2
        // c0 = s0 + ξ s3, c1 = s1 + ξ s4, c2 = s1 + s2 + s3 - s0 - s4
        final int a0 = ai, a1 = ai + w2, a2 = ai + 2 * w2;
        final int s0 = 0, s1 = w2, s2 = 2 * w2, s3 = 3 * w2, s4 = 4 * w2, x = 5 * w2;
        fp2.sqr(a, a0, t, s0);
        fp2.mul(a, a0, a, a1, t, s1);
        fp2.dbl(t, s1, t, s1);
        fp2.sub(a, a0, a, a1, t, s2);
        fp2.add(t, s2, a, a2, t, s2);
        fp2.sqr(t, s2, t, s2);
        fp2.mul(a, a1, a, a2, t, s3);
        fp2.dbl(t, s3, t, s3);
        fp2.sqr(a, a2, t, s4);
        // inputs are no longer read
        mulByXi(t, s3, t, x);
        fp2.add(t, x, t, s0, r, ri);
        mulByXi(t, s4, t, x);
        fp2.add(t, x, t, s1, r, ri + w2);
        fp2.add(t, s1, t, s2, t, x);
        fp2.add(t, x, t, s3, t, x);
        fp2.sub(t, x, t, s0, t, x);
        fp2.sub(t, x, t, s4, r, ri + 2 * w2);
    }

    @Override
    public void add(long[] a, int ai, long[] b, int bi, long[] r, int ri) {
        fp2.add(a, ai, b, bi, r, ri);
        fp2.add(a, ai + w2, b, bi + w2, r, ri + w2);
        fp2.add(a, ai + 2 * w2, b, bi + 2 * w2, r, ri + 2 * w2);
    }

    @Override
    public void sub(long[] a, int ai, long[] b, int bi, long[] r, int ri) {
        fp2.sub(a, ai, b, bi, r, ri);
        fp2.sub(a, ai + w2, b, bi + w2, r, ri + w2);
        fp2.sub(a, ai + 2 * w2, b, bi + 2 * w2, r, ri + 2 * w2);
    }

    @Override
    public void dbl(long[] a, int ai, long[] r, int ri) {
        fp2.dbl(a, ai, r, ri);
        fp2.dbl(a, ai + w2, r, ri + w2);
        fp2.dbl(a, ai + 2 * w2, r, ri + 2 * w2);
    }

    @Override
    public void neg(long[] a, int ai, long[] r, int ri) {
        fp2.neg(a, ai, r, ri);
        fp2.neg(a, ai + w2, r, ri + w2);
        fp2.neg(a, ai + 2 * w2, r, ri + 2 * w2);
    }

    @Override
    public void inv(long[] a, int ai, long[] r, int ri) {
        // (c0 + c1 v + c2 v^2)^-1 = (t0 + t1 v + t2 v^2) / (c0 t0 + ξ (c2 t1 + c1 t2)) with
        // t0 = c0^2 - ξ c1 c2, t1 = ξ c2^2 - c0 c1, t2 = c1^2 - c0 c2 (zero maps to zero)
        final int c0 = ai, c1 = ai + w2, c2 = ai + 2 * w2;
        final int t0 = 0, t1 = w2, t2 = 2 * w2, x = 3 * w2, d = 4 * w2;
        fp2.sqr(a, c0, t, t0);
        fp2.mul(a, c1, a, c2, t, x);
        mulByXi(t, x, t, x);
        fp2.sub(t, t0, t, x, t, t0);
        fp2.sqr(a, c2, t, t1);
        mulByXi(t, t1, t, t1);
        fp2.mul(a, c0, a, c1, t, x);
        fp2.sub(t, t1, t, x, t, t1);
        fp2.sqr(a, c1, t, t2);
        fp2.mul(a, c0, a, c2, t, x);
        fp2.sub(t, t2, t, x, t, t2);
        fp2.mul(a, c2, t, t1, t, d);
        fp2.mul(a, c1, t, t2, t, x);
        fp2.add(t, d, t, x, t, d);
        mulByXi(t, d, t, d);
        fp2.mul(a, c0, t, t0, t, x);
        fp2.add(t, d, t, x, t, d);
        fp2.inv(t, d, t, d);
        fp2.mul(t, t0, t, d, r, ri);
        fp2.mul(t, t1, t, d, r, ri + w2);
        fp2.mul(t, t2, t, d, r, ri + 2 * w2);
    }

    @Override
    public boolean isZero(long[] a, int ai) {
        return fp2.isZero(a, ai) && fp2.isZero(a, ai + w2) && fp2.isZero(a, ai + 2 * w2);
    }

    @Override
    public boolean isOne(long[] a, int ai) {
        return fp2.isOne(a, ai) && fp2.isZero(a, ai + w2) && fp2.isZero(a, ai + 2 * w2);
    }

    @Override
    public void setOne(long[] r, int ri) {
        setZero(r, ri);
        fp2.setOne(r, ri);
    }

    // ------------------------------------------------------------------ structured products

    /** r = a v: (c0, c1, c2) -> (ξ c2, c0, c1). r may alias a. */
    public void mulByV(long[] a, int ai, long[] r, int ri) {
        final int x = 7 * w2;   // a slot no other method of this class uses
        mulByXi(a, ai + 2 * w2, t, x);
        fp2.copy(a, ai + w2, r, ri + 2 * w2);
        fp2.copy(a, ai, r, ri + w2);
        fp2.copy(t, x, r, ri);
    }

    /** r = a s for s in Fp2. */
    public void mulByFp2(long[] a, int ai, long[] s, int si, long[] r, int ri) {
        fp2.mul(a, ai, s, si, r, ri);
        fp2.mul(a, ai + w2, s, si, r, ri + w2);
        fp2.mul(a, ai + 2 * w2, s, si, r, ri + 2 * w2);
    }

    /**
     * r = a (b0 + b1 v), 5 Fp2 products instead of 6:
     * c0 = a0 b0 + ξ a2 b1, c1 = a0 b1 + a1 b0, c2 = a1 b1 + a2 b0.
     * b0, b1 must not alias r.
     */
    public void mulBy01(long[] a, int ai, long[] b0, int b0i, long[] b1, int b1i, long[] r, int ri) {
        final int a0 = ai, a1 = ai + w2, a2 = ai + 2 * w2;
        final int aa = 0, bb = w2, x = 2 * w2, y = 3 * w2, c0 = 4 * w2, c1 = 5 * w2;
        fp2.mul(a, a0, b0, b0i, t, aa);
        fp2.mul(a, a1, b1, b1i, t, bb);
        // c0 = ξ((a1 + a2) b1 - a1 b1) + a0 b0
        fp2.add(a, a1, a, a2, t, x);
        fp2.mul(t, x, b1, b1i, t, x);
        fp2.sub(t, x, t, bb, t, x);
        mulByXi(t, x, t, x);
        fp2.add(t, x, t, aa, t, c0);
        // c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1
        fp2.add(a, a0, a, a1, t, x);
        fp2.add(b0, b0i, b1, b1i, t, y);
        fp2.mul(t, x, t, y, t, x);
        fp2.sub(t, x, t, aa, t, x);
        fp2.sub(t, x, t, bb, t, c1);
        // c2 = (a0 + a2) b0 - a0 b0 + a1 b1
        fp2.add(a, a0, a, a2, t, x);
        fp2.mul(t, x, b0, b0i, t, x);
        fp2.sub(t, x, t, aa, t, x);
        fp2.add(t, x, t, bb, r, ri + 2 * w2);
        fp2.copy(t, c0, r, ri);
        fp2.copy(t, c1, r, ri + w2);
    }

    /** r = a (b1 v) = ξ a2 b1 + a0 b1 v + a1 b1 v^2. b1 must not alias r. */
    public void mulBy1(long[] a, int ai, long[] b1, int b1i, long[] r, int ri) {
        final int x = 0;
        fp2.mul(a, ai + 2 * w2, b1, b1i, t, x);
        mulByXi(t, x, t, x);
        fp2.mul(a, ai + w2, b1, b1i, r, ri + 2 * w2);
        fp2.mul(a, ai, b1, b1i, r, ri + w2);
        fp2.copy(t, x, r, ri);
    }

    @Override
    public String toString() {
        return "Fp6 over " + fp.name() + ", xi = " + xi0 + " + u";
    }
}
