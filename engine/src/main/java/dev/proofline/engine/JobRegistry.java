package dev.proofline.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The jobs an engine knows: by id while they run and for the retention time after they ended, by
 * idempotency key for as long, and their deadlines.
 */
final class JobRegistry<R> {

    private final Duration retention;
    /** Deadlines and result retention: one timer thread, each job's expiry scheduled once (no polling). */
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
            NamedThreads.daemons("deadlines", 0));
    private final AtomicInteger ids = new AtomicInteger();
    private final AtomicLong submitted = new AtomicLong();
    /** Jobs by id: running ones, and ended ones for {@code retention}. */
    private final ConcurrentHashMap<String, SubmittedJob<R>> jobs = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, SubmittedJob<R>> byKey = new ConcurrentHashMap<>();
    private volatile boolean closed;

    JobRegistry(Duration retention) {
        this.retention = retention;
    }

    /** A fresh id: job-1-..., job-2-..., each with a random part ({@link JobIds}). */
    String nextId() {
        return JobIds.of(ids.incrementAndGet());
    }

    /**
     * Adds a job under its id and schedules its deadline (when not null), at which it fails.
     *
     * @throws IllegalArgumentException when a job with that id is still known
     */
    void add(SubmittedJob<R> job, Duration deadline) {
        if (jobs.putIfAbsent(job.id(), job) != null) {
            throw new IllegalArgumentException("a job named '" + job.id() + "' is already known to the engine");
        }
        submitted.incrementAndGet();
        if (deadline != null) {
            timers.schedule(() -> job.expire(deadline), deadline.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /**
     * The job known under {@code idempotencyKey}, whatever its state; when there is none, the one
     * {@code create} makes (it {@link #add}s it), which then goes to {@code enqueue}.
     */
    SubmittedJob<R> once(String idempotencyKey, Supplier<SubmittedJob<R>> create, Consumer<SubmittedJob<R>> enqueue) {
        boolean[] created = new boolean[1];
        SubmittedJob<R> job = byKey.computeIfAbsent(idempotencyKey, k -> {
            created[0] = true;
            return create.get();
        });
        if (created[0]) {
            enqueue.accept(job);
        }
        return job;
    }

    Optional<SubmittedJob<R>> find(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** The jobs known now, running and retained, in no order. */
    List<SubmittedJob<R>> all() {
        return new ArrayList<>(jobs.values());
    }

    /** Jobs added since the start (a repeated idempotency key counts once). */
    long submitted() {
        return submitted.get();
    }

    /** Every partition of the job ended: it stays findable (by id and idempotency key) for the retention time. */
    void retire(SubmittedJob<R> job) {
        Runnable forget = () -> {
            jobs.remove(job.id(), job);
            byKey.values().remove(job);
        };
        if (closed) {
            return;
        }
        try {
            timers.schedule(forget, retention.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            forget.run(); // closing
        }
    }

    /**
     * The engine is closing: jobs ending from now on stay findable (no timer forgets them), and every
     * job still known fails with {@code cause(id)} (those already over are left as they are).
     */
    void failAll(Function<String, Throwable> cause) {
        closed = true;
        for (SubmittedJob<R> j : jobs.values()) {
            j.fail(cause.apply(j.id()));
        }
    }

    /** Stops the timer thread: pending deadlines and retention timers are dropped. */
    void stopTimers() {
        timers.shutdownNow();
    }
}
