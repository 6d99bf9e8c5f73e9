package dev.proofline.api;

/**
 * Where a job stands. {@link ProoflineClient#await} answers {@link #RUNNING} or {@link #DONE} (a job that
 * ended without proofs is a {@link DaemonException} with its code); {@link ProoflineClient#cancel}
 * answers any of them: the state the job is in after the call.
 */
public enum JobState {
    /** Queued or being proved: the wait ended first. */
    RUNNING,
    /** Every partition proved; the proofs are in the result. */
    DONE,
    /** A partition failed. */
    FAILED,
    CANCELLED,
    /** The job's deadline passed before it was done. */
    DEADLINE_EXCEEDED;

    /** Whether the job has ended (it will not change again). */
    public boolean ended() {
        return this != RUNNING;
    }
}
