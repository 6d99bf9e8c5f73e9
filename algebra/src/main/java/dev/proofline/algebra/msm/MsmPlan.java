package dev.proofline.algebra.msm;

import java.util.ArrayList;
import java.util.List;

/**
 * How an MSM of n points is cut: window size c, number of windows, chunks of points per window,
 * the last {@code splitWindows} windows cut into {@code splitChunks} chunks instead (so that the
 * threads finish together), the buckets the top window can hit, and which kernel each kind of
 * window uses. {@code cost} is the cost model's estimate of the time: the longest thread's share.
 */
record MsmPlan(int c, int windows, int chunks, int splitWindows, int splitChunks, int topUsed, boolean affine,
        boolean topAffine, int batch, double cost) {

    /** Whether window w is one of the last, cut into {@code splitChunks}. */
    boolean isSplit(int w) {
        return w >= windows - splitWindows;
    }

    /** The chunks of window w. */
    int chunksOf(int w) {
        return isSplit(w) ? splitChunks : chunks;
    }

    /** The same plan at that cost. */
    MsmPlan costing(double cost) {
        return new MsmPlan(c, windows, chunks, splitWindows, splitChunks, topUsed, affine, topAffine, batch, cost);
    }

    /**
     * The tasks in the order the threads take them: {window, first point, end} for each, the windows
     * not split first (the larger tasks), then the chunks of the split ones.
     */
    int[][] tasks(int n) {
        List<int[]> t = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            for (int w = 0; w < windows; w++) {
                if (isSplit(w) != (pass == 1)) {
                    continue;
                }
                int k = chunksOf(w);
                int len = (n + k - 1) / k;
                for (int lo = 0; lo < n; lo += len) {
                    t.add(new int[] {w, lo, Math.min(n, lo + len)});
                }
            }
        }
        return t.toArray(new int[0][]);
    }
}
