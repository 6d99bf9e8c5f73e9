package dev.proofline.engine.groth16;

import dev.proofline.engine.BufferPool;
import dev.proofline.engine.ProverBackend;
import dev.proofline.groth16.ProofSums;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.Step;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A Groth16 prover backend, the part that runs on its devices: the one contract a backend implements
 * (docs/backends.md). The engine runs it through {@link DeviceBackendAdapter}, which does the rest of
 * every proof the same way for all backends: B in G2 where the device did not compute it, assembly with
 * r and s, and verification ({@link Prover#finish}).
 *
 * <p>A partition goes through two calls, each with the {@link DeviceContext} of the device the engine's
 * worker serves:
 * <ol>
 *   <li>{@link #stage}, outside the device's lock: host-side work on what synthesis gave (a
 *       {@link CircuitJob.Payload}: heap or native vectors, as {@link #bufferMemory} asked), so that a
 *       second worker of the device overlaps it with the first one's device work. It returns the
 *       backend's own staged form {@code S}.
 *   <li>{@link #sums(DeviceContext, Batch)}, holding the device's lock: the heavy half (H by NTTs, the
 *       G1 MSMs, optionally B in G2) for a batch of staged partitions of one key, as typed
 *       {@link ProofSums}, one per partition, in order. A backend that cannot batch implements
 *       {@link #sums(DeviceContext, Object)} and takes a batch one partition at a time (the default);
 *       one that can says how many at most in {@link #maxBatch}.
 * </ol>
 * The engine's pooled buffers go back when {@code sums} returns: a backend must be done with them.
 *
 * @param <S> a partition staged for the device
 */
public interface DeviceBackend<S> extends AutoCloseable {

    /** Short name for status and logs ("cpu", "cuda"); the name configurations use. */
    String name();

    /** One line for a start-up log: what it proves on. */
    default String summary() {
        return name() + " backend";
    }

    /** How many devices serve the engine's prover queue (each with its own lock and workers); at least 1. */
    default int deviceCount() {
        return 1;
    }

    /** One line a device, for status pages; {@link #deviceCount} lines. */
    default List<String> devices() {
        return List.of(Runtime.getRuntime().availableProcessors() + " CPU cores");
    }

    /** Each device's memory now, {@link #deviceCount} entries; by default unknown. */
    default List<ProverBackend.DeviceMemory> deviceMemory() {
        return Collections.nCopies(deviceCount(), ProverBackend.DeviceMemory.UNKNOWN);
    }

    /**
     * Where the engine's pooled buffers live, which decides what synthesis gives {@link #stage}:
     * {@link BufferPool.Memory#PINNED} gives {@link CircuitJob.NativeSynthesized}, the others
     * {@link CircuitJob.HeapSynthesized}. By default the heap.
     */
    default BufferPool.Memory bufferMemory() {
        return BufferPool.Memory.HEAP;
    }

    /** Where {@link BufferPool.Memory#PINNED} buffers come from; only asked when {@link #bufferMemory} is PINNED. */
    default BufferPool.Allocator bufferAllocator() {
        return null;
    }

    /**
     * Whether the device computes a, b, c of proofs with {@code key} from the key's coefficients and the
     * witness: a circuit job then leaves them out of synthesis (and loads no PCE), and its payload's
     * {@code rows} is -1 with the vectors unwritten. By default no.
     */
    default boolean computesAbc(ProvingKey key) {
        return false;
    }

    /** Host-side work on one partition, outside the device's lock: what {@link #sums} will take. */
    S stage(DeviceContext context, CircuitJob.Payload partition) throws Exception;

    /** The heavy half of one staged partition, holding the device's lock. */
    ProofSums sums(DeviceContext context, S staged) throws Exception;

    /**
     * The heavy half of a batch of partitions of one key, holding the device's lock: one sums a
     * partition, in the batch's order. By default one partition at a time; a backend that proves several
     * in one launch overrides this.
     */
    default List<ProofSums> sums(DeviceContext context, Batch<S> batch) throws Exception {
        List<ProofSums> out = new ArrayList<>(batch.size());
        for (S s : batch.partitions()) {
            out.add(sums(context, s));
        }
        return out;
    }

    /**
     * The most partitions one {@link #sums(DeviceContext, Batch)} call takes. By default 1: the engine
     * then hands over one partition at a time. A backend that says more gets batches of partitions of one
     * key that were queued together, never waited for.
     */
    default int maxBatch() {
        return 1;
    }

    /** Frees the devices; called after the engine that used the backend has closed. Nothing by default. */
    @Override
    default void close() {
    }

    /**
     * Where a call runs: the device (0 .. {@link #deviceCount} - 1; what a GPU backend calls a lane) and
     * the prover whose settings the engine was opened with (its randomness, its listener), for the CPU
     * parts a backend runs itself ({@link Prover#prepare}, {@link Prover#abc}).
     */
    record DeviceContext(int device, Prover prover) {
        /** Tells the prover's listener that {@code step} begins (for a step the device runs itself). */
        public void step(Step step) {
            prover.listener().step(step);
        }
    }

    /**
     * Staged partitions of one key, proved together.
     *
     * @param key the key all of them are proved with
     * @param partitions at least one, in the order their sums are returned
     */
    record Batch<S>(ProvingKey key, List<S> partitions) {
        public Batch {
            partitions = List.copyOf(partitions);
            if (partitions.isEmpty()) {
                throw new IllegalArgumentException("a batch holds at least one partition");
            }
        }

        public int size() {
            return partitions.size();
        }
    }
}
