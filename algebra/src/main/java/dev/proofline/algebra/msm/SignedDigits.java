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
     * Buckets the top window's digits can hit for scalars below 2^bits: it holds bits - c (W - 1) bits
     * of k plus a carry. Few for some c (BN254, 254 bits: 4 for c = 12 and c = 14, 128 for c = 13).
     */
    static int topUsed(int bits, int c) {
        return Math.min(1 << (c - 1), 1 << (bits - c * (windows(bits, c) - 1)));
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
            if (!lessThan(k0, k1, k2, k3, r0, r1, r2, r3)) {
                long[] m = modR(k0, k1, k2, k3, r);
                k0 = m[0];
                k1 = m[1];
                k2 = m[2];
                k3 = m[3];
            }
            long carry = 0;
            int o = i - from;
            for (int w = 0; w < nw; w++, o += stride) {
                long d = bitsAt(k0, k1, k2, k3, w * c, mask) + carry;
                carry = d > half ? 1 : 0;
                block[o] = (char) ((d - (carry << c)) & mask);
            }
        }
    }

    /**
     * The digits of window w alone, for the terms {@code from..to}: term i's scalar at word {@code scalarBase + 4
     * j}, j = {@code index[i]} (i where {@code index} is null), its code to {@code out[i]}; the same codes as
     * {@link #recode} writes to {@code digits[w]}. The carry into window w is computed directly instead of
     * through the windows below: with L = k mod 2^(c w) and T = sum_{j < w} 2^(c j + c - 1) (the largest sum
     * the digits below can make), it is 1 exactly when L > T, because digits in [-2^(c-1) + 1, 2^(c-1)] write
     * every value of [T - 2^(c w) + 1, T] once. An MSM recodes each window as it sums it, so that it never
     * holds every window's digits (2 bytes a term a window: 32 MiB for 2^20 terms and 16 windows).
     */
    static void recodeWindow(long[] scalars, int scalarBase, int[] index, int from, int to, long[] r, int c, int w,
            char[] out) {
        // Nothing below branches on the window's position, so one compiled loop serves every window. With a
        // switch on the word, each window that reached a word no earlier one had sent the compiled code
        // back to the interpreter, to be compiled again: six times in a one-off proof of 2^16 constraints.
        // (The compiled recoding got a little quicker too: docs/decisions/0014-tried-and-not-kept.md.)
        final long r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
        final long mask = (1L << c) - 1;
        final long half = 1L << (c - 1);
        final int pos = w * c;
        // T and the mask of the bits below pos, word by word
        long t0 = 0, t1 = 0, t2 = 0, t3 = 0;
        for (int j = 0; j < w; j++) {
            int b = j * c + c - 1;
            long bit = 1L << (b & 63);
            int word = b >>> 6;
            t0 |= bit & wordIs(word, 0);
            t1 |= bit & wordIs(word, 1);
            t2 |= bit & wordIs(word, 2);
            t3 |= bit & wordIs(word, 3);
        }
        final long m0 = below(pos, 0), m1 = below(pos, 1), m2 = below(pos, 2), m3 = below(pos, 3);
        // the masks that pick the word holding the window's lowest bit (bitsAt), and those of the window
        // below (none for window 0: its masks are 0)
        final int word = pos >>> 6, sh = pos & 63;
        final long e0 = wordIs(word, 0), e1 = wordIs(word, 1), e2 = wordIs(word, 2), e3 = wordIs(word, 3);
        final int lowPos = Math.max(pos - c, 0), bWord = w == 0 ? 4 : lowPos >>> 6, bSh = lowPos & 63;
        final long b0 = wordIs(bWord, 0), b1 = wordIs(bWord, 1), b2 = wordIs(bWord, 2), b3 = wordIs(bWord, 3);
        for (int i = from; i < to; i++) {
            int s = scalarBase + 4 * (index == null ? i : index[i]);
            long k0 = scalars[s], k1 = scalars[s + 1], k2 = scalars[s + 2], k3 = scalars[s + 3];
            if (Long.compareUnsigned(k3, r3) >= 0 && !lessThan(k0, k1, k2, k3, r0, r1, r2, r3)) {
                long[] m = modR(k0, k1, k2, k3, r);
                k0 = m[0];
                k1 = m[1];
                k2 = m[2];
                k3 = m[3];
            }
            // the carry: L > T is decided by the window below's bits against T's there (2^(c-1)), unless
            // they are equal (one term in 2^(c-1)): then by the whole of L and T
            long under = bitsAt(k0, k1, k2, k3, b0, b1, b2, b3, bSh, mask);
            long carry = (half - under) >>> 63;
            if (under == half) {
                carry = borrow(t0, t1, t2, t3, k0 & m0, k1 & m1, k2 & m2, k3 & m3);
            }
            long d = bitsAt(k0, k1, k2, k3, e0, e1, e2, e3, sh, mask) + carry;
            out[i] = (char) ((d - (((half - d) >>> 63) << c)) & mask);
        }
    }

    /**
     * The bits of (k3:k2:k1:k0) from bit {@code 64 q + sh} under mask, where e_j = {@link #wordIs}(q, j):
     * (lo >>> sh) | (hi << (64 - sh)), lo word q and hi the next, picked without a branch.
     */
    private static long bitsAt(long k0, long k1, long k2, long k3, long e0, long e1, long e2, long e3, int sh,
            long mask) {
        long lo = (k0 & e0) | (k1 & e1) | (k2 & e2) | (k3 & e3);
        long hi = (k1 & e0) | (k2 & e1) | (k3 & e2);
        // hi << 1 << (63 - sh) is hi << (64 - sh) for sh > 0, and 0 for sh = 0
        return ((lo >>> sh) | ((hi << 1) << (63 - sh))) & mask;
    }

    /** All ones when {@code word == k}, else 0 (both in [0, 2^31)), without a branch. */
    private static long wordIs(int word, int k) {
        return ((long) (word ^ k) - 1) >> 63;
    }

    /** 1 when (a3:a2:a1:a0) < (b3:b2:b1:b0) unsigned, else 0: the borrow out of a - b, without a branch. */
    private static long borrow(long a0, long a1, long a2, long a3, long b0, long b1, long b2, long b3) {
        long d = a0 - b0;
        long br = ((~a0 & b0) | (~(a0 ^ b0) & d)) >>> 63;
        d = a1 - b1 - br;
        br = ((~a1 & b1) | (~(a1 ^ b1) & d)) >>> 63;
        d = a2 - b2 - br;
        br = ((~a2 & b2) | (~(a2 ^ b2) & d)) >>> 63;
        d = a3 - b3 - br;
        return ((~a3 & b3) | (~(a3 ^ b3) & d)) >>> 63;
    }

    /** k mod r for a k = (k3:k2:k1:k0) not below r (a few subtractions: 2^256 / r < 6 for both curves). */
    private static long[] modR(long k0, long k1, long k2, long k3, long[] r) {
        final long r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
        while (!lessThan(k0, k1, k2, k3, r0, r1, r2, r3)) {
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
        return new long[] {k0, k1, k2, k3};
    }

    /**
     * The bits of (k3:k2:k1:k0) at position pos under mask (at most 16 bits): from the word holding them,
     * and the next one when they straddle.
     */
    private static long bitsAt(long k0, long k1, long k2, long k3, int pos, long mask) {
        int sh = pos & 63;
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
        return ((lo >>> sh) | (sh == 0 ? 0 : hi << (64 - sh))) & mask;
    }

    /** Word k of the mask of the bits below position pos. */
    private static long below(int pos, int k) {
        int bits = pos - 64 * k;
        return bits <= 0 ? 0 : bits >= 64 ? -1L : (1L << bits) - 1;
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
