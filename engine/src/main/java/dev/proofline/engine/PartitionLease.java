package dev.proofline.engine;

import dev.proofline.engine.MemoryBudget.Reservation;
import dev.proofline.engine.ProverPermits.Permit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything one partition holds, with one owner: its prover-queue permit (from dispatch), its memory
 * reservation and its pooled buffers (from synthesis), and its job spec's shared leases, its circuit's
 * key and PCE ({@link JobSpec#lease}, released by {@link JobSpec#release}). Given back in two steps,
 * each exactly once whatever the path:
 * <ol>
 *   <li>{@link #leaveProverStage}, when the prover is done with the partition's memory: its buffers go
 *       into the pool, their bytes moving from the partition's reservation to the pool's in one step;
 *       then the rest of its bytes go back to the budget; then its permit, which starts the next
 *       synthesis. In that order a live buffer is paid for by someone at every moment;</li>
 *   <li>{@link #close}, when the partition ends: whatever step 1 left (a partition that failed or was
 *       cancelled before the prover), then the spec's leases.</li>
 * </ol>
 * A second close changes nothing and is counted (the engine's {@code doubleReleases}): it is a bug.
 * The methods are synchronized: a partition is handled by one stage at a time, but an engine closing
 * under a synthesis that outlives it may end the partition from another thread.
 */
final class PartitionLease implements AutoCloseable {

    private final Runnable specRelease;
    private final AtomicLong doubleCloses;
    private Permit permit;
    private Reservation reservation;
    private BufferPool pool;
    private List<BufferPool.Buffer> buffers;
    private boolean closed;

    /** {@code specRelease}: the job spec's release of this partition; {@code doubleCloses}: where a second close counts. */
    PartitionLease(Runnable specRelease, AtomicLong doubleCloses) {
        this.specRelease = specRelease;
        this.doubleCloses = doubleCloses;
    }

    /** The permit dispatch granted; handed on by {@link #leaveProverStage}. */
    synchronized void holdPermit(Permit p) {
        permit = p;
    }

    /** The partition's reservation: its buffers' size classes and its other bytes. */
    synchronized void holdReservation(Reservation r) {
        reservation = r;
    }

    /** A buffer checked out of {@code from} for this partition, paid for by its reservation. */
    synchronized void holdBuffer(BufferPool from, BufferPool.Buffer b) {
        pool = from;
        if (buffers == null) {
            buffers = new ArrayList<>();
        }
        buffers.add(b);
    }

    /** The buffers held, in the order they were checked out. */
    synchronized List<BufferPool.Buffer> buffers() {
        return buffers == null ? List.of() : List.copyOf(buffers);
    }

    /** Bytes the partition's reservation holds now (0 without one). */
    synchronized long reservedBytes() {
        return reservation == null ? 0 : reservation.bytes();
    }

    /** Step 1: buffers into the pool (paid throughout), then the reservation, then the permit. */
    synchronized void leaveProverStage() {
        if (buffers != null) {
            for (BufferPool.Buffer b : buffers) {
                pool.checkin(b, reservation);
            }
            buffers = null;
        }
        if (reservation != null) {
            reservation.close();
            reservation = null;
        }
        if (permit != null) {
            Permit p = permit;
            permit = null;
            p.close();
        }
    }

    /**
     * Step 2: what step 1 left, then the job spec's leases. A throw of the spec's release is passed on
     * (everything else was given back first).
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                doubleCloses.incrementAndGet();
                return;
            }
            closed = true;
        }
        leaveProverStage();
        specRelease.run();
    }
}
