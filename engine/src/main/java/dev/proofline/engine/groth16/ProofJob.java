package dev.proofline.engine.groth16;

import dev.proofline.engine.Engine;
import dev.proofline.groth16.ProofWithSignals;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * A job submitted through {@link CircuitProver}: an {@link Engine.Job} whose results are typed, one
 * {@link ProofWithSignals} per partition, in partition order.
 */
public final class ProofJob {

    /**
     * The job failed: {@link #getCause()} is why (a partition's error, or a passed deadline's
     * {@link TimeoutException}).
     */
    public static final class FailedException extends RuntimeException {
        FailedException(String jobId, Throwable cause) {
            super(jobId + " failed: " + cause.getMessage(), cause);
        }
    }

    private final Engine.Job<ProofResult> job;

    ProofJob(Engine.Job<ProofResult> job) {
        this.job = job;
    }

    public String id() {
        return job.id();
    }

    /**
     * The proofs, waiting at most {@code timeout} for them.
     *
     * @throws TimeoutException when the job is still running after {@code timeout} (it goes on: {@link #cancel})
     * @throws FailedException when the job failed, with the failure as its cause
     * @throws CancellationException when the job was cancelled
     * @throws InterruptedException when this thread was interrupted while it waited (the job goes on)
     */
    public List<ProofWithSignals> await(Duration timeout) throws InterruptedException, TimeoutException {
        try {
            return proofs(job.await(timeout));
        } catch (ExecutionException e) {
            throw new FailedException(job.id(), e.getCause());
        }
    }

    /**
     * The proofs when they are all made; completed exceptionally when the job fails (with a
     * {@link FailedException}) or is cancelled (with a {@link CancellationException}).
     */
    public CompletableFuture<List<ProofWithSignals>> result() {
        return job.result().handle((done, failure) -> {
            if (failure == null) {
                return proofs(done);
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                    : failure;
            throw cause instanceof CancellationException c ? c : new FailedException(job.id(), cause);
        });
    }

    /** Cancels the job: queued partitions end now, running ones at their next stage boundary. */
    public void cancel() {
        job.cancel();
    }

    /** Partition {@code p}'s stage times once it ended; null before. */
    public Engine.Timings timings(int p) {
        return job.timings(p);
    }

    /** The engine's job (states, timings, its results as the backend's {@link ProofResult}s). */
    public Engine.Job<ProofResult> engineJob() {
        return job;
    }

    private static List<ProofWithSignals> proofs(List<ProofResult> results) {
        return results.stream().map(ProofResult::toProofWithSignals).toList();
    }
}
