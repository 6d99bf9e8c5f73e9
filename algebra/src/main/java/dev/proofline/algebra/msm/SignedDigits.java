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
        // a block of scalars at a time, window by window into a small buffer, then each window's run
        // copied out: one stream of writes at a time instead of one per window (twice as fast)
        final int nw = digits.length;
        char[] block = new char[nw * BLOCK];
        for (int lo = from; lo < to; lo += BLOCK) {
            int hi = Math.min(to, lo + BLOCK);
            recodeInto(scalars, scalarBase, lo, hi, r, c, block, BLOCK);
            for (int w = 0; w < nw; w++) {
                System.arraycopy(block, w * BLOCK, digits[w], lo, hi - lo);
            }
        }
    }

    /** Scalars recoded at a time by {@link #recode}. */
    private static final int BLOCK = 512;

    /**
     * As {@link #recode}, into one block: the digit of window w of scalar i at {@code block[w * stride
     * + i - from]} ({@code to - from <= stride}).
     */
    private static void recodeInto(long[] scalars, int scalarBase, int from, int to, long[] r, int c, char[] block,
            int stride) {
        final long r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
        final int nw = block.length / stride;
        final long mask = (1L << c) - 1;
        final long half = 1L << (c - 1);
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
            long carry = 0;
            int o = i - from;
            for (int w = 0; w < nw; w++, o += stride) {
                int pos = w * c;
                int sh = pos & 63;
                // the c bits at pos: from the word holding them, and the next one when they straddle
                long lo = switch (pos >>> 6) {
                    case 0 -> k0;
                    case 1 -> k1;
                    case 2 -> k2;
                    case 3 -> k3;
                    default -> 0;
                };
                long hi = switch (pos >>> 6) {
                    case 0 -> k1;
                    case 1 -> k2;
                    case 2 -> k3;
                    default -> 0;
                };
                long v = ((lo >>> sh) | (sh == 0 ? 0 : hi << (64 - sh))) & mask;
                long d = v + carry;
                carry = d > half ? 1 : 0;
                block[o] = (char) ((d - (carry << c)) & mask);
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
