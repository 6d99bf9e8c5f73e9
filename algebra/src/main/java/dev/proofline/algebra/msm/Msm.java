package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.PrimeField;
import java.lang.foreign.MemorySegment;
import dev.proofline.algebra.Parallel;
import java.util.function.Function;

/**
 * Multi-scalar multiplication sum_i k_i P_i on a {@link WeierstrassCurve} by Pippenger's bucket
 * method with signed-digit windows ({@link SignedDigits}).
 *
 * <p>Inputs: points as a flat affine vector in the curve's layout (x, y; infinity = (0, 0)); scalars
 * as 4 little-endian 64-bit words each, canonical (not Montgomery: see {@link #canonicalScalars}).
 * Any 256-bit scalar is accepted and taken mod r, which is exact for points of the order-r subgroup
 * (the only points a proving key holds). Points are not checked to be on the curve. Points at
 * infinity, zero scalars, repeated points and a point next to its negation are all fine. The scalars
 * are read first ({@link WidthGroups}): terms that add nothing are dropped, the terms whose scalar is 1
 * are summed directly, and the others are grouped by the bit length of their scalars, each group with
 * as many windows as it needs; when there are several groups or many terms were dropped, each group's
 * terms are listed by index (their scalars copied together), the points read where they are.
 *
 * <p>The scalars are recoded into c-bit signed digits, so a window has 2^(c-1) buckets. Each
 * window's points go into buckets either in Jacobian coordinates (mixed additions) or in affine
 * coordinates in batches sharing one inversion ({@link BatchAffineBuckets}, about 6 multiplications
 * an addition instead of 11); c and the kernel of each window come from a {@link CostModel}. Work is
 * split into tasks (window, chunk of points) run on the calling thread and the common fork-join pool;
 * each task reduces its buckets to a window sum, and the window sums are combined by doubling. The
 * cut is the one the cost model expects to finish first on the threads: a window a task where the
 * windows divide among the threads, the leftover windows cut into chunks where they do not (17
 * windows on 2 threads: 16 whole, the last in two halves), every window cut when there are too few.
 *
 * <p>Instances are immutable and thread-safe; the {@code with...} methods return modified copies.
 */
public final class Msm {

    /** How points are accumulated into buckets. */
    public enum Accumulation {
        /** Jacobian buckets, mixed additions. */
        JACOBIAN,
        /** Affine buckets, batched additions sharing one inversion. */
        BATCH_AFFINE,
        /** The cheaper by the cost model, window by window (affine batches for all but small windows). */
        AUTO
    }

    /** Words per scalar (both scalar fields are below 2^256). */
    public static final int SCALAR_WORDS = 4;

    private final WeierstrassCurve curve;
    private final int windowBits;
    private final int parallelism;
    private final Accumulation accumulation;
    private final int batchSize;
    /** The 8-lane adders of the batch-affine kernels: by default {@link BatchAdder#of}. */
    private final Function<Field, BatchAdder> adders;
    /** Whether terms are grouped by the width of their scalars ({@link WidthGroups}), or all read at full width. */
    private final boolean byWidth;

    private Msm(WeierstrassCurve curve, int windowBits, int parallelism, Accumulation accumulation, int batchSize) {
        this(curve, windowBits, parallelism, accumulation, batchSize, BatchAdder::of, true);
    }

    private Msm(WeierstrassCurve curve, int windowBits, int parallelism, Accumulation accumulation, int batchSize,
            Function<Field, BatchAdder> adders, boolean byWidth) {
        if (curve.scalarField().limbs() != SCALAR_WORDS) {
            throw new IllegalArgumentException("scalar field of " + curve + " is not 4 words wide");
        }
        this.curve = curve;
        this.windowBits = windowBits;
        this.parallelism = parallelism;
        this.accumulation = accumulation;
        this.batchSize = batchSize;
        this.adders = adders;
        this.byWidth = byWidth;
    }

    /** With the given 8-lane adders for the batch-affine kernels (null from it: scalar code), for tests. */
    Msm withAdders(Function<Field, BatchAdder> a) {
        return new Msm(curve, windowBits, parallelism, accumulation, batchSize, a, byWidth);
    }

    /**
     * Compiles the 8-lane batch-affine additions for the curve's base field, where there are some (they
     * replace the scalar ones only once compiled; MSMs start this by themselves, in the background,
     * after 2^24 scalar additions, which a one-off proof of 2^17 constraints does not reach).
     * Benchmarks and long-running provers call this first. Waits at most a minute; returns whether the
     * 8-lane additions are in use.
     */
    public static boolean warmUp(WeierstrassCurve curve) {
        BatchAdder a = BatchAdder.of(curve.arithmetic().field());
        if (a == null) {
            return false;
        }
        try {
            return a.warmUp(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** MSM on a curve with the automatic window size, all processors, automatic accumulation. */
    public static Msm on(WeierstrassCurve curve) {
        return new Msm(curve, 0, Runtime.getRuntime().availableProcessors(), Accumulation.AUTO, 0);
    }

    /** Forces the window size c, 2 to 16 bits; 0 restores the automatic choice. */
    public Msm withWindowBits(int c) {
        if (c != 0 && (c < 2 || c > SignedDigits.MAX_WINDOW_BITS)) {
            throw new IllegalArgumentException("window bits must be 0 or in [2, 16]: " + c);
        }
        return new Msm(curve, c, parallelism, accumulation, batchSize, adders, byWidth);
    }

    /** Number of threads (the calling thread included); at least 1. */
    public Msm withParallelism(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1: " + threads);
        }
        return new Msm(curve, windowBits, threads, accumulation, batchSize, adders, byWidth);
    }

    public Msm withAccumulation(Accumulation a) {
        return new Msm(curve, windowBits, parallelism, a, batchSize, adders, byWidth);
    }

    /** Batch size of the batch-affine accumulation; 0 restores the automatic choice. */
    public Msm withBatchSize(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("batch size must be non-negative: " + size);
        }
        return new Msm(curve, windowBits, parallelism, accumulation, size, adders, byWidth);
    }

    /**
     * Whether terms are grouped by the width of their scalars (the default: the scalar 1 summed directly,
     * narrow scalars in fewer windows), or every scalar read at the full width, for comparison.
     */
    public Msm withWidthGroups(boolean on) {
        return new Msm(curve, windowBits, parallelism, accumulation, batchSize, adders, on);
    }

    public WeierstrassCurve curve() {
        return curve;
    }

    // ------------------------------------------------------------------ API

    /** sum_i k_i P_i over all scalars (n = scalars.length / 4; points must hold n points), Jacobian. */
    public long[] multiply(long[] points, long[] scalars) {
        int n = scalars.length / SCALAR_WORDS;
        return multiply(points, 0, scalars, 0, n);
    }

    /**
     * sum_{i < count} k_{s+i} P_{p+i}, Jacobian: points from index {@code pointIndex}, scalars from
     * index {@code scalarIndex} (indices count points and scalars, not longs).
     */
    public long[] multiply(long[] points, int pointIndex, long[] scalars, int scalarIndex, int count) {
        int aw = curve.affineWidth();
        if (count < 0 || pointIndex < 0 || scalarIndex < 0
                || (long) (pointIndex + (long) count) * aw > points.length
                || (long) (scalarIndex + (long) count) * SCALAR_WORDS > scalars.length) {
            throw new IllegalArgumentException("range out of bounds: points from " + pointIndex + ", scalars from "
                    + scalarIndex + ", count " + count);
        }
        return compute(MemorySegment.ofArray(points), 8L * pointIndex * aw, scalars, scalarIndex * SCALAR_WORDS,
                count);
    }

    /**
     * sum_{i < count} k_{s+i} P_i, Jacobian, with the points read from memory: {@code count} affine
     * points from byte offset {@code offset} of {@code points}, each as the curve's affine words in
     * little-endian order, no alignment needed. That is the layout of the point sections of a snarkjs
     * .zkey file (Montgomery coordinates, infinity = (0, 0)), so a memory-mapped key is used in place.
     */
    public long[] multiply(MemorySegment points, long offset, long[] scalars, int scalarIndex, int count) {
        long bytes = 8L * curve.affineWidth() * count;
        if (count < 0 || scalarIndex < 0 || offset < 0 || offset + bytes > points.byteSize()
                || (long) (scalarIndex + (long) count) * SCALAR_WORDS > scalars.length) {
            throw new IllegalArgumentException("range out of bounds: " + count + " points at byte " + offset
                    + " of " + points.byteSize() + ", scalars from " + scalarIndex);
        }
        return compute(points, offset, scalars, scalarIndex * SCALAR_WORDS, count);
    }

    /**
     * sum_{i < count} k_{s+i} P_i, Jacobian, with the points P_i those {@code table} was built from
     * ({@code count} must be its count). Terms with a zero scalar are dropped and those whose scalar is 1
     * summed directly, as in the other MSMs; the rest go through the table's windows into one set of
     * buckets per thread. The window size is the table's; this MSM's is not used.
     */
    public long[] multiply(FixedBaseTable table, long[] scalars, int scalarIndex, int count) {
        if (table.curve() != curve) {
            throw new IllegalArgumentException("table of " + table.curve() + " for an MSM on " + curve);
        }
        if (count != table.count() || scalarIndex < 0
                || (long) (scalarIndex + (long) count) * SCALAR_WORDS > scalars.length) {
            throw new IllegalArgumentException("table of " + table.count() + " points, " + count
                    + " scalars from " + scalarIndex + " of " + scalars.length / SCALAR_WORDS);
        }
        return TableMsm.multiply(this, table, scalars, scalarIndex);
    }

    int parallelism() {
        return parallelism;
    }

    int batch() {
        return batchSize != 0 ? batchSize : DEFAULT_BATCH;
    }

    /** A batch-affine kernel with this MSM's batch size and 8-lane adders. */
    BatchAffineBuckets batchAffine(int c) {
        return new BatchAffineBuckets(curve, c, batch(), adders);
    }

    /** As {@link #multiply(MemorySegment, long, long[], int, int)}, the result affine. */
    public long[] multiplyAffine(MemorySegment points, long offset, long[] scalars, int scalarIndex, int count) {
        return toAffine(multiply(points, offset, scalars, scalarIndex, count));
    }

    /** sum_{i < count} k_{o+i} P_{o+i}, Jacobian: points and scalars from the same index o. */
    public long[] multiply(long[] points, long[] scalars, int offset, int count) {
        return multiply(points, offset, scalars, offset, count);
    }

    /** As {@link #multiply(long[], long[])}, the result affine (infinity = (0, 0)). */
    public long[] multiplyAffine(long[] points, long[] scalars) {
        return toAffine(multiply(points, scalars));
    }

    /** As {@link #multiply(long[], int, long[], int, int)}, the result affine. */
    public long[] multiplyAffine(long[] points, int pointIndex, long[] scalars, int scalarIndex, int count) {
        return toAffine(multiply(points, pointIndex, scalars, scalarIndex, count));
    }

    private long[] toAffine(long[] jac) {
        long[] r = new long[curve.affineWidth()];
        curve.arithmetic().toAffine(jac, 0, r, 0);
        return r;
    }

    /** Canonical scalar words of a vector of Montgomery-form elements of {@code fr}, in parallel. */
    public static long[] canonicalScalars(PrimeField fr, long[] montgomery) {
        return canonicalScalars(fr, montgomery, 0, montgomery.length / fr.limbs());
    }

    /** Canonical words of elements {@code from .. from + count} of a Montgomery-form vector. */
    public static long[] canonicalScalars(PrimeField fr, long[] montgomery, int from, int count) {
        int w = fr.limbs();
        if (from < 0 || count < 0 || ((long) from + count) * w > montgomery.length) {
            throw new IllegalArgumentException("range out of bounds: from " + from + ", count " + count);
        }
        long[] out = new long[Math.multiplyExact(count, w)];
        long[] one = new long[w];
        one[0] = 1; // Montgomery multiplication by the plain integer 1 divides by R
        Parallel.chunks(count, 1 << 14, (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                fr.mul(montgomery, (from + i) * w, one, 0, out, i * w);
            }
        });
        return out;
    }

    // ------------------------------------------------------------------ planning

    /** Batch size of the batch-affine accumulation (larger batches gain little, see the class notes). */
    static final int DEFAULT_BATCH = MsmPlanner.DEFAULT_BATCH;

    private MsmPlanner planner() {
        return new MsmPlanner(curve, windowBits, parallelism, accumulation, batchSize);
    }

    /** The window size used for n points: forced, or the cheapest by the cost model. */
    public int windowBitsFor(int n) {
        return plan(Math.max(1, n)).c();
    }

    MsmPlan plan(int n) {
        return plan(n, curve.order().bitLength());
    }

    /** The cheapest plan for n scalars below 2^bits. */
    MsmPlan plan(int n, int bits) {
        return planner().plan(n, bits);
    }

    // ------------------------------------------------------------------ the algorithm

    /**
     * The MSM read by its scalars. Terms that add nothing (a point at infinity or a zero scalar: a proving
     * key's A, B1 and B2 points are at infinity for every variable its matrix does not use, often most of
     * them) are dropped, and the others grouped by the width of their scalar ({@link WidthGroups}): the
     * terms whose scalar is 1 (most of a bit-heavy circuit's witness) are summed directly, and each other
     * group runs Pippenger's method with as many windows as its widest scalar needs. When there are several
     * groups, or at least an eighth of the terms are dropped, the kept terms are listed group after group
     * by their indices, and the kernels read each scalar and point where it is, through its index; otherwise
     * the MSM runs in place.
     */
    private long[] compute(MemorySegment points, long pointBase, long[] scalars, int scalarBase, int n) {
        int fullBits = curve.order().bitLength();
        WidthGroups g = WidthGroups.classify(points, pointBase, curve.affineWidth(), scalars, scalarBase, n,
                fullBits, byWidth, this::cost);
        if (g.inPlace()) {
            return pippenger(points, pointBase, null, scalars, scalarBase, n, g.bits(0));
        }
        int[] index = new int[g.terms()];
        g.pack(index);
        PointArithmetic pa = curve.arithmetic();
        long[] result = new long[curve.jacobianWidth()];
        pa.setInfinity(result, 0);
        for (int k = 0; k < g.groups(); k++) {
            int[] terms = java.util.Arrays.copyOfRange(index, g.from(k), g.from(k) + g.count(k));
            long[] part = g.bits(k) == 1
                    ? sum(points, pointBase, terms)
                    : pippenger(points, pointBase, terms, scalars, scalarBase, g.count(k), g.bits(k));
            pa.add(result, 0, part, 0, result, 0);
        }
        return result;
    }

    /** The cost model's time for n terms of scalars below 2^bits (the longest thread's share). */
    private double cost(int n, int bits) {
        return n == 0 ? 0 : plan(n, bits).cost();
    }

    /**
     * Terms summed by one task of {@link #sum} at least (below that, fewer tasks). A bit-heavy circuit of
     * 2^13 constraints has about 3 900 ones in each of A, B1, C and B2: with 4 096 they were summed on
     * one thread, and cutting them among two made those four MSMs quicker
     * (docs/decisions/0013-circom-matrix-intel-2-6.md, "What changed").
     */
    private static final int SUM_CHUNK = 1 << 10;

    /**
     * sum_i P_{index[i]}, Jacobian, P_j the affine point at byte {@code pointBase + j * 8 * affineWidth} of
     * {@code points}: cut among the threads, each summing its part.
     */
    long[] sum(MemorySegment points, long pointBase, int[] index) {
        int n = index.length;
        int lo = 0;
        int tasks = Math.max(1, Math.min(parallelism, n / SUM_CHUNK));
        int jw = curve.jacobianWidth();
        long[] partial = new long[tasks * jw];
        Parallel.run(parallelism, tasks, () -> {
            BatchAffineBuckets k = new BatchAffineBuckets(curve, SUM_WINDOW, DEFAULT_BATCH, adders);
            return t -> k.sum(points, pointBase, index, lo + (int) ((long) n * t / tasks),
                    lo + (int) ((long) n * (t + 1) / tasks), partial, t * jw);
        });
        PointArithmetic pa = curve.arithmetic();
        long[] result = new long[jw];
        pa.setInfinity(result, 0);
        for (int t = 0; t < tasks; t++) {
            pa.add(result, 0, partial, t * jw, result, 0);
        }
        return result;
    }

    /** The window size of the kernel that {@link #sum} uses: its batches are 2^(c-1) = 1024 entries long. */
    private static final int SUM_WINDOW = 11;

    /**
     * Pippenger's method over n terms whose scalars are below 2^bits (or any, with the order's bit length):
     * term i's scalar from word {@code scalarBase + 4 j} of {@code scalars} and its point the affine point at
     * byte {@code pointBase + j * 8 * affineWidth} of {@code points}, j = {@code index[i]} (i where {@code index}
     * is null).
     */
    private long[] pippenger(MemorySegment points, long pointBase, int[] index, long[] scalars, int scalarBase, int n,
            int bits) {
        final int jw = curve.jacobianWidth();
        final PointArithmetic pa = curve.arithmetic();
        long[] result = new long[jw];
        pa.setInfinity(result, 0);
        if (n == 0) {
            return result;
        }
        final MsmPlan plan = plan(n, bits);
        final int c = plan.c();
        final int nw = plan.windows();
        final int threads = parallelism;

        // window sums, one task per (window, chunk of terms), each recoding its window's digits of its terms first
        final long[] r = SignedDigits.words(curve.order());
        final int[][] tasks = plan.tasks(n);
        final long[] partial = new long[tasks.length * jw];
        final int nb = 1 << (c - 1);
        Parallel.run(threads, tasks.length, () -> {
            BucketKernel[] kernels = new BucketKernel[2];
            char[] digits = new char[n];
            return t -> {
                int w = tasks[t][0];
                SignedDigits.recodeWindow(scalars, scalarBase, index, tasks[t][1], tasks[t][2], r, c, w, digits);
                boolean top = w == nw - 1;
                boolean affine = top ? plan.topAffine() : plan.affine();
                BucketKernel k = kernels[affine ? 1 : 0];
                if (k == null) {
                    k = affine ? new BatchAffineBuckets(curve, c, plan.batch(), adders) : new JacobianBuckets(curve, c);
                    kernels[affine ? 1 : 0] = k;
                }
                k.windowSum(digits, tasks[t][1], tasks[t][2], points, pointBase, index, top ? plan.topUsed() : nb, partial,
                        t * jw);
            };
        });

        // result = sum_w 2^(c w) S_w, Horner from the top window
        for (int w = nw - 1; w >= 0; w--) {
            if (w != nw - 1) {
                for (int i = 0; i < c; i++) {
                    pa.dbl(result, 0, result, 0);
                }
            }
            for (int t = 0; t < tasks.length; t++) {
                if (tasks[t][0] == w) {
                    pa.add(result, 0, partial, t * jw, result, 0);
                }
            }
        }
        return result;
    }
}
