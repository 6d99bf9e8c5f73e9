package dev.proofline.daemon.jobs;

/**
 * A job's state as its client sees it: {@code RUNNING} until it is {@code DONE}, {@code FAILED},
 * {@code CANCELLED} or {@code DEADLINE_EXCEEDED}. The names are the API's and the stores' (a store keeps a
 * job's state as its name).
 */
public enum JobState {
    RUNNING, DONE, FAILED, CANCELLED, DEADLINE_EXCEEDED;

    /** Whether the job has ended: it is no longer {@code RUNNING}. */
    public boolean ended() {
        return this != RUNNING;
    }
}
