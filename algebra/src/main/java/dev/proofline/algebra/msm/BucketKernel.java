package dev.proofline.algebra.msm;

/**
 * The per-thread core of Pippenger's method: given one window's signed digits for a range of points,
 * accumulates the points into 2^(c-1) buckets and reduces them to the window sum
 * sum_i d_i P_i = sum_b (b + 1) B_b. Holds its buckets and scratch: confined to one thread.
 */
abstract class BucketKernel {

    /**
     * Writes sum over i in [lo, hi) of d_i P_i, Jacobian, to {@code out} at {@code oi}; d_i is decoded
     * from {@code digits[i]} and P_i is the affine point at long index {@code pointBase + i * affineWidth}.
     * Only buckets below {@code used} can be hit (the top window of a scalar is often narrower).
     */
    abstract void windowSum(char[] digits, int lo, int hi, long[] points, int pointBase, int used, long[] out, int oi);
}
