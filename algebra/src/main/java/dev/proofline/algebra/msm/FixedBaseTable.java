package dev.proofline.algebra.msm;

import dev.proofline.algebra.Parallel;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Precomputed multiples of a fixed set of points, for MSMs against them with any scalars
 * ({@link Msm#multiply(FixedBaseTable, long[], int, int)}): for each window w of c bits, every point
 * multiplied by 2^(c w), affine, in native memory. A proving key's point sets are such fixed bases, and
 * a key kept resident by a long-running prover pays for its table once.
 *
 * <p>With the table, the digits of all windows go into one set of buckets (a digit d of window w adds
 * d 2^(c w) P, which the table holds as d times its point): one bucket reduction per thread instead of
 * one per window, and no doublings between windows. That is what costs at small sizes, where the 2^c
 * additions of a window's reduction are a large share of its n; a larger c also pays, since its
 * reduction is done once. The price is memory: W = ceil((bits + 1) / c) copies of the points
 * ({@link #bytes}).
 *
 * <p>Points at infinity are left out of the table (most of a circom key's A, B1 and B2 points are at
 * infinity: the variables a matrix does not use); their terms add nothing.
 *
 * <p>Immutable once built and thread-safe; {@link #close} frees the native memory (no MSM may be using
 * the table then).
 */
public final class FixedBaseTable implements AutoCloseable {

    private final WeierstrassCurve curve;
    private final int count;
    private final int kept;
    /** For each point of the table, its index among the original points; null when none was left out. */
    private final int[] original;
    private final int c;
    private final int windows;
    /** The table's own memory; null where its owner frees it ({@link #over}). */
    private final Arena arena;
    private final MemorySegment table;

    private FixedBaseTable(WeierstrassCurve curve, int count, int kept, int[] original, int c, int windows,
            Arena arena, MemorySegment table) {
        this.curve = curve;
        this.count = count;
        this.kept = kept;
        this.original = original;
        this.c = c;
        this.windows = windows;
        this.arena = arena;
        this.table = table;
    }

    /**
     * Bytes a table would take for {@code points} points (infinity included: an upper bound) with
     * c-bit windows.
     */
    public static long bytes(WeierstrassCurve curve, int points, int c) {
        return (long) SignedDigits.windows(curve.order().bitLength(), c) * points * 8L * curve.affineWidth();
    }

    /**
     * Most window bits {@link #windowBits} chooses: the most a digit's code holds. The cost model's choice
     * matched the fastest measured on BN254 G1 (Intel 2.6, 2 threads, dense random scalars, c from 12 to
     * 16, BENCHMARKS.md "Circom circuits"): c = 13 at 2^12 and 2^13 points, 15 at 2^14 and 2^15, 16 at
     * 2^16 and 2^17. Where the top window can hit few buckets (BN254: 4 for c = 12 and 14) its digits are
     * summed apart ({@code TableMsm}); before that, such a c was slower than its neighbours
     * (docs/decisions/0016-key-tables-plan.md).
     */
    public static final int MAX_CHOSEN_BITS = 16;

    /**
     * The window size for a table of n points used by MSMs on {@code threads} threads: the cheapest by
     * the cost model, at most {@link #MAX_CHOSEN_BITS}, among those whose table takes at most
     * {@code maxBytes}; 0 when none fits.
     */
    public static int windowBits(WeierstrassCurve curve, int n, int threads, long maxBytes) {
        CostModel model = new CostModel(curve);
        int bits = curve.order().bitLength();
        int best = 0;
        double bestCost = Double.MAX_VALUE;
        for (int c = 4; c <= MAX_CHOSEN_BITS; c++) {
            if (bytes(curve, n, c) > maxBytes) {
                continue;
            }
            double cost = cost(model, n, bits, c, Math.max(1, threads));
            if (cost < bestCost) {
                bestCost = cost;
                best = c;
            }
        }
        return best;
    }

    /**
     * Whether a thread's {@code share} of terms sums the top window's digits apart, in Jacobian buckets
     * of their own: when that window can hit only {@code topUsed} of the nb buckets and affine batches
     * would not pay for so few (a bucket is in a batch once, so its digits would cut the shared batches
     * short). {@code TableMsm} decides so, and {@link #cost} prices it so.
     */
    static boolean topApart(CostModel model, int share, int topUsed, int nb, int batch) {
        return topUsed < nb && !model.affineIsCheaper(share, topUsed, batch);
    }

    /** The cost model's time of an MSM of n dense terms with the table: each thread's share, one reduction. */
    static double cost(CostModel model, int n, int bits, int c, int threads) {
        int share = n / threads;
        int nb = 1 << (c - 1);
        int topUsed = SignedDigits.topUsed(bits, c);
        int batch = MsmPlanner.DEFAULT_BATCH;
        boolean topApart = topApart(model, share, topUsed, nb, batch);
        int shared = SignedDigits.windows(bits, c) - (topApart ? 1 : 0);
        int entries = (int) Math.min(Integer.MAX_VALUE, (long) shared * share);
        double cost = Math.min(model.window(entries, nb, true, batch), model.window(entries, nb, false, batch));
        return topApart ? cost + model.window(share, topUsed, false, batch) : cost;
    }

    /**
     * Builds the table of {@code count} affine points read from byte {@code offset} of {@code points}
     * (the layout {@link Msm#multiply(MemorySegment, long, long[], int, int)} reads) with c-bit
     * windows, on all processors.
     */
    public static FixedBaseTable build(WeierstrassCurve curve, MemorySegment points, long offset, int count, int c) {
        return build(curve, points, offset, count, c, () -> { });
    }

    /**
     * As {@link #build(WeierstrassCurve, MemorySegment, long, int, int)}, calling {@code beforeChunk} on
     * the thread that builds a chunk of points before it does: a caller whose build must give way to
     * other work (a long-running prover's background building) waits there.
     */
    public static FixedBaseTable build(WeierstrassCurve curve, MemorySegment points, long offset, int count, int c,
            Runnable beforeChunk) {
        if (c < 2 || c > SignedDigits.MAX_WINDOW_BITS) {
            throw new IllegalArgumentException("window bits must be in [2, 16]: " + c);
        }
        int aw = curve.affineWidth();
        long pointBytes = 8L * aw;
        if (count < 0 || offset < 0 || offset + pointBytes * count > points.byteSize()) {
            throw new IllegalArgumentException("range out of bounds: " + count + " points at byte " + offset
                    + " of " + points.byteSize());
        }
        int[] index = new int[count];
        int kept = finite(curve, points, offset, count, index, count);
        int[] original = kept == count ? null : java.util.Arrays.copyOf(index, kept);
        int windows = SignedDigits.windows(curve.order().bitLength(), c);
        Arena arena = Arena.ofShared();
        try {
            MemorySegment table = arena.allocate(Math.max(1, pointBytes * kept * windows), 8);
            final int keptPoints = kept;
            Parallel.chunks(kept, BUILD_CHUNK, (lo, hi) -> {
                beforeChunk.run();
                fill(curve, points, offset, index, lo, hi, keptPoints, windows, c, table);
            });
            return new FixedBaseTable(curve, count, kept, original, c, windows, arena, table);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * A table over memory that holds one already (written from {@link #segment()} of a table with the
     * same curve, count, kept points, their original indices and window bits, e.g. a file mapped back):
     * the caller keeps that memory alive while the table is used and frees it; {@link #close} does not.
     *
     * @throws IllegalArgumentException if the numbers do not fit together or {@code table} is not their size
     */
    public static FixedBaseTable over(WeierstrassCurve curve, int count, int kept, int[] original, int c,
            MemorySegment table) {
        if (c < 2 || c > SignedDigits.MAX_WINDOW_BITS || kept < 0 || kept > count
                || (original == null ? kept != count : original.length != kept)) {
            throw new IllegalArgumentException("not a table: " + kept + " of " + count + " points, c = " + c);
        }
        int windows = SignedDigits.windows(curve.order().bitLength(), c);
        long expected = Math.max(1, 8L * curve.affineWidth() * kept * windows);
        if (table.byteSize() != expected) {
            throw new IllegalArgumentException("a table of " + kept + " points with c = " + c + " takes " + expected
                    + " bytes, not " + table.byteSize());
        }
        if (original != null) {
            for (int k = 0; k < kept; k++) {
                if (original[k] < 0 || original[k] >= count || (k > 0 && original[k] <= original[k - 1])) {
                    throw new IllegalArgumentException("not a table: point index " + original[k] + " at " + k);
                }
            }
        }
        return new FixedBaseTable(curve, count, kept, original == null ? null : original.clone(), c, windows,
                null, table);
    }

    /** The original indices of the table's points, in order; null when it holds every point. */
    public int[] originalIndices() {
        return original == null ? null : original.clone();
    }

    /**
     * How many of the {@code count} affine points from byte {@code offset} of {@code points} are not at
     * infinity (the points a table of them holds), counted up to {@code most + 1}: where there are more
     * than {@code most}, the count stops there and returns {@code most + 1}.
     */
    public static int finitePoints(WeierstrassCurve curve, MemorySegment points, long offset, int count, int most) {
        if (count < 0 || offset < 0 || most < 0 || offset + 8L * curve.affineWidth() * count > points.byteSize()) {
            throw new IllegalArgumentException("range out of bounds: " + count + " points at byte " + offset
                    + " of " + points.byteSize() + ", at most " + most);
        }
        return finite(curve, points, offset, count, null, most);
    }

    /**
     * The points not at infinity among {@code count}, up to {@code most + 1} of them: how many, their
     * indices in order to {@code index} (if not null).
     */
    private static int finite(WeierstrassCurve curve, MemorySegment points, long offset, int count, int[] index,
            int most) {
        int aw = curve.affineWidth();
        long[] p = new long[aw];
        int kept = 0;
        for (int i = 0; i < count && kept <= most; i++) {
            BucketKernel.load(points, offset + 8L * aw * i, p, 0, aw);
            if (!isZero(p)) {
                if (index != null) {
                    index[kept] = i;
                }
                kept++;
            }
        }
        return kept;
    }

    /**
     * The time a table with c-bit windows saves an MSM of n dense terms on {@code threads} threads, by the
     * cost model: the plain MSM's time less the table's, in multiplications of the curve's base prime field
     * (an Fp2 multiplication counted as three), so that G1 and G2 tables compare.
     */
    public static double saving(WeierstrassCurve curve, int n, int threads, int c) {
        if (n <= 0) {
            return 0;
        }
        CostModel model = new CostModel(curve);
        int bits = curve.order().bitLength();
        int t = Math.max(1, threads);
        double plain = new MsmPlanner(curve, 0, t, Msm.Accumulation.AUTO, 0).plan(n, bits).cost();
        return (plain - cost(model, n, bits, c, t)) * CostModel.primeMultiplications(curve.field());
    }

    /** Points a task of the build doubles together (their affine conversions share one inversion). */
    private static final int BUILD_CHUNK = 512;

    /** Fills the table's rows for kept points [lo, hi): row 0 a copy, row w the row above times 2^c. */
    private static void fill(WeierstrassCurve curve, MemorySegment points, long offset, int[] index, int lo, int hi,
            int kept, int windows, int c, MemorySegment table) {
        PointArithmetic pa = curve.arithmetic();
        int aw = curve.affineWidth();
        int jw = curve.jacobianWidth();
        long pointBytes = 8L * aw;
        int n = hi - lo;
        long[] affine = new long[n * aw];
        long[] jac = new long[n * jw];
        for (int k = 0; k < n; k++) {
            BucketKernel.load(points, offset + pointBytes * index[lo + k], affine, k * aw, aw);
            pa.fromAffine(affine, k * aw, jac, k * jw);
        }
        for (int w = 0; w < windows; w++) {
            if (w > 0) {
                for (int k = 0; k < n; k++) {
                    for (int i = 0; i < c; i++) {
                        pa.dbl(jac, k * jw, jac, k * jw);
                    }
                }
                pa.batchToAffine(jac, 0, affine, 0, n);
            }
            MemorySegment.copy(affine, 0, table, BucketKernel.WORD, pointBytes * ((long) w * kept + lo), n * aw);
        }
    }

    private static boolean isZero(long[] p) {
        for (long x : p) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    public WeierstrassCurve curve() {
        return curve;
    }

    /** The number of points the table was built from (its MSMs take that many scalars). */
    public int count() {
        return count;
    }

    /** The points that are not at infinity, which the table holds. */
    public int kept() {
        return kept;
    }

    /** Window bits. */
    public int windowBits() {
        return c;
    }

    /** Windows (rows of the table). */
    public int windows() {
        return windows;
    }

    /** Native memory held. */
    public long bytes() {
        return table.byteSize();
    }

    /** The original index of the table's point k. */
    int original(int k) {
        return original == null ? k : original[k];
    }

    /**
     * The table: row w (window w) from byte {@code rowBytes() * w}, the points in order (read-only use:
     * to write it somewhere, for {@link #over}).
     */
    public MemorySegment segment() {
        return table;
    }

    /** Bytes of one row. */
    long rowBytes() {
        return 8L * curve.affineWidth() * kept;
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "FixedBaseTable[" + curve + ", " + kept + " of " + count + " points, c = " + c + ", " + windows
                + " windows, " + bytes() + " bytes]";
    }
}
