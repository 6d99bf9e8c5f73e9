package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.lang.foreign.MemorySegment;
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
    private final long[] buckets;
    private final long[] point;
    private final long[] running;
    private final long[] sum;
    private final long[] multiple;

    JacobianBuckets(WeierstrassCurve curve, int c) {
        this(curve, c, 1 << (c - 1));
    }

    /**
     * For c-bit digits of which none hits a bucket past the first {@code room} (a top window's: it may
     * be used with at most that many buckets), with memory for those buckets only.
     */
    JacobianBuckets(WeierstrassCurve curve, int c, int room) {
        this.pa = curve.arithmetic();
        this.aw = curve.affineWidth();
        this.jw = curve.jacobianWidth();
        this.c = c;
        this.buckets = new long[room * jw];
        this.point = new long[aw];
        this.running = new long[jw];
        this.sum = new long[jw];
        this.multiple = new long[jw];
    }

    private MemorySegment source;
    private int used;

    @Override
    void begin(int used, MemorySegment points) {
        Arrays.fill(buckets, 0, used * jw, 0L); // Z = 0: every bucket starts at infinity
        this.used = used;
        this.source = points;
    }

    @Override
    void accumulate(char[] digits, int lo, int hi, int[] index, long pointBase) {
        final MemorySegment points = source;
        final int half = 1 << (c - 1);
        final int full = 1 << c;
        for (int i = lo; i < hi; i++) {
            int code = digits[i];
            if (code == 0) {
                continue;
            }
            load(points, pointBase + 8L * aw * (index == null ? i : index[i]), point, 0, aw);
            if (code <= half) {
                int b = (code - 1) * jw;
                pa.addMixed(buckets, b, point, 0, buckets, b);
            } else {
                int b = (full - code - 1) * jw;
                pa.negAffine(point, 0, point, 0);
                pa.addMixed(buckets, b, point, 0, buckets, b);
            }
        }
    }

    @Override
    void end(long[] out, int oi) {
        source = null;
        // sum_b (b + 1) B_b = sum_b (B_top + ... + B_b): a running sum from the top bucket down. Over
        // a run of empty buckets the running sum is unchanged, so its repeated additions are done
        // at once as one small multiple (sparse buckets are common when n is small against 2^c)
        pa.setInfinity(running, 0);
        pa.setInfinity(sum, 0);
        long pending = 0;
        for (int b = used - 1; b >= 0; b--) {
            if (!pa.isInfinity(buckets, b * jw)) {
                addMultiple(pending);
                pending = 0;
                pa.add(running, 0, buckets, b * jw, running, 0);
            }
            pending++;
        }
        addMultiple(pending);
        System.arraycopy(sum, 0, out, oi, jw);
    }

    /** sum += k running, by double-and-add (k is small: at most the number of buckets). */
    private void addMultiple(long k) {
        if (k == 0 || pa.isInfinity(running, 0)) {
            return;
        }
        if (k == 1) {
            pa.add(sum, 0, running, 0, sum, 0);
            return;
        }
        pa.setInfinity(multiple, 0);
        for (int i = 63 - Long.numberOfLeadingZeros(k); i >= 0; i--) {
            pa.dbl(multiple, 0, multiple, 0);
            if (((k >>> i) & 1) != 0) {
                pa.add(multiple, 0, running, 0, multiple, 0);
            }
        }
        pa.add(sum, 0, multiple, 0, sum, 0);
    }
}
