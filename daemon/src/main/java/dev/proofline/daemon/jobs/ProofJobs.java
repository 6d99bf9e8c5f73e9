package dev.proofline.daemon.jobs;

import dev.proofline.engine.EngineStatus;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Where the {@code ProvingService}'s jobs live, the one thing in which a daemon differs by its mode:
 * in its engine's memory ({@link MemoryJobs}), or in a durable queue its node proves from
 * ({@code StoredJobs}: cluster mode, or a single daemon's store). The service checks a request the
 * same way in both, then hands the job here. The jobs speak plain Java: the service converts its
 * messages to and from these types ({@code JobMessages}), and a failure is an exception that the
 * transports ({@code FailureStatus}) answer with a status: a {@link JobFailure}, a
 * {@link JobsUnavailableException} while the jobs' store is unreachable, or the engine's own.
 */
public interface ProofJobs {

    /** Queues a job whose partitions were checked against the circuit. */
    JobReceipt submit(JobRequest req) throws InterruptedException;

    /**
     * A future of the job when it ends or the timeout passes (state RUNNING), without holding a thread; it
     * fails with the job's failure when the job failed, was cancelled or passed its deadline. An unknown
     * job is a {@link JobFailure} (NOT_FOUND) thrown at once.
     */
    CompletableFuture<JobResult> await(String jobId, Duration timeout);

    /** Cancels a job; its state afterwards. */
    JobState cancel(String jobId);

    /** The status as JSON ({@code GET /status}): the engine's, with the cluster's in cluster mode. */
    String statusJson(EngineStatus s);

    /** The jobs' part of a GetStatus answer: its JSON, and in cluster mode the node and the cluster. */
    JobsStatus status(EngineStatus s);

    /**
     * A future that completes when {@code timeout} has passed, on the JDK's own timer thread: a task of
     * {@code CompletableFuture.delayedExecutor} would run on the common fork-join pool where it has more
     * than one worker, the pool the proofs' NTTs and parallel loops keep busy, so a short wait could be
     * answered only once the proofs ahead of it let go.
     */
    static CompletableFuture<Object> after(Duration timeout) {
        return new CompletableFuture<>().completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
