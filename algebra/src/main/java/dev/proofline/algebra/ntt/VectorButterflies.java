package dev.proofline.algebra.ntt;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;

import dev.proofline.algebra.field.LimbProducts;
import dev.proofline.algebra.field.PrimeField;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Butterflies of the 4-limb scalar fields (q < 2^255) eight at a time, one per 64-bit lane of a
 * 512-bit vector of the incubating Vector API ({@code jdk.incubator.vector}). The only class of the
 * transform that touches that module: {@link Butterflies#of} loads it by name, and only when the
 * module is in the boot layer and the preferred vectors are 512 bits wide.
 *
 * <p>Elements stay in memory as they are everywhere else (4 words of 64 bits, Montgomery form with
 * R = 2^256, canonical). While a block of 8 butterflies is worked on, each element is split into 9
 * limbs of 29 bits, so that the 81 products of a multiplication (below 2^58 each) and the reduction
 * terms add up in a column without carrying out of 64 bits. The multiplication is a Montgomery
 * multiplication with R' = 2^261: for data x~ = x 2^256 and a twiddle stored as w 2^261 mod q,
 * x~ (w 2^261) / 2^261 = (x w) 2^256, the product in the data's own form. Its result (below 2q) is
 * reduced to [0, q) and the additions and subtractions are reduced too, so every output is canonical
 * and equal, word for word, to the scalar kernel's ({@link Montgomery4Butterflies}).
 *
 * <p>Stages 0 to 2 of the cache-sized blocks run on 16 elements at a time, still in limb form, with
 * lane selections pairing the butterflies ({@link #first3}, {@link #last3}). The ends of a range that
 * do not fill 8 lanes go to the scalar kernel.
 *
 * <p>The vector code is unrolled (written by {@code algebra/src/codegen/vector_butterflies.py}) into
 * methods of moderate size that hand limbs over through a scratch array: C2 time and memory grow
 * faster than linearly with a method's size (two whole butterflies in one method each cost C2 many
 * times the time and memory, and C1 gave up on them: docs/decisions/0002-ntt-8-lane-butterflies.md);
 * these compile in a fraction of that.
 * Until C2 has compiled them they are far slower than the scalar kernel, so the scalar kernel works
 * until then (see {@link #compiled}).
 */
final class VectorButterflies extends Butterflies {

    private static final VectorSpecies<Long> S = LongVector.SPECIES_512;
    private static final VectorSpecies<Integer> SI = IntVector.SPECIES_256;
    private static final long M = (1L << 29) - 1;
    /** The reduction's operand mask ({@link LimbProducts}). */
    private static final long LO = LimbProducts.MASK;

    /** Two-vector selections for the 4 x 8 transposition between element order and word order. */
    private static final LongVector PAIRS_LO = LongVector.fromArray(S, new long[] {0, 4, 8, 12, 1, 5, 9, 13}, 0);
    private static final LongVector PAIRS_HI = LongVector.fromArray(S, new long[] {2, 6, 10, 14, 3, 7, 11, 15}, 0);
    private static final LongVector HALVES_LO = LongVector.fromArray(S, new long[] {0, 1, 2, 3, 8, 9, 10, 11}, 0);
    private static final LongVector HALVES_HI = LongVector.fromArray(S, new long[] {4, 5, 6, 7, 12, 13, 14, 15}, 0);
    private static final IntVector REVERSE = IntVector.fromArray(SI, new int[] {7, 6, 5, 4, 3, 2, 1, 0}, 0);

    private final PrimeField f;
    private final Montgomery4Butterflies scalar;
    private final long q0;
    private final long q1;
    private final long q2;
    private final long q3;
    private final long q4;
    private final long q5;
    private final long q6;
    private final long q7;
    private final long q8;
    /** -q^-1 mod 2^29. */
    private final long qInv;

    /**
     * Set once the vector methods run as C2 code. Until then the scalar kernel does all the work:
     * interpreted or compiled by C1, every vector operation is a call and an allocation, and 8
     * butterflies take from tens of microseconds (C1) to a millisecond (interpreter), against a
     * fraction of a microsecond with C2, which takes the methods after thousands of calls.
     */
    private static volatile boolean compiled;
    private static final AtomicBoolean WARMING = new AtomicBoolean();
    private static final CountDownLatch WARMED = new CountDownLatch(1);
    /** Butterflies done by the scalar kernel so far, in transforms this kernel was asked for. */
    private static final AtomicLong SCALAR_WORK = new AtomicLong();
    /**
     * Scalar butterflies after which the warm-up starts by itself (seconds of one core). Enough to
     * leave one-off runs alone (the six transforms of a 2^17 proof are 7 M), so that they do not
     * pay for a warm-up they would not get back; a long-running prover passes it soon.
     */
    private static final long WARM_UP_AFTER = 1L << 25;
    private static final long WARM_UP_LIMIT_NANOS = 60_000_000_000L;

    private final boolean eager;
    /** {@link #canonicalFactors}. */
    private int[] canonical;

    /** The kernel, falling back to the scalar one until its vector methods are compiled. */
    VectorButterflies(PrimeField f) {
        this(f, false);
    }

    /** With {@code eager}, the vector methods run from the first call, compiled or not (for tests). */
    VectorButterflies(PrimeField f, boolean eager) {
        if (!applies(f)) {
            throw new IllegalArgumentException("no 8-lane butterflies for " + f);
        }
        this.f = f;
        this.scalar = new Montgomery4Butterflies(f);
        long[] q = limbs(f.modulusWords(), 0);
        this.q0 = q[0];
        this.q1 = q[1];
        this.q2 = q[2];
        this.q3 = q[3];
        this.q4 = q[4];
        this.q5 = q[5];
        this.q6 = q[6];
        this.q7 = q[7];
        this.q8 = q[8];
        this.qInv = f.negInvWord() & M; // -q^-1 mod 2^64, reduced mod 2^29
        this.eager = eager;
    }

    @Override
    boolean readsKernelTables() {
        return eager || compiled;
    }

    @Override
    void transformed(long butterflies) {
        if (!compiled && !eager && SCALAR_WORK.addAndGet(butterflies) >= WARM_UP_AFTER) {
            startWarmUp();
        }
    }

    @Override
    boolean warmUp(long timeoutMillis) throws InterruptedException {
        startWarmUp();
        WARMED.await(timeoutMillis, TimeUnit.MILLISECONDS);
        return compiled;
    }

    private void startWarmUp() {
        if (!compiled && WARMING.compareAndSet(false, true)) {
            Thread t = new Thread(this::runWarmUp, "proofline-vector-warm-up");
            t.setDaemon(true);
            t.start();
        }
    }

    /**
     * Runs the 8-lane butterflies on scratch data, on a thread of its own, each time next to the
     * scalar kernel on the same number of butterflies, until the vector code is the faster three
     * times in a row (it is then compiled by C2: interpreted or compiled by C1 it is far slower,
     * docs/decisions/0002-ntt-8-lane-butterflies.md), for at most a minute.
     */
    private void runWarmUp() {
        try {
            long[] a = new long[64];
            long[] x = new long[SCRATCH];
            int[] tw = new int[144];
            long[][] scalarTw = {new long[4], new long[8], new long[16], new long[32]};
            long[] scalarScratch = scalar.newScratch();
            long start = System.nanoTime();
            int faster = 0;
            while (faster < 3 && System.nanoTime() - start < WARM_UP_LIMIT_NANOS) {
                long t0 = System.nanoTime();
                dit8(a, 0, 32, tw, 0, 9, x);
                dif8(a, 0, 32, tw, 0, 9, x);
                first3(a, 0, tw, tw, x);
                last3(a, 0, tw, x);
                long t1 = System.nanoTime();
                scalar.row(a, 0, 8, 0, 8, scalarTw[3], null, scalarScratch);
                scalar.rowDif(a, 0, 8, 0, 8, scalarTw[3], null, scalarScratch);
                scalar.stages(a, 0, 16, 0, 3, scalarTw, null);
                scalar.stagesDif(a, 0, 16, 0, 3, scalarTw, null);
                long t2 = System.nanoTime();
                faster = t1 - t0 < t2 - t1 ? faster + 1 : 0;
            }
            compiled = faster >= 3;
        } finally {
            WARMED.countDown();
        }
    }

    /** A 4-limb field with q < 2^255 (below 2^261, with room for the sums), on 512-bit vectors. */
    static boolean applies(PrimeField f) {
        return Montgomery4Butterflies.applies(f) && LongVector.SPECIES_PREFERRED.vectorBitSize() >= 512;
    }

    /** The 9 limbs of 29 bits of the 256-bit value at w[off .. off + 4). */
    static long[] limbs(long[] w, int off) {
        long[] l = new long[9];
        for (int k = 0; k < 9; k++) {
            int bit = 29 * k;
            int word = bit >>> 6;
            int sh = bit & 63;
            long v = w[off + word] >>> sh;
            if (sh > 64 - 29 && word + 1 < 4) {
                v |= w[off + word + 1] << (64 - sh);
            }
            l[k] = v & M;
        }
        return l;
    }

    /** The 4 words of the value with 29-bit limbs l (below 2^256). */
    static long[] words(long[] l) {
        long[] w = new long[4];
        for (int k = 0; k < 9; k++) {
            int bit = 29 * k;
            int word = bit >>> 6;
            int sh = bit & 63;
            w[word] |= l[k] << sh;
            if (sh > 64 - 29 && word + 1 < 4) {
                w[word + 1] |= l[k] >>> (64 - sh);
            }
        }
        return w;
    }

    /** 9 limbs of 8 lanes for each operand, 17 columns for the product: offsets in the scratch. */
    private static final int A = 0;
    private static final int B = 72;
    private static final int W = 144;
    private static final int C = 216;
    private static final int R = 352;
    private static final int SUM = 424;
    private static final int DIFF = 496;
    private static final int SCRATCH = 568;

    @Override
    long[] newScratch() {
        return new long[SCRATCH];
    }

    @Override
    int width() {
        return 4;
    }

    /**
     * Stage tables for stages with at least 8 butterflies per group: for the stage of half-size h,
     * limb k of w_{2h}^j 2^261 mod q at k (h + 1) + j, for j = 0 .. h (j = h: -1).
     */
    @Override
    int[][] vectorTables(long[][] tw, ForkJoinPool pool) {
        int[][] vt = new int[tw.length][];
        long[] minusOne = f.newElement();
        f.sub(f.newElement(), 0, f.one(), 0, minusOne, 0);
        if (tw.length >= 3) {
            // stages 1 and 2 of first3 (vt[1], vt[2]) and of last3 (vt[0], stage 1 then stage 2):
            // limb k of lane l's twiddle at 8 k + l
            vt[0] = new int[144];
            for (int s = 1; s < 3; s++) {
                vt[s] = new int[72];
                for (int l = 0; l < 8; l++) {
                    int j = (int) (LAYOUTS[s][l] & ((1 << s) - 1));
                    putLimbs(tw[s], j, vt[s], l);
                    // decimation in frequency: w^(h - j), w^h = -1
                    long[] dif = j == 0 ? minusOne : tw[s];
                    putLimbs(dif, j == 0 ? 0 : (1 << s) - j, vt[0], 72 * (s - 1) + l);
                }
            }
        }
        for (int s = 3; s < tw.length; s++) {
            int half = 1 << s;
            int stride = half + 1;
            int[] t = new int[9 * stride];
            long[] ts = tw[s];
            Parallel.forRange(pool, 0, half + 1, 1 << 12, (from, to) -> {
                long[] x = f.newElement();
                for (int j = from; j < to; j++) {
                    f.copy(j == half ? minusOne : ts, j == half ? 0 : j * 4, x, 0);
                    for (int i = 0; i < 5; i++) {
                        f.add(x, 0, x, 0, x, 0);
                    }
                    long[] l = limbs(x, 0);
                    for (int k = 0; k < 9; k++) {
                        t[k * stride + j] = (int) l[k];
                    }
                }
            });
            vt[s] = t;
        }
        return vt;
    }

    /**
     * For the first three stages on 16 consecutive elements (two lane vectors, elements 0-7 and
     * 8-15): LAYOUTS[s] lists the elements in the order stage s wants them, the 8 u's of its
     * butterflies (in order), then their v's (u + 2^s); LAYOUTS[3] is the natural order.
     */
    private static final long[][] LAYOUTS = new long[4][16];
    /** Lane selections from one layout to the next: natural to stage 0, 0 to 1, 1 to 2, 2 to natural. */
    private static final long[][] MOVES = new long[4][16];
    /** The same for decimation in frequency: natural to stage 2, 2 to 1, 1 to 0, 0 to natural. */
    private static final long[][] DIF_MOVES = new long[4][16];

    static {
        for (int s = 0; s < 3; s++) {
            int p = 0;
            for (int e = 0; e < 16; e++) {
                if ((e >>> s & 1) == 0) {
                    LAYOUTS[s][p] = e;
                    LAYOUTS[s][p + 8] = e + (1 << s);
                    p++;
                }
            }
        }
        for (int e = 0; e < 16; e++) {
            LAYOUTS[3][e] = e;
        }
        int[] order = {3, 0, 1, 2, 3};
        int[] difOrder = {3, 2, 1, 0, 3};
        for (int m = 0; m < 4; m++) {
            move(LAYOUTS[order[m]], LAYOUTS[order[m + 1]], MOVES[m]);
            move(LAYOUTS[difOrder[m]], LAYOUTS[difOrder[m + 1]], DIF_MOVES[m]);
        }
    }

    /** sel[p] = the position in {@code from} of the element at position p of {@code to}. */
    private static void move(long[] from, long[] to, long[] sel) {
        for (int p = 0; p < 16; p++) {
            for (int i = 0; i < 16; i++) {
                if (from[i] == to[p]) {
                    sel[p] = i;
                }
            }
        }
    }

    @Override
    void stages(long[] a, int start, int len, int s0, int s1, long[][] tw, int[][] vt) {
        if (s0 == 0 && s1 >= 3 && len >= 16 && vt != null && (eager || compiled)) {
            long[] x = newScratch();
            for (int e = start; e < start + len; e += 16) {
                first3(a, e << 2, vt[1], vt[2], x);
            }
            s0 = 3;
        }
        super.stages(a, start, len, s0, s1, tw, vt);
    }

    /**
     * Stages 0, 1 and 2 of decimation in time on the 16 elements at long offset off, in limb form
     * from the first load to the last store: the butterflies of each stage pair lanes of the two
     * vectors after a selection ({@link #permute}); stage 0's twiddles are 1.
     */
    private void first3(long[] a, int off, int[] tw1, int[] tw2, long[] x) {
        load(a, off, x, A);
        load(a, off + 32, x, B);
        permute(x, A, B, A, B, MOVES[0]);
        addSub(x, A, B, SUM, DIFF);
        permute(x, SUM, DIFF, A, B, MOVES[1]);
        productTw(x, B, tw1, 0, 8, C);
        reduce(x, C, R);
        addSub(x, A, R, SUM, DIFF);
        permute(x, SUM, DIFF, A, B, MOVES[2]);
        productTw(x, B, tw2, 0, 8, C);
        reduce(x, C, R);
        addSub(x, A, R, SUM, DIFF);
        permute(x, SUM, DIFF, A, B, MOVES[3]);
        store(x, A, a, off);
        store(x, B, a, off + 32);
    }

    /** Limb k of element i of tw, times 2^261 mod q, to t[off + 8 k]. */
    private void putLimbs(long[] tw, int i, int[] t, int off) {
        putLimbs(tw, i, t, off, 8);
    }

    /** Limb k of element i of tw, times 2^261 mod q (a second operand of {@link #productTw}), to t[off + stride k]. */
    private void putLimbs(long[] tw, int i, int[] t, int off, int stride) {
        long[] x = f.newElement();
        f.copy(tw, i * 4, x, 0);
        for (int r = 0; r < 5; r++) {
            f.add(x, 0, x, 0, x, 0);
        }
        long[] limbs = limbs(x, 0);
        for (int k = 0; k < 9; k++) {
            t[off + stride * k] = (int) limbs[k];
        }
    }

    /**
     * The low factors as a stage table (limb k of low[j] at k 2^lowBits + j), the high ones each
     * repeated in the 8 lanes (limb k of high[h] at 72 h + 8 k + lane), both read by {@link #productTw}.
     */
    @Override
    CosetFactors cosetFactors(PrimeField field, long[] low, long[] high, int lowBits) {
        if (lowBits < 3 || !(eager || compiled)) {
            return super.cosetFactors(field, low, high, lowBits);
        }
        int m = 1 << lowBits;
        int[] lowLimbs = new int[9 * m];
        for (int j = 0; j < m; j++) {
            putLimbs(low, j, lowLimbs, j, m);
        }
        int hm = high.length / 4;
        int[] highLimbs = new int[72 * hm];
        for (int h = 0; h < hm; h++) {
            for (int l = 0; l < 8; l++) {
                putLimbs(high, h, highLimbs, 72 * h + l);
            }
        }
        return new CosetFactors(field, low, high, lowBits, lowLimbs, highLimbs);
    }

    /**
     * Eight elements at a time, with R' = 2^261 the kernel's Montgomery factor and x~ = x 2^256 the data's
     * form: u = a~ b~ / R' = a b 2^251, then u 2^10 / R' - c~ 2^5 / R' = a b - c, canonical.
     */
    @Override
    void mulSubToCanonical(PrimeField field, long[] a, long[] b, long[] c, int from, int to) {
        int i = from;
        if (eager || compiled) {
            int[] k = canonicalFactors();
            long[] x = newScratch();
            for (; i + 8 <= to; i += 8) {
                load(a, i << 2, x, A);
                load(b, i << 2, x, B);
                product(x, A, B, C);
                reduce(x, C, R);                    // a b 2^251
                productTw(x, R, k, 0, 8, C);
                reduce(x, C, SUM);                  // a b
                load(c, i << 2, x, A);
                productTw(x, A, k, 72, 8, C);
                reduce(x, C, R);                    // c
                addSub(x, SUM, R, A, DIFF);
                store(x, DIFF, a, i << 2);
            }
        }
        if (i < to) {
            super.mulSubToCanonical(field, a, b, c, i, to);
        }
    }

    /** 2^10 and 2^5 as second operands of {@link #productTw}, each in the 8 lanes: built on first use. */
    private int[] canonicalFactors() {
        int[] k = canonical;
        if (k == null) {
            k = new int[144];
            for (int j = 0; j < 2; j++) {
                long[] l = limbs(new long[] {j == 0 ? 1L << 10 : 1L << 5, 0, 0, 0}, 0);
                for (int r = 0; r < 9; r++) {
                    for (int lane = 0; lane < 8; lane++) {
                        k[72 * j + 8 * r + lane] = (int) l[r];
                    }
                }
            }
            canonical = k;
        }
        return k;
    }

    /** Eight elements at a time: times their low factors, then times their high one (the same for all 8). */
    @Override
    void scale(long[] a, int start, int len, CosetFactors s) {
        int end = start + len;
        int p = start;
        if (s.lowLimbs() != null && (eager || compiled)) {
            int from = (start + 7) & ~7;
            if (from > start) {
                super.scale(a, start, Math.min(from, end) - start, s);
            }
            long[] x = newScratch();
            int b = s.lowBits();
            int m = 1 << b;
            for (p = from; p + 8 <= end; p += 8) {
                load(a, p << 2, x, A);
                productTw(x, A, s.lowLimbs(), p & (m - 1), m, C);
                reduce(x, C, R);
                productTw(x, R, s.highLimbs(), (p >>> b) * 72, 8, C);
                reduce(x, C, R);
                store(x, R, a, p << 2);
            }
            p = Math.max(p, start);
        }
        if (p < end) {
            super.scale(a, p, end - p, s);
        }
    }

    @Override
    void stagesDif(long[] a, int start, int len, int s0, int s1, long[][] tw, int[][] vt) {
        if (s0 == 0 && s1 >= 3 && len >= 16 && vt != null && (eager || compiled)) {
            super.stagesDif(a, start, len, 3, s1, tw, vt);
            long[] x = newScratch();
            for (int e = start; e < start + len; e += 16) {
                last3(a, e << 2, vt[0], x);
            }
            return;
        }
        super.stagesDif(a, start, len, s0, s1, tw, vt);
    }

    /**
     * Stages 2, 1 and 0 of decimation in frequency on the 16 elements at long offset off, the
     * mirror of {@link #first3}: u <- u + v, v <- (v - u) w^(h - j), with w^h = -1 for j = 0 (stage
     * 0: v <- u - v). tw: the twiddles of stage 1 (72 ints), then of stage 2.
     */
    private void last3(long[] a, int off, int[] tw, long[] x) {
        load(a, off, x, A);
        load(a, off + 32, x, B);
        permute(x, A, B, A, B, DIF_MOVES[0]);
        addSub(x, B, A, SUM, DIFF);
        productTw(x, DIFF, tw, 72, 8, C);
        reduce(x, C, R);
        permute(x, SUM, R, A, B, DIF_MOVES[1]);
        addSub(x, B, A, SUM, DIFF);
        productTw(x, DIFF, tw, 0, 8, C);
        reduce(x, C, R);
        permute(x, SUM, R, A, B, DIF_MOVES[2]);
        addSub(x, A, B, SUM, DIFF);
        permute(x, SUM, DIFF, A, B, DIF_MOVES[3]);
        store(x, A, a, off);
        store(x, B, a, off + 32);
    }

    @Override
    void row(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] scratch) {
        int j = j0;
        if (half >= 8 && vt != null && (eager || compiled)) {
            int stride = half + 1;
            for (; j + 8 <= j1; j += 8) {
                dit8(a, (base + j) << 2, (base + j + half) << 2, vt, j, stride, scratch);
            }
        }
        if (j < j1) {
            scalar.row(a, base, half, j, j1, tw, null, scratch);
        }
    }

    @Override
    void rowDif(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] scratch) {
        int j = j0;
        if (half >= 8 && vt != null && (eager || compiled)) {
            int stride = half + 1;
            for (; j + 8 <= j1; j += 8) {
                dif8(a, (base + j) << 2, (base + j + half) << 2, vt, half - j - 7, stride, scratch);
            }
        }
        if (j < j1) {
            scalar.rowDif(a, base, half, j, j1, tw, null, scratch);
        }
    }

    /**
     * Eight decimation-in-time butterflies on the 8 elements at long offsets u and v:
     * t = v w^j, u <- u + t, v <- u - t; twiddle limb k of lane l at tw[t + k * stride + l].
     */
    private void dit8(long[] a, int u, int v, int[] tw, int t, int stride, long[] x) {
        load(a, v, x, A);
        productTw(x, A, tw, t, stride, C);
        reduce(x, C, R);
        load(a, u, x, B);
        addSub(x, B, R, SUM, DIFF);
        store(x, SUM, a, u);
        store(x, DIFF, a, v);
    }

    /**
     * Eight decimation-in-frequency butterflies: u <- u + v, v <- (v - u) w^(h - j), twiddle limb k
     * of lane l at tw[t + k * stride + 7 - l].
     */
    private void dif8(long[] a, int u, int v, int[] tw, int t, int stride, long[] x) {
        load(a, u, x, A);
        load(a, v, x, B);
        addSub(x, B, A, SUM, DIFF);
        store(x, SUM, a, u);
        twiddlesReversed(tw, t, stride, x, W);
        product(x, DIFF, W, C);
        reduce(x, C, R);
        store(x, R, a, v);
    }

    /**
     * The 8 elements at a[off .. off + 32) to 29-bit limbs (limb k of element l to limbs[8 k + l])
     * and back to a (for tests of the conversion).
     */
    static void roundTrip(long[] a, int off, long[] limbs) {
        load(a, off, limbs, 0);
        store(limbs, 0, a, off);
    }

    // GENERATED BEGIN (algebra/src/codegen/vector_butterflies.py)
    /** The limbs of the 8 elements at a[off .. off + 32) to x[xo + 8 k + lane], k < 9. */
    private static void load(long[] a, int off, long[] x, int xo) {
        LongVector wv0 = LongVector.fromArray(S, a, off);
        LongVector wv1 = LongVector.fromArray(S, a, off + 8);
        LongVector wv2 = LongVector.fromArray(S, a, off + 16);
        LongVector wv3 = LongVector.fromArray(S, a, off + 24);
        LongVector wA = PAIRS_LO.selectFrom(wv0, wv1);
        LongVector wB = PAIRS_HI.selectFrom(wv0, wv1);
        LongVector wC = PAIRS_LO.selectFrom(wv2, wv3);
        LongVector wD = PAIRS_HI.selectFrom(wv2, wv3);
        LongVector w0 = HALVES_LO.selectFrom(wA, wC);
        LongVector w1 = HALVES_HI.selectFrom(wA, wC);
        LongVector w2 = HALVES_LO.selectFrom(wB, wD);
        LongVector w3 = HALVES_HI.selectFrom(wB, wD);
        LongVector l0 = w0.and(M);
        LongVector l1 = w0.lanewise(LSHR, 29).and(M);
        LongVector l2 = w0.lanewise(LSHR, 58).or(w1.lanewise(LSHL, 6).and(M));
        LongVector l3 = w1.lanewise(LSHR, 23).and(M);
        LongVector l4 = w1.lanewise(LSHR, 52).or(w2.lanewise(LSHL, 12).and(M));
        LongVector l5 = w2.lanewise(LSHR, 17).and(M);
        LongVector l6 = w2.lanewise(LSHR, 46).or(w3.lanewise(LSHL, 18).and(M));
        LongVector l7 = w3.lanewise(LSHR, 11).and(M);
        LongVector l8 = w3.lanewise(LSHR, 40);
        l0.intoArray(x, xo + 0);
        l1.intoArray(x, xo + 8);
        l2.intoArray(x, xo + 16);
        l3.intoArray(x, xo + 24);
        l4.intoArray(x, xo + 32);
        l5.intoArray(x, xo + 40);
        l6.intoArray(x, xo + 48);
        l7.intoArray(x, xo + 56);
        l8.intoArray(x, xo + 64);
    }

    /** The inverse of {@link #load}: normalised limbs (values below 2^256) back to 8 elements. */
    private static void store(long[] x, int xo, long[] a, int off) {
        LongVector l0 = LongVector.fromArray(S, x, xo + 0);
        LongVector l1 = LongVector.fromArray(S, x, xo + 8);
        LongVector l2 = LongVector.fromArray(S, x, xo + 16);
        LongVector l3 = LongVector.fromArray(S, x, xo + 24);
        LongVector l4 = LongVector.fromArray(S, x, xo + 32);
        LongVector l5 = LongVector.fromArray(S, x, xo + 40);
        LongVector l6 = LongVector.fromArray(S, x, xo + 48);
        LongVector l7 = LongVector.fromArray(S, x, xo + 56);
        LongVector l8 = LongVector.fromArray(S, x, xo + 64);
        LongVector w0 = l0.or(l1.lanewise(LSHL, 29)).or(l2.lanewise(LSHL, 58));
        LongVector w1 = l2.lanewise(LSHR, 6).or(l3.lanewise(LSHL, 23)).or(l4.lanewise(LSHL, 52));
        LongVector w2 = l4.lanewise(LSHR, 12).or(l5.lanewise(LSHL, 17)).or(l6.lanewise(LSHL, 46));
        LongVector w3 = l6.lanewise(LSHR, 18).or(l7.lanewise(LSHL, 11)).or(l8.lanewise(LSHL, 40));
        LongVector wA = HALVES_LO.selectFrom(w0, w1);
        LongVector wC = HALVES_HI.selectFrom(w0, w1);
        LongVector wB = HALVES_LO.selectFrom(w2, w3);
        LongVector wD = HALVES_HI.selectFrom(w2, w3);
        PAIRS_LO.selectFrom(wA, wB).intoArray(a, off);
        PAIRS_HI.selectFrom(wA, wB).intoArray(a, off + 8);
        PAIRS_LO.selectFrom(wC, wD).intoArray(a, off + 16);
        PAIRS_HI.selectFrom(wC, wD).intoArray(a, off + 24);
    }

    /**
    * The limbs of 8 twiddles to x[xo + 8 k + lane]: entry t + 7 - lane of each limb row (row k at
    * t + k * stride) of a stage's table.
    */
    private static void twiddlesReversed(int[] tw, int t, int stride, long[] x, int xo) {
        LongVector y0 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t)).convertShape(VectorOperators.I2L, S, 0);
        LongVector y1 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 1 * stride)).convertShape(VectorOperators.I2L, S, 0);
        LongVector y2 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 2 * stride)).convertShape(VectorOperators.I2L, S, 0);
        LongVector y3 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 3 * stride)).convertShape(VectorOperators.I2L, S, 0);
        LongVector y4 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 4 * stride)).convertShape(VectorOperators.I2L, S, 0);
        LongVector y5 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 5 * stride)).convertShape(VectorOperators.I2L, S, 0);
        LongVector y6 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 6 * stride)).convertShape(VectorOperators.I2L, S, 0);
        LongVector y7 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 7 * stride)).convertShape(VectorOperators.I2L, S, 0);
        LongVector y8 = (LongVector) REVERSE.selectFrom(IntVector.fromArray(SI, tw, t + 8 * stride)).convertShape(VectorOperators.I2L, S, 0);
        y0.intoArray(x, xo + 0);
        y1.intoArray(x, xo + 8);
        y2.intoArray(x, xo + 16);
        y3.intoArray(x, xo + 24);
        y4.intoArray(x, xo + 32);
        y5.intoArray(x, xo + 40);
        y6.intoArray(x, xo + 48);
        y7.intoArray(x, xo + 56);
        y8.intoArray(x, xo + 64);
    }

    /**
    * Rearranges 16 limb vectors: limb k of the two 8-lane operands at p and q (16 lanes, p first)
    * to r and s, lane l of r taking source lane idx[l], of s source lane idx[8 + l]. r, s may
    * be p, q.
    */
    private static void permute(long[] x, int p, int q, int r, int s, long[] idx) {
        LongVector i0 = LongVector.fromArray(S, idx, 0);
        LongVector i1 = LongVector.fromArray(S, idx, 8);
        LongVector p0 = LongVector.fromArray(S, x, p + 0);
        LongVector q0 = LongVector.fromArray(S, x, q + 0);
        i0.selectFrom(p0, q0).intoArray(x, r + 0);
        i1.selectFrom(p0, q0).intoArray(x, s + 0);
        LongVector p1 = LongVector.fromArray(S, x, p + 8);
        LongVector q1 = LongVector.fromArray(S, x, q + 8);
        i0.selectFrom(p1, q1).intoArray(x, r + 8);
        i1.selectFrom(p1, q1).intoArray(x, s + 8);
        LongVector p2 = LongVector.fromArray(S, x, p + 16);
        LongVector q2 = LongVector.fromArray(S, x, q + 16);
        i0.selectFrom(p2, q2).intoArray(x, r + 16);
        i1.selectFrom(p2, q2).intoArray(x, s + 16);
        LongVector p3 = LongVector.fromArray(S, x, p + 24);
        LongVector q3 = LongVector.fromArray(S, x, q + 24);
        i0.selectFrom(p3, q3).intoArray(x, r + 24);
        i1.selectFrom(p3, q3).intoArray(x, s + 24);
        LongVector p4 = LongVector.fromArray(S, x, p + 32);
        LongVector q4 = LongVector.fromArray(S, x, q + 32);
        i0.selectFrom(p4, q4).intoArray(x, r + 32);
        i1.selectFrom(p4, q4).intoArray(x, s + 32);
        LongVector p5 = LongVector.fromArray(S, x, p + 40);
        LongVector q5 = LongVector.fromArray(S, x, q + 40);
        i0.selectFrom(p5, q5).intoArray(x, r + 40);
        i1.selectFrom(p5, q5).intoArray(x, s + 40);
        LongVector p6 = LongVector.fromArray(S, x, p + 48);
        LongVector q6 = LongVector.fromArray(S, x, q + 48);
        i0.selectFrom(p6, q6).intoArray(x, r + 48);
        i1.selectFrom(p6, q6).intoArray(x, s + 48);
        LongVector p7 = LongVector.fromArray(S, x, p + 56);
        LongVector q7 = LongVector.fromArray(S, x, q + 56);
        i0.selectFrom(p7, q7).intoArray(x, r + 56);
        i1.selectFrom(p7, q7).intoArray(x, s + 56);
        LongVector p8 = LongVector.fromArray(S, x, p + 64);
        LongVector q8 = LongVector.fromArray(S, x, q + 64);
        i0.selectFrom(p8, q8).intoArray(x, r + 64);
        i1.selectFrom(p8, q8).intoArray(x, s + 64);
    }

    /** The 17 column sums of the products of the limbs at ao and bo, to x[co + 8 k + lane]. */
    private static void product(long[] x, int ao, int bo, int co) {
        LongVector a0 = LongVector.fromArray(S, x, ao + 0);
        LongVector a1 = LongVector.fromArray(S, x, ao + 8);
        LongVector a2 = LongVector.fromArray(S, x, ao + 16);
        LongVector a3 = LongVector.fromArray(S, x, ao + 24);
        LongVector a4 = LongVector.fromArray(S, x, ao + 32);
        LongVector a5 = LongVector.fromArray(S, x, ao + 40);
        LongVector a6 = LongVector.fromArray(S, x, ao + 48);
        LongVector a7 = LongVector.fromArray(S, x, ao + 56);
        LongVector a8 = LongVector.fromArray(S, x, ao + 64);
        LongVector b0 = LongVector.fromArray(S, x, bo + 0);
        LongVector c0 = a0.mul(b0);
        LongVector c1 = a1.mul(b0);
        LongVector c2 = a2.mul(b0);
        LongVector c3 = a3.mul(b0);
        LongVector c4 = a4.mul(b0);
        LongVector c5 = a5.mul(b0);
        LongVector c6 = a6.mul(b0);
        LongVector c7 = a7.mul(b0);
        LongVector c8 = a8.mul(b0);
        LongVector b1 = LongVector.fromArray(S, x, bo + 8);
        c1 = c1.add(a0.mul(b1));
        c2 = c2.add(a1.mul(b1));
        c3 = c3.add(a2.mul(b1));
        c4 = c4.add(a3.mul(b1));
        c5 = c5.add(a4.mul(b1));
        c6 = c6.add(a5.mul(b1));
        c7 = c7.add(a6.mul(b1));
        c8 = c8.add(a7.mul(b1));
        LongVector c9 = a8.mul(b1);
        LongVector b2 = LongVector.fromArray(S, x, bo + 16);
        c2 = c2.add(a0.mul(b2));
        c3 = c3.add(a1.mul(b2));
        c4 = c4.add(a2.mul(b2));
        c5 = c5.add(a3.mul(b2));
        c6 = c6.add(a4.mul(b2));
        c7 = c7.add(a5.mul(b2));
        c8 = c8.add(a6.mul(b2));
        c9 = c9.add(a7.mul(b2));
        LongVector c10 = a8.mul(b2);
        LongVector b3 = LongVector.fromArray(S, x, bo + 24);
        c3 = c3.add(a0.mul(b3));
        c4 = c4.add(a1.mul(b3));
        c5 = c5.add(a2.mul(b3));
        c6 = c6.add(a3.mul(b3));
        c7 = c7.add(a4.mul(b3));
        c8 = c8.add(a5.mul(b3));
        c9 = c9.add(a6.mul(b3));
        c10 = c10.add(a7.mul(b3));
        LongVector c11 = a8.mul(b3);
        LongVector b4 = LongVector.fromArray(S, x, bo + 32);
        c4 = c4.add(a0.mul(b4));
        c5 = c5.add(a1.mul(b4));
        c6 = c6.add(a2.mul(b4));
        c7 = c7.add(a3.mul(b4));
        c8 = c8.add(a4.mul(b4));
        c9 = c9.add(a5.mul(b4));
        c10 = c10.add(a6.mul(b4));
        c11 = c11.add(a7.mul(b4));
        LongVector c12 = a8.mul(b4);
        LongVector b5 = LongVector.fromArray(S, x, bo + 40);
        c5 = c5.add(a0.mul(b5));
        c6 = c6.add(a1.mul(b5));
        c7 = c7.add(a2.mul(b5));
        c8 = c8.add(a3.mul(b5));
        c9 = c9.add(a4.mul(b5));
        c10 = c10.add(a5.mul(b5));
        c11 = c11.add(a6.mul(b5));
        c12 = c12.add(a7.mul(b5));
        LongVector c13 = a8.mul(b5);
        LongVector b6 = LongVector.fromArray(S, x, bo + 48);
        c6 = c6.add(a0.mul(b6));
        c7 = c7.add(a1.mul(b6));
        c8 = c8.add(a2.mul(b6));
        c9 = c9.add(a3.mul(b6));
        c10 = c10.add(a4.mul(b6));
        c11 = c11.add(a5.mul(b6));
        c12 = c12.add(a6.mul(b6));
        c13 = c13.add(a7.mul(b6));
        LongVector c14 = a8.mul(b6);
        LongVector b7 = LongVector.fromArray(S, x, bo + 56);
        c7 = c7.add(a0.mul(b7));
        c8 = c8.add(a1.mul(b7));
        c9 = c9.add(a2.mul(b7));
        c10 = c10.add(a3.mul(b7));
        c11 = c11.add(a4.mul(b7));
        c12 = c12.add(a5.mul(b7));
        c13 = c13.add(a6.mul(b7));
        c14 = c14.add(a7.mul(b7));
        LongVector c15 = a8.mul(b7);
        LongVector b8 = LongVector.fromArray(S, x, bo + 64);
        c8 = c8.add(a0.mul(b8));
        c9 = c9.add(a1.mul(b8));
        c10 = c10.add(a2.mul(b8));
        c11 = c11.add(a3.mul(b8));
        c12 = c12.add(a4.mul(b8));
        c13 = c13.add(a5.mul(b8));
        c14 = c14.add(a6.mul(b8));
        c15 = c15.add(a7.mul(b8));
        LongVector c16 = a8.mul(b8);
        c0.intoArray(x, co + 0);
        c1.intoArray(x, co + 8);
        c2.intoArray(x, co + 16);
        c3.intoArray(x, co + 24);
        c4.intoArray(x, co + 32);
        c5.intoArray(x, co + 40);
        c6.intoArray(x, co + 48);
        c7.intoArray(x, co + 56);
        c8.intoArray(x, co + 64);
        c9.intoArray(x, co + 72);
        c10.intoArray(x, co + 80);
        c11.intoArray(x, co + 88);
        c12.intoArray(x, co + 96);
        c13.intoArray(x, co + 104);
        c14.intoArray(x, co + 112);
        c15.intoArray(x, co + 120);
        c16.intoArray(x, co + 128);
    }

    /**
    * As {@link #product}, the second operand the 8 twiddles at t + lane of each limb row of a stage's
    * table (row k at t + k * stride), read there.
    */
    private static void productTw(long[] x, int ao, int[] tw, int t, int stride, int co) {
        LongVector a0 = LongVector.fromArray(S, x, ao + 0).and(LO);
        LongVector a1 = LongVector.fromArray(S, x, ao + 8).and(LO);
        LongVector a2 = LongVector.fromArray(S, x, ao + 16).and(LO);
        LongVector a3 = LongVector.fromArray(S, x, ao + 24).and(LO);
        LongVector a4 = LongVector.fromArray(S, x, ao + 32).and(LO);
        LongVector a5 = LongVector.fromArray(S, x, ao + 40).and(LO);
        LongVector a6 = LongVector.fromArray(S, x, ao + 48).and(LO);
        LongVector a7 = LongVector.fromArray(S, x, ao + 56).and(LO);
        LongVector a8 = LongVector.fromArray(S, x, ao + 64).and(LO);
        LongVector b0 = ((LongVector) IntVector.fromArray(SI, tw, t).convertShape(VectorOperators.I2L, S, 0)).and(LO);
        LongVector c0 = a0.mul(b0);
        LongVector c1 = a1.mul(b0);
        LongVector c2 = a2.mul(b0);
        LongVector c3 = a3.mul(b0);
        LongVector c4 = a4.mul(b0);
        LongVector c5 = a5.mul(b0);
        LongVector c6 = a6.mul(b0);
        LongVector c7 = a7.mul(b0);
        LongVector c8 = a8.mul(b0);
        LongVector b1 = ((LongVector) IntVector.fromArray(SI, tw, t + 1 * stride).convertShape(VectorOperators.I2L, S, 0)).and(LO);
        c1 = c1.add(a0.mul(b1));
        c2 = c2.add(a1.mul(b1));
        c3 = c3.add(a2.mul(b1));
        c4 = c4.add(a3.mul(b1));
        c5 = c5.add(a4.mul(b1));
        c6 = c6.add(a5.mul(b1));
        c7 = c7.add(a6.mul(b1));
        c8 = c8.add(a7.mul(b1));
        LongVector c9 = a8.mul(b1);
        LongVector b2 = ((LongVector) IntVector.fromArray(SI, tw, t + 2 * stride).convertShape(VectorOperators.I2L, S, 0)).and(LO);
        c2 = c2.add(a0.mul(b2));
        c3 = c3.add(a1.mul(b2));
        c4 = c4.add(a2.mul(b2));
        c5 = c5.add(a3.mul(b2));
        c6 = c6.add(a4.mul(b2));
        c7 = c7.add(a5.mul(b2));
        c8 = c8.add(a6.mul(b2));
        c9 = c9.add(a7.mul(b2));
        LongVector c10 = a8.mul(b2);
        LongVector b3 = ((LongVector) IntVector.fromArray(SI, tw, t + 3 * stride).convertShape(VectorOperators.I2L, S, 0)).and(LO);
        c3 = c3.add(a0.mul(b3));
        c4 = c4.add(a1.mul(b3));
        c5 = c5.add(a2.mul(b3));
        c6 = c6.add(a3.mul(b3));
        c7 = c7.add(a4.mul(b3));
        c8 = c8.add(a5.mul(b3));
        c9 = c9.add(a6.mul(b3));
        c10 = c10.add(a7.mul(b3));
        LongVector c11 = a8.mul(b3);
        LongVector b4 = ((LongVector) IntVector.fromArray(SI, tw, t + 4 * stride).convertShape(VectorOperators.I2L, S, 0)).and(LO);
        c4 = c4.add(a0.mul(b4));
        c5 = c5.add(a1.mul(b4));
        c6 = c6.add(a2.mul(b4));
        c7 = c7.add(a3.mul(b4));
        c8 = c8.add(a4.mul(b4));
        c9 = c9.add(a5.mul(b4));
        c10 = c10.add(a6.mul(b4));
        c11 = c11.add(a7.mul(b4));
        LongVector c12 = a8.mul(b4);
        LongVector c13 = LongVector.zero(S);
        LongVector c14 = LongVector.zero(S);
        LongVector c15 = LongVector.zero(S);
        LongVector c16 = LongVector.zero(S);
        c0.intoArray(x, co + 0);
        c1.intoArray(x, co + 8);
        c2.intoArray(x, co + 16);
        c3.intoArray(x, co + 24);
        c4.intoArray(x, co + 32);
        c5.intoArray(x, co + 40);
        c6.intoArray(x, co + 48);
        c7.intoArray(x, co + 56);
        c8.intoArray(x, co + 64);
        c9.intoArray(x, co + 72);
        c10.intoArray(x, co + 80);
        c11.intoArray(x, co + 88);
        c12.intoArray(x, co + 96);
        c13.intoArray(x, co + 104);
        c14.intoArray(x, co + 112);
        c15.intoArray(x, co + 120);
        c16.intoArray(x, co + 128);
        productTwRows1(x, ao, tw, t, stride, co);
    }

    /** Adds rows 5 to 8 of the productTw to the columns at co. */
    private static void productTwRows1(long[] x, int ao, int[] tw, int t, int stride, int co) {
        LongVector a0 = LongVector.fromArray(S, x, ao + 0).and(LO);
        LongVector a1 = LongVector.fromArray(S, x, ao + 8).and(LO);
        LongVector a2 = LongVector.fromArray(S, x, ao + 16).and(LO);
        LongVector a3 = LongVector.fromArray(S, x, ao + 24).and(LO);
        LongVector a4 = LongVector.fromArray(S, x, ao + 32).and(LO);
        LongVector a5 = LongVector.fromArray(S, x, ao + 40).and(LO);
        LongVector a6 = LongVector.fromArray(S, x, ao + 48).and(LO);
        LongVector a7 = LongVector.fromArray(S, x, ao + 56).and(LO);
        LongVector a8 = LongVector.fromArray(S, x, ao + 64).and(LO);
        LongVector c5 = LongVector.fromArray(S, x, co + 40);
        LongVector c6 = LongVector.fromArray(S, x, co + 48);
        LongVector c7 = LongVector.fromArray(S, x, co + 56);
        LongVector c8 = LongVector.fromArray(S, x, co + 64);
        LongVector c9 = LongVector.fromArray(S, x, co + 72);
        LongVector c10 = LongVector.fromArray(S, x, co + 80);
        LongVector c11 = LongVector.fromArray(S, x, co + 88);
        LongVector c12 = LongVector.fromArray(S, x, co + 96);
        LongVector c13 = LongVector.fromArray(S, x, co + 104);
        LongVector c14 = LongVector.fromArray(S, x, co + 112);
        LongVector c15 = LongVector.fromArray(S, x, co + 120);
        LongVector c16 = LongVector.fromArray(S, x, co + 128);
        LongVector b5 = ((LongVector) IntVector.fromArray(SI, tw, t + 5 * stride).convertShape(VectorOperators.I2L, S, 0)).and(LO);
        c5 = c5.add(a0.mul(b5));
        c6 = c6.add(a1.mul(b5));
        c7 = c7.add(a2.mul(b5));
        c8 = c8.add(a3.mul(b5));
        c9 = c9.add(a4.mul(b5));
        c10 = c10.add(a5.mul(b5));
        c11 = c11.add(a6.mul(b5));
        c12 = c12.add(a7.mul(b5));
        c13 = c13.add(a8.mul(b5));
        LongVector b6 = ((LongVector) IntVector.fromArray(SI, tw, t + 6 * stride).convertShape(VectorOperators.I2L, S, 0)).and(LO);
        c6 = c6.add(a0.mul(b6));
        c7 = c7.add(a1.mul(b6));
        c8 = c8.add(a2.mul(b6));
        c9 = c9.add(a3.mul(b6));
        c10 = c10.add(a4.mul(b6));
        c11 = c11.add(a5.mul(b6));
        c12 = c12.add(a6.mul(b6));
        c13 = c13.add(a7.mul(b6));
        c14 = c14.add(a8.mul(b6));
        LongVector b7 = ((LongVector) IntVector.fromArray(SI, tw, t + 7 * stride).convertShape(VectorOperators.I2L, S, 0)).and(LO);
        c7 = c7.add(a0.mul(b7));
        c8 = c8.add(a1.mul(b7));
        c9 = c9.add(a2.mul(b7));
        c10 = c10.add(a3.mul(b7));
        c11 = c11.add(a4.mul(b7));
        c12 = c12.add(a5.mul(b7));
        c13 = c13.add(a6.mul(b7));
        c14 = c14.add(a7.mul(b7));
        c15 = c15.add(a8.mul(b7));
        LongVector b8 = ((LongVector) IntVector.fromArray(SI, tw, t + 8 * stride).convertShape(VectorOperators.I2L, S, 0)).and(LO);
        c8 = c8.add(a0.mul(b8));
        c9 = c9.add(a1.mul(b8));
        c10 = c10.add(a2.mul(b8));
        c11 = c11.add(a3.mul(b8));
        c12 = c12.add(a4.mul(b8));
        c13 = c13.add(a5.mul(b8));
        c14 = c14.add(a6.mul(b8));
        c15 = c15.add(a7.mul(b8));
        c16 = c16.add(a8.mul(b8));
        c5.intoArray(x, co + 40);
        c6.intoArray(x, co + 48);
        c7.intoArray(x, co + 56);
        c8.intoArray(x, co + 64);
        c9.intoArray(x, co + 72);
        c10.intoArray(x, co + 80);
        c11.intoArray(x, co + 88);
        c12.intoArray(x, co + 96);
        c13.intoArray(x, co + 104);
        c14.intoArray(x, co + 112);
        c15.intoArray(x, co + 120);
        c16.intoArray(x, co + 128);
    }

    /**
    * Montgomery reduction of the columns at co (a product of two values below q): the limbs of
    * c 2^-261 mod q, canonical, to x[ro + 8 k + lane].
    */
    private void reduce(long[] x, int co, int ro) {
        final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8;
        final long QINV = qInv;
        final LongVector QIV = LongVector.broadcast(S, QINV).and(LO);
        final LongVector QV0 = LongVector.broadcast(S, Q0).and(LO);
        final LongVector QV1 = LongVector.broadcast(S, Q1).and(LO);
        final LongVector QV2 = LongVector.broadcast(S, Q2).and(LO);
        final LongVector QV3 = LongVector.broadcast(S, Q3).and(LO);
        final LongVector QV4 = LongVector.broadcast(S, Q4).and(LO);
        final LongVector QV5 = LongVector.broadcast(S, Q5).and(LO);
        final LongVector QV6 = LongVector.broadcast(S, Q6).and(LO);
        final LongVector QV7 = LongVector.broadcast(S, Q7).and(LO);
        final LongVector QV8 = LongVector.broadcast(S, Q8).and(LO);
        LongVector c0 = LongVector.fromArray(S, x, co + 0);
        LongVector c1 = LongVector.fromArray(S, x, co + 8);
        LongVector c2 = LongVector.fromArray(S, x, co + 16);
        LongVector c3 = LongVector.fromArray(S, x, co + 24);
        LongVector c4 = LongVector.fromArray(S, x, co + 32);
        LongVector c5 = LongVector.fromArray(S, x, co + 40);
        LongVector c6 = LongVector.fromArray(S, x, co + 48);
        LongVector c7 = LongVector.fromArray(S, x, co + 56);
        LongVector c8 = LongVector.fromArray(S, x, co + 64);
        LongVector c9 = LongVector.fromArray(S, x, co + 72);
        LongVector c10 = LongVector.fromArray(S, x, co + 80);
        LongVector c11 = LongVector.fromArray(S, x, co + 88);
        LongVector c12 = LongVector.fromArray(S, x, co + 96);
        LongVector c13 = LongVector.fromArray(S, x, co + 104);
        LongVector c14 = LongVector.fromArray(S, x, co + 112);
        LongVector c15 = LongVector.fromArray(S, x, co + 120);
        LongVector c16 = LongVector.fromArray(S, x, co + 128);
        { LongVector m = c0.and(LO).mul(QIV).lanewise(LSHL, 35).lanewise(LSHR, 35).and(LO);
            c0 = c0.add(m.mul(QV0));
            c1 = c1.add(m.mul(QV1));
            c2 = c2.add(m.mul(QV2));
            c3 = c3.add(m.mul(QV3));
            c4 = c4.add(m.mul(QV4));
            c5 = c5.add(m.mul(QV5));
            c6 = c6.add(m.mul(QV6));
            c7 = c7.add(m.mul(QV7));
            c8 = c8.add(m.mul(QV8));
            c1 = c1.add(c0.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c1.and(LO).mul(QIV).lanewise(LSHL, 35).lanewise(LSHR, 35).and(LO);
            c1 = c1.add(m.mul(QV0));
            c2 = c2.add(m.mul(QV1));
            c3 = c3.add(m.mul(QV2));
            c4 = c4.add(m.mul(QV3));
            c5 = c5.add(m.mul(QV4));
            c6 = c6.add(m.mul(QV5));
            c7 = c7.add(m.mul(QV6));
            c8 = c8.add(m.mul(QV7));
            c9 = c9.add(m.mul(QV8));
            c2 = c2.add(c1.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c2.and(LO).mul(QIV).lanewise(LSHL, 35).lanewise(LSHR, 35).and(LO);
            c2 = c2.add(m.mul(QV0));
            c3 = c3.add(m.mul(QV1));
            c4 = c4.add(m.mul(QV2));
            c5 = c5.add(m.mul(QV3));
            c6 = c6.add(m.mul(QV4));
            c7 = c7.add(m.mul(QV5));
            c8 = c8.add(m.mul(QV6));
            c9 = c9.add(m.mul(QV7));
            c10 = c10.add(m.mul(QV8));
            c3 = c3.add(c2.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c3.and(LO).mul(QIV).lanewise(LSHL, 35).lanewise(LSHR, 35).and(LO);
            c3 = c3.add(m.mul(QV0));
            c4 = c4.add(m.mul(QV1));
            c5 = c5.add(m.mul(QV2));
            c6 = c6.add(m.mul(QV3));
            c7 = c7.add(m.mul(QV4));
            c8 = c8.add(m.mul(QV5));
            c9 = c9.add(m.mul(QV6));
            c10 = c10.add(m.mul(QV7));
            c11 = c11.add(m.mul(QV8));
            c4 = c4.add(c3.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c4.and(LO).mul(QIV).lanewise(LSHL, 35).lanewise(LSHR, 35).and(LO);
            c4 = c4.add(m.mul(QV0));
            c5 = c5.add(m.mul(QV1));
            c6 = c6.add(m.mul(QV2));
            c7 = c7.add(m.mul(QV3));
            c8 = c8.add(m.mul(QV4));
            c9 = c9.add(m.mul(QV5));
            c10 = c10.add(m.mul(QV6));
            c11 = c11.add(m.mul(QV7));
            c12 = c12.add(m.mul(QV8));
            c5 = c5.add(c4.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c5.and(LO).mul(QIV).lanewise(LSHL, 35).lanewise(LSHR, 35).and(LO);
            c5 = c5.add(m.mul(QV0));
            c6 = c6.add(m.mul(QV1));
            c7 = c7.add(m.mul(QV2));
            c8 = c8.add(m.mul(QV3));
            c9 = c9.add(m.mul(QV4));
            c10 = c10.add(m.mul(QV5));
            c11 = c11.add(m.mul(QV6));
            c12 = c12.add(m.mul(QV7));
            c13 = c13.add(m.mul(QV8));
            c6 = c6.add(c5.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c6.and(LO).mul(QIV).lanewise(LSHL, 35).lanewise(LSHR, 35).and(LO);
            c6 = c6.add(m.mul(QV0));
            c7 = c7.add(m.mul(QV1));
            c8 = c8.add(m.mul(QV2));
            c9 = c9.add(m.mul(QV3));
            c10 = c10.add(m.mul(QV4));
            c11 = c11.add(m.mul(QV5));
            c12 = c12.add(m.mul(QV6));
            c13 = c13.add(m.mul(QV7));
            c14 = c14.add(m.mul(QV8));
            c7 = c7.add(c6.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c7.and(LO).mul(QIV).lanewise(LSHL, 35).lanewise(LSHR, 35).and(LO);
            c7 = c7.add(m.mul(QV0));
            c8 = c8.add(m.mul(QV1));
            c9 = c9.add(m.mul(QV2));
            c10 = c10.add(m.mul(QV3));
            c11 = c11.add(m.mul(QV4));
            c12 = c12.add(m.mul(QV5));
            c13 = c13.add(m.mul(QV6));
            c14 = c14.add(m.mul(QV7));
            c15 = c15.add(m.mul(QV8));
            c8 = c8.add(c7.lanewise(VectorOperators.LSHR, 29)); }
        { LongVector m = c8.and(LO).mul(QIV).lanewise(LSHL, 35).lanewise(LSHR, 35).and(LO);
            c8 = c8.add(m.mul(QV0));
            c9 = c9.add(m.mul(QV1));
            c10 = c10.add(m.mul(QV2));
            c11 = c11.add(m.mul(QV3));
            c12 = c12.add(m.mul(QV4));
            c13 = c13.add(m.mul(QV5));
            c14 = c14.add(m.mul(QV6));
            c15 = c15.add(m.mul(QV7));
            c16 = c16.add(m.mul(QV8));
            c9 = c9.add(c8.lanewise(VectorOperators.LSHR, 29)); }
        LongVector r0 = c9.and(M);
        c10 = c10.add(c9.lanewise(VectorOperators.LSHR, 29));
        LongVector r1 = c10.and(M);
        c11 = c11.add(c10.lanewise(VectorOperators.LSHR, 29));
        LongVector r2 = c11.and(M);
        c12 = c12.add(c11.lanewise(VectorOperators.LSHR, 29));
        LongVector r3 = c12.and(M);
        c13 = c13.add(c12.lanewise(VectorOperators.LSHR, 29));
        LongVector r4 = c13.and(M);
        c14 = c14.add(c13.lanewise(VectorOperators.LSHR, 29));
        LongVector r5 = c14.and(M);
        c15 = c15.add(c14.lanewise(VectorOperators.LSHR, 29));
        LongVector r6 = c15.and(M);
        c16 = c16.add(c15.lanewise(VectorOperators.LSHR, 29));
        LongVector r7 = c16.and(M);
        LongVector r8 = c16.lanewise(VectorOperators.LSHR, 29);
        LongVector p0, p1, p2, p3, p4, p5, p6, p7, p8;
        {
            LongVector td0 = r0.sub(Q0);
            LongVector td1 = r1.sub(Q1).add(td0.lanewise(VectorOperators.ASHR, 29));
            LongVector td2 = r2.sub(Q2).add(td1.lanewise(VectorOperators.ASHR, 29));
            LongVector td3 = r3.sub(Q3).add(td2.lanewise(VectorOperators.ASHR, 29));
            LongVector td4 = r4.sub(Q4).add(td3.lanewise(VectorOperators.ASHR, 29));
            LongVector td5 = r5.sub(Q5).add(td4.lanewise(VectorOperators.ASHR, 29));
            LongVector td6 = r6.sub(Q6).add(td5.lanewise(VectorOperators.ASHR, 29));
            LongVector td7 = r7.sub(Q7).add(td6.lanewise(VectorOperators.ASHR, 29));
            LongVector td8 = r8.sub(Q8).add(td7.lanewise(VectorOperators.ASHR, 29));
            VectorMask<Long> under = td8.compare(VectorOperators.LT, 0);
            p0 = td0.and(M).blend(r0, under);
            p1 = td1.and(M).blend(r1, under);
            p2 = td2.and(M).blend(r2, under);
            p3 = td3.and(M).blend(r3, under);
            p4 = td4.and(M).blend(r4, under);
            p5 = td5.and(M).blend(r5, under);
            p6 = td6.and(M).blend(r6, under);
            p7 = td7.and(M).blend(r7, under);
            p8 = td8.and(M).blend(r8, under);
        }
        p0.intoArray(x, ro + 0);
        p1.intoArray(x, ro + 8);
        p2.intoArray(x, ro + 16);
        p3.intoArray(x, ro + 24);
        p4.intoArray(x, ro + 32);
        p5.intoArray(x, ro + 40);
        p6.intoArray(x, ro + 48);
        p7.intoArray(x, ro + 56);
        p8.intoArray(x, ro + 64);
    }

    /** s = a + b and d = a - b mod q, canonical, from canonical a (at ao) and b (at bo). */
    private void addSub(long[] x, int ao, int bo, int so, int dO) {
        final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8;
        LongVector a0 = LongVector.fromArray(S, x, ao + 0);
        LongVector a1 = LongVector.fromArray(S, x, ao + 8);
        LongVector a2 = LongVector.fromArray(S, x, ao + 16);
        LongVector a3 = LongVector.fromArray(S, x, ao + 24);
        LongVector a4 = LongVector.fromArray(S, x, ao + 32);
        LongVector a5 = LongVector.fromArray(S, x, ao + 40);
        LongVector a6 = LongVector.fromArray(S, x, ao + 48);
        LongVector a7 = LongVector.fromArray(S, x, ao + 56);
        LongVector a8 = LongVector.fromArray(S, x, ao + 64);
        LongVector b0 = LongVector.fromArray(S, x, bo + 0);
        LongVector b1 = LongVector.fromArray(S, x, bo + 8);
        LongVector b2 = LongVector.fromArray(S, x, bo + 16);
        LongVector b3 = LongVector.fromArray(S, x, bo + 24);
        LongVector b4 = LongVector.fromArray(S, x, bo + 32);
        LongVector b5 = LongVector.fromArray(S, x, bo + 40);
        LongVector b6 = LongVector.fromArray(S, x, bo + 48);
        LongVector b7 = LongVector.fromArray(S, x, bo + 56);
        LongVector b8 = LongVector.fromArray(S, x, bo + 64);
        LongVector s0, s1, s2, s3, s4, s5, s6, s7, s8;
        {
            LongVector ts0 = a0.add(b0);
            LongVector ts1 = a1.add(b1);
            LongVector ts2 = a2.add(b2);
            LongVector ts3 = a3.add(b3);
            LongVector ts4 = a4.add(b4);
            LongVector ts5 = a5.add(b5);
            LongVector ts6 = a6.add(b6);
            LongVector ts7 = a7.add(b7);
            LongVector ts8 = a8.add(b8);
            LongVector te0 = ts0;
            LongVector td0 = ts0.sub(Q0);
            LongVector te1 = ts1.add(te0.lanewise(VectorOperators.LSHR, 29));
            LongVector td1 = ts1.sub(Q1).add(td0.lanewise(VectorOperators.ASHR, 29));
            LongVector te2 = ts2.add(te1.lanewise(VectorOperators.LSHR, 29));
            LongVector td2 = ts2.sub(Q2).add(td1.lanewise(VectorOperators.ASHR, 29));
            LongVector te3 = ts3.add(te2.lanewise(VectorOperators.LSHR, 29));
            LongVector td3 = ts3.sub(Q3).add(td2.lanewise(VectorOperators.ASHR, 29));
            LongVector te4 = ts4.add(te3.lanewise(VectorOperators.LSHR, 29));
            LongVector td4 = ts4.sub(Q4).add(td3.lanewise(VectorOperators.ASHR, 29));
            LongVector te5 = ts5.add(te4.lanewise(VectorOperators.LSHR, 29));
            LongVector td5 = ts5.sub(Q5).add(td4.lanewise(VectorOperators.ASHR, 29));
            LongVector te6 = ts6.add(te5.lanewise(VectorOperators.LSHR, 29));
            LongVector td6 = ts6.sub(Q6).add(td5.lanewise(VectorOperators.ASHR, 29));
            LongVector te7 = ts7.add(te6.lanewise(VectorOperators.LSHR, 29));
            LongVector td7 = ts7.sub(Q7).add(td6.lanewise(VectorOperators.ASHR, 29));
            LongVector te8 = ts8.add(te7.lanewise(VectorOperators.LSHR, 29));
            LongVector td8 = ts8.sub(Q8).add(td7.lanewise(VectorOperators.ASHR, 29));
            VectorMask<Long> under = td8.compare(VectorOperators.LT, 0);
            s0 = td0.and(M).blend(te0.and(M), under);
            s1 = td1.and(M).blend(te1.and(M), under);
            s2 = td2.and(M).blend(te2.and(M), under);
            s3 = td3.and(M).blend(te3.and(M), under);
            s4 = td4.and(M).blend(te4.and(M), under);
            s5 = td5.and(M).blend(te5.and(M), under);
            s6 = td6.and(M).blend(te6.and(M), under);
            s7 = td7.and(M).blend(te7.and(M), under);
            s8 = td8.and(M).blend(te8.and(M), under);
        }
        s0.intoArray(x, so + 0);
        s1.intoArray(x, so + 8);
        s2.intoArray(x, so + 16);
        s3.intoArray(x, so + 24);
        s4.intoArray(x, so + 32);
        s5.intoArray(x, so + 40);
        s6.intoArray(x, so + 48);
        s7.intoArray(x, so + 56);
        s8.intoArray(x, so + 64);
        LongVector d0, d1, d2, d3, d4, d5, d6, d7, d8;
        {
            LongVector ts0 = a0.sub(b0);
            LongVector ts1 = a1.sub(b1);
            LongVector ts2 = a2.sub(b2);
            LongVector ts3 = a3.sub(b3);
            LongVector ts4 = a4.sub(b4);
            LongVector ts5 = a5.sub(b5);
            LongVector ts6 = a6.sub(b6);
            LongVector ts7 = a7.sub(b7);
            LongVector ts8 = a8.sub(b8);
            LongVector te0 = ts0;
            LongVector td0 = ts0.add(Q0);
            LongVector te1 = ts1.add(te0.lanewise(VectorOperators.ASHR, 29));
            LongVector td1 = ts1.add(Q1).add(td0.lanewise(VectorOperators.ASHR, 29));
            LongVector te2 = ts2.add(te1.lanewise(VectorOperators.ASHR, 29));
            LongVector td2 = ts2.add(Q2).add(td1.lanewise(VectorOperators.ASHR, 29));
            LongVector te3 = ts3.add(te2.lanewise(VectorOperators.ASHR, 29));
            LongVector td3 = ts3.add(Q3).add(td2.lanewise(VectorOperators.ASHR, 29));
            LongVector te4 = ts4.add(te3.lanewise(VectorOperators.ASHR, 29));
            LongVector td4 = ts4.add(Q4).add(td3.lanewise(VectorOperators.ASHR, 29));
            LongVector te5 = ts5.add(te4.lanewise(VectorOperators.ASHR, 29));
            LongVector td5 = ts5.add(Q5).add(td4.lanewise(VectorOperators.ASHR, 29));
            LongVector te6 = ts6.add(te5.lanewise(VectorOperators.ASHR, 29));
            LongVector td6 = ts6.add(Q6).add(td5.lanewise(VectorOperators.ASHR, 29));
            LongVector te7 = ts7.add(te6.lanewise(VectorOperators.ASHR, 29));
            LongVector td7 = ts7.add(Q7).add(td6.lanewise(VectorOperators.ASHR, 29));
            LongVector te8 = ts8.add(te7.lanewise(VectorOperators.ASHR, 29));
            LongVector td8 = ts8.add(Q8).add(td7.lanewise(VectorOperators.ASHR, 29));
            VectorMask<Long> under = te8.compare(VectorOperators.LT, 0);
            d0 = te0.and(M).blend(td0.and(M), under);
            d1 = te1.and(M).blend(td1.and(M), under);
            d2 = te2.and(M).blend(td2.and(M), under);
            d3 = te3.and(M).blend(td3.and(M), under);
            d4 = te4.and(M).blend(td4.and(M), under);
            d5 = te5.and(M).blend(td5.and(M), under);
            d6 = te6.and(M).blend(td6.and(M), under);
            d7 = te7.and(M).blend(td7.and(M), under);
            d8 = te8.and(M).blend(td8.and(M), under);
        }
        d0.intoArray(x, dO + 0);
        d1.intoArray(x, dO + 8);
        d2.intoArray(x, dO + 16);
        d3.intoArray(x, dO + 24);
        d4.intoArray(x, dO + 32);
        d5.intoArray(x, dO + 40);
        d6.intoArray(x, dO + 48);
        d7.intoArray(x, dO + 56);
        d8.intoArray(x, dO + 64);
    }
    // GENERATED END
}
