package dev.proofline.algebra.curve;

import dev.proofline.algebra.field.Field;
import java.math.BigInteger;

/**
 * Point arithmetic on a {@link WeierstrassCurve} (a = 0), with scratch space: confined to one thread.
 * Results may be written over inputs. Formulas from the Explicit-Formulas Database (Bernstein, Lange):
 * dbl-2009-l, add-2007-bl, madd-2007-bl, specialised to a = 0.
 */
public final class PointArithmetic {

    private final WeierstrassCurve curve;
    private final Field f;
    private final int w;
    private final long[] t;      // scratch: 12 coordinates
    private final long[] b;

    PointArithmetic(WeierstrassCurve curve) {
        this.curve = curve;
        this.f = curve.field().forThread();
        this.w = f.width();
        this.t = new long[12 * w];
        this.b = curve.b();
    }

    public WeierstrassCurve curve() {
        return curve;
    }

    /** This context's own field instance (safe to use on this thread). */
    public Field field() {
        return f;
    }

    // ------------------------------------------------------------------ predicates

    public boolean isInfinityAffine(long[] p, int pi) {
        return f.isZero(p, pi) && f.isZero(p, pi + w);
    }

    public boolean isInfinity(long[] p, int pi) {
        return f.isZero(p, pi + 2 * w);
    }

    /** y^2 == x^3 + b, or the point at infinity (0, 0). */
    public boolean isOnCurveAffine(long[] p, int pi) {
        if (isInfinityAffine(p, pi)) {
            return true;
        }
        f.sqr(p, pi + w, t, 0);          // y^2
        f.sqr(p, pi, t, w);
        f.mul(t, w, p, pi, t, w);         // x^3
        f.add(t, w, b, 0, t, w);
        return f.eq(t, 0, t, w);
    }

    /** Y^2 == X^3 + b Z^6, or Z = 0. */
    public boolean isOnCurve(long[] p, int pi) {
        if (isInfinity(p, pi)) {
            return true;
        }
        f.sqr(p, pi + w, t, 0);            // Y^2
        f.sqr(p, pi, t, w);
        f.mul(t, w, p, pi, t, w);           // X^3
        f.sqr(p, pi + 2 * w, t, 2 * w);     // Z^2
        f.sqr(t, 2 * w, t, 3 * w);          // Z^4
        f.mul(t, 3 * w, t, 2 * w, t, 3 * w); // Z^6
        f.mul(t, 3 * w, b, 0, t, 3 * w);
        f.add(t, w, t, 3 * w, t, w);
        return f.eq(t, 0, t, w);
    }

    /** Whether two Jacobian points are the same point. */
    public boolean equal(long[] p, int pi, long[] q, int qi) {
        boolean pInf = isInfinity(p, pi);
        boolean qInf = isInfinity(q, qi);
        if (pInf || qInf) {
            return pInf == qInf;
        }
        // X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3
        f.sqr(p, pi + 2 * w, t, 0);             // Z1^2
        f.sqr(q, qi + 2 * w, t, w);             // Z2^2
        f.mul(p, pi, t, w, t, 2 * w);
        f.mul(q, qi, t, 0, t, 3 * w);
        if (!f.eq(t, 2 * w, t, 3 * w)) {
            return false;
        }
        f.mul(t, 0, p, pi + 2 * w, t, 0);       // Z1^3
        f.mul(t, w, q, qi + 2 * w, t, w);       // Z2^3
        f.mul(p, pi + w, t, w, t, 2 * w);
        f.mul(q, qi + w, t, 0, t, 3 * w);
        return f.eq(t, 2 * w, t, 3 * w);
    }

    // ------------------------------------------------------------------ conversions

    public void setInfinity(long[] r, int ri) {
        f.setOne(r, ri);
        f.setOne(r, ri + w);
        f.setZero(r, ri + 2 * w);
    }

    /** Jacobian from affine ((0,0) becomes Z = 0). */
    public void fromAffine(long[] a, int ai, long[] r, int ri) {
        if (isInfinityAffine(a, ai)) {
            setInfinity(r, ri);
            return;
        }
        f.copy(a, ai, r, ri);
        f.copy(a, ai + w, r, ri + w);
        f.setOne(r, ri + 2 * w);
    }

    /** Affine from Jacobian (infinity becomes (0,0)). One field inversion; see {@link #batchToAffine}. */
    public void toAffine(long[] p, int pi, long[] r, int ri) {
        if (isInfinity(p, pi)) {
            f.setZero(r, ri);
            f.setZero(r, ri + w);
            return;
        }
        f.inv(p, pi + 2 * w, t, 0);        // 1/Z
        f.sqr(t, 0, t, w);                 // 1/Z^2
        f.mul(t, 0, t, w, t, 0);           // 1/Z^3
        f.mul(p, pi, t, w, r, ri);
        f.mul(p, pi + w, t, 0, r, ri + w);
    }

    /** Converts n Jacobian points to affine with a single inversion (Montgomery's trick). */
    public void batchToAffine(long[] p, int pi, long[] r, int ri, int n) {
        long[] z = f.newVector(n);
        int jw = 3 * w;
        for (int i = 0; i < n; i++) {
            f.copy(p, pi + i * jw + 2 * w, z, i * w);
        }
        f.batchInverse(z, 0, z, 0, n);
        for (int i = 0; i < n; i++) {
            int src = pi + i * jw;
            int dst = ri + i * 2 * w;
            if (f.isZero(z, i * w)) {
                f.setZero(r, dst);
                f.setZero(r, dst + w);
                continue;
            }
            f.sqr(z, i * w, t, 0);
            f.mul(t, 0, z, i * w, t, w);
            f.mul(p, src, t, 0, r, dst);
            f.mul(p, src + w, t, w, r, dst + w);
        }
    }

    // ------------------------------------------------------------------ group law

    public void negAffine(long[] p, int pi, long[] r, int ri) {
        f.copy(p, pi, r, ri);
        f.neg(p, pi + w, r, ri + w);
    }

    public void neg(long[] p, int pi, long[] r, int ri) {
        f.copy(p, pi, r, ri);
        f.neg(p, pi + w, r, ri + w);
        f.copy(p, pi + 2 * w, r, ri + 2 * w);
    }

    public void copy(long[] p, int pi, long[] r, int ri) {
        System.arraycopy(p, pi, r, ri, 3 * w);
    }

    /** r = 2p (dbl-2009-l, a = 0). */
    public void dbl(long[] p, int pi, long[] r, int ri) {
        if (isInfinity(p, pi)) {
            copy(p, pi, r, ri);
            return;
        }
        final int A = 0, B = w, C = 2 * w, D = 3 * w, E = 4 * w, F = 5 * w, Z3 = 6 * w;
        f.sqr(p, pi, t, A);                  // A = X1^2
        f.sqr(p, pi + w, t, B);              // B = Y1^2
        f.sqr(t, B, t, C);                   // C = B^2
        f.add(p, pi, t, B, t, D);
        f.sqr(t, D, t, D);
        f.sub(t, D, t, A, t, D);
        f.sub(t, D, t, C, t, D);
        f.dbl(t, D, t, D);                   // D = 2((X1 + B)^2 - A - C)
        f.dbl(t, A, t, E);
        f.add(t, E, t, A, t, E);             // E = 3A
        f.sqr(t, E, t, F);                   // F = E^2
        f.mul(p, pi + w, p, pi + 2 * w, t, Z3);
        f.dbl(t, Z3, t, Z3);                 // Z3 = 2 Y1 Z1
        f.sub(t, F, t, D, r, ri);
        f.sub(r, ri, t, D, r, ri);           // X3 = F - 2D
        f.sub(t, D, r, ri, t, D);
        f.mul(t, E, t, D, t, D);             // E (D - X3)
        f.dbl(t, C, t, C);
        f.dbl(t, C, t, C);
        f.dbl(t, C, t, C);                   // 8C
        f.sub(t, D, t, C, r, ri + w);        // Y3 = E (D - X3) - 8C
        f.copy(t, Z3, r, ri + 2 * w);
    }

    /** r = p + q, both Jacobian (add-2007-bl), handling infinity and p == q. */
    public void add(long[] p, int pi, long[] q, int qi, long[] r, int ri) {
        if (isInfinity(p, pi)) {
            copy(q, qi, r, ri);
            return;
        }
        if (isInfinity(q, qi)) {
            copy(p, pi, r, ri);
            return;
        }
        final int Z1Z1 = 0, Z2Z2 = w, U1 = 2 * w, U2 = 3 * w, S1 = 4 * w, S2 = 5 * w, H = 6 * w, I = 7 * w,
                J = 8 * w, RR = 9 * w, V = 10 * w, Z3 = 11 * w;
        f.sqr(p, pi + 2 * w, t, Z1Z1);
        f.sqr(q, qi + 2 * w, t, Z2Z2);
        f.mul(p, pi, t, Z2Z2, t, U1);
        f.mul(q, qi, t, Z1Z1, t, U2);
        f.mul(p, pi + w, q, qi + 2 * w, t, S1);
        f.mul(t, S1, t, Z2Z2, t, S1);        // S1 = Y1 Z2 Z2Z2
        f.mul(q, qi + w, p, pi + 2 * w, t, S2);
        f.mul(t, S2, t, Z1Z1, t, S2);        // S2 = Y2 Z1 Z1Z1
        f.sub(t, U2, t, U1, t, H);           // H = U2 - U1
        f.sub(t, S2, t, S1, t, RR);
        if (f.isZero(t, H)) {
            if (f.isZero(t, RR)) {
                dbl(p, pi, r, ri);
            } else {
                setInfinity(r, ri);
            }
            return;
        }
        f.dbl(t, RR, t, RR);                 // r = 2 (S2 - S1)
        f.dbl(t, H, t, I);
        f.sqr(t, I, t, I);                   // I = (2H)^2
        f.mul(t, H, t, I, t, J);             // J = H I
        f.mul(t, U1, t, I, t, V);            // V = U1 I
        f.add(p, pi + 2 * w, q, qi + 2 * w, t, Z3);
        f.sqr(t, Z3, t, Z3);
        f.sub(t, Z3, t, Z1Z1, t, Z3);
        f.sub(t, Z3, t, Z2Z2, t, Z3);
        f.mul(t, Z3, t, H, t, Z3);           // Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H
        f.sqr(t, RR, r, ri);
        f.sub(r, ri, t, J, r, ri);
        f.sub(r, ri, t, V, r, ri);
        f.sub(r, ri, t, V, r, ri);           // X3 = r^2 - J - 2V
        f.sub(t, V, r, ri, t, V);
        f.mul(t, RR, t, V, t, V);
        f.mul(t, S1, t, J, t, S1);
        f.dbl(t, S1, t, S1);
        f.sub(t, V, t, S1, r, ri + w);       // Y3 = r (V - X3) - 2 S1 J
        f.copy(t, Z3, r, ri + 2 * w);
    }

    /** r = p + q, p Jacobian, q affine (madd-2007-bl), handling infinity and p == q. */
    public void addMixed(long[] p, int pi, long[] q, int qi, long[] r, int ri) {
        if (isInfinityAffine(q, qi)) {
            copy(p, pi, r, ri);
            return;
        }
        if (isInfinity(p, pi)) {
            fromAffine(q, qi, r, ri);
            return;
        }
        final int Z1Z1 = 0, U2 = w, S2 = 2 * w, H = 3 * w, HH = 4 * w, I = 5 * w, J = 6 * w, RR = 7 * w,
                V = 8 * w, Z3 = 9 * w;
        f.sqr(p, pi + 2 * w, t, Z1Z1);
        f.mul(q, qi, t, Z1Z1, t, U2);          // U2 = X2 Z1Z1
        f.mul(q, qi + w, p, pi + 2 * w, t, S2);
        f.mul(t, S2, t, Z1Z1, t, S2);          // S2 = Y2 Z1 Z1Z1
        f.sub(t, U2, p, pi, t, H);             // H = U2 - X1
        f.sub(t, S2, p, pi + w, t, RR);
        if (f.isZero(t, H)) {
            if (f.isZero(t, RR)) {
                dbl(p, pi, r, ri);
            } else {
                setInfinity(r, ri);
            }
            return;
        }
        f.dbl(t, RR, t, RR);                   // r = 2 (S2 - Y1)
        f.sqr(t, H, t, HH);
        f.dbl(t, HH, t, I);
        f.dbl(t, I, t, I);                     // I = 4 HH
        f.mul(t, H, t, I, t, J);               // J = H I
        f.mul(p, pi, t, I, t, V);              // V = X1 I
        f.add(p, pi + 2 * w, t, H, t, Z3);
        f.sqr(t, Z3, t, Z3);
        f.sub(t, Z3, t, Z1Z1, t, Z3);
        f.sub(t, Z3, t, HH, t, Z3);            // Z3 = (Z1 + H)^2 - Z1Z1 - HH
        f.mul(p, pi + w, t, J, t, U2);         // Y1 J, before r (which may be p) is written
        f.sqr(t, RR, r, ri);
        f.sub(r, ri, t, J, r, ri);
        f.sub(r, ri, t, V, r, ri);
        f.sub(r, ri, t, V, r, ri);             // X3 = r^2 - J - 2V
        f.sub(t, V, r, ri, t, V);
        f.mul(t, RR, t, V, t, V);
        f.dbl(t, U2, t, U2);
        f.sub(t, V, t, U2, r, ri + w);         // Y3 = r (V - X3) - 2 Y1 J
        f.copy(t, Z3, r, ri + 2 * w);
    }

    // ------------------------------------------------------------------ scalar multiplication

    /** r = k * p (p Jacobian) for a non-negative integer k, by double-and-add from the top bit. */
    public void mul(long[] p, int pi, BigInteger k, long[] r, int ri) {
        if (k.signum() < 0) {
            throw new IllegalArgumentException("negative scalar");
        }
        long[] acc = new long[3 * w];
        setInfinity(acc, 0);
        long[] base = new long[3 * w];
        copy(p, pi, base, 0);
        for (int i = k.bitLength() - 1; i >= 0; i--) {
            dbl(acc, 0, acc, 0);
            if (k.testBit(i)) {
                add(acc, 0, base, 0, acc, 0);
            }
        }
        copy(acc, 0, r, ri);
    }

    /** r = k * p with p affine and r Jacobian. */
    public void mulAffine(long[] p, int pi, BigInteger k, long[] r, int ri) {
        long[] j = new long[3 * w];
        fromAffine(p, pi, j, 0);
        mul(j, 0, k, r, ri);
    }
}
