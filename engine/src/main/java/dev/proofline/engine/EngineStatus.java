package dev.proofline.engine;

import java.util.List;
import java.util.Map;

/**
 * A snapshot of an engine, for status pages and APIs: what runs, what waits, what is held.
 *
 * @param uptimeMs time since the engine started
 * @param backend the prover backend's name
 * @param devices what the backend proves on, one line each
 * @param jobsActive jobs with partitions not yet ended
 * @param jobsSubmitted jobs submitted since the start (a repeated idempotency key counts once)
 * @param partitions partitions of the active jobs, by state
 * @param scheduled partitions waiting for a permit
 * @param proverQueue partitions synthesized and waiting for a prover worker
 * @param permitsMax prover-queue permits
 * @param permitsInUse permits held by partitions
 * @param permitSizing how the permits are sized ({@code auto} or {@code fixed}), why they are that many
 *     now, and what the engine measured (per circuit and per device)
 * @param budgetTotal the memory budget
 * @param budgetReserved bytes reserved now
 * @param budgetPeak the most bytes ever reserved at once
 * @param budgetByKind reserved bytes by kind
 * @param pool the buffer pool's counters
 * @param proverBusyLastMinute share of the last minute (or of the uptime, if shorter) the prover workers spent in
 *     start: the mean over the devices
 * @param deviceStatus each device serving the prover queue: busy fraction, runs, memory
 * @param keys resident and loading proving keys
 * @param pces resident and loading PCEs
 * @param proofs partitions proved since the start
 * @param failed partitions failed since the start
 * @param cancelled partitions cancelled (or stopped by their job's end) since the start
 * @param doubleReleases releases of a permit, reservation, pooled buffer or key/PCE lease already
 *     released, since the start: each a bug, counted and otherwise ignored (0 in a healthy engine)
 * @param jobs the active jobs and the ended ones still retained, newest first
 */
public record EngineStatus(long uptimeMs, String backend, List<String> devices, int jobsActive, long jobsSubmitted,
        Map<PartitionState, Integer> partitions, int scheduled, int proverQueue, int permitsMax, int permitsInUse,
        PermitSizing permitSizing,
        long budgetTotal, long budgetReserved, long budgetPeak, Map<MemoryBudget.Kind, Long> budgetByKind,
        BufferPool.Stats pool, double proverBusyLastMinute, List<Device> deviceStatus,
        List<ResidentCache.EntryStatus> keys,
        List<ResidentCache.EntryStatus> pces, long proofs, long failed, long cancelled, long doubleReleases,
        List<JobStatus> jobs) {

    /**
     * One device of the backend in a snapshot; memory figures are -1 where the backend does not know
     * them (the CPU).
     *
     * @param index the device's number in the engine (0 .. devices - 1)
     * @param name the backend's line for it ({@link ProverBackend#devices})
     * @param busyLastMinute share of the last minute (or of the uptime, if shorter) it spent in start
     * @param proverRuns partitions it ran start for since the engine started
     * @param memoryTotalBytes its memory
     * @param memoryFreeBytes its free memory now
     * @param residentKeyBytes bytes of proving keys resident on it
     * @param residentKeys proving keys resident on it
     */
    public record Device(int index, String name, double busyLastMinute, long proverRuns, long memoryTotalBytes,
            long memoryFreeBytes, long residentKeyBytes, int residentKeys) {
    }

    /** One job in a snapshot: its partitions' states in partition order. */
    public record JobStatus(String id, Priority priority, String state, long submittedAtMillis,
            List<PartitionState> partitions) {
    }
}
