package dev.proofline.engine;

/**
 * What a job proves: a number of partitions, each synthesized on a CPU thread and then proved by the
 * backend. Implementations: circom keys with witnesses, Java circuits, the simulated workload.
 */
public interface JobSpec {

    /** Number of partitions (independent proofs). */
    int partitions();

    /** Bytes partition {@code p} needs while it is synthesized and proved (reserved before synthesis). */
    long workingSetBytes(int p);

    /** Synthesizes partition {@code p}: what the backend's {@code start} takes. */
    Object synthesize(int p) throws Exception;
}
