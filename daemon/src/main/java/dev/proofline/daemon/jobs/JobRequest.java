package dev.proofline.daemon.jobs;

import dev.proofline.engine.Priority;
import dev.proofline.engine.groth16.CircuitJob;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * A job checked against its circuit, as {@link ProofJobs#submit} takes it: its partitions as the client
 * sent them ({@code payloads}, what a durable queue keeps) and as the engine takes them ({@code checked}).
 *
 * @param idempotencyKey the client's key, or null for none
 * @param deadline how long the job may take, or null for no deadline
 */
public record JobRequest(String circuit, Priority priority, String idempotencyKey, Duration deadline,
        List<Payload> payloads, List<CircuitJob.Partition> checked) {

    public JobRequest {
        payloads = List.copyOf(payloads);
        checked = List.copyOf(checked);
    }

    /**
     * A partition as the client sent it: its kind, and its bytes, taken only by the jobs that keep them
     * (a witness held in memory is not copied for the engine's own queue).
     */
    public record Payload(PartitionKind kind, Supplier<byte[]> bytes) {
    }
}
