package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.engine.MemoryBudget.Kind;
import dev.proofline.engine.MemoryBudget.Reservation;
import org.junit.jupiter.api.Test;

class BufferPoolTest {

    private static final long MB = 1 << 20;

    @Test
    void sizeClassesArePowersOfTwo() {
        assertEquals(BufferPool.MIN_CLASS, BufferPool.sizeClass(1));
        assertEquals(1L << 20, BufferPool.sizeClass((1L << 20) - 5));
        assertEquals(1L << 20, BufferPool.sizeClass(1L << 20));
        assertEquals(1L << 21, BufferPool.sizeClass((1L << 20) + 1));
    }

    @Test
    void checkinThenCheckoutOfTheSameClassReusesTheBufferAndTheBudgetCountsItOnce() {
        MemoryBudget budget = new MemoryBudget(64 * MB);
        BufferPool pool = new BufferPool(budget);
        Reservation partition = budget.tryAcquire(4 * MB, Kind.PARTITION).orElseThrow();
        BufferPool.Buffer a = pool.checkout(3 * MB); // class 4 MB, paid by the partition
        assertEquals(4 * MB, a.segment().byteSize());
        assertEquals(4 * MB, budget.reserved(), "the checked-out buffer is not counted again by the pool");
        pool.checkin(a);
        partition.close();
        assertEquals(4 * MB, budget.reserved(Kind.POOL), "idle, it is the pool's");
        assertEquals(4 * MB, budget.reserved());
        Reservation next = budget.tryAcquire(4 * MB, Kind.PARTITION).orElseThrow();
        BufferPool.Buffer b = pool.checkout(4 * MB);
        assertSame(a, b, "reused");
        assertEquals(0, budget.reserved(Kind.POOL));
        pool.checkin(b);
        next.close();
        BufferPool.Stats s = pool.stats();
        assertEquals(1, s.allocations());
        assertEquals(2, s.checkouts());
        assertEquals(1, s.reuses());
        assertEquals(2, s.checkins());
        assertEquals(0.5, s.reuseRatio());
        assertThrows(IllegalStateException.class, () -> pool.checkin(b), "a second checkin is refused");
        pool.close();
        assertEquals(0, budget.reserved());
    }

    @Test
    void anIdleBufferTheBudgetCannotHoldIsFreedAndPressureTrimsIdleOnes() {
        MemoryBudget budget = new MemoryBudget(8 * MB);
        BufferPool pool = new BufferPool(budget);
        Reservation r = budget.tryAcquire(8 * MB, Kind.PARTITION).orElseThrow();
        BufferPool.Buffer x = pool.checkout(4 * MB);
        BufferPool.Buffer y = pool.checkout(4 * MB);
        r.release(4 * MB); // one buffer's worth handed back, the other still paid by the partition
        pool.checkin(x); // fits: idle under the pool's reservation
        pool.checkin(y); // the partition still holds 4 MB, the pool 4 MB: no room, freed
        assertEquals(1, pool.idleCount());
        assertEquals(1, pool.stats().freed());
        r.close();
        assertEquals(4 * MB, budget.reserved(Kind.POOL));
        // a key that needs the whole budget: the pool's idle buffer is evicted for it
        Reservation key = budget.tryAcquire(8 * MB, Kind.KEY).orElseThrow();
        assertEquals(0, pool.idleCount());
        assertEquals(0, budget.reserved(Kind.POOL));
        key.close();
        assertTrue(budget.peak() <= budget.total());
    }
}
