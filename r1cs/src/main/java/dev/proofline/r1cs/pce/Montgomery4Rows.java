package dev.proofline.r1cs.pce;

import dev.proofline.algebra.field.PrimeField;

/**
 * The PCE's row products for 4-limb scalar fields with a spare top bit (BN254 Fr, BLS12-381 Fr),
 * with lazy reduction: the 512-bit products coefficient x witness value (both in Montgomery form)
 * are summed unreduced, and one Montgomery reduction serves a group of them. A group holds as many
 * products as keep the sum below q R (floor(R / q): 4 on BN254, 2 on BLS12-381), so the reduction
 * gives a value below 2q. That halves the multiplications of a term on BN254 (16 for the product,
 * 4 for its share of the reduction, against 32 for a Montgomery multiplication). Terms with
 * coefficient +-1 go straight into the reduced row sum. The unrolled steps between the
 * {@code // generated} markers come from {@code algebra/gen/gen_montgomery4.py}: edit it, not them.
 */
final class Montgomery4Rows {

    private final long q0;
    private final long q1;
    private final long q2;
    private final long q3;
    private final long qInv;
    /** Products a reduction may take at once: floor(2^256 / q). */
    private final int group;

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
        this.group = java.math.BigInteger.ONE.shiftLeft(256).divide(f.modulus()).intValueExact();
    }

    private static long lt(long a, long b) {
        // the borrow of a - b: no comparison whose compiled form depends on the profile (gen_fields.py)
        return ((~a & b) | (~(a ^ b) & (a - b))) >>> 63;
    }

    /**
     * out[row - outRow] = sum over the row's terms, rows from .. to - 1 (see {@link Pce} for the term
     * layout); outRow is the row that {@code out} starts with (0 for a whole vector, a tile's first row).
     */
    void rows(int[] rs, int[] cols, byte[] kd, int[] ci, long[] table, long[] w, long[] out, int outRow, int from,
            int to) {
        final long q0 = this.q0, q1 = this.q1, q2 = this.q2, q3 = this.q3, qInv = this.qInv;
        final int group = this.group;
        final long[] sum = new long[4];
        for (int row = from; row < to; row++) {
            sum[0] = 0;
            sum[1] = 0;
            sum[2] = 0;
            sum[3] = 0;
            long T0 = 0, T1 = 0, T2 = 0, T3 = 0, T4 = 0, T5 = 0, T6 = 0, T7 = 0;
            int pending = 0;
            for (int e = rs[row]; e < rs[row + 1]; e++) {
                final int wi = cols[e] << 2;
                final byte kind = kd[e];
                if (kind == 0) {
                    final int ti = ci[e] << 2;
                    final long x0 = w[wi], x1 = w[wi + 1], x2 = w[wi + 2], x3 = w[wi + 3];
                    final long y0 = table[ti], y1 = table[ti + 1], y2 = table[ti + 2], y3 = table[ti + 3];
                    // T += x y, row by row of the schoolbook product, straight into the sum
                    long lo, hi, s, s2, carry;
                    // generated (algebra/gen/gen_montgomery4.py): T += x * y
                    carry = 0;
                    lo = x0 * y0; hi = Math.unsignedMultiplyHigh(x0, y0);
                    s = T0 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T0 = s2; carry = hi;
                    lo = x0 * y1; hi = Math.unsignedMultiplyHigh(x0, y1);
                    s = T1 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T1 = s2; carry = hi;
                    lo = x0 * y2; hi = Math.unsignedMultiplyHigh(x0, y2);
                    s = T2 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T2 = s2; carry = hi;
                    lo = x0 * y3; hi = Math.unsignedMultiplyHigh(x0, y3);
                    s = T3 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T3 = s2; carry = hi;
                    s = T4 + carry; carry = lt(s, T4); T4 = s;
                    s = T5 + carry; carry = lt(s, T5); T5 = s;
                    s = T6 + carry; carry = lt(s, T6); T6 = s;
                    s = T7 + carry; carry = lt(s, T7); T7 = s;
                    carry = 0;
                    lo = x1 * y0; hi = Math.unsignedMultiplyHigh(x1, y0);
                    s = T1 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T1 = s2; carry = hi;
                    lo = x1 * y1; hi = Math.unsignedMultiplyHigh(x1, y1);
                    s = T2 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T2 = s2; carry = hi;
                    lo = x1 * y2; hi = Math.unsignedMultiplyHigh(x1, y2);
                    s = T3 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T3 = s2; carry = hi;
                    lo = x1 * y3; hi = Math.unsignedMultiplyHigh(x1, y3);
                    s = T4 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T4 = s2; carry = hi;
                    s = T5 + carry; carry = lt(s, T5); T5 = s;
                    s = T6 + carry; carry = lt(s, T6); T6 = s;
                    s = T7 + carry; carry = lt(s, T7); T7 = s;
                    carry = 0;
                    lo = x2 * y0; hi = Math.unsignedMultiplyHigh(x2, y0);
                    s = T2 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T2 = s2; carry = hi;
                    lo = x2 * y1; hi = Math.unsignedMultiplyHigh(x2, y1);
                    s = T3 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T3 = s2; carry = hi;
                    lo = x2 * y2; hi = Math.unsignedMultiplyHigh(x2, y2);
                    s = T4 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T4 = s2; carry = hi;
                    lo = x2 * y3; hi = Math.unsignedMultiplyHigh(x2, y3);
                    s = T5 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T5 = s2; carry = hi;
                    s = T6 + carry; carry = lt(s, T6); T6 = s;
                    s = T7 + carry; carry = lt(s, T7); T7 = s;
                    carry = 0;
                    lo = x3 * y0; hi = Math.unsignedMultiplyHigh(x3, y0);
                    s = T3 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T3 = s2; carry = hi;
                    lo = x3 * y1; hi = Math.unsignedMultiplyHigh(x3, y1);
                    s = T4 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T4 = s2; carry = hi;
                    lo = x3 * y2; hi = Math.unsignedMultiplyHigh(x3, y2);
                    s = T5 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T5 = s2; carry = hi;
                    lo = x3 * y3; hi = Math.unsignedMultiplyHigh(x3, y3);
                    s = T6 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T6 = s2; carry = hi;
                    s = T7 + carry; carry = lt(s, T7); T7 = s;
                    // end generated
                    if (++pending == group) {
                        reduceInto(sum, T0, T1, T2, T3, T4, T5, T6, T7);
                        T0 = 0; T1 = 0; T2 = 0; T3 = 0; T4 = 0; T5 = 0; T6 = 0; T7 = 0;
                        pending = 0;
                    }
                } else if (kind > 0) {
                    addInto(sum, w[wi], w[wi + 1], w[wi + 2], w[wi + 3]);
                } else {
                    // q - w (w = 0 stays 0)
                    final long a0 = w[wi], a1 = w[wi + 1], a2 = w[wi + 2], a3 = w[wi + 3];
                    if ((a0 | a1 | a2 | a3) == 0) {
                        continue;
                    }
                    long d, bw;
                    // generated (algebra/gen/gen_montgomery4.py): t = q - a
                    d = q0 - a0; bw = lt(q0, a0); final long t0 = d;
                    d = q1 - a1 - bw; bw = ((~q1 & a1) | (~(q1 ^ a1) & d)) >>> 63; final long t1 = d;
                    d = q2 - a2 - bw; bw = ((~q2 & a2) | (~(q2 ^ a2) & d)) >>> 63; final long t2 = d;
                    final long t3 = q3 - a3 - bw;
                    // end generated
                    addInto(sum, t0, t1, t2, t3);
                }
            }
            if (pending > 0) {
                reduceInto(sum, T0, T1, T2, T3, T4, T5, T6, T7);
            }
            final int o = (row - outRow) << 2;
            out[o] = sum[0];
            out[o + 1] = sum[1];
            out[o + 2] = sum[2];
            out[o + 3] = sum[3];
        }
    }

    /**
     * sum += T R^-1 mod q, T (8 limbs) below q R: Montgomery reduction, four rounds, leaves T R^-1 in
     * the upper half below 2q; one conditional subtraction, then the modular addition.
     */
    private void reduceInto(long[] sum, long T0, long T1, long T2, long T3, long T4, long T5, long T6, long T7) {
        final long q0 = this.q0, q1 = this.q1, q2 = this.q2, q3 = this.q3;
        long m, lo, hi, s, s2, carry, c1;
        // generated (algebra/gen/gen_montgomery4.py): T = T R^-1
        m = T0 * qInv;
        carry = 0;
        lo = m * q0; hi = Math.unsignedMultiplyHigh(m, q0);
        s = T0 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T0 = s2; carry = hi;
        lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
        s = T1 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T1 = s2; carry = hi;
        lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
        s = T2 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T2 = s2; carry = hi;
        lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
        s = T3 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T3 = s2; carry = hi;
        s = T4 + carry; carry = lt(s, T4); T4 = s;
        s = T5 + carry; carry = lt(s, T5); T5 = s;
        s = T6 + carry; carry = lt(s, T6); T6 = s;
        s = T7 + carry; carry = lt(s, T7); T7 = s;
        m = T1 * qInv;
        carry = 0;
        lo = m * q0; hi = Math.unsignedMultiplyHigh(m, q0);
        s = T1 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T1 = s2; carry = hi;
        lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
        s = T2 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T2 = s2; carry = hi;
        lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
        s = T3 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T3 = s2; carry = hi;
        lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
        s = T4 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T4 = s2; carry = hi;
        s = T5 + carry; carry = lt(s, T5); T5 = s;
        s = T6 + carry; carry = lt(s, T6); T6 = s;
        s = T7 + carry; carry = lt(s, T7); T7 = s;
        m = T2 * qInv;
        carry = 0;
        lo = m * q0; hi = Math.unsignedMultiplyHigh(m, q0);
        s = T2 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T2 = s2; carry = hi;
        lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
        s = T3 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T3 = s2; carry = hi;
        lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
        s = T4 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T4 = s2; carry = hi;
        lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
        s = T5 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T5 = s2; carry = hi;
        s = T6 + carry; carry = lt(s, T6); T6 = s;
        s = T7 + carry; carry = lt(s, T7); T7 = s;
        m = T3 * qInv;
        carry = 0;
        lo = m * q0; hi = Math.unsignedMultiplyHigh(m, q0);
        s = T3 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T3 = s2; carry = hi;
        lo = m * q1; hi = Math.unsignedMultiplyHigh(m, q1);
        s = T4 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T4 = s2; carry = hi;
        lo = m * q2; hi = Math.unsignedMultiplyHigh(m, q2);
        s = T5 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T5 = s2; carry = hi;
        lo = m * q3; hi = Math.unsignedMultiplyHigh(m, q3);
        s = T6 + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); T6 = s2; carry = hi;
        s = T7 + carry; carry = lt(s, T7); T7 = s;
        // end generated
        // T4..T7 < 2q
        long d, bw;
        // generated (algebra/gen/gen_montgomery4.py): T4..T7 minus q
        d = T4 - q0; bw = lt(T4, q0); final long d0 = d;
        d = T5 - q1 - bw; bw = ((~T5 & q1) | (~(T5 ^ q1) & d)) >>> 63; final long d1 = d;
        d = T6 - q2 - bw; bw = ((~T6 & q2) | (~(T6 ^ q2) & d)) >>> 63; final long d2 = d;
        d = T7 - q3 - bw; bw = ((~T7 & q3) | (~(T7 ^ q3) & d)) >>> 63; final long d3 = d;
        // end generated
        final long keep = -bw;
        addInto(sum, (T4 & keep) | (d0 & ~keep), (T5 & keep) | (d1 & ~keep), (T6 & keep) | (d2 & ~keep),
                (T7 & keep) | (d3 & ~keep));
    }

    /** sum = sum + t mod q, both below q. */
    private void addInto(long[] sum, long t0, long t1, long t2, long t3) {
        final long q0 = this.q0, q1 = this.q1, q2 = this.q2, q3 = this.q3;
        long x, y, c, s;
        // generated (algebra/gen/gen_montgomery4.py): sum = sum + t
        x = sum[0]; y = t0; s = x + y; c = lt(s, x); final long u0 = s;
        x = sum[1]; y = t1; s = x + y + c; c = ((x & y) | ((x | y) & ~s)) >>> 63; final long u1 = s;
        x = sum[2]; y = t2; s = x + y + c; c = ((x & y) | ((x | y) & ~s)) >>> 63; final long u2 = s;
        x = sum[3]; y = t3; s = x + y + c; final long u3 = s;
        long d, bw;
        d = u0 - q0; bw = lt(u0, q0); final long f0 = d;
        d = u1 - q1 - bw; bw = ((~u1 & q1) | (~(u1 ^ q1) & d)) >>> 63; final long f1 = d;
        d = u2 - q2 - bw; bw = ((~u2 & q2) | (~(u2 ^ q2) & d)) >>> 63; final long f2 = d;
        d = u3 - q3 - bw; bw = ((~u3 & q3) | (~(u3 ^ q3) & d)) >>> 63; final long f3 = d;
        final long keep = -bw;
        sum[0] = (u0 & keep) | (f0 & ~keep);
        sum[1] = (u1 & keep) | (f1 & ~keep);
        sum[2] = (u2 & keep) | (f2 & ~keep);
        sum[3] = (u3 & keep) | (f3 & ~keep);
        // end generated
    }
}
