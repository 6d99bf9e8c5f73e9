package dev.proofline.api;

import java.time.Duration;
import java.util.List;

/**
 * A daemon's state ({@code GetStatus}): its backend and devices, jobs and partitions counted since it
 * started, its prover-queue permits, memory budget and keys; {@code json} is the full snapshot (as its
 * HTTP {@code GET /status}); in cluster mode {@code nodeId} and {@code clusterJson} (the nodes, partitions
 * by state and recent jobs), both empty otherwise.
 */
public record DaemonStatus(Duration uptime, String backend, List<String> devices, int jobsActive, long jobsSubmitted,
        long proofs, long failed, long cancelled, Permits permits, double proverBusyLastMinute, long budgetTotalBytes,
        long budgetReservedBytes, List<KeyState> keys, String json, String nodeId, String clusterJson) {

    /** The prover-queue permits: how many exist and are held, and how they are sized ({@code auto} or {@code fixed}) and why. */
    public record Permits(int max, int inUse, String mode, String reason) {
    }

    /** A circuit's proving key: loaded into memory or not, its size there, and how many partitions use it now. */
    public record KeyState(String circuitId, boolean resident, long bytes, int references) {
    }
}
