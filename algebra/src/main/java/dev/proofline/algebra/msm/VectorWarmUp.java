package dev.proofline.algebra.msm;

import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When the 8-lane kernels of {@link VectorBatchAffine} are ready, per field width: a background
 * warm-up runs a kernel until C2 has compiled it and it beats the scalar code, started on request or
 * by itself once the scalar code has done {@link #WARM_UP_AFTER} additions in the kernel's place.
 */
final class VectorWarmUp {

    private VectorWarmUp() {
    }

    /** Per field width (4 or 6 words): compiled, warm-up started, warm-up done. */
    private static final AtomicBoolean[] COMPILED = flags();
    private static final AtomicBoolean[] WARMING = flags();
    private static final CountDownLatch[] WARMED = {new CountDownLatch(1), new CountDownLatch(1),
            new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1),
            new CountDownLatch(1)};
    private static final long WARM_UP_LIMIT_NANOS = 60_000_000_000L;
    /** Per field width: additions done by the scalar code so far, in batches the kernel was not ready for. */
    private static final AtomicLong[] SCALAR_WORK = {new AtomicLong(), new AtomicLong(), new AtomicLong(),
            new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()};
    /**
     * Scalar additions after which the warm-up starts by itself (seconds of one core's work). The
     * warm-up takes a core for a few seconds; a one-off 2^17 proof (about 8 M additions in its four G1
     * MSMs) does not get that back: started by its first MSM, it made the proof slower
     * (docs/decisions/0007-whole-proofs-against-snarkjs.md). A long-running prover, or one MSM of 2^20
     * points (17 M additions), passes it soon.
     */
    static final long WARM_UP_AFTER = 1L << 24;

    private static AtomicBoolean[] flags() {
        AtomicBoolean[] a = new AtomicBoolean[7];
        for (int i = 0; i < a.length; i++) {
            a[i] = new AtomicBoolean();
        }
        return a;
    }

    /** Whether the kernel for fields of this many words has beaten the scalar code in the warm-up. */
    static boolean compiled(int width) {
        return COMPILED[width].get();
    }

    /** Counts additions the scalar code did in the kernel's place for {@code f}; enough of them start the warm-up. */
    static void scalarWork(PrimeField f, int additions) {
        int fw = f.width();
        if (!COMPILED[fw].get() && SCALAR_WORK[fw].addAndGet(additions) >= WARM_UP_AFTER) {
            start(f);
        }
    }

    /** Starts the warm-up for {@code f} if it has not started, and waits for it at most that long. */
    static void warmUp(PrimeField f, long timeoutMillis) throws InterruptedException {
        start(f);
        WARMED[f.width()].await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Whether the warm-up of the kernel for fields of this many words has started and not ended. */
    static boolean running(int width) {
        return WARMING[width].get() && WARMED[width].getCount() > 0;
    }

    /** Whether the warm-up of the kernel for fields of this many words has started (for tests). */
    static boolean started(int width) {
        return WARMING[width].get();
    }

    private static void start(PrimeField field) {
        if (!WARMING[field.width()].compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> run((PrimeField) field.forThread()), "proofline-msm-vector-warm-up");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Runs the kernel on random batches until it is faster than the scalar multiplications alone of the
     * same batch (six a point) three times in a row, which it is only once C2 has compiled it.
     */
    private static void run(PrimeField f) {
        final int m = 1024;
        Batch batch = Batch.random(f, m);
        final int aw = batch.aw();
        VectorBatchAffine k = VectorBatchAffine.create(f, true);
        long[] a = new long[f.width()];
        f.setOne(a, 0);
        long[] b = batch.src().clone();
        long start = System.nanoTime();
        int wins = 0;
        while (wins < 3 && System.nanoTime() - start < WARM_UP_LIMIT_NANOS) {
            long t0 = System.nanoTime();
            batch.completeWith(k);
            long t1 = System.nanoTime();
            for (int j = 0; j < 6 * m; j++) {
                f.mul(a, 0, b, (j % m) * aw, a, 0);
            }
            long t2 = System.nanoTime();
            wins = t1 - t0 < t2 - t1 ? wins + 1 : 0;
        }
        sink = a[0];
        COMPILED[f.width()].set(wins >= 3);
        WARMED[f.width()].countDown();
    }

    static volatile long sink;

    /**
     * A batch of m additions in the kernel's layout: destination j plus or minus source j (the sign at
     * random), both random points' worth of field elements (what the warm-up and {@code BatchKernelTiming}
     * time, not points on the curve).
     */
    record Batch(int m, int aw, long[] dst, long[] src, int[] eDst, int[] eSrc, boolean[] eNeg, boolean[] set) {

        /** The same batch every time for a field (a fixed seed). */
        static Batch random(PrimeField f, int m) {
            int aw = 2 * f.width();
            Random rnd = new Random(1);
            long[] dst = new long[m * aw];
            long[] src = new long[m * aw];
            for (int i = 0; i < m * aw; i += f.width()) {
                f.fromBigInteger(new BigInteger(f.bits() + 8, rnd).mod(f.modulus()), dst, i);
                f.fromBigInteger(new BigInteger(f.bits() + 8, rnd).mod(f.modulus()), src, i);
            }
            int[] eDst = new int[m];
            int[] eSrc = new int[m];
            boolean[] eNeg = new boolean[m];
            for (int j = 0; j < m; j++) {
                eDst[j] = j;
                eSrc[j] = j * aw;
                eNeg[j] = rnd.nextBoolean();
            }
            return new Batch(m, aw, dst, src, eDst, eSrc, eNeg, new boolean[m]);
        }

        /** Completes the batch with the kernel, every destination set first. */
        void completeWith(VectorBatchAffine k) {
            java.util.Arrays.fill(set, true);
            k.completeBatch(dst, set, src, eDst, eSrc, eNeg, m, aw);
        }
    }
}
