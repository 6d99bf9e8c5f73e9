package dev.proofline.algebra.msm;

import java.math.BigInteger;

/**
 * Signed-digit recoding of 256-bit scalars for Pippenger's method with c-bit windows.
 *
 * <p>A scalar k (reduced mod r first) is written k = sum_j d_j 2^(c j) with every digit in
 * [-2^(c-1) + 1, 2^(c-1)]: take the window's c bits plus the carry from below, and when that exceeds
 * 2^(c-1) subtract 2^c and carry one into the next window. A window therefore needs only 2^(c-1)
 * buckets (|d| - 1), a negative digit adding the negated point. With W = ceil((bits + 1) / c) windows
 * the top window holds at most c - 1 bits of k, so its digit (at most 2^(c-1)) never carries out.
 *
 * <p>A digit is stored as a {@code char}: d mod 2^c, the c-bit two's complement. 2^c codes cover the
 * 2^c digits exactly, which is why c is at most 16. Decoding: 0 is zero, a code up to 2^(c-1) is
 * positive, a larger code stands for code - 2^c.
 */
final class SignedDigits {

    static final int MAX_WINDOW_BITS = 16;

    private SignedDigits() {
    }

    /** Number of windows for scalars below 2^bits. */
    static int windows(int bits, int c) {
        return (bits + c) / c;
    }

    /**
     * Recodes scalars {@code from..to} (indices relative to the slice starting at word offset
     * {@code scalarBase}) into {@code digits[w][i]}. Scalars not below r are reduced mod r first.
     */
    static void recode(long[] scalars, int scalarBase, int from, int to, long[] r, int c, char[][] digits) {
        final long r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
        final int nw = digits.length;
        final long mask = (1L << c) - 1;
        final long half = 1L << (c - 1);
        final long[] k = new long[4];
        for (int i = from; i < to; i++) {
            int s = scalarBase + 4 * i;
            long k0 = scalars[s], k1 = scalars[s + 1], k2 = scalars[s + 2], k3 = scalars[s + 3];
            while (!lessThan(k0, k1, k2, k3, r0, r1, r2, r3)) {
                // k -= r (2^256 / r < 6 for both curves: a few rounds at most, and only for rare inputs)
                long d0 = k0 - r0;
                long b = Long.compareUnsigned(k0, r0) < 0 ? 1 : 0;
                long d1 = k1 - r1 - b;
                b = ((~k1 & r1) | (~(k1 ^ r1) & d1)) >>> 63;
                long d2 = k2 - r2 - b;
                b = ((~k2 & r2) | (~(k2 ^ r2) & d2)) >>> 63;
                long d3 = k3 - r3 - b;
                k0 = d0;
                k1 = d1;
                k2 = d2;
                k3 = d3;
            }
            k[0] = k0;
            k[1] = k1;
            k[2] = k2;
            k[3] = k3;
            long carry = 0;
            for (int w = 0; w < nw; w++) {
                int pos = w * c;
                int limb = pos >>> 6;
                int sh = pos & 63;
                long v = 0;
                if (limb < 4) {
                    v = k[limb] >>> sh;
                    if (sh + c > 64 && limb + 1 < 4) {
                        v |= k[limb + 1] << (64 - sh);
                    }
                    v &= mask;
                }
                long d = v + carry;
                if (d > half) {
                    d -= 1L << c;
                    carry = 1;
                } else {
                    carry = 0;
                }
                digits[w][i] = (char) (d & mask);
            }
        }
    }

    /** Unsigned (a3:a2:a1:a0) < (b3:b2:b1:b0). */
    private static boolean lessThan(long a0, long a1, long a2, long a3, long b0, long b1, long b2, long b3) {
        if (a3 != b3) {
            return Long.compareUnsigned(a3, b3) < 0;
        }
        if (a2 != b2) {
            return Long.compareUnsigned(a2, b2) < 0;
        }
        if (a1 != b1) {
            return Long.compareUnsigned(a1, b1) < 0;
        }
        return Long.compareUnsigned(a0, b0) < 0;
    }

    /** The signed digit a code stands for. */
    static int decode(char code, int c) {
        return code <= (1 << (c - 1)) ? code : code - (1 << c);
    }

    static long[] words(BigInteger x) {
        long[] w = new long[4];
        for (int i = 0; i < 4; i++) {
            w[i] = x.shiftRight(64 * i).longValue();
        }
        return w;
    }
}
