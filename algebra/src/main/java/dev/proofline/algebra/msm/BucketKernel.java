package dev.proofline.algebra.msm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The per-thread core of Pippenger's method: given one window's signed digits for a range of points,
 * accumulates the points into 2^(c-1) buckets and reduces them to the window sum
 * sum_i d_i P_i = sum_b (b + 1) B_b. Holds its buckets and scratch: confined to one thread.
 */
abstract class BucketKernel {

    /**
     * Writes sum over i in [lo, hi) of d_i P_i, Jacobian, to {@code out} at {@code oi}; d_i is decoded
     * from {@code digits[i]} and P_i is the affine point at byte offset {@code pointBase + i * 8 *
     * affineWidth} of {@code points} (little-endian words). Only buckets below {@code used} can be hit
     * (the top window of a scalar is often narrower).
     */
    abstract void windowSum(char[] digits, int lo, int hi, MemorySegment points, long pointBase, int used,
            long[] out, int oi);

    /** The words of a point in memory: little-endian, any alignment (a mapped key file need not be aligned). */
    static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Copies n words from memory at byte offset off into dst at di. */
    static void load(MemorySegment src, long off, long[] dst, int di, int n) {
        MemorySegment.copy(src, WORD, off, dst, di, n);
    }
}
