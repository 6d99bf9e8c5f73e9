package dev.proofline.algebra.ntt;

import dev.proofline.algebra.field.PrimeField;

/**
 * Butterflies for any 4-limb Montgomery field with a spare top bit (q < 2^255: both BN254 Fr and
 * BLS12-381 Fr), with the multiplication, addition and subtraction fused into one loop body that
 * keeps every limb in a local. One class serves both scalar fields, so the loop is monomorphic and
 * makes no calls; the field's own methods would write each product back to memory between steps.
 *
 * <p>The arithmetic is the generated fields' (CIOS Montgomery multiplication without the extra
 * carry word, valid because the top limb of q is below 2^63 - 1, then one conditional subtraction),
 * with the modulus in locals instead of constants, and one shortcut: m = r0 * (-q^-1) makes the low
 * word of r0 + m*q0 zero, so only its carry, r0 != 0, is computed (one multiplication less per
 * round). The unrolled steps between the {@code // generated} markers come from
 * {@code algebra/gen/gen_montgomery4.py} (with the field classes' emitters): edit it, not them.
 */
final class Montgomery4Butterflies extends Butterflies {

    private final long q0;
    private final long q1;
    private final long q2;
    private final long q3;
    /** -q^-1 mod 2^64. */
    private final long qInv;
    /** The field, for the rows of a {@link #byField} kernel. */
    private final PrimeField f;
    /**
     * Whether the rows go through the field's own methods ({@link Generic#rowByField}) instead of the
     * fused loops: for transforms below 2^{@link Butterflies#FUSED_FROM_LOG} elements, which a one-off
     * process runs before the fused loops would be compiled. The fused loops are separate methods, so
     * a process that never runs them neither interprets nor compiles them.
     */
    private final boolean byField;

    /** The fused butterflies. */
    Montgomery4Butterflies(PrimeField f) {
        this(f, false);
    }

    Montgomery4Butterflies(PrimeField f, boolean byField) {
        if (!applies(f)) {
            throw new IllegalArgumentException("not a 4-limb field with a spare bit: " + f);
        }
        this.f = f;
        this.byField = byField;
        long[] q = f.modulusWords();
        this.q0 = q[0];
        this.q1 = q[1];
        this.q2 = q[2];
        this.q3 = q[3];
        this.qInv = f.negInvWord();
    }

    /** Whether the field has 4 limbs and q's top limb is below 2^63 - 1 (no final carry word). */
    static boolean applies(PrimeField f) {
        if (f.limbs() != 4) {
            return false;
        }
        long top = f.modulusWords()[3];
        return top >= 0 && top < 0x7FFFFFFFFFFFFFFEL;
    }

    /** Unsigned a < b, as 0 or 1. */
    private static long lt(long a, long b) {
        // the borrow of a - b: no comparison whose compiled form depends on the profile (gen_fields.py)
        return ((~a & b) | (~(a ^ b) & (a - b))) >>> 63;
    }

    @Override
    int width() {
        return 4;
    }

    @Override
    String name() {
        return byField ? "Montgomery4Butterflies (by field)" : "Montgomery4Butterflies";
    }

    @Override
    void row(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] scratch) {
        if (byField) {
            Generic.rowByField(f, a, base, half, j0, j1, tw, scratch);
        } else {
            rowFused(a, base, half, j0, j1, tw);
        }
    }

    @Override
    void rowDif(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] scratch) {
        if (byField) {
            Generic.rowDifByField(f, a, base, half, j0, j1, tw, scratch);
        } else {
            rowDifFused(a, base, half, j0, j1, tw);
        }
    }

    private void rowFused(long[] a, int base, int half, int j0, int j1, long[] tw) {
        final long q0 = this.q0, q1 = this.q1, q2 = this.q2, q3 = this.q3, qInv = this.qInv;
        final int off = half << 2;
        for (int j = j0; j < j1; j++) {
            final int u = (base + j) << 2;
            final int v = u + off;
            long t0 = a[v], t1 = a[v + 1], t2 = a[v + 2], t3 = a[v + 3];
            if (j != 0) { // t = a[v] * w^j; w^0 = 1
                final int ti = j << 2;
                final long x0 = t0, x1 = t1, x2 = t2, x3 = t3;
                final long y0 = tw[ti], y1 = tw[ti + 1], y2 = tw[ti + 2], y3 = tw[ti + 3];
                long r0 = 0, r1 = 0, r2 = 0, r3 = 0;
                long A, C, m, lo, hi, s;
                // generated (algebra/gen/gen_montgomery4.py): mul r = x * y
                // round 0: r = (r + x*y0 + m*q) / 2^64
                lo = x0 * y0; hi = Math.unsignedMultiplyHigh(x0, y0);
                r0 += lo; hi += lt(r0, lo); A = hi;
                m = r0 * qInv;
                C = Math.unsignedMultiplyHigh(m, q0) + (r0 != 0 ? 1L : 0L);
                lo = x1 * y0; hi = Math.unsignedMultiplyHigh(x1, y0);
                s = r1 + lo; hi += lt(s, lo); r1 = s + A; hi += lt(r1, s); A = hi;
                lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
                s = r1 + lo; hi += lt(s, lo); r0 = s + C; hi += lt(r0, s); C = hi;
                lo = x2 * y0; hi = Math.unsignedMultiplyHigh(x2, y0);
                s = r2 + lo; hi += lt(s, lo); r2 = s + A; hi += lt(r2, s); A = hi;
                lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
                s = r2 + lo; hi += lt(s, lo); r1 = s + C; hi += lt(r1, s); C = hi;
                lo = x3 * y0; hi = Math.unsignedMultiplyHigh(x3, y0);
                s = r3 + lo; hi += lt(s, lo); r3 = s + A; hi += lt(r3, s); A = hi;
                lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
                s = r3 + lo; hi += lt(s, lo); r2 = s + C; hi += lt(r2, s); C = hi;
                r3 = C + A;
                // round 1: r = (r + x*y1 + m*q) / 2^64
                lo = x0 * y1; hi = Math.unsignedMultiplyHigh(x0, y1);
                r0 += lo; hi += lt(r0, lo); A = hi;
                m = r0 * qInv;
                C = Math.unsignedMultiplyHigh(m, q0) + (r0 != 0 ? 1L : 0L);
                lo = x1 * y1; hi = Math.unsignedMultiplyHigh(x1, y1);
                s = r1 + lo; hi += lt(s, lo); r1 = s + A; hi += lt(r1, s); A = hi;
                lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
                s = r1 + lo; hi += lt(s, lo); r0 = s + C; hi += lt(r0, s); C = hi;
                lo = x2 * y1; hi = Math.unsignedMultiplyHigh(x2, y1);
                s = r2 + lo; hi += lt(s, lo); r2 = s + A; hi += lt(r2, s); A = hi;
                lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
                s = r2 + lo; hi += lt(s, lo); r1 = s + C; hi += lt(r1, s); C = hi;
                lo = x3 * y1; hi = Math.unsignedMultiplyHigh(x3, y1);
                s = r3 + lo; hi += lt(s, lo); r3 = s + A; hi += lt(r3, s); A = hi;
                lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
                s = r3 + lo; hi += lt(s, lo); r2 = s + C; hi += lt(r2, s); C = hi;
                r3 = C + A;
                // round 2: r = (r + x*y2 + m*q) / 2^64
                lo = x0 * y2; hi = Math.unsignedMultiplyHigh(x0, y2);
                r0 += lo; hi += lt(r0, lo); A = hi;
                m = r0 * qInv;
                C = Math.unsignedMultiplyHigh(m, q0) + (r0 != 0 ? 1L : 0L);
                lo = x1 * y2; hi = Math.unsignedMultiplyHigh(x1, y2);
                s = r1 + lo; hi += lt(s, lo); r1 = s + A; hi += lt(r1, s); A = hi;
                lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
                s = r1 + lo; hi += lt(s, lo); r0 = s + C; hi += lt(r0, s); C = hi;
                lo = x2 * y2; hi = Math.unsignedMultiplyHigh(x2, y2);
                s = r2 + lo; hi += lt(s, lo); r2 = s + A; hi += lt(r2, s); A = hi;
                lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
                s = r2 + lo; hi += lt(s, lo); r1 = s + C; hi += lt(r1, s); C = hi;
                lo = x3 * y2; hi = Math.unsignedMultiplyHigh(x3, y2);
                s = r3 + lo; hi += lt(s, lo); r3 = s + A; hi += lt(r3, s); A = hi;
                lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
                s = r3 + lo; hi += lt(s, lo); r2 = s + C; hi += lt(r2, s); C = hi;
                r3 = C + A;
                // round 3: r = (r + x*y3 + m*q) / 2^64
                lo = x0 * y3; hi = Math.unsignedMultiplyHigh(x0, y3);
                r0 += lo; hi += lt(r0, lo); A = hi;
                m = r0 * qInv;
                C = Math.unsignedMultiplyHigh(m, q0) + (r0 != 0 ? 1L : 0L);
                lo = x1 * y3; hi = Math.unsignedMultiplyHigh(x1, y3);
                s = r1 + lo; hi += lt(s, lo); r1 = s + A; hi += lt(r1, s); A = hi;
                lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
                s = r1 + lo; hi += lt(s, lo); r0 = s + C; hi += lt(r0, s); C = hi;
                lo = x2 * y3; hi = Math.unsignedMultiplyHigh(x2, y3);
                s = r2 + lo; hi += lt(s, lo); r2 = s + A; hi += lt(r2, s); A = hi;
                lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
                s = r2 + lo; hi += lt(s, lo); r1 = s + C; hi += lt(r1, s); C = hi;
                lo = x3 * y3; hi = Math.unsignedMultiplyHigh(x3, y3);
                s = r3 + lo; hi += lt(s, lo); r3 = s + A; hi += lt(r3, s); A = hi;
                lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
                s = r3 + lo; hi += lt(s, lo); r2 = s + C; hi += lt(r2, s); C = hi;
                r3 = C + A;
                // end generated
                // r < 2q: subtract q once unless that borrows
                long d, bw;
                // generated (algebra/gen/gen_montgomery4.py): t = r reduced
                d = r0 - q0; bw = lt(r0, q0); final long d0 = d;
                d = r1 - q1 - bw; bw = ((~r1 & q1) | (~(r1 ^ q1) & d)) >>> 63; final long d1 = d;
                d = r2 - q2 - bw; bw = ((~r2 & q2) | (~(r2 ^ q2) & d)) >>> 63; final long d2 = d;
                d = r3 - q3 - bw; bw = ((~r3 & q3) | (~(r3 ^ q3) & d)) >>> 63; final long d3 = d;
                final long keep = -bw;
                t0 = (r0 & keep) | (d0 & ~keep);
                t1 = (r1 & keep) | (d1 & ~keep);
                t2 = (r2 & keep) | (d2 & ~keep);
                t3 = (r3 & keep) | (d3 & ~keep);
                // end generated
            }
            final long u0 = a[u], u1 = a[u + 1], u2 = a[u + 2], u3 = a[u + 3];
            long x, y, c, bw, d;
            // a[v] = u - t, adding q back when it borrows
            // generated (algebra/gen/gen_montgomery4.py): a[v] = u - t
            x = u0; y = t0; d = x - y; bw = lt(x, y); final long e0 = d;
            x = u1; y = t1; d = x - y - bw; bw = ((~x & y) | (~(x ^ y) & d)) >>> 63; final long e1 = d;
            x = u2; y = t2; d = x - y - bw; bw = ((~x & y) | (~(x ^ y) & d)) >>> 63; final long e2 = d;
            x = u3; y = t3; d = x - y - bw; bw = ((~x & y) | (~(x ^ y) & d)) >>> 63; final long e3 = d;
            final long mask = -bw;
            long s;
            s = e0 + (q0 & mask); c = lt(s, e0); a[v] = s;
            y = q1 & mask; s = e1 + y + c; c = ((e1 & y) | ((e1 | y) & ~s)) >>> 63; a[v + 1] = s;
            y = q2 & mask; s = e2 + y + c; c = ((e2 & y) | ((e2 | y) & ~s)) >>> 63; a[v + 2] = s;
            y = q3 & mask; s = e3 + y + c; a[v + 3] = s;
            // end generated
            // a[u] = u + t (< 2q < 2^256, no carry out), minus q unless that borrows
            // generated (algebra/gen/gen_montgomery4.py): a[u] = u + t
            x = u0; y = t0; s = x + y; c = lt(s, x); final long s0 = s;
            x = u1; y = t1; s = x + y + c; c = ((x & y) | ((x | y) & ~s)) >>> 63; final long s1 = s;
            x = u2; y = t2; s = x + y + c; c = ((x & y) | ((x | y) & ~s)) >>> 63; final long s2 = s;
            x = u3; y = t3; s = x + y + c; final long s3 = s;
            d = s0 - q0; bw = lt(s0, q0); final long f0 = d;
            d = s1 - q1 - bw; bw = ((~s1 & q1) | (~(s1 ^ q1) & d)) >>> 63; final long f1 = d;
            d = s2 - q2 - bw; bw = ((~s2 & q2) | (~(s2 ^ q2) & d)) >>> 63; final long f2 = d;
            d = s3 - q3 - bw; bw = ((~s3 & q3) | (~(s3 ^ q3) & d)) >>> 63; final long f3 = d;
            final long keep = -bw;
            a[u] = (s0 & keep) | (f0 & ~keep);
            a[u + 1] = (s1 & keep) | (f1 & ~keep);
            a[u + 2] = (s2 & keep) | (f2 & ~keep);
            a[u + 3] = (s3 & keep) | (f3 & ~keep);
            // end generated
        }
    }

    private void rowDifFused(long[] a, int base, int half, int j0, int j1, long[] tw) {
        final long q0 = this.q0, q1 = this.q1, q2 = this.q2, q3 = this.q3, qInv = this.qInv;
        final int off = half << 2;
        for (int j = j0; j < j1; j++) {
            final int u = (base + j) << 2;
            final int v = u + off;
            final long u0 = a[u], u1 = a[u + 1], u2 = a[u + 2], u3 = a[u + 3];
            final long v0 = a[v], v1 = a[v + 1], v2 = a[v + 2], v3 = a[v + 3];
            long x, y, c, bw, d, s;
            // a[u] = u + v (< 2q < 2^256, no carry out), minus q unless that borrows
            // generated (algebra/gen/gen_montgomery4.py): a[u] = u + v
            x = u0; y = v0; s = x + y; c = lt(s, x); final long s0 = s;
            x = u1; y = v1; s = x + y + c; c = ((x & y) | ((x | y) & ~s)) >>> 63; final long s1 = s;
            x = u2; y = v2; s = x + y + c; c = ((x & y) | ((x | y) & ~s)) >>> 63; final long s2 = s;
            x = u3; y = v3; s = x + y + c; final long s3 = s;
            d = s0 - q0; bw = lt(s0, q0); final long f0 = d;
            d = s1 - q1 - bw; bw = ((~s1 & q1) | (~(s1 ^ q1) & d)) >>> 63; final long f1 = d;
            d = s2 - q2 - bw; bw = ((~s2 & q2) | (~(s2 ^ q2) & d)) >>> 63; final long f2 = d;
            d = s3 - q3 - bw; bw = ((~s3 & q3) | (~(s3 ^ q3) & d)) >>> 63; final long f3 = d;
            final long keep = -bw;
            a[u] = (s0 & keep) | (f0 & ~keep);
            a[u + 1] = (s1 & keep) | (f1 & ~keep);
            a[u + 2] = (s2 & keep) | (f2 & ~keep);
            a[u + 3] = (s3 & keep) | (f3 & ~keep);
            // end generated
            // e = u - v for j = 0; else v - u, to be multiplied by w^(n/2 - j) = -w^-j
            final boolean first = j == 0;
            final long m0 = first ? u0 : v0, m1 = first ? u1 : v1, m2 = first ? u2 : v2, m3 = first ? u3 : v3;
            final long n0 = first ? v0 : u0, n1 = first ? v1 : u1, n2 = first ? v2 : u2, n3 = first ? v3 : u3;
            // generated (algebra/gen/gen_montgomery4.py): t = m - n
            x = m0; y = n0; d = x - y; bw = lt(x, y); final long e0 = d;
            x = m1; y = n1; d = x - y - bw; bw = ((~x & y) | (~(x ^ y) & d)) >>> 63; final long e1 = d;
            x = m2; y = n2; d = x - y - bw; bw = ((~x & y) | (~(x ^ y) & d)) >>> 63; final long e2 = d;
            x = m3; y = n3; d = x - y - bw; bw = ((~x & y) | (~(x ^ y) & d)) >>> 63; final long e3 = d;
            final long mask = -bw;
            long t0, t1, t2, t3;
            s = e0 + (q0 & mask); c = lt(s, e0); t0 = s;
            y = q1 & mask; s = e1 + y + c; c = ((e1 & y) | ((e1 | y) & ~s)) >>> 63; t1 = s;
            y = q2 & mask; s = e2 + y + c; c = ((e2 & y) | ((e2 | y) & ~s)) >>> 63; t2 = s;
            y = q3 & mask; s = e3 + y + c; t3 = s;
            // end generated
            if (!first) { // t = e * w_{2h}^(h - j)
                final int ti = (half - j) << 2;
                final long x0 = t0, x1 = t1, x2 = t2, x3 = t3;
                final long y0 = tw[ti], y1 = tw[ti + 1], y2 = tw[ti + 2], y3 = tw[ti + 3];
                long r0 = 0, r1 = 0, r2 = 0, r3 = 0;
                long A, C, m, lo, hi;
                // generated (algebra/gen/gen_montgomery4.py): mul r = x * y
                // round 0: r = (r + x*y0 + m*q) / 2^64
                lo = x0 * y0; hi = Math.unsignedMultiplyHigh(x0, y0);
                r0 += lo; hi += lt(r0, lo); A = hi;
                m = r0 * qInv;
                C = Math.unsignedMultiplyHigh(m, q0) + (r0 != 0 ? 1L : 0L);
                lo = x1 * y0; hi = Math.unsignedMultiplyHigh(x1, y0);
                s = r1 + lo; hi += lt(s, lo); r1 = s + A; hi += lt(r1, s); A = hi;
                lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
                s = r1 + lo; hi += lt(s, lo); r0 = s + C; hi += lt(r0, s); C = hi;
                lo = x2 * y0; hi = Math.unsignedMultiplyHigh(x2, y0);
                s = r2 + lo; hi += lt(s, lo); r2 = s + A; hi += lt(r2, s); A = hi;
                lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
                s = r2 + lo; hi += lt(s, lo); r1 = s + C; hi += lt(r1, s); C = hi;
                lo = x3 * y0; hi = Math.unsignedMultiplyHigh(x3, y0);
                s = r3 + lo; hi += lt(s, lo); r3 = s + A; hi += lt(r3, s); A = hi;
                lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
                s = r3 + lo; hi += lt(s, lo); r2 = s + C; hi += lt(r2, s); C = hi;
                r3 = C + A;
                // round 1: r = (r + x*y1 + m*q) / 2^64
                lo = x0 * y1; hi = Math.unsignedMultiplyHigh(x0, y1);
                r0 += lo; hi += lt(r0, lo); A = hi;
                m = r0 * qInv;
                C = Math.unsignedMultiplyHigh(m, q0) + (r0 != 0 ? 1L : 0L);
                lo = x1 * y1; hi = Math.unsignedMultiplyHigh(x1, y1);
                s = r1 + lo; hi += lt(s, lo); r1 = s + A; hi += lt(r1, s); A = hi;
                lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
                s = r1 + lo; hi += lt(s, lo); r0 = s + C; hi += lt(r0, s); C = hi;
                lo = x2 * y1; hi = Math.unsignedMultiplyHigh(x2, y1);
                s = r2 + lo; hi += lt(s, lo); r2 = s + A; hi += lt(r2, s); A = hi;
                lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
                s = r2 + lo; hi += lt(s, lo); r1 = s + C; hi += lt(r1, s); C = hi;
                lo = x3 * y1; hi = Math.unsignedMultiplyHigh(x3, y1);
                s = r3 + lo; hi += lt(s, lo); r3 = s + A; hi += lt(r3, s); A = hi;
                lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
                s = r3 + lo; hi += lt(s, lo); r2 = s + C; hi += lt(r2, s); C = hi;
                r3 = C + A;
                // round 2: r = (r + x*y2 + m*q) / 2^64
                lo = x0 * y2; hi = Math.unsignedMultiplyHigh(x0, y2);
                r0 += lo; hi += lt(r0, lo); A = hi;
                m = r0 * qInv;
                C = Math.unsignedMultiplyHigh(m, q0) + (r0 != 0 ? 1L : 0L);
                lo = x1 * y2; hi = Math.unsignedMultiplyHigh(x1, y2);
                s = r1 + lo; hi += lt(s, lo); r1 = s + A; hi += lt(r1, s); A = hi;
                lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
                s = r1 + lo; hi += lt(s, lo); r0 = s + C; hi += lt(r0, s); C = hi;
                lo = x2 * y2; hi = Math.unsignedMultiplyHigh(x2, y2);
                s = r2 + lo; hi += lt(s, lo); r2 = s + A; hi += lt(r2, s); A = hi;
                lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
                s = r2 + lo; hi += lt(s, lo); r1 = s + C; hi += lt(r1, s); C = hi;
                lo = x3 * y2; hi = Math.unsignedMultiplyHigh(x3, y2);
                s = r3 + lo; hi += lt(s, lo); r3 = s + A; hi += lt(r3, s); A = hi;
                lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
                s = r3 + lo; hi += lt(s, lo); r2 = s + C; hi += lt(r2, s); C = hi;
                r3 = C + A;
                // round 3: r = (r + x*y3 + m*q) / 2^64
                lo = x0 * y3; hi = Math.unsignedMultiplyHigh(x0, y3);
                r0 += lo; hi += lt(r0, lo); A = hi;
                m = r0 * qInv;
                C = Math.unsignedMultiplyHigh(m, q0) + (r0 != 0 ? 1L : 0L);
                lo = x1 * y3; hi = Math.unsignedMultiplyHigh(x1, y3);
                s = r1 + lo; hi += lt(s, lo); r1 = s + A; hi += lt(r1, s); A = hi;
                lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
                s = r1 + lo; hi += lt(s, lo); r0 = s + C; hi += lt(r0, s); C = hi;
                lo = x2 * y3; hi = Math.unsignedMultiplyHigh(x2, y3);
                s = r2 + lo; hi += lt(s, lo); r2 = s + A; hi += lt(r2, s); A = hi;
                lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
                s = r2 + lo; hi += lt(s, lo); r1 = s + C; hi += lt(r1, s); C = hi;
                lo = x3 * y3; hi = Math.unsignedMultiplyHigh(x3, y3);
                s = r3 + lo; hi += lt(s, lo); r3 = s + A; hi += lt(r3, s); A = hi;
                lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
                s = r3 + lo; hi += lt(s, lo); r2 = s + C; hi += lt(r2, s); C = hi;
                r3 = C + A;
                // end generated
                t0 = r0; t1 = r1; t2 = r2; t3 = r3;
                // generated (algebra/gen/gen_montgomery4.py): t = t reduced
                d = t0 - q0; bw = lt(t0, q0); final long g0 = d;
                d = t1 - q1 - bw; bw = ((~t1 & q1) | (~(t1 ^ q1) & d)) >>> 63; final long g1 = d;
                d = t2 - q2 - bw; bw = ((~t2 & q2) | (~(t2 ^ q2) & d)) >>> 63; final long g2 = d;
                d = t3 - q3 - bw; bw = ((~t3 & q3) | (~(t3 ^ q3) & d)) >>> 63; final long g3 = d;
                final long k = -bw;
                t0 = (t0 & k) | (g0 & ~k);
                t1 = (t1 & k) | (g1 & ~k);
                t2 = (t2 & k) | (g2 & ~k);
                t3 = (t3 & k) | (g3 & ~k);
                // end generated
            }
            a[v] = t0;
            a[v + 1] = t1;
            a[v + 2] = t2;
            a[v + 3] = t3;
        }
    }
}
