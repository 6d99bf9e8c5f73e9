package dev.proofline.r1cs.pce;

import dev.proofline.algebra.field.PrimeField;

/**
 * The PCE's row products for 4-limb scalar fields with a spare top bit (BN254 Fr, BLS12-381 Fr): one
 * row's sum of coefficient x witness value with the Montgomery multiplication and the modular
 * addition inlined, the running sum kept in locals, so that a row writes memory once. The
 * arithmetic is the generated fields' (CIOS without the extra carry word, one conditional
 * subtraction), as in the NTT's butterflies.
 */
final class Montgomery4Rows {

    private final long q0;
    private final long q1;
    private final long q2;
    private final long q3;
    private final long qInv;

    Montgomery4Rows(PrimeField f) {
        long[] q = f.modulusWords();
        if (f.limbs() != 4 || q[3] < 0 || q[3] >= 0x7FFFFFFFFFFFFFFEL) {
            throw new IllegalArgumentException("not a 4-limb field with a spare bit: " + f);
        }
        this.q0 = q[0];
        this.q1 = q[1];
        this.q2 = q[2];
        this.q3 = q[3];
        this.qInv = f.negInvWord();
    }

    private static long lt(long a, long b) {
        return Long.compareUnsigned(a, b) < 0 ? 1L : 0L;
    }

    /** out[row] = sum over the row's terms, rows from .. to - 1 (see {@link Pce} for the term layout). */
    void rows(int[] rs, int[] cols, byte[] kd, int[] ci, long[] table, long[] w, long[] out, int from, int to) {
        final long q0 = this.q0, q1 = this.q1, q2 = this.q2, q3 = this.q3, qInv = this.qInv;
        for (int row = from; row < to; row++) {
            long s0 = 0, s1 = 0, s2 = 0, s3 = 0; // the sum, always below q
            for (int e = rs[row]; e < rs[row + 1]; e++) {
                final int wi = cols[e] << 2;
                long t0, t1, t2, t3;
                final byte kind = kd[e];
                if (kind == 0) {
                    final int ti = ci[e] << 2;
                    final long x0 = w[wi], x1 = w[wi + 1], x2 = w[wi + 2], x3 = w[wi + 3];
                    final long y0 = table[ti], y1 = table[ti + 1], y2 = table[ti + 2], y3 = table[ti + 3];
                long r0 = 0, r1 = 0, r2 = 0, r3 = 0;
                long A, C, m, lo, hi, s;
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
                    // r < 2q: subtract q once unless that borrows
                    long d, bw;
                    d = r0 - q0; bw = lt(r0, q0); final long d0 = d;
                    d = r1 - q1 - bw; bw = ((~r1 & q1) | (~(r1 ^ q1) & d)) >>> 63; final long d1 = d;
                    d = r2 - q2 - bw; bw = ((~r2 & q2) | (~(r2 ^ q2) & d)) >>> 63; final long d2 = d;
                    d = r3 - q3 - bw; bw = ((~r3 & q3) | (~(r3 ^ q3) & d)) >>> 63; final long d3 = d;
                    final long keep = -bw;
                    t0 = (r0 & keep) | (d0 & ~keep);
                    t1 = (r1 & keep) | (d1 & ~keep);
                    t2 = (r2 & keep) | (d2 & ~keep);
                    t3 = (r3 & keep) | (d3 & ~keep);
                } else if (kind > 0) {
                    t0 = w[wi]; t1 = w[wi + 1]; t2 = w[wi + 2]; t3 = w[wi + 3];
                } else {
                    // q - w (w = 0 stays 0)
                    final long a0 = w[wi], a1 = w[wi + 1], a2 = w[wi + 2], a3 = w[wi + 3];
                    if ((a0 | a1 | a2 | a3) == 0) {
                        continue;
                    }
                    long d, bw;
                    d = q0 - a0; bw = lt(q0, a0); t0 = d;
                    d = q1 - a1 - bw; bw = ((~q1 & a1) | (~(q1 ^ a1) & d)) >>> 63; t1 = d;
                    d = q2 - a2 - bw; bw = ((~q2 & a2) | (~(q2 ^ a2) & d)) >>> 63; t2 = d;
                    t3 = q3 - a3 - bw;
                }
                // s = s + t mod q (both below q, so below 2q < 2^256: no carry out)
                long x, y, c, sum;
                x = s0; y = t0; sum = x + y; c = lt(sum, x); final long u0 = sum;
                x = s1; y = t1; sum = x + y + c; c = ((x & y) | ((x | y) & ~sum)) >>> 63; final long u1 = sum;
                x = s2; y = t2; sum = x + y + c; c = ((x & y) | ((x | y) & ~sum)) >>> 63; final long u2 = sum;
                x = s3; y = t3; sum = x + y + c; final long u3 = sum;
                long d, bw;
                d = u0 - q0; bw = lt(u0, q0); final long f0 = d;
                d = u1 - q1 - bw; bw = ((~u1 & q1) | (~(u1 ^ q1) & d)) >>> 63; final long f1 = d;
                d = u2 - q2 - bw; bw = ((~u2 & q2) | (~(u2 ^ q2) & d)) >>> 63; final long f2 = d;
                d = u3 - q3 - bw; bw = ((~u3 & q3) | (~(u3 ^ q3) & d)) >>> 63; final long f3 = d;
                final long keep = -bw;
                s0 = (u0 & keep) | (f0 & ~keep);
                s1 = (u1 & keep) | (f1 & ~keep);
                s2 = (u2 & keep) | (f2 & ~keep);
                s3 = (u3 & keep) | (f3 & ~keep);
            }
            final int o = row << 2;
            out[o] = s0;
            out[o + 1] = s1;
            out[o + 2] = s2;
            out[o + 3] = s3;
        }
    }
}
