package dev.proofline.daemon.jobs;

import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.CancelProofResponse;
import dev.proofline.api.v1.GetStatusResponse;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.engine.EngineStatus;
import dev.proofline.engine.Priority;
import dev.proofline.engine.groth16.CircuitJob;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Where the {@code ProvingService}'s jobs live, the one thing in which a daemon differs by its mode:
 * in its engine's memory ({@link MemoryJobs}), or in a durable queue its node proves from
 * ({@code StoredJobs}: cluster mode, or a single daemon's store). The service checks a request the
 * same way in both, then hands the job here.
 */
public interface ProofJobs {

    /**
     * Queues a job whose partitions were checked against the circuit: {@code requested} as the client
     * sent them, {@code checked} as the engine takes them.
     */
    SubmitProofResponse submit(SubmitProofRequest req, String circuit, Priority priority, List<Partition> requested,
            List<CircuitJob.Partition> checked) throws InterruptedException;

    /** Answers when the job ends or the timeout passes (state RUNNING), without holding a thread. */
    void await(String jobId, Duration timeout, StreamObserver<AwaitProofResponse> out);

    /** Cancels a job; its state afterwards. */
    CancelProofResponse cancel(String jobId);

    /** The status as JSON ({@code GET /status}): the engine's, with the cluster's in cluster mode. */
    String statusJson(EngineStatus s);

    /** Sets the jobs' part of a GetStatus answer: its JSON, and in cluster mode the node and the cluster. */
    void status(EngineStatus s, GetStatusResponse.Builder b);

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
