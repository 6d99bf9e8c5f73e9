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
     * from {@code digits[i]} and P_i is the affine point at byte offset {@code pointBase + j * 8 *
     * affineWidth} of {@code points} (little-endian words), j = {@code index[i]}, or i where {@code index}
     * is null. Only buckets below {@code used} can be hit (the top window of a scalar is often narrower).
     */
    final void windowSum(char[] digits, int lo, int hi, MemorySegment points, long pointBase, int[] index, int used,
            long[] out, int oi) {
        begin(used, points);
        accumulate(digits, lo, hi, index, pointBase);
        end(out, oi);
    }

    /**
     * Empties the buckets below {@code used} for an accumulation of points read from {@code points}: one
     * window ({@link #windowSum}), or several windows whose points are already multiplied by their
     * window's power of two ({@link FixedBaseTable}), all into the same buckets.
     */
    abstract void begin(int used, MemorySegment points);

    /**
     * Adds d_i P_i into the buckets for i in [lo, hi): d_i decoded from {@code digits[i]}, P_i the affine
     * point at byte offset {@code pointBase + j * 8 * affineWidth} of the segment given to {@link #begin},
     * j = {@code index[i]}, or i where {@code index} is null.
     */
    abstract void accumulate(char[] digits, int lo, int hi, int[] index, long pointBase);

    /** Completes the accumulation and writes sum_b (b + 1) B_b, Jacobian, to {@code out} at {@code oi}. */
    abstract void end(long[] out, int oi);

    /** The words of a point in memory: little-endian, any alignment (a mapped key file need not be aligned). */
    static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Copies n words from memory at byte offset off into dst at di. */
    static void load(MemorySegment src, long off, long[] dst, int di, int n) {
        MemorySegment.copy(src, WORD, off, dst, di, n);
    }
}
