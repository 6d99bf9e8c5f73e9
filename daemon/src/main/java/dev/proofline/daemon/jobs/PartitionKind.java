package dev.proofline.daemon.jobs;

/**
 * What a submitted partition is: a witness, or input its circuit turns into one. A durable queue keeps
 * it as the store's kind of the same name ({@code ClusterStore.PartitionKind}, with its stored text).
 */
public enum PartitionKind {
    /** A witness: {@code .wtns} bytes. */
    WTNS,
    /** Circom input JSON (UTF-8), for a circuit whose witness generator runs in the daemon. */
    INPUT_JSON
}
