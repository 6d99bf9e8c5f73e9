package dev.proofline.algebra.pairing;

import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;

/**
 * The pairing target field Fp12 = Fp6[w]/(w^2 - v), over Fp6 = Fp2[v]/(v^3 - ξ), so w^6 = ξ. An
 * element c0 + c1 w is stored as c0 then c1 (each an {@link Fp6} element), which flattens to the six
 * Fp2 coefficients of 1, v, v^2, w, vw, v^2 w, i.e. of w^0, w^2, w^4, w^1, w^3, w^5, and then to twelve
 * Fp coefficients: the same order as ffjavascript's {@code Gt.toObject} (and arkworks' Fp12).
 *
 * <p>The Frobenius coefficients are derived, not tabulated: the coefficient a_e of w^e maps under
 * x -> x^(p^k) to conj^k(a_e) w^(e p^k) = conj^k(a_e) ξ^(e (p^k - 1)/6) w^e, and
 * γ_k = ξ^((p^k - 1)/6) = γ_(k-1)^p γ_1 from γ_1 = ξ^((p - 1)/6), one exponentiation.
 *
 * <p>Holds scratch space: one instance per thread ({@link #forThread()}); the constants are shared.
 */
public final class Fp12 extends Field {

    /** w-exponent of the i-th Fp2 coefficient in storage order (c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2). */
    private static final int[] W_EXPONENT = {0, 2, 4, 1, 3, 5};

    private final PrimeField fp;
    private final Fp6 fp6;
    private final Fp2 fp2;
    private final int n;    // Fp width
    private final int w2;   // Fp2 width
    private final int w6;   // Fp6 width
    private final Constants k;
    private final long[] t;   // scratch: 4 Fp6 elements
    private final long[] s;   // scratch: 8 Fp2 elements

    /** Frobenius table, immutable, shared by the instances of all threads. */
    private static final class Constants {
        /** coeff[k][i]: ξ^(W_EXPONENT[i] (p^k - 1)/6) for k = 0..11, as Fp2. */
        final long[][][] coeff = new long[12][6][];
        /** whether coeff[k][i] lies in Fp (its u part is zero), so a cheaper product applies. */
        final boolean[][] inBase = new boolean[12][6];
    }

    /** A new tower over {@code fp} with ξ = xi0 + u, deriving its Frobenius constants. */
    public Fp12(PrimeField fp, int xi0) {
        this(new Fp6(fp, xi0), null);
    }

    private Fp12(Fp6 fp6, Constants shared) {
        this.fp6 = fp6;
        this.fp2 = fp6.fp2();
        this.fp = fp6.base();
        this.n = fp.width();
        this.w2 = 2 * n;
        this.w6 = 6 * n;
        this.t = new long[4 * w6];
        this.s = new long[8 * w2];
        this.k = shared != null ? shared : deriveConstants();
    }

    private Constants deriveConstants() {
        Constants c = new Constants();
        BigInteger p = fp.modulus();
        long[] xi = fp2.newElement();
        fp2.setOne(xi, 0);
        fp6.mulByXi(xi, 0, xi, 0);
        if (!p.subtract(BigInteger.ONE).mod(BigInteger.valueOf(6)).equals(BigInteger.ZERO)) {
            throw new IllegalArgumentException("p - 1 must be divisible by 6 for a sextic tower");
        }
        long[] gamma1 = fp2.newElement();
        fp2.pow(xi, 0, PrimeField.words(p.subtract(BigInteger.ONE).divide(BigInteger.valueOf(6)), n), gamma1, 0);
        long[] gamma = fp2.one();                            // γ_0 = 1
        for (int pk = 0; pk < 12; pk++) {
            if (pk > 0) {
                fp2.conjugate(gamma, 0, gamma, 0);           // γ_(k-1)^p
                fp2.mul(gamma, 0, gamma1, 0, gamma, 0);      // γ_k = γ_(k-1)^p γ_1
            }
            for (int i = 0; i < 6; i++) {
                long[] e = fp2.one();
                for (int j = 0; j < W_EXPONENT[i]; j++) {
                    fp2.mul(e, 0, gamma, 0, e, 0);
                }
                c.coeff[pk][i] = e;
                c.inBase[pk][i] = fp.isZero(e, n);
            }
        }
        return c;
    }

    public PrimeField base() {
        return fp;
    }

    /** This instance's Fp6 (same thread confinement as this). */
    public Fp6 fp6() {
        return fp6;
    }

    /** This instance's Fp2 (same thread confinement as this). */
    public Fp2 fp2() {
        return fp2;
    }

    @Override
    public int width() {
        return 2 * w6;
    }

    @Override
    public Field forThread() {
        return new Fp12((Fp6) fp6.forThread(), k);
    }

    /** ξ^(e (p^k - 1)/6) as a new Fp2 element, 0 <= k < 12, 0 <= e < 6: the Frobenius constants. */
    public long[] frobeniusCoefficient(int power, int e) {
        for (int i = 0; i < 6; i++) {
            if (W_EXPONENT[i] == e) {
                return k.coeff[power][i].clone();
            }
        }
        throw new IllegalArgumentException("w exponent must be in 0..5: " + e);
    }

    // ------------------------------------------------------------------ field operations

    @Override
    public void mul(long[] a, int ai, long[] b, int bi, long[] r, int ri) {
        // Karatsuba: aa = a0 b0, bb = a1 b1, c1 = (a0 + a1)(b0 + b1) - aa - bb, c0 = aa + v bb
        final int aa = 0, bb = w6, x = 2 * w6, y = 3 * w6;
        fp6.mul(a, ai, b, bi, t, aa);
        fp6.mul(a, ai + w6, b, bi + w6, t, bb);
        fp6.add(a, ai, a, ai + w6, t, x);
        fp6.add(b, bi, b, bi + w6, t, y);
        fp6.mul(t, x, t, y, t, x);
        fp6.sub(t, x, t, aa, t, x);
        fp6.sub(t, x, t, bb, r, ri + w6);
        fp6.mulByV(t, bb, t, bb);
        fp6.add(t, aa, t, bb, r, ri);
    }

    @Override
    public void sqr(long[] a, int ai, long[] r, int ri) {
        // complex squaring: (c0 + c1 w)^2 = (c0 - c1)(c0 - v c1) + (1 + v) c0 c1 + 2 c0 c1 w
        final int v0 = 0, v3 = w6, v2 = 2 * w6;
        fp6.sub(a, ai, a, ai + w6, t, v0);
        fp6.mulByV(a, ai + w6, t, v3);
        fp6.sub(a, ai, t, v3, t, v3);
        fp6.mul(a, ai, a, ai + w6, t, v2);
        fp6.mul(t, v0, t, v3, t, v0);
        fp6.add(t, v0, t, v2, t, v0);
        fp6.dbl(t, v2, r, ri + w6);
        fp6.mulByV(t, v2, t, v2);
        fp6.add(t, v0, t, v2, r, ri);
    }

    @Override
    public void add(long[] a, int ai, long[] b, int bi, long[] r, int ri) {
        fp6.add(a, ai, b, bi, r, ri);
        fp6.add(a, ai + w6, b, bi + w6, r, ri + w6);
    }

    @Override
    public void sub(long[] a, int ai, long[] b, int bi, long[] r, int ri) {
        fp6.sub(a, ai, b, bi, r, ri);
        fp6.sub(a, ai + w6, b, bi + w6, r, ri + w6);
    }

    @Override
    public void dbl(long[] a, int ai, long[] r, int ri) {
        fp6.dbl(a, ai, r, ri);
        fp6.dbl(a, ai + w6, r, ri + w6);
    }

    @Override
    public void neg(long[] a, int ai, long[] r, int ri) {
        fp6.neg(a, ai, r, ri);
        fp6.neg(a, ai + w6, r, ri + w6);
    }

    @Override
    public void inv(long[] a, int ai, long[] r, int ri) {
        // (c0 + c1 w)^-1 = (c0 - c1 w) / (c0^2 - v c1^2)
        final int x = 0, y = w6;
        fp6.sqr(a, ai, t, x);
        fp6.sqr(a, ai + w6, t, y);
        fp6.mulByV(t, y, t, y);
        fp6.sub(t, x, t, y, t, x);
        fp6.inv(t, x, t, x);
        fp6.mul(a, ai, t, x, r, ri);
        fp6.mul(a, ai + w6, t, x, t, y);
        fp6.neg(t, y, r, ri + w6);
    }

    @Override
    public boolean isZero(long[] a, int ai) {
        return fp6.isZero(a, ai) && fp6.isZero(a, ai + w6);
    }

    @Override
    public boolean isOne(long[] a, int ai) {
        return fp6.isOne(a, ai) && fp6.isZero(a, ai + w6);
    }

    @Override
    public void setOne(long[] r, int ri) {
        setZero(r, ri);
        fp.setOne(r, ri);
    }

    // ------------------------------------------------------------------ maps

    /** r = c0 - c1 w = a^(p^6); the inverse of a in the cyclotomic subgroup. */
    public void conjugate(long[] a, int ai, long[] r, int ri) {
        fp6.copy(a, ai, r, ri);
        fp6.neg(a, ai + w6, r, ri + w6);
    }

    /** r = a^(p^power), 0 <= power < 12. */
    public void frobenius(long[] a, int ai, int power, long[] r, int ri) {
        final boolean odd = (power & 1) != 0;
        for (int i = 0; i < 6; i++) {
            int src = ai + i * w2;
            int dst = ri + i * w2;
            if (odd) {
                fp2.conjugate(a, src, r, dst);
            } else {
                fp2.copy(a, src, r, dst);
            }
            if (i == 0 || power == 0) {
                continue;   // w^0 has coefficient 1
            }
            long[] c = k.coeff[power][i];
            if (k.inBase[power][i]) {
                fp2.mulByBase(r, dst, c, 0, r, dst);
            } else {
                fp2.mul(r, dst, c, 0, r, dst);
            }
        }
    }

    /**
     * r = a^2 for a in the cyclotomic subgroup (a^(p^4 - p^2 + 1) = 1, e.g. after the easy part of the
     * final exponentiation); wrong elsewhere. Granger and Scott, "Faster squaring in the cyclotomic
     * subgroup of sixth degree extensions" (PKC 2010), over Fp12 seen as Fp4^3 with Fp4 = Fp2[w^3]:
     * the pairs (c0.c0, c1.c1), (c1.c0, c0.c2), (c0.c1, c1.c2).
     */
    public void cyclotomicSquare(long[] a, int ai, long[] r, int ri) {
        final int i0 = 0, i1 = w2, i2 = 2 * w2, i3 = 3 * w2, i4 = 4 * w2, i5 = 5 * w2;
        // s slots: t0..t5 in 0..5, temporaries in 6, 7
        fp4Square(a, ai + i0, ai + i4, 0, 1);   // t0 + t1 y = (z0 + z1 y)^2
        fp4Square(a, ai + i3, ai + i2, 2, 3);   // t2 + t3 y = (z2 + z3 y)^2
        fp4Square(a, ai + i1, ai + i5, 4, 5);   // t4 + t5 y = (z4 + z5 y)^2
        // z0 = 3 t0 - 2 z0
        threeMinusTwo(s, 0, a, ai + i0, r, ri + i0);
        // z1 = 3 t1 + 2 z1
        threePlusTwo(s, w2, a, ai + i4, r, ri + i4);
        // z2 = 3 ξ t5 + 2 z2
        fp6.mulByXi(s, 5 * w2, s, 6 * w2);
        threePlusTwo(s, 6 * w2, a, ai + i3, r, ri + i3);
        // z3 = 3 t4 - 2 z3
        threeMinusTwo(s, 4 * w2, a, ai + i2, r, ri + i2);
        // z4 = 3 t2 - 2 z4
        threeMinusTwo(s, 2 * w2, a, ai + i1, r, ri + i1);
        // z5 = 3 t3 + 2 z5
        threePlusTwo(s, 3 * w2, a, ai + i5, r, ri + i5);
    }

    /** s[c0], s[c1] (slot numbers) = (x + y w^3)^2 = (x^2 + ξ y^2) + ((x + y)^2 - x^2 - y^2) w^3. */
    private void fp4Square(long[] a, int x, int y, int c0, int c1) {
        final int sx = 6 * w2, sy = 7 * w2;
        fp2.sqr(a, x, s, sx);
        fp2.sqr(a, y, s, sy);
        fp2.add(a, x, a, y, s, c1 * w2);
        fp2.sqr(s, c1 * w2, s, c1 * w2);
        fp2.sub(s, c1 * w2, s, sx, s, c1 * w2);
        fp2.sub(s, c1 * w2, s, sy, s, c1 * w2);
        fp6.mulByXi(s, sy, s, sy);
        fp2.add(s, sy, s, sx, s, c0 * w2);
    }

    /** r = 3 t - 2 z = 2 (t - z) + t. */
    private void threeMinusTwo(long[] tt, int ti, long[] z, int zi, long[] r, int ri) {
        final int x = 7 * w2;
        fp2.sub(tt, ti, z, zi, s, x);
        fp2.dbl(s, x, s, x);
        fp2.add(s, x, tt, ti, r, ri);
    }

    /** r = 3 t + 2 z = 2 (t + z) + t. */
    private void threePlusTwo(long[] tt, int ti, long[] z, int zi, long[] r, int ri) {
        final int x = 7 * w2;
        fp2.add(tt, ti, z, zi, s, x);
        fp2.dbl(s, x, s, x);
        fp2.add(s, x, tt, ti, r, ri);
    }

    // ------------------------------------------------------------------ sparse products (lines)

    /**
     * f = f (c0 + (c3 + c4 v) w): a line of a D-type twist (BN254). The c arguments are Fp2
     * elements and must not lie in f.
     */
    public void mulBy034(long[] f, int fi, long[] c0, int c0i, long[] c3, int c3i, long[] c4, int c4i) {
        // (F0 + F1 w)(L0 + L1 w) = F0 L0 + v F1 L1 + ((F0 + F1)(L0 + L1) - F0 L0 - F1 L1) w
        final int a = 0, b = w6, e = 2 * w6;
        final int sum = 6 * w2;
        fp6.mulByFp2(f, fi, c0, c0i, t, a);
        fp6.mulBy01(f, fi + w6, c3, c3i, c4, c4i, t, b);
        fp6.add(f, fi, f, fi + w6, t, e);
        fp2.add(c0, c0i, c3, c3i, s, sum);
        fp6.mulBy01(t, e, s, sum, c4, c4i, t, e);
        fp6.sub(t, e, t, a, t, e);
        fp6.sub(t, e, t, b, f, fi + w6);
        fp6.mulByV(t, b, t, b);
        fp6.add(t, a, t, b, f, fi);
    }

    /**
     * f = f ((c0 + c1 v) + c4 v w): a line of an M-type twist (BLS12-381). The c arguments are Fp2
     * elements and must not lie in f.
     */
    public void mulBy014(long[] f, int fi, long[] c0, int c0i, long[] c1, int c1i, long[] c4, int c4i) {
        final int a = 0, b = w6, e = 2 * w6;
        final int sum = 6 * w2;
        fp6.mulBy01(f, fi, c0, c0i, c1, c1i, t, a);
        fp6.mulBy1(f, fi + w6, c4, c4i, t, b);
        fp6.add(f, fi, f, fi + w6, t, e);
        fp2.add(c1, c1i, c4, c4i, s, sum);
        fp6.mulBy01(t, e, c0, c0i, s, sum, t, e);
        fp6.sub(t, e, t, a, t, e);
        fp6.sub(t, e, t, b, f, fi + w6);
        fp6.mulByV(t, b, t, b);
        fp6.add(t, a, t, b, f, fi);
    }

    // ------------------------------------------------------------------ conversions

    /** The twelve Fp coefficients as canonical decimal strings, in storage (= ffjavascript) order. */
    public String[] toDecimalStrings(long[] a, int ai) {
        String[] out = new String[12];
        for (int i = 0; i < 12; i++) {
            out[i] = fp.toDecimal(a, ai + i * n);
        }
        return out;
    }

    /** The element with these twelve canonical decimal Fp coefficients, in storage order. */
    public long[] fromDecimalStrings(String... coefficients) {
        if (coefficients.length != 12) {
            throw new IllegalArgumentException("an Fp12 element has 12 coefficients, got " + coefficients.length);
        }
        long[] r = newElement();
        for (int i = 0; i < 12; i++) {
            long[] c = fp.fromDecimal(coefficients[i]);
            System.arraycopy(c, 0, r, i * n, n);
        }
        return r;
    }

    @Override
    public String toString() {
        return "Fp12 over " + fp6;
    }
}
