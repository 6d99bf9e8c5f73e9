package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.ScalarMultiplier;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Field;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Buckets in affine coordinates, points added in batches that share one field inversion
 * (Montgomery's trick), as in gnark-crypto's batch-affine MSM; the bucket reduction is batched too.
 *
 * <p>Affine addition D + S: lambda = (yS - yD) / (xS - xD) (or 3 xD^2 / (2 yD) when S = D),
 * x3 = lambda^2 - xD - xS, y3 = lambda (xD - x3) - yD. With the inversion shared by the batch an
 * addition costs 3M for the batched inverse plus 2M + 1S, against 7M + 4S for a mixed Jacobian
 * addition.
 *
 * <p>A bucket may be in a batch only once (its new value is unknown until the batch completes): a
 * point for a bucket already in the batch waits in a queue. Empty buckets take their first point
 * by copying. S = -D empties the destination; S = D is a doubling, done in the same batch. Buckets
 * are read only when the batch completes (a bucket's cache line is requested when its point joins
 * the batch), so that offering a point touches no bucket data.
 *
 * <p>A batch is completed by the 8-lane kernel ({@link BatchAdder}) where it applies and is ready,
 * else by the scalar code ({@link ScalarBatchAffine}).
 *
 * <p>Batches of 1024 additions: larger ones save little more (docs/decisions/0003-g1-msm-batch-affine-additions.md).
 */
final class BatchAffineBuckets extends BucketKernel {

    /** Most segments of the batched reduction (each of its steps is a batch of that many additions). */
    static final int REDUCTION_SEGMENTS = 1024;

    private final Field f;
    private final CostModel model;
    private final PointArithmetic pa;
    private final int fw;
    private final int aw;
    private final int jw;
    private final int c;
    private final int nb;
    private final int cap;
    private final long[] buckets;
    private final boolean[] set;
    private final boolean[] inBatch;
    // the batch: destination index, source offset, source negated
    private final int[] eDst;
    private final int[] eSrc;
    private final boolean[] eNeg;
    /** The batch's source points, copied from memory when they join it (entry j at j * aw). */
    private final long[] staged;
    private int m;
    private int limit;
    private long touched;           // the prefetching loads go here, then to sink, so that they are kept
    static volatile long sink;
    // points waiting for a bucket that is in the batch
    private final int[] qBucket;
    private final long[] qPoint;
    private final boolean[] qNeg;
    private int qn;
    // reduction: per segment, running sum R and weighted sum T
    private final int segMax;
    private final long[] segR;
    private final long[] segT;
    private final boolean[] rSet;
    private final boolean[] tSet;
    private final long[] acc;
    private final long[] run;
    private final long[] weighted;
    /** The scalar code that completes a batch; the 8-lane kernel, or null. */
    private final ScalarBatchAffine scalar;
    private final BatchAdder vec;
    /** Batches smaller than this stay with the scalar code. */
    private static final int VECTOR_MIN = 8;

    BatchAffineBuckets(WeierstrassCurve curve, int c, int batchSize) {
        this(curve, c, batchSize, BatchAdder::of);
    }

    /** With the 8-lane adder that {@code adder} gives for this kernel's field (null: scalar code only). */
    BatchAffineBuckets(WeierstrassCurve curve, int c, int batchSize, Function<Field, BatchAdder> adder) {
        this.model = new CostModel(curve);
        this.pa = curve.arithmetic();
        this.f = pa.field();
        this.fw = curve.coordinateWidth();
        this.aw = curve.affineWidth();
        this.jw = curve.jacobianWidth();
        this.c = c;
        this.nb = 1 << (c - 1);
        this.cap = Math.max(1, Math.min(batchSize, nb));
        this.segMax = Math.min(nb, REDUCTION_SEGMENTS);
        int entries = Math.max(cap, segMax);
        this.buckets = new long[nb * aw];
        this.set = new boolean[nb];
        this.inBatch = new boolean[nb];
        this.eDst = new int[entries];
        this.eSrc = new int[entries];
        this.eNeg = new boolean[entries];
        this.staged = new long[cap * aw];
        int qcap = Math.max(16, cap);
        this.qBucket = new int[qcap];
        this.qPoint = new long[qcap];
        this.qNeg = new boolean[qcap];
        this.segR = new long[segMax * aw];
        this.segT = new long[segMax * aw];
        this.rSet = new boolean[segMax];
        this.tSet = new boolean[segMax];
        this.acc = new long[jw];
        this.run = new long[jw];
        this.weighted = new long[jw];
        this.scalar = new ScalarBatchAffine(f, fw, aw, entries);
        this.vec = adder.apply(f);
    }

    /** The segment the points of the current accumulation are read from (the queue holds offsets into it). */
    private MemorySegment source;
    /** Buckets the current accumulation can hit. */
    private int used;

    @Override
    void begin(int used, MemorySegment points) {
        Arrays.fill(set, 0, used, false);
        m = 0;
        qn = 0;
        limit = Math.min(cap, used);
        this.used = used;
        this.source = points;
    }

    @Override
    void accumulate(char[] digits, int lo, int hi, int[] index, long pointBase) {
        final MemorySegment points = source;
        final int half = 1 << (c - 1);
        final int full = 1 << c;
        final int qcap = qBucket.length;
        final long stride = 8L * aw;
        for (int i = lo; i < hi; i++) {
            int code = digits[i];
            if (code == 0) {
                continue;
            }
            long p = pointBase + stride * (index == null ? i : index[i]);
            int b;
            boolean neg;
            if (code <= half) {
                b = code - 1;
                neg = false;
            } else {
                b = full - code - 1;
                neg = true;
            }
            if (inBatch[b]) {
                qBucket[qn] = b;
                qPoint[qn] = p;
                qNeg[qn] = neg;
                if (++qn == qcap) {
                    flush(points);
                }
                continue;
            }
            offer(b, p, neg, points);
            if (m == limit) {
                flush(points);
            }
        }
    }

    @Override
    void end(long[] out, int oi) {
        drain();
        reduceRange(0, used, out, oi);
    }

    /**
     * Completes the accumulation (the waiting points are added) without reducing: the buckets can then
     * take another kernel's ({@link #absorb}) and be reduced a range at a time ({@link #reduceRange}).
     */
    void drain() {
        while (m > 0 || qn > 0) {
            flush(source);
        }
        sink = touched;
        source = null;
    }

    /**
     * B_b += B'_b for b in [from, to), B' the buckets of {@code other} (a kernel of the same curve and
     * window size, drained): the additions in batches, each bucket in one once. Kernels that accumulated
     * parts of one MSM are merged so, a range each, before their buckets are reduced.
     */
    void absorb(BatchAffineBuckets other, int from, int to) {
        m = 0;
        final int cap = eDst.length;
        for (int b = from; b < to; b++) {
            if (!other.set[b]) {
                continue;
            }
            if (!set[b]) {
                System.arraycopy(other.buckets, b * aw, buckets, b * aw, aw);
                set[b] = true;
                continue;
            }
            eDst[m] = b;
            eSrc[m] = b * aw;
            eNeg[m] = false;
            if (++m == cap) {
                completeBatch(buckets, set, other.buckets);
                m = 0;
            }
        }
        completeBatch(buckets, set, other.buckets);
        m = 0;
    }

    /** Below this many points a {@link #sum} finishes with mixed Jacobian additions (batches too small to pay). */
    static final int SUM_TAIL = 16;

    /**
     * Writes sum_{lo <= i < hi} P_i, Jacobian, to {@code out} at {@code oi}, P_i the affine point at byte
     * offset {@code pointBase + j * 8 * affineWidth} of {@code points}, j = {@code index[i]} (i where
     * {@code index} is null): the terms of an MSM whose scalar
     * is 1. A tree of batched affine additions: each round adds the points in pairs, P_2j += P_2j+1, in
     * batches sharing one inversion, and keeps the sums (about n additions in all, against one a window in
     * Pippenger's method); the last few are added in Jacobian coordinates. Doublings and cancellations
     * are handled by the batch as in the buckets.
     */
    void sum(MemorySegment points, long pointBase, int[] index, int lo, int hi, long[] out, int oi) {
        long[] work = new long[Math.max(0, hi - lo) * aw];
        boolean[] live = new boolean[Math.max(0, hi - lo)];
        int count = 0;
        for (int i = lo; i < hi; i++) {
            load(points, pointBase + 8L * aw * (index == null ? i : index[i]), work, count * aw, aw);
            if (!isInfinity(work, count * aw)) {
                live[count++] = true;
            }
        }
        final int entries = eDst.length;
        while (count > SUM_TAIL) {
            int pairs = count / 2;
            for (int start = 0; start < pairs; start += entries) {
                m = Math.min(entries, pairs - start);
                for (int j = 0; j < m; j++) {
                    int p = 2 * (start + j);
                    eDst[j] = p;
                    eSrc[j] = (p + 1) * aw;
                    eNeg[j] = false;
                }
                completeBatch(work, live, work);
            }
            m = 0;
            // the sums are in the even slots (unset where a pair cancelled), an odd count's last point after them
            int kept = 0;
            for (int p = 0; p < count; p += 2) {
                if (live[p]) {
                    if (kept != p) {
                        System.arraycopy(work, p * aw, work, kept * aw, aw);
                    }
                    live[kept++] = true;
                }
            }
            Arrays.fill(live, kept, count, false);
            count = kept;
        }
        pa.setInfinity(acc, 0);
        for (int j = 0; j < count; j++) {
            pa.addMixed(acc, 0, work, j * aw, acc, 0);
        }
        System.arraycopy(acc, 0, out, oi, jw);
    }

    /**
     * Adds the point at byte offset p (negated when neg) to bucket b, which is not in the batch. The
     * point is copied into the batch's next staging slot (which stays free unless it joins the batch).
     */
    private void offer(int b, long p, boolean neg, MemorySegment points) {
        final int sp = m * aw;
        load(points, p, staged, sp, aw);
        if (isInfinity(staged, sp)) {
            return;
        }
        if (!set[b]) {
            copy(staged, sp, neg, buckets, b * aw);
            set[b] = true;
            return;
        }
        eDst[m] = b;
        eSrc[m] = sp;
        eNeg[m] = neg;
        inBatch[b] = true;
        m++;
        // Load the bucket now, unused, so that its cache lines are on their way while more points are
        // offered: the batch completes much later, and would otherwise wait on every bucket in turn. A
        // bucket of 8 words or more spans two or three lines (the array's header shifts them off the
        // line boundaries): one word every 64 bytes and the last one reach each, which made table MSMs,
        // whose bucket sets outgrow the L2, quicker than the first word only
        // (docs/decisions/0013-circom-matrix-intel-2-6.md, "What changed")
        final int at = b * aw;
        for (int k = 0; k < aw; k += 8) {
            touched ^= buckets[at + k];
        }
        touched ^= buckets[at + aw - 1];
    }

    /** Completes the batch, then offers the waiting points again (those still blocked keep waiting). */
    private void flush(MemorySegment points) {
        completeBatch(buckets, set, staged);
        for (int j = 0; j < m; j++) {
            inBatch[eDst[j]] = false;
        }
        m = 0;
        int n0 = qn;
        qn = 0;
        for (int k = 0; k < n0; k++) {
            int b = qBucket[k];
            if (inBatch[b]) {
                qBucket[qn] = b;
                qPoint[qn] = qPoint[k];
                qNeg[qn] = qNeg[k];
                qn++;
                continue;
            }
            offer(b, qPoint[k], qNeg[k], points);
            if (m == limit) {
                completeBatch(buckets, set, staged);
                for (int j = 0; j < m; j++) {
                    inBatch[eDst[j]] = false;
                }
                m = 0;
            }
        }
    }

    private boolean isInfinity(long[] a, int p) {
        for (int k = 0; k < aw; k++) {
            if (a[p + k] != 0) {
                return false;
            }
        }
        return true;
    }

    private void copy(long[] src, int s, boolean neg, long[] dst, int d) {
        f.copy(src, s, dst, d);
        if (neg) {
            f.neg(src, s + fw, dst, d + fw);
        } else {
            f.copy(src, s + fw, dst, d + fw);
        }
    }

    /**
     * dst[eDst[j]] += (eNeg[j] ? -1 : 1) src at eSrc[j], for the m entries, with one inversion. Every
     * destination is set and distinct, no source is infinity; a destination that cancels is unset.
     */
    private void completeBatch(long[] dst, boolean[] dstSet, long[] src) {
        if (m == 0) {
            return;
        }
        if (m >= VECTOR_MIN && vec != null) {
            if (vec.ready()) {
                vec.completeBatch(dst, dstSet, src, eDst, eSrc, eNeg, m, aw);
                return;
            }
            vec.scalarWork(m);
        }
        scalar.complete(dst, dstSet, src, eDst, eSrc, eNeg, m);
    }

    /**
     * Writes sum_{from <= b < from + used} (b + 1) B_b, Jacobian, to {@code out} at {@code oi}, after
     * {@link #drain}; {@code used} is a power of two. The buckets are cut into K segments of L; within
     * each, from the top down, R_s += B_b and T_s += R_s, the K segments advancing together so that each
     * step is a batch of K affine additions. Then T_s = sum_{b in s} (b - from - sL + 1) B_b and
     * R_s = sum_{b in s} B_b, and the result is sum_s T_s + L sum_s s R_s + from sum_s R_s.
     */
    void reduceRange(int from, int used, long[] out, int oi) {
        int k = model.segments(used);
        int len = used / k; // used and k are powers of two
        Arrays.fill(rSet, 0, k, false);
        Arrays.fill(tSet, 0, k, false);
        for (int i = len - 1; i >= 0; i--) {
            m = 0;
            for (int s = 0; s < k; s++) {
                int b = from + s * len + i;
                if (!set[b]) {
                    continue;
                }
                if (!rSet[s]) {
                    f.copy(buckets, b * aw, segR, s * aw);
                    f.copy(buckets, b * aw + fw, segR, s * aw + fw);
                    rSet[s] = true;
                } else {
                    eDst[m] = s;
                    eSrc[m] = b * aw;
                    eNeg[m] = false;
                    m++;
                }
            }
            completeBatch(segR, rSet, buckets);
            m = 0;
            for (int s = 0; s < k; s++) {
                if (!rSet[s]) {
                    continue;
                }
                if (!tSet[s]) {
                    f.copy(segR, s * aw, segT, s * aw);
                    f.copy(segR, s * aw + fw, segT, s * aw + fw);
                    tSet[s] = true;
                } else {
                    eDst[m] = s;
                    eSrc[m] = s * aw;
                    eNeg[m] = false;
                    m++;
                }
            }
            completeBatch(segT, tSet, segR);
            m = 0;
        }
        // sum_s T_s, and sum_s s R_s by a running sum over the segments
        pa.setInfinity(acc, 0);
        pa.setInfinity(run, 0);
        pa.setInfinity(weighted, 0);
        for (int s = k - 1; s >= 0; s--) {
            if (tSet[s]) {
                pa.addMixed(acc, 0, segT, s * aw, acc, 0);
            }
            if (s > 0) {
                if (rSet[s]) {
                    pa.addMixed(run, 0, segR, s * aw, run, 0);
                }
                pa.add(weighted, 0, run, 0, weighted, 0);
            }
        }
        for (int l = len; l > 1; l >>= 1) {
            pa.dbl(weighted, 0, weighted, 0);
        }
        pa.add(acc, 0, weighted, 0, acc, 0);
        if (from != 0) {
            // run = sum_{s > 0} R_s: with R_0, every bucket of the range, taken from times
            if (rSet[0]) {
                pa.addMixed(run, 0, segR, 0, run, 0);
            }
            new ScalarMultiplier(pa).mul(run, 0, BigInteger.valueOf(from), weighted, 0);
            pa.add(acc, 0, weighted, 0, acc, 0);
        }
        System.arraycopy(acc, 0, out, oi, jw);
    }
}
