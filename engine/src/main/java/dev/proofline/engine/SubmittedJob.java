package dev.proofline.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A submitted job's state machine: each partition's state, result and timings, and the job's one
 * outcome (its proofs in partition order, its first failure, a cancellation or its deadline). The
 * partition arrays are guarded by this object's lock; the outcome is the future's, completed once.
 *
 * @param <R> a partition's result: what the engine's backend's {@code finish} returns
 */
final class SubmittedJob<R> implements Engine.Job<R> {

    private final String id;
    private final JobSpec<?> spec;
    private final Priority priority;
    private final Timeline timeline;
    /**
     * The engine's part when the job ends early (cancelled, failed or past its deadline): its
     * partitions still queued end now; the running ones stop at their next stage boundary.
     */
    private final Consumer<? super SubmittedJob<R>> stopped;
    /** The engine's part when every partition ended: the job stays findable for the retention time. */
    private final Consumer<? super SubmittedJob<R>> allPartitionsEnded;
    private final Object[] results;
    private final PartitionState[] states;
    private final Engine.Timings[] timings;
    private final CompletableFuture<List<R>> done = new CompletableFuture<>();
    private final long submittedNanos = System.nanoTime();
    private final Instant submittedAt = Instant.now();
    private int remaining;

    SubmittedJob(String id, JobSpec<?> spec, Priority priority, Timeline timeline,
            Consumer<? super SubmittedJob<R>> stopped, Consumer<? super SubmittedJob<R>> allPartitionsEnded) {
        this.id = id;
        this.spec = spec;
        this.priority = priority;
        this.timeline = timeline;
        this.stopped = stopped;
        this.allPartitionsEnded = allPartitionsEnded;
        this.results = new Object[spec.partitions()];
        this.states = new PartitionState[spec.partitions()];
        this.timings = new Engine.Timings[spec.partitions()];
        Arrays.fill(states, PartitionState.QUEUED);
        this.remaining = spec.partitions();
    }

    @Override
    public String id() {
        return id;
    }

    long submittedNanos() {
        return submittedNanos;
    }

    @Override
    public Priority priority() {
        return priority;
    }

    @Override
    public JobSpec<?> spec() {
        return spec;
    }

    @Override
    public int partitions() {
        return states.length;
    }

    @Override
    public Instant submittedAt() {
        return submittedAt;
    }

    @Override
    public CompletableFuture<List<R>> result() {
        return done;
    }

    @Override
    public List<R> await(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        return done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public synchronized PartitionState state(int partition) {
        return states[partition];
    }

    @Override
    public synchronized List<PartitionState> states() {
        return List.of(states.clone());
    }

    @Override
    public synchronized Engine.Timings timings(int partition) {
        return timings[partition];
    }

    @Override
    public synchronized double totalMs() {
        double max = 0;
        for (Engine.Timings t : timings) {
            if (t != null) {
                max = Math.max(max, t.totalMs());
            }
        }
        return max;
    }

    @Override
    public void cancel() {
        if (done.isDone()) {
            return;
        }
        if (done.cancel(false)) {
            timeline.record(id, -1, Timeline.Kind.CANCELLED, "");
            stopped.accept(this);
        }
    }

    @Override
    public boolean isCancelled() {
        return done.isCancelled();
    }

    @Override
    public boolean isOver() {
        return done.isDone();
    }

    /** The job's outcome in a status line: running, cancelled, failed or done. */
    String outcome() {
        return !done.isDone() ? "running" : done.isCancelled() ? "cancelled"
                : done.isCompletedExceptionally() ? "failed" : "done";
    }

    /** Fails the job: its queued partitions end now, running ones at their next stage boundary. */
    void fail(Throwable cause) {
        if (done.completeExceptionally(cause)) {
            timeline.record(id, -1, Timeline.Kind.FAILED, String.valueOf(cause.getMessage()));
            stopped.accept(this);
        }
    }

    /** Fails the job with a timeout: its partitions stop at their next stage boundary. */
    void expire(Duration after) {
        if (done.completeExceptionally(new TimeoutException(
                id + " did not finish within its deadline of " + after.toMillis() + " ms"))) {
            timeline.record(id, -1, Timeline.Kind.FAILED, "deadline");
            stopped.accept(this);
        }
    }

    /** Partition {@code partition} moved to stage {@code s}; a partition that ended stays ended. */
    synchronized void state(int partition, PartitionState s) {
        if (!states[partition].isFinal()) {
            states[partition] = s;
        }
    }

    /**
     * Marks the partition ended; completes the job when all are. {@code result} is what the engine's
     * backend's {@code finish} returned (null unless the partition is done), so an {@code R}: the engine
     * that made this job has a backend of results {@code R}, and the stages between hand it on untyped.
     */
    void ended(int partition, PartitionState s, Object result, Throwable failure, Engine.Timings t) {
        boolean last;
        synchronized (this) {
            if (states[partition].isFinal()) {
                return;
            }
            states[partition] = s;
            results[partition] = result;
            timings[partition] = t;
            last = --remaining == 0;
        }
        if (last) {
            allPartitionsEnded.accept(this);
        }
        if (failure != null) {
            if (done.completeExceptionally(failure)) {
                stopped.accept(this);
            }
        } else if (last && s == PartitionState.DONE && !done.isDone()) {
            // not done yet: no partition failed or was cancelled, so every result is in
            timeline.record(id, -1, Timeline.Kind.JOB_DONE, spec.partitions() + " proofs");
            done.complete(proofs());
        }
    }

    @SuppressWarnings("unchecked") // each is what the engine's ProverBackend<?, ?, R>'s finish returned (see ended)
    private List<R> proofs() {
        Object[] all;
        synchronized (this) {
            all = results.clone();
        }
        return Collections.unmodifiableList(Arrays.asList((R[]) all));
    }
}
