package dev.proofline.engine;

import java.util.List;

/**
 * What a job proves: a number of partitions, each synthesized on a CPU thread and then proved by the
 * backend. Implementations: the Groth16 layer's {@code CircuitJob} (registered circom or Java circuits);
 * the simulated workloads of the tests and of the bench commands.
 *
 * <p>Memory: before partition p's synthesis starts, the engine calls {@link #lease}, reserves the size
 * classes of its {@link #bufferSizes} plus its {@link #extraBytes}, then checks the buffers out of its
 * pool; all of it goes back right after the backend's {@code start}.
 *
 * @param <T> what its synthesis yields for the backend's {@code prepare} (for a {@code CircuitJob}, its
 *     {@code CircuitJob.Payload})
 */
public interface JobSpec<T> {

    /** Number of partitions (independent proofs). */
    int partitions();

    /** What the engine's measurements are kept under (per circuit, in the status): by default the kind of job. */
    default String label() {
        return getClass().getSimpleName();
    }

    /** Bytes partition {@code p} needs while it is synthesized and proved: by default one pooled buffer of this size. */
    long workingSetBytes(int p);

    /** Sizes of the pooled buffers partition {@code p} computes in; by default one of {@link #workingSetBytes}. */
    default long[] bufferSizes(int p) {
        return new long[] {workingSetBytes(p)};
    }

    /** Bytes partition {@code p} holds outside its pooled buffers (reserved with them); by default none. */
    default long extraBytes(int p) {
        return 0;
    }

    /**
     * As {@link #bufferSizes(int)}, for a pool of {@code memory} buffers (the engine asks this one); by
     * default the same whatever the memory.
     */
    default long[] bufferSizes(int p, BufferPool.Memory memory) {
        return bufferSizes(p);
    }

    /** As {@link #extraBytes(int)}, for a pool of {@code memory} buffers (the engine asks this one). */
    default long extraBytes(int p, BufferPool.Memory memory) {
        return extraBytes(p);
    }

    /**
     * Takes what partition {@code p} shares with other partitions and that is paid for outside its own
     * bytes (its circuit's key and PCE), before the engine reserves those bytes: so that reserving them
     * cannot evict what the partition is about to use, and a load waits with nothing else held.
     * {@link #release} lets it go. By default nothing.
     */
    default void lease(int p) throws Exception {
    }

    /** Synthesizes partition {@code p}: what the backend's {@code start} takes. */
    T synthesize(int p) throws Exception;

    /**
     * Synthesizes partition {@code p} with its pooled buffers (sizes as {@link #bufferSizes}, in that
     * order), valid until the backend's {@code start} returns. By default the buffers are unused.
     */
    default T synthesize(int p, List<BufferPool.Buffer> buffers) throws Exception {
        return synthesize(p);
    }

    /**
     * Called exactly once when partition {@code p} ends, however it ends (also when it never reached
     * synthesis): lets go of what {@link #synthesize} took for it, such as key references.
     */
    default void release(int p) {
    }
}
