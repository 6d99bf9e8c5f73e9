package dev.proofline.algebra;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * The one way the kernels cut work among threads: numbered tasks, taken from a shared counter by the
 * calling thread and by runners forked into the common fork-join pool. A failure stops the others
 * after their current task and is thrown to the caller, the others' failures suppressed in it.
 */
public final class Parallel {

    private Parallel() {
    }

    /**
     * Runs tasks 0..tasks-1 on up to {@code threads} threads. Each runner builds its per-thread state
     * ({@code perThread}) once, on its first task.
     */
    public static void run(int threads, int tasks, Supplier<IntConsumer> perThread) {
        if (tasks <= 0) {
            return;
        }
        AtomicInteger next = new AtomicInteger();
        Runnable runner = () -> {
            IntConsumer body = null;
            try {
                for (int t; (t = next.getAndIncrement()) < tasks; ) {
                    if (body == null) {
                        body = perThread.get();
                    }
                    body.accept(t);
                }
            } catch (RuntimeException | Error e) {
                next.set(tasks); // the others stop after their current task
                throw e;
            }
        };
        int forks = Math.min(threads, tasks) - 1;
        List<ForkJoinTask<?>> forked = new ArrayList<>(forks);
        for (int i = 0; i < forks; i++) {
            forked.add(ForkJoinTask.adapt(runner).fork());
        }
        Throwable failure = null;
        try {
            runner.run();
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        for (ForkJoinTask<?> f : forked) {
            try {
                f.join();
            } catch (RuntimeException | Error e) {
                if (failure == null) {
                    failure = e;
                } else if (failure != e) {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
    }

    /** A body run on a range [lo, hi) of indices. */
    @FunctionalInterface
    public interface Range {
        void run(int lo, int hi);
    }

    /**
     * Runs {@code body} over [0, n) cut into ranges of {@code chunk} indices, on as many threads as
     * there are processors.
     */
    public static void chunks(int n, int chunk, Range body) {
        int tasks = (n + chunk - 1) / chunk;
        run(Runtime.getRuntime().availableProcessors(), tasks,
                () -> t -> body.run(t * chunk, Math.min(n, (t + 1) * chunk)));
    }
}
