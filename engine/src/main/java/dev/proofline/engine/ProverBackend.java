package dev.proofline.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A prover in two halves: {@link #start} is the device region (NTTs and G1 MSMs; the prover-queue
 * permit is released right after it), {@link #finish} the CPU tail (G2 MSM, assembly, verification).
 *
 * <p>A backend may have several devices ({@link #deviceCount}); they all serve the engine's one
 * prover queue. The engine runs {@code proverWorkers} workers per device, each bound to its device,
 * and keeps a lock per device: a partition's {@link #start} runs under the lock of the device its
 * worker serves, and that worker's {@link #prepare} ran for the same device; both name it.
 *
 * <p>A backend that proves several partitions in one device call says which may go together
 * ({@link #batchKey}) and how many at most ({@link #maxBatch}); a worker then takes the partitions of
 * one key queued right behind the one it took, prepares each for its device, and hands them to
 * {@link #startBatch} at once. Each partition still leaves the prover stage on its own.
 *
 * <p>What a partition carries from stage to stage is typed: {@code prepare} takes what the job's
 * synthesis returned (any {@link JobSpec}'s, so an {@code Object}, which the backend checks once) and
 * returns the backend's {@code P}, {@code start} turns a {@code P} into the backend's {@code S}, and
 * {@code finish} takes exactly that {@code S}: the engine hands each back to the same backend. What
 * {@code finish} returns is the backend's {@code R}, a partition's result: an engine over this backend
 * answers its jobs' results as {@code R}s ({@code Engine<R>}), so that no caller casts them.
 *
 * @param <P> what {@code start} takes: the partition, staged for the device
 * @param <S> what {@code start} returns and {@code finish} takes: the device half's result
 * @param <R> what {@code finish} returns: a partition's result (a Groth16 backend's {@code ProofResult})
 */
public interface ProverBackend<P, S, R> {

    /** Short name for status and logs ("cpu", "cuda", "sim"). */
    String name();

    /** One line for a start-up log: what it proves on ("CUDA backend on 2 GPU(s): ..."). */
    default String summary() {
        return name() + " backend";
    }

    /** The devices it proves on, one line each, for status pages ("2 CPU cores", "NVIDIA H200, 143 GB, ..."). */
    default List<String> devices() {
        return List.of(Runtime.getRuntime().availableProcessors() + " CPU cores");
    }

    /** How many devices serve the prover queue (at least 1); by default one. */
    default int deviceCount() {
        return 1;
    }

    /** Where the engine's pooled buffers live for this backend. */
    default BufferPool.Memory bufferMemory() {
        return BufferPool.Memory.OFF_HEAP;
    }

    /**
     * Where {@link BufferPool.Memory#PINNED} buffers come from (page-locked host memory on a GPU
     * backend); only asked when {@link #bufferMemory} is PINNED. None by default.
     */
    default BufferPool.Allocator bufferAllocator() {
        return null;
    }

    /**
     * Host-side work before the device region (e.g. staging copies) for device {@code device}
     * (0 .. deviceCount - 1), run by a prover worker outside the device lock, so that a second worker
     * overlaps it with the first one's device work; it takes what the job's synthesis returned. By
     * default nothing: the payload itself is what {@code start} takes (a backend without staging has the
     * payload's type as {@code P}).
     */
    @SuppressWarnings("unchecked") // by default P is the payload's own type; start's parameter checks it
    default P prepare(Object synthesized, int device) throws Exception {
        return (P) synthesized;
    }

    /**
     * Runs the device half on what {@link #prepare} returned, on device {@code device}
     * (0 .. deviceCount - 1), holding that device's lock.
     */
    S start(P prepared, int device) throws Exception;

    /**
     * Which partitions may share one device call: partitions whose keys are equal (and not null) may go
     * to {@link #startBatch} together. It takes what the job's synthesis returned, as {@link #prepare}
     * does, since the engine groups partitions before a worker prepares them for its device. By default
     * null: never batch.
     */
    default Object batchKey(Object synthesized) {
        return null;
    }

    /** The most partitions one {@link #startBatch} call takes; by default 1. */
    default int maxBatch() {
        return 1;
    }

    /**
     * Runs the device half on a batch of prepared partitions of one {@link #batchKey}, on device
     * {@code device}, holding that device's lock: one started state a partition, in the batch's order. If
     * it throws, every partition of the batch fails. By default one {@link #start} a partition, in order;
     * a backend that proves several in one launch overrides it.
     */
    default List<S> startBatch(List<P> batch, int device) throws Exception {
        List<S> started = new ArrayList<>(batch.size());
        for (P prepared : batch) {
            started.add(start(prepared, device));
        }
        return started;
    }

    /** Runs the CPU tail on what {@link #start} returned; the result is the partition's proof. */
    R finish(S started) throws Exception;

    /**
     * One device's memory, read when asked, for status pages; -1 where it is not known or does not
     * apply (the CPU).
     *
     * @param totalBytes the device's memory
     * @param freeBytes what is free on it now
     * @param residentKeyBytes bytes of proving keys resident on the device
     * @param residentKeys proving keys resident on the device
     */
    record DeviceMemory(long totalBytes, long freeBytes, long residentKeyBytes, int residentKeys) {
        /** Nothing known. */
        public static final DeviceMemory UNKNOWN = new DeviceMemory(-1, -1, -1, -1);
    }

    /** The memory of each device, {@link #deviceCount} entries in device order; by default unknown. */
    default List<DeviceMemory> deviceMemory() {
        return Collections.nCopies(deviceCount(), DeviceMemory.UNKNOWN);
    }
}
