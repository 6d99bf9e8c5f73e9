package dev.proofline.api;

import java.util.List;

/**
 * A job as {@code AwaitProof} answered: its state, why it failed (empty otherwise), its partitions in
 * order (with their proofs once {@link JobState#DONE}), the cluster nodes that refused it and why (a
 * different key), and the whole answer as protobuf JSON (what {@code proofline await --json} prints).
 */
public record JobResult(String jobId, JobState state, String error, List<PartitionProof> partitions,
        List<String> refusals, String json) {
}
