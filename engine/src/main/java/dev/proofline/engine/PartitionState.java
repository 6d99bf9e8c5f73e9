package dev.proofline.engine;

/** Where a partition is in the pipeline. */
public enum PartitionState {
    QUEUED, SYNTHESIZING, WAITING_FOR_PROVER, PROVING, FINALIZING, DONE, FAILED, CANCELLED;

    public boolean isFinal() {
        return this == DONE || this == FAILED || this == CANCELLED;
    }
}
