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

    /**
     * Synthesizes partition {@code p} with a pooled buffer of at least {@link #workingSetBytes} bytes
     * for its vectors, valid until the backend's {@code start} returns. By default the buffer is unused.
     */
    default Object synthesize(int p, java.lang.foreign.MemorySegment buffer) throws Exception {
        return synthesize(p);
    }
}
