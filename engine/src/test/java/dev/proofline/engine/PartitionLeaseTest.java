package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PartitionLeaseTest {

    private static final long MIB = 1 << 20;

    @Test
    void leavingTheProverStageGivesBackBuffersBytesAndPermitButKeepsTheSpecsLeasesUntilClose() {
        MemoryBudget budget = new MemoryBudget(64 * MIB);
        BufferPool pool = new BufferPool(budget);
        ProverPermits permits = new ProverPermits(1);
        AtomicInteger specReleases = new AtomicInteger();
        AtomicLong doubleCloses = new AtomicLong();
        PartitionLease lease = new PartitionLease(specReleases::incrementAndGet, doubleCloses);
        lease.holdPermit(permits.tryAcquire().orElseThrow());
        lease.holdReservation(budget.tryAcquire(2 * MIB, MemoryBudget.Kind.PARTITION).orElseThrow());
        lease.holdBuffer(pool, pool.checkout(MIB));
        lease.holdBuffer(pool, pool.checkout(MIB));
        assertEquals(2 * MIB, budget.reserved());

        lease.leaveProverStage();
        assertEquals(1, permits.available(), "the permit is back");
        assertEquals(0, budget.reserved(MemoryBudget.Kind.PARTITION), "the partition's bytes are back");
        assertEquals(2 * MIB, pool.stats().idleBytes(), "its buffers idle in the pool, paid by the pool");
        assertEquals(2 * MIB, budget.reserved(), "never more than the buffers' bytes");
        assertEquals(0, specReleases.get(), "key and PCE leases stay until the partition ends");

        lease.close();
        assertEquals(1, specReleases.get());
        lease.close();
        assertEquals(1, specReleases.get(), "a second close gives nothing back twice");
        assertEquals(1, doubleCloses.get(), "and is counted");
        assertEquals(0, permits.doubleReleases());
        assertEquals(0, pool.doubleReleases());
        assertEquals(0, budget.doubleReleases());
    }

    @Test
    void closingAPartitionThatNeverReachedTheProverGivesBackWhatItTookSoFar() {
        MemoryBudget budget = new MemoryBudget(64 * MIB);
        BufferPool pool = new BufferPool(budget);
        ProverPermits permits = new ProverPermits(1);
        AtomicInteger specReleases = new AtomicInteger();
        PartitionLease lease = new PartitionLease(specReleases::incrementAndGet, new AtomicLong());
        lease.holdPermit(permits.tryAcquire().orElseThrow());
        lease.holdReservation(budget.tryAcquire(2 * MIB, MemoryBudget.Kind.PARTITION).orElseThrow());
        lease.holdBuffer(pool, pool.checkout(MIB)); // the second checkout never happened (a failure)
        lease.close();
        assertEquals(1, permits.available());
        assertEquals(0, budget.reserved(MemoryBudget.Kind.PARTITION));
        assertEquals(0, pool.stats().outBytes());
        assertEquals(1, specReleases.get());
        assertFalse(lease.buffers().iterator().hasNext());
    }
}
