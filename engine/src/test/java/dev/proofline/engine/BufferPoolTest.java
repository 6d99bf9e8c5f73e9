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
        pool.checkin(b);
        assertEquals(1, pool.doubleReleases(), "a second checkin is counted");
        assertEquals(s, pool.stats(), "and changes nothing else");
        pool.close();
        assertEquals(0, budget.reserved());
    }

    @Test
    void closingThePoolGivesBackItsReservationAndFreesWhatIsCheckedInLater() {
        MemoryBudget budget = new MemoryBudget(16 * MB);
        CountingAllocator alloc = new CountingAllocator();
        BufferPool pool = new BufferPool(budget, BufferPool.Memory.PINNED, alloc);
        Reservation partition = budget.tryAcquire(8 * MB, Kind.PARTITION).orElseThrow();
        BufferPool.Buffer idle = pool.checkout(4 * MB);
        BufferPool.Buffer out = pool.checkout(4 * MB);
        pool.checkin(idle);
        partition.release(4 * MB); // the idle buffer is the pool's now
        assertEquals(2, budget.openReservations(), "the partition's and the pool's");
        pool.close();
        assertEquals(1, alloc.live(), "the idle buffer freed, the one checked out not");
        assertEquals(1, budget.openReservations(), "the pool's reservation given back");
        assertEquals(0, budget.reserved(Kind.POOL));
        assertThrows(IllegalStateException.class, () -> pool.checkout(MB), "no checkout from a closed pool");
        pool.checkin(out); // late: freed, not kept idle
        assertEquals(0, alloc.live());
        assertEquals(0, pool.idleCount());
        assertEquals(0, budget.reserved(Kind.POOL), "nothing paid for by a closed pool");
        partition.close();
        assertEquals(0, budget.reserved());
        assertEquals(0, budget.openReservations());
        assertEquals(0, alloc.doubleFrees.get());
        assertEquals(0, pool.doubleReleases());
        assertEquals(0, budget.doubleReleases());
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

    @Test
    void aLiveBufferIsPaidForAtEveryMomentOfItsCheckinAndItsTrim() {
        MemoryBudget budget = new MemoryBudget(4 * MB);
        CountingAllocator alloc = new CountingAllocator();
        BufferPool pool = new BufferPool(budget, BufferPool.Memory.PINNED, alloc);
        // after every release: what is allocated is covered by what is reserved
        java.util.List<String> unpaid = new java.util.ArrayList<>();
        budget.addReleaseListener(() -> {
            if (alloc.liveBytes.get() > budget.reserved()) {
                unpaid.add(alloc.liveBytes.get() + " bytes live, " + budget.reserved() + " reserved");
            }
        });
        Reservation partition = budget.tryAcquire(4 * MB, Kind.PARTITION).orElseThrow();
        BufferPool.Buffer b = pool.checkout(4 * MB);
        pool.checkin(b, partition); // the whole budget is reserved: only a move keeps the buffer
        assertEquals(1, pool.idleCount(), "kept idle on the partition's bytes");
        assertEquals(4 * MB, budget.reserved(Kind.POOL));
        assertEquals(0, budget.reserved(Kind.PARTITION));
        assertEquals(0, partition.bytes());
        partition.close();
        assertEquals(4 * MB, pool.trim(4 * MB));
        assertEquals(0, alloc.live());
        assertEquals(0, budget.reserved());
        assertEquals(java.util.List.of(), unpaid);
    }

    @Test
    void pinnedBuffersComeFromTheBackendsAllocatorAreReusedAndFreedThroughItOnce() {
        assertThrows(IllegalArgumentException.class, () -> new BufferPool(new MemoryBudget(MB), BufferPool.Memory.PINNED,
                null), "pinned buffers need an allocator");
        MemoryBudget budget = new MemoryBudget(16 * MB);
        CountingAllocator alloc = new CountingAllocator();
        BufferPool pool = new BufferPool(budget, BufferPool.Memory.PINNED, alloc);
        Reservation partition = budget.tryAcquire(8 * MB, Kind.PARTITION).orElseThrow();
        BufferPool.Buffer a = pool.checkout(3 * MB);
        BufferPool.Buffer b = pool.checkout(4 * MB);
        assertEquals(BufferPool.Memory.PINNED, a.memory());
        assertTrue(a.segment().isNative());
        assertEquals(4 * MB, a.segment().byteSize(), "the size class");
        assertEquals(2, alloc.allocations.get());
        assertEquals(8 * MB, budget.reserved(), "checked out, the buffers are the partition's bytes only");
        pool.checkin(a);
        pool.checkin(b);
        partition.close();
        assertEquals(8 * MB, budget.reserved(Kind.POOL), "idle, they are the pool's");
        assertEquals(8 * MB, budget.reserved(), "and nobody else's");
        Reservation next = budget.tryAcquire(4 * MB, Kind.PARTITION).orElseThrow();
        BufferPool.Buffer again = pool.checkout(4 * MB);
        assertTrue(again == a || again == b, "reused, not allocated");
        assertEquals(2, alloc.allocations.get());
        assertEquals(4 * MB, budget.reserved(Kind.POOL));
        assertEquals(8 * MB, budget.reserved());
        // an allocation that fails leaves the pool's counters as they were
        alloc.failFrom = 3;
        BufferPool.Stats before = pool.stats();
        assertThrows(IllegalStateException.class, () -> pool.checkout(MB));
        assertEquals(before, pool.stats());
        pool.checkin(again);
        next.close();
        pool.close();
        assertEquals(0, alloc.live(), "every pinned buffer freed");
        assertEquals(0, alloc.doubleFrees.get());
        assertEquals(0, budget.reserved());
    }
}
