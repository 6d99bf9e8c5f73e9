package dev.proofline.algebra.ntt;

import dev.proofline.algebra.field.PrimeField;
import java.lang.ref.SoftReference;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;

/**
 * The number-theoretic transform over the domain H = {w^i : i < n} of size n = 2^logSize of a
 * prime field, w = {@link RootsOfUnity#primitive ffjavascript's w[logSize]}, on flat vectors of n
 * Montgomery elements (element i at {@code i * width}; in a longer array, the first n), in place,
 * natural order in and out:
 * <pre>
 *   forward:        a_i  <-  sum_j a_j w^(ij)                      (ffjavascript Fr.fft)
 *   inverse:        a_i  <-  n^-1 sum_j a_j w^(-ij)                (ffjavascript Fr.ifft)
 *   cosetForward:   a_i  <-  sum_j a_j g^j w^(ij)                  (evaluation on g*H)
 *   cosetInverse:   a_j  <-  g^-j n^-1 sum_i a_i w^(-ij)           (interpolation from g*H)
 * </pre>
 *
 * <p>How snarkjs's Groth16 prover ({@code src/groth16_prove.js}, {@code groth16Prove}) gets the
 * scalars for the zkey's H section: for each of A, B, C given by its values on H
 * ({@code buildABC1}), {@code Fr.ifft} (= {@link #inverse}), then
 * {@code Fr.batchApplyKey(buff, Fr.e(1), inc)}, which multiplies coefficient j by inc^j, then
 * {@code Fr.fft} (= {@link #forward}): together {@link #evaluationsOnCoset} with
 * g = inc = {@link RootsOfUnity#snarkjsCosetShift} ({@code Fr.w[power+1]}, or {@code Fr.shift} =
 * nqr^2 when power = s). Then {@code joinABC} ({@code qap_joinABC} in wasmcurves) forms
 * A*B - C pointwise on g*H and converts it out of Montgomery form for the MSM. Nothing divides by
 * Z: for power < s, g*H is the odd half of the domain of size 2n, the H section holds the
 * odd-indexed Lagrange basis of that domain ({@code src/zkey_new.js}, {@code writeHs}, from the
 * ptau's section 12), and A*B - C vanishes on the even half, so the MSM sums to
 * (A*B - C)(tau) = h(tau) Z(tau).
 *
 * <p>Algorithm: bit-reversal permutation, then radix-2 decimation-in-time butterflies
 * ({@link Butterflies}); {@link #evaluationsOnCoset} pairs decimation in frequency with decimation in
 * time and needs no permutation. The first stages run on cache-sized blocks, one block at a time per
 * worker, so data is read from memory once for all of them; the remaining stages are full passes
 * split across workers. The inverse is the forward transform followed by a_i <-> a_(n-i) and the
 * 1/n scaling, so one set of twiddles serves both: a contiguous table per stage, n - 1 elements in
 * all (2^20 points of a 4-limb field: 32 MiB).
 *
 * <p>Instances are immutable and thread-safe. The tables are cached per field and size, softly, so
 * the collector may drop large ones when memory runs short.
 */
public final class Ntt {

    /** Block of the first stages: 2^13 four-limb elements = 256 KiB, well inside a core's L2. */
    private static final int BLOCK_LOG = 13;
    /** The smallest block: below it, the first stages stay on one thread. */
    private static final int MIN_BLOCK_LOG = 9;
    /** Below this many butterflies or elements, work stays in the calling thread. */
    private static final int MIN_GRAIN = 1 << 11;

    /** What a domain needs besides its pool, shared by every {@link Ntt} of the same field and size. */
    private record Tables(long[] omega, long[] omegaInv, long[] nInv, long[][] tw, int[][][] vector) {

        Tables(long[] omega, long[] omegaInv, long[] nInv, long[][] tw) {
            this(omega, omegaInv, nInv, tw, new int[1][][]);
        }

        /** The kernel's extra tables ({@link Butterflies#vectorTables}), built on first use. */
        int[][] vectorTables(Butterflies b, ForkJoinPool pool) {
            synchronized (vector) {
                if (vector[0] == null) {
                    vector[0] = b.vectorTables(tw, pool);
                }
                return vector[0];
            }
        }
    }

    private record Key(PrimeField field, int logSize) {
    }

    /** Soft values: the collector may drop the tables of a size no longer in use when memory runs short. */
    private static final Map<Key, SoftReference<Tables>> CACHE = new ConcurrentHashMap<>();

    private final PrimeField f;
    private final int logN;
    private final int n;
    private final int w;
    private final ForkJoinPool pool;
    private final Butterflies butterflies;
    private final long[] omega;
    private final long[] omegaInv;
    private final long[] nInv;
    /** tw[s][j] = w_(2^(s+1))^j for j < 2^s: each stage's twiddles, contiguous; n - 1 elements in all. */
    private final long[][] tw;
    /** The cached tables, for the kernel's own ones ({@link #kernelTables}). */
    private final Tables tables;

    /** The domain of size 2^logSize of the field, on the common fork-join pool. */
    public static Ntt of(PrimeField field, int logSize) {
        return of(field, logSize, ForkJoinPool.commonPool());
    }

    /** The domain of size 2^logSize of the field, running its parallel work on {@code pool}. */
    public static Ntt of(PrimeField field, int logSize, ForkJoinPool pool) {
        return new Ntt(field, logSize, pool, Butterflies.of(field, logSize));
    }

    Ntt(PrimeField field, int logSize, ForkJoinPool pool, Butterflies butterflies) {
        if (logSize < 0 || logSize > field.twoAdicity()) {
            throw new IllegalArgumentException("log size " + logSize + " out of [0, " + field.twoAdicity()
                    + "] for the " + field.name());
        }
        if (((long) field.width() << logSize) > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("2^" + logSize + " elements of the " + field.name()
                    + " do not fit in a Java array");
        }
        this.f = field;
        this.logN = logSize;
        this.n = 1 << logSize;
        this.w = field.width();
        this.pool = Objects.requireNonNull(pool);
        this.butterflies = butterflies;
        Tables t = tables();
        this.omega = t.omega();
        this.omegaInv = t.omegaInv();
        this.nInv = t.nInv();
        this.tw = t.tw();
        this.tables = t;
    }

    /**
     * Gets the fastest butterflies for 4-limb fields ready now instead of after some seconds of
     * transforms: the 8-lane kernel ({@code jdk.incubator.vector}, 512-bit vectors) takes over from
     * the scalar one once the JIT has compiled it, which takes a warm-up of a second or two that
     * starts by itself only after a few seconds of transforms (so that one-off runs do not pay for
     * it). Benchmarks and long-running provers call this first. Waits at most a minute; returns
     * whether the 8-lane kernel is in use.
     */
    public static boolean warmUp(PrimeField field) {
        try {
            return Butterflies.of(field).warmUp(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The kernel's own tables, built on first use and only once it would read them; else null. */
    private int[][] kernelTables() {
        return butterflies.readsKernelTables() ? tables.vectorTables(butterflies, pool) : null;
    }

    /** The butterfly kernel in use (for tests and diagnostics). */
    String kernel() {
        return butterflies.name();
    }

    private Tables tables() {
        Key key = new Key(f, logN);
        SoftReference<Tables> ref = CACHE.get(key);
        Tables t = ref == null ? null : ref.get();
        if (t == null) {
            long[] om = RootsOfUnity.primitive(f, logN);
            long[] omInv = f.newElement();
            f.inv(om, 0, omInv, 0);
            long[] ni = f.fromLong(n);
            f.inv(ni, 0, ni, 0);
            t = new Tables(om, omInv, ni, twiddles(om));
            CACHE.put(key, new SoftReference<>(t));
        }
        return t;
    }

    public PrimeField field() {
        return f;
    }

    public int logSize() {
        return logN;
    }

    public int size() {
        return n;
    }

    /** w, the primitive n-th root of unity of this domain (a copy). */
    public long[] omega() {
        return omega.clone();
    }

    /** w^-1 (a copy). */
    public long[] omegaInverse() {
        return omegaInv.clone();
    }

    /** a_i <- sum_j a_j w^(ij). */
    public void forward(long[] a) {
        checkLength(a);
        bitReverse(a, w, logN, pool);
        dit(a, null);
    }

    /** a_i <- n^-1 sum_j a_j w^(-ij). */
    public void inverse(long[] a) {
        checkLength(a);
        bitReverse(a, w, logN, pool);
        dit(a, null);
        reverseTailAndScale(a, nInv);
    }

    /** a_i <- sum_j a_j g^j w^(ij): the polynomial with coefficients a evaluated at g w^i. */
    public void cosetForward(long[] a, long[] g, int gi) {
        checkLength(a);
        long[] g1 = f.newElement();
        f.copy(g, gi, g1, 0);
        scaleByPowers(a, f.one(), g1);
        forward(a);
    }

    /** Inverse of {@link #cosetForward}: values at g w^i to coefficients, a_j <- g^-j (inverse(a))_j. */
    public void cosetInverse(long[] a, long[] g, int gi) {
        checkLength(a);
        long[] gInv = f.newElement();
        f.inv(g, gi, gInv, 0);
        if (f.isZero(gInv, 0)) {
            throw new IllegalArgumentException("coset shift is zero");
        }
        bitReverse(a, w, logN, pool);
        dit(a, null);
        reverseTailAndScale(a, null);
        scaleByPowers(a, nInv, gInv);    // a_j *= n^-1 g^-j
    }

    /**
     * The values of a polynomial of degree < n on H, replaced by its values on g*H:
     * a_i = p(w^i)  ->  a_i = p(g w^i). The result equals {@code inverse(a)} then
     * {@code cosetForward(a, g)} (snarkjs's ifft, batchApplyKey, fft for each of A, B, C), but
     * without any permutation: the inverse runs as decimation in frequency (natural order in,
     * coefficients out in bit-reversed order), the coefficients are scaled by n^-1 g^j where they
     * lie, and the forward decimation in time takes them in bit-reversed order.
     */
    public void evaluationsOnCoset(long[] a, long[] g, int gi) {
        checkLength(a);
        long[] g1 = f.newElement();
        f.copy(g, gi, g1, 0);
        dif(a);
        dit(a, cosetFactors(nInv, g1));
    }

    /**
     * a_i = a_i b_i - c_i for the n elements, written as canonical words (out of Montgomery form): what
     * the Groth16 quotient takes from the three vectors of {@link #evaluationsOnCoset}.
     */
    public void mulSubToCanonical(long[] a, long[] b, long[] c) {
        checkLength(a);
        checkLength(b);
        checkLength(c);
        Parallel.forRange(pool, 0, n, MIN_GRAIN, (from, to) -> butterflies.mulSubToCanonical(f, a, b, c, from, to));
    }

    // ---------------------------------------------------------------- bit reversal

    /**
     * The bit-reversal permutation of a vector of 2^logN elements of {@code width} longs: swaps
     * elements i and rev(i), rev reversing the low logN bits. An involution. Large vectors are
     * permuted on the common fork-join pool.
     */
    public static void bitReverse(long[] a, int width, int logN) {
        bitReverse(a, width, logN, ForkJoinPool.commonPool());
    }

    private static void bitReverse(long[] a, int width, int logN, ForkJoinPool pool) {
        if (logN < 0 || logN > 30 || a.length < (long) width << logN) {
            throw new IllegalArgumentException("vector too short for 2^" + logN + " elements of width " + width);
        }
        if (logN < 2) {
            return;
        }
        int n = 1 << logN;
        int drop = 32 - logN;
        Parallel.forRange(pool, 0, n, 1 << 14, (from, to) -> {
            for (int i = from; i < to; i++) {
                int r = Integer.reverse(i) >>> drop;
                if (i < r) {
                    int x = i * width;
                    int y = r * width;
                    for (int k = 0; k < width; k++) {
                        long t = a[x + k];
                        a[x + k] = a[y + k];
                        a[y + k] = t;
                    }
                }
            }
        });
    }

    // ---------------------------------------------------------------- internals

    /** The transforms act on the first n elements; a longer array (a reused buffer) keeps its tail. */
    private void checkLength(long[] a) {
        if (a.length < n * w) {
            throw new IllegalArgumentException("expected " + n + " elements (" + n * w + " longs), got "
                    + a.length + " longs");
        }
    }

    /**
     * The log size of the blocks of the first stages: {@link #BLOCK_LOG}, or smaller so that every thread
     * has a block (a transform of 2^13 elements in one block ran on one core:
     * docs/decisions/0013-circom-matrix-intel-2-6.md),
     * but not below {@link #MIN_BLOCK_LOG}.
     */
    private int blockLog() {
        int threads = pool.getParallelism() + 1;
        int spread = 32 - Integer.numberOfLeadingZeros(threads - 1);    // ceil(log2(threads))
        return Math.min(logN, Math.min(BLOCK_LOG, Math.max(MIN_BLOCK_LOG, logN - spread)));
    }

    /**
     * All logN stages of decimation in time on bit-reversed input; with {@code factors}, each block of
     * the first stages is scaled by them first, while it is in cache.
     */
    private void dit(long[] a, Butterflies.CosetFactors factors) {
        if (logN == 0) {
            if (factors != null) {
                butterflies.scale(a, 0, 1, factors);
            }
            return;
        }
        butterflies.transformed((long) (n >>> 1) * logN);
        int[][] vt = kernelTables();
        int blockLog = blockLog();
        int blocks = n >>> blockLog;
        Parallel.forRange(pool, 0, blocks, Math.max(1, MIN_GRAIN >>> blockLog), (from, to) -> {
            for (int b = from; b < to; b++) {
                if (factors != null) {
                    butterflies.scale(a, b << blockLog, 1 << blockLog, factors);
                }
                butterflies.stages(a, b << blockLog, 1 << blockLog, 0, blockLog, tw, vt);
            }
        });
        for (int s = blockLog; s < logN; s++) {
            stagePass(a, s, false, vt);
        }
    }

    /** All logN inverse stages, decimation in frequency: natural order in, bit-reversed out, unscaled. */
    private void dif(long[] a) {
        if (logN == 0) {
            return;
        }
        butterflies.transformed((long) (n >>> 1) * logN);
        int[][] vt = kernelTables();
        int blockLog = blockLog();
        for (int s = logN - 1; s >= blockLog; s--) {
            stagePass(a, s, true, vt);
        }
        int blocks = n >>> blockLog;
        Parallel.forRange(pool, 0, blocks, Math.max(1, MIN_GRAIN >>> blockLog), (from, to) -> {
            for (int b = from; b < to; b++) {
                butterflies.stagesDif(a, b << blockLog, 1 << blockLog, 0, blockLog, tw, vt);
            }
        });
    }

    /**
     * One stage over the whole vector, butterflies 0 .. n/2-1 split across workers: decimation in
     * time, or in frequency when {@code dif}.
     */
    private void stagePass(long[] a, int s, boolean dif, int[][] vt) {
        int half = 1 << s;
        long[] ts = tw[s];
        int[] vs = vt == null ? null : vt[s];
        Parallel.forRange(pool, 0, n >>> 1, MIN_GRAIN, (from, to) -> {
            long[] scratch = butterflies.newScratch();
            int p = from;
            while (p < to) {
                int j = p & (half - 1);
                int base = (p >>> s) << (s + 1);
                int end = Math.min(half, j + (to - p));
                if (dif) {
                    butterflies.rowDif(a, base, half, j, end, ts, vs, scratch);
                } else {
                    butterflies.row(a, base, half, j, end, ts, vs, scratch);
                }
                p += end - j;
            }
        });
    }

    /** a_i <-> a_(n-i) for 0 < i < n/2 (so the forward transform becomes the inverse), times c. */
    private void reverseTailAndScale(long[] a, long[] c) {
        int halfN = n >>> 1;
        Parallel.forRange(pool, 0, halfN + 1, MIN_GRAIN, (from, to) -> {
            long[] t = f.newElement();
            for (int i = from; i < to; i++) {
                int j = (n - i) & (n - 1);
                int x = i * w;
                int y = j * w;
                if (c == null) {
                    if (i < j) {
                        f.copy(a, x, t, 0);
                        f.copy(a, y, a, x);
                        f.copy(t, 0, a, y);
                    }
                } else if (i < j) {
                    f.mul(a, x, c, 0, t, 0);
                    f.mul(a, y, c, 0, a, x);
                    f.copy(t, 0, a, y);
                } else if (i == j) {
                    f.mul(a, x, c, 0, a, x);
                }
            }
        });
    }

    /**
     * The factors of a_p *= c * r^rev(p), rev reversing logN bits: the scaling of {@link #scaleByPowers}
     * applied to a bit-reversed vector. With p = hi * 2^b + lo, rev(p) = rev_b(lo) 2^(logN-b) +
     * rev_(logN-b)(hi), so c r^rev(p) = low[lo] * high[hi] from two tables of about sqrt(n) entries each.
     */
    private Butterflies.CosetFactors cosetFactors(long[] c, long[] r) {
        int b = logN >>> 1;
        int hb = logN - b;
        long[] rToTwoHb = r.clone();
        for (int i = 0; i < hb; i++) {
            f.sqr(rToTwoHb, 0, rToTwoHb, 0);
        }
        long[] low = bitReversedPowers(f.one(), rToTwoHb, b);   // (r^(2^hb))^rev_b(lo)
        long[] high = bitReversedPowers(c, r, hb);              // c * r^rev_hb(hi)
        return butterflies.cosetFactors(f, low, high, b);
    }

    /** table_i = c * r^rev_bits(i) for i < 2^bits. */
    private long[] bitReversedPowers(long[] c, long[] r, int bits) {
        int m = 1 << bits;
        long[] natural = f.newVector(m);
        long[] p = c.clone();
        for (int i = 0; i < m; i++) {
            f.copy(p, 0, natural, i * w);
            f.mul(p, 0, r, 0, p, 0);
        }
        bitReverse(natural, w, bits, pool);
        return natural;
    }

    /** a_j *= c * r^j. */
    private void scaleByPowers(long[] a, long[] c, long[] r) {
        Parallel.forRange(pool, 0, n, MIN_GRAIN, (from, to) -> {
            long[] p = f.newElement();
            f.pow(r, 0, new long[] {from}, p, 0);
            f.mul(p, 0, c, 0, p, 0);
            for (int i = from; i < to; i++) {
                f.mul(a, i * w, p, 0, a, i * w);
                f.mul(p, 0, r, 0, p, 0);
            }
        });
    }

    /** The last stage's table holds w^j, j < n/2; stage s takes every 2^(logN-1-s)-th of them. */
    private long[][] twiddles(long[] omega) {
        long[][] t = new long[logN][];
        if (logN == 0) {
            return t;
        }
        long[] last = f.newVector(n >>> 1);
        fillPowers(last, n >>> 1, f.one(), omega);
        t[logN - 1] = last;
        for (int s = 0; s < logN - 1; s++) {
            int shift = logN - 1 - s;
            long[] ts = f.newVector(1 << s);
            for (int j = 0; j < 1 << s; j++) {
                System.arraycopy(last, (j << shift) * w, ts, j * w, w);
            }
            t[s] = ts;
        }
        return t;
    }

    /** out_j = c * r^j for j < count. */
    private void fillPowers(long[] out, int count, long[] c, long[] r) {
        Parallel.forRange(pool, 0, count, MIN_GRAIN, (from, to) -> {
            long[] p = f.newElement();
            f.pow(r, 0, new long[] {from}, p, 0);
            f.mul(p, 0, c, 0, p, 0);
            for (int i = from; i < to; i++) {
                f.copy(p, 0, out, i * w);
                f.mul(p, 0, r, 0, p, 0);
            }
        });
    }
}
