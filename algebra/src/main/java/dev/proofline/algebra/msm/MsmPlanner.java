package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.WeierstrassCurve;

/**
 * Chooses how an MSM is cut ({@link MsmPlan}): for each window size, the cut of points into chunks
 * and of windows among the threads, priced by the {@link CostModel} as the threads would take the
 * tasks; the cheapest plan wins. A forced window size or accumulation narrows the choice.
 */
final class MsmPlanner {


    /** Batch size of the batch-affine accumulation (larger batches gain little, see {@link Msm}'s notes). */
    static final int DEFAULT_BATCH = 1024;

    private final WeierstrassCurve curve;
    private final int windowBits;
    private final int parallelism;
    private final Msm.Accumulation accumulation;
    private final int batchSize;

    /** A planner for an MSM with those settings ({@code windowBits}, {@code batchSize}: 0 for automatic). */
    MsmPlanner(WeierstrassCurve curve, int windowBits, int parallelism, Msm.Accumulation accumulation, int batchSize) {
        this.curve = curve;
        this.windowBits = windowBits;
        this.parallelism = parallelism;
        this.accumulation = accumulation;
        this.batchSize = batchSize;
    }

    /** The cheapest plan for n scalars below 2^bits. */
    MsmPlan plan(int n, int bits) {
        CostModel model = new CostModel(curve);
        if (windowBits != 0) {
            return plan(n, windowBits, bits, model);
        }
        MsmPlan best = null;
        for (int c = 2; c <= SignedDigits.MAX_WINDOW_BITS; c++) {
            MsmPlan p = plan(n, c, bits, model);
            if (best == null || p.cost() < best.cost()) {
                best = p;
            }
        }
        return best;
    }

    private MsmPlan plan(int n, int c, int bits, CostModel model) {
        int nw = SignedDigits.windows(bits, c);
        int nb = 1 << (c - 1);
        int topUsed = SignedDigits.topUsed(bits, c);
        int batch = batchSize != 0 ? batchSize : DEFAULT_BATCH;
        // windows are the unit of parallel work; points are cut into chunks (each with its own buckets
        // and reduction) when there are too few windows for the threads, or when the windows do not
        // divide among them and the last ones are better shared out: whatever finishes first by the
        // cost model, from one chunk a window to twice as many tasks as threads
        int most = Math.max(1, Math.min((2 * parallelism + nw - 1) / nw, n / 1024));
        MsmPlan best = null;
        for (int chunks = 1; chunks <= most; chunks++) {
            int chunkLen = (n + chunks - 1) / chunks;
            boolean affine = useAffine(model, chunkLen, nb, batch);
            boolean topAffine = useAffine(model, chunkLen, topUsed, batch);
            MsmPlan p = withCost(new MsmPlan(c, nw, chunks, 0, chunks, topUsed, affine, topAffine, batch, 0), n, nb, model);
            best = best == null || p.cost() < best.cost() ? p : best;
            int left = nw % parallelism;
            if (chunks == 1 && nw > parallelism && left != 0) {
                int split = Math.min(parallelism / gcd(left, parallelism), Math.max(1, n / 1024));
                if (split > 1) {
                    p = withCost(new MsmPlan(c, nw, 1, left, split, topUsed, affine, topAffine, batch, 0), n, nb, model);
                    best = p.cost() < best.cost() ? p : best;
                }
            }
        }
        return best;
    }

    /**
     * The plan with its cost: the cost model's price of each task, handed to the threads in order, each
     * taking the next when it is free; the cost is when the last one finishes.
     */
    private MsmPlan withCost(MsmPlan p, int n, int nb, CostModel model) {
        double[] free = new double[parallelism];
        for (int[] t : p.tasks(n)) {
            boolean top = t[0] == p.windows() - 1;
            double cost = model.window(t[2] - t[1], top ? p.topUsed() : nb, top ? p.topAffine() : p.affine(),
                    p.batch());
            int next = 0;
            for (int i = 1; i < free.length; i++) {
                if (free[i] < free[next]) {
                    next = i;
                }
            }
            free[next] += cost;
        }
        double end = 0;
        for (double f : free) {
            end = Math.max(end, f);
        }
        return p.costing(end);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private boolean useAffine(CostModel model, int n, int used, int batch) {
        return switch (accumulation) {
            case JACOBIAN -> false;
            case BATCH_AFFINE -> true;
            case AUTO -> model.affineIsCheaper(n, used, batch);
        };
    }
}
