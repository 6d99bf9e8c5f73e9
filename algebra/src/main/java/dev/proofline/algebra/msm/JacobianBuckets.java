package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.util.Arrays;

/**
 * Buckets in Jacobian coordinates, each point added with a mixed (Jacobian + affine) addition:
 * 7M + 4S per point. Simple and without batching overhead, so the better choice for small windows.
 */
final class JacobianBuckets extends BucketKernel {

    private final PointArithmetic pa;
    private final int aw;
    private final int jw;
    private final int c;
    private final int nb;
    private final long[] buckets;
    private final long[] negated;
    private final long[] running;
    private final long[] sum;

    JacobianBuckets(WeierstrassCurve curve, int c) {
        this.pa = curve.arithmetic();
        this.aw = curve.affineWidth();
        this.jw = curve.jacobianWidth();
        this.c = c;
        this.nb = 1 << (c - 1);
        this.buckets = new long[nb * jw];
        this.negated = new long[aw];
        this.running = new long[jw];
        this.sum = new long[jw];
    }

    @Override
    void windowSum(char[] digits, int lo, int hi, long[] points, int pointBase, long[] out, int oi) {
        Arrays.fill(buckets, 0L); // Z = 0: every bucket starts at infinity
        final int half = 1 << (c - 1);
        final int full = 1 << c;
        for (int i = lo; i < hi; i++) {
            int code = digits[i];
            if (code == 0) {
                continue;
            }
            int p = pointBase + i * aw;
            if (code <= half) {
                int b = (code - 1) * jw;
                pa.addMixed(buckets, b, points, p, buckets, b);
            } else {
                int b = (full - code - 1) * jw;
                pa.negAffine(points, p, negated, 0);
                pa.addMixed(buckets, b, negated, 0, buckets, b);
            }
        }
        // sum_b (b + 1) B_b = sum_b (B_top + ... + B_b): a running sum from the top bucket down
        pa.setInfinity(running, 0);
        pa.setInfinity(sum, 0);
        for (int b = nb - 1; b >= 0; b--) {
            pa.add(running, 0, buckets, b * jw, running, 0);
            pa.add(sum, 0, running, 0, sum, 0);
        }
        System.arraycopy(sum, 0, out, oi, jw);
    }
}
