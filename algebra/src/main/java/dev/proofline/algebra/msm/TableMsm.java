package dev.proofline.algebra.msm;

import dev.proofline.algebra.Parallel;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.lang.foreign.MemorySegment;

/**
 * An MSM against a {@link FixedBaseTable} ({@link Msm#multiply(FixedBaseTable, long[], int, int)}):
 * the scalars are read first (zeros dropped, ones summed directly), the others recoded into the
 * table's c-bit signed digits, and the points cut among the threads, each thread adding every window's
 * digits of its points into one set of buckets (window w from row w of the table). With affine buckets
 * and two or four threads, each thread then merges the others' buckets of one range into its own and
 * reduces that range; otherwise each reduces its whole set.
 */
final class TableMsm {

    /** Terms a thread takes at least (below that, fewer threads). */
    private static final int MIN_TASK = 256;

    private TableMsm() {
    }

    static long[] multiply(Msm msm, FixedBaseTable table, long[] scalars, int scalarIndex) {
        WeierstrassCurve curve = table.curve();
        PointArithmetic pa = curve.arithmetic();
        int jw = curve.jacobianWidth();
        int kept = table.kept();
        int w = Msm.SCALAR_WORDS;
        int[] ones = new int[kept];
        int[] others = new int[kept];
        long[] compact = new long[kept * w];
        int nOnes = 0;
        int m = 0;
        for (int k = 0; k < kept; k++) {
            int s = (scalarIndex + table.original(k)) * w;
            long a0 = scalars[s], a1 = scalars[s + 1], a2 = scalars[s + 2], a3 = scalars[s + 3];
            if ((a1 | a2 | a3) == 0 && (a0 == 0 || a0 == 1)) {
                if (a0 == 1) {
                    ones[nOnes++] = k;
                }
                continue;
            }
            others[m] = k;
            System.arraycopy(scalars, s, compact, m * w, w);
            m++;
        }
        long[] result = new long[jw];
        pa.setInfinity(result, 0);
        if (nOnes > 0 && m > 0 && m < 2 * MIN_TASK && msm.parallelism() > 1
                && 2 * othersCost(table, compact, m) > nOnes * CostModel.AFFINE_ADD) {
            // the other terms are too few for more than one thread, and would take it longer than half
            // the ones take two (a bit-heavy circuit's C: a hundred dense terms beside thousands of
            // ones), so they and the ones are summed side by side
            final int ms = m;
            final int n1 = nOnes;
            Msm one = msm.withParallelism(1);
            long[][] parts = new long[2][];
            Parallel.run(2, 2, () -> t -> parts[t] = t == 0 ? buckets(one, table, others, compact, ms)
                    : sumOnes(one, table, ones, n1));
            pa.add(parts[0], 0, parts[1], 0, result, 0);
            return result;
        }
        if (nOnes > 0) {
            pa.add(result, 0, sumOnes(msm, table, ones, nOnes), 0, result, 0);
        }
        if (m > 0) {
            pa.add(result, 0, buckets(msm, table, others, compact, m), 0, result, 0);
        }
        return result;
    }

    /**
     * The cost model's time of {@link #buckets} on one thread for the m terms, as dense terms as wide
     * as the widest of them.
     */
    private static double othersCost(FixedBaseTable table, long[] compact, int m) {
        int bits = 0;
        for (int i = 0; i < m; i++) {
            bits = Math.max(bits, WidthGroups.bitLength(compact, i * Msm.SCALAR_WORDS));
        }
        return FixedBaseTable.cost(new CostModel(table.curve()), m, bits, table.windowBits(), 1);
    }

    /** The sum of the table's points {@code ones[0 .. n)} (row 0 holds the points themselves). */
    private static long[] sumOnes(Msm msm, FixedBaseTable table, int[] ones, int n) {
        return msm.sum(table.segment(), 0, n == ones.length ? ones : java.util.Arrays.copyOf(ones, n));
    }

    /** sum_j k_j P_{points[j]} over the m terms whose scalars are in {@code compact}. */
    private static long[] buckets(Msm msm, FixedBaseTable table, int[] points, long[] compact, int m) {
        WeierstrassCurve curve = table.curve();
        int c = table.windowBits();
        int nw = table.windows();
        int threads = msm.parallelism();
        char[][] digits = new char[nw][m];
        long[] r = SignedDigits.words(curve.order());
        int recodeChunk = 1 << 13;
        Parallel.run(threads, (m + recodeChunk - 1) / recodeChunk, () -> t -> SignedDigits.recode(compact, 0,
                t * recodeChunk, Math.min(m, (t + 1) * recodeChunk), r, c, digits));
        int tasks = Math.max(1, Math.min(threads, m / MIN_TASK));
        int jw = curve.jacobianWidth();
        int nb = 1 << (c - 1);
        int topUsed = SignedDigits.topUsed(curve.order().bitLength(), c);
        CostModel model = new CostModel(curve);
        int share = m / tasks;
        boolean topApart = FixedBaseTable.topApart(model, share, topUsed, nb, msm.batch());
        int shared = topApart ? nw - 1 : nw;
        boolean affine = model.affineIsCheaper((int) Math.min(Integer.MAX_VALUE, (long) shared * share), nb,
                msm.batch());
        // affine buckets of several tasks are merged before they are reduced, each task then reducing a
        // range of them: each reduces nb / tasks buckets instead of nb (tasks a power of two, so that the
        // ranges are too)
        boolean merge = affine && tasks > 1 && Integer.bitCount(tasks) == 1;
        BucketKernel[] kernels = new BucketKernel[tasks];
        long[] partial = new long[2 * tasks * jw];
        MemorySegment rows = table.segment();
        long rowBytes = table.rowBytes();
        Parallel.run(threads, tasks, () -> t -> {
            int lo = (int) ((long) m * t / tasks);
            int hi = (int) ((long) m * (t + 1) / tasks);
            BucketKernel k = affine ? msm.batchAffine(c) : new JacobianBuckets(curve, c);
            k.begin(nb, rows);
            for (int win = 0; win < shared; win++) {
                k.accumulate(digits[win], lo, hi, points, rowBytes * win);
            }
            if (merge) {
                ((BatchAffineBuckets) k).drain();
                kernels[t] = k;
            } else {
                k.end(partial, 2 * t * jw);
            }
            if (topApart) {
                BucketKernel top = new JacobianBuckets(curve, c, topUsed);
                top.begin(topUsed, rows);
                top.accumulate(digits[nw - 1], lo, hi, points, rowBytes * (nw - 1));
                top.end(partial, (2 * t + 1) * jw);
            }
        });
        if (merge) {
            int range = nb / tasks;
            Parallel.run(threads, tasks, () -> t -> {
                BatchAffineBuckets k = (BatchAffineBuckets) kernels[t];
                for (int u = 1; u < tasks; u++) {
                    k.absorb((BatchAffineBuckets) kernels[(t + u) % tasks], t * range, (t + 1) * range);
                }
                k.reduceRange(t * range, range, partial, 2 * t * jw);
            });
        }
        PointArithmetic pa = curve.arithmetic();
        long[] result = new long[jw];
        pa.setInfinity(result, 0);
        for (int t = 0; t < 2 * tasks; t++) {
            if (topApart || t % 2 == 0) {
                pa.add(result, 0, partial, t * jw, result, 0);
            }
        }
        return result;
    }
}
