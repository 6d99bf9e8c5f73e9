package dev.proofline.algebra.ntt;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Splits an index range into pieces that the calling thread and the pool's workers claim from a
 * shared counter. The caller works too: the common pool has one worker fewer than there are cores,
 * counting on the caller, so on a 2-core machine a plain {@code pool.invoke} would run on one core.
 * A helper the pool starts late finds no piece left and returns; nobody waits for it.
 */
final class Parallel {

    /** Body of a parallel loop over [from, to). */
    @FunctionalInterface
    interface Range {
        void run(int from, int to);
    }

    private Parallel() {
    }

    /**
     * Runs {@code body} over [from, to) in pieces of at least {@code minGrain} indices, about four
     * per thread so that one slow thread does not hold the others up.
     */
    static void forRange(ForkJoinPool pool, int from, int to, int minGrain, Range body) {
        int total = to - from;
        boolean inPool = Thread.currentThread() instanceof ForkJoinWorkerThread t && t.getPool() == pool;
        int threads = pool.getParallelism() + (inPool ? 0 : 1);
        if (total <= minGrain || threads <= 1) {
            body.run(from, to);
            return;
        }
        int pieces = (int) Math.min((total + (long) minGrain - 1) / minGrain, 4L * threads);
        int size = (total + pieces - 1) / pieces;
        int count = (total + size - 1) / size;
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(count);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable claim = () -> {
            int k;
            while ((k = next.getAndIncrement()) < count) {
                try {
                    if (failure.get() == null) {
                        int lo = from + k * size;
                        body.run(lo, Math.min(to, lo + size));
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }
        };
        for (int i = 0; i < Math.min(threads, count) - 1; i++) {
            pool.execute(claim);
        }
        claim.run();
        awaitUninterruptibly(done);
        Throwable e = failure.get();
        if (e instanceof RuntimeException re) {
            throw re;
        }
        if (e instanceof Error err) {
            throw err;
        }
        if (e != null) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
