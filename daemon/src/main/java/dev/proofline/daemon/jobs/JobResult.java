package dev.proofline.daemon.jobs;

import dev.proofline.engine.Engine;
import java.util.List;

/**
 * A job as a wait answers it: its state ({@code RUNNING} when the wait ran out first), the nodes that
 * refused its circuit, its error, and each partition's state, timings and proof.
 *
 * @param error why the job failed, or null
 */
public record JobResult(String jobId, JobState state, String error, List<String> refusals, List<Part> partitions) {

    public JobResult {
        refusals = List.copyOf(refusals);
        partitions = List.copyOf(partitions);
    }

    /**
     * One partition of the job.
     *
     * @param state the partition's state (a client reads it as {@link PartitionState#wire})
     * @param node the node that holds or proved it, or null (a daemon without a store)
     * @param timings how long its stages took, or null while they are unknown
     * @param proofJson its proof as snarkjs JSON, or null until it is proved
     * @param proofBinary its proof in the binary encoding, or null until it is proved
     */
    public record Part(int index, PartitionState state, String node, Engine.Timings timings, String proofJson, byte[] proofBinary,
            List<String> publicSignals) {
    }
}
