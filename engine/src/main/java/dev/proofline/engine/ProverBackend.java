package dev.proofline.engine;

/**
 * A prover in two halves: {@link #start} is the device region (NTTs and G1 MSMs; the prover-queue
 * permit is released right after it), {@link #finish} the CPU tail (G2 MSM, assembly, verification).
 */
public interface ProverBackend {

    /** Short name for status and logs ("cpu", "cuda", "sim"). */
    String name();

    /** The devices it proves on, one line each, for status pages ("2 CPU cores", "NVIDIA H200, 143 GB, ..."). */
    default java.util.List<String> devices() {
        return java.util.List.of(Runtime.getRuntime().availableProcessors() + " CPU cores");
    }

    /** Where the engine's pooled buffers live for this backend. */
    default BufferPool.Memory bufferMemory() {
        return BufferPool.Memory.OFF_HEAP;
    }

    /**
     * Host-side work before the device region (e.g. staging copies), run by a prover worker outside
     * the device lock, so that a second worker overlaps it with the first one's device work. By
     * default nothing.
     */
    default Object prepare(Object synthesized) throws Exception {
        return synthesized;
    }

    /** Runs the device half on what {@link #prepare} returned, holding the device lock. */
    Object start(Object synthesized) throws Exception;

    /** Runs the CPU tail on what {@link #start} returned; the result is the partition's proof. */
    Object finish(Object started) throws Exception;
}
