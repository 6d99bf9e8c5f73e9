package dev.proofline.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link BufferPool.Allocator} of plain native memory that counts what it hands out and what comes
 * back (a double free fails), standing in for a backend's page-locked allocator in the engine's tests.
 */
final class CountingAllocator implements BufferPool.Allocator {

    final AtomicInteger allocations = new AtomicInteger();
    final AtomicInteger frees = new AtomicInteger();
    final AtomicLong liveBytes = new AtomicLong();
    /** The most bytes allocated and not yet freed at any moment. */
    final AtomicLong peakLiveBytes = new AtomicLong();
    final AtomicInteger doubleFrees = new AtomicInteger();
    /** Allocations from the n-th on (0: none) fail, as a full device allocator would. */
    volatile int failFrom;

    @Override
    public BufferPool.Allocation allocate(long bytes) {
        int n = allocations.incrementAndGet();
        if (failFrom > 0 && n >= failFrom) {
            allocations.decrementAndGet();
            throw new IllegalStateException("no more pinned memory (test)");
        }
        Arena arena = Arena.ofShared();
        MemorySegment s = arena.allocate(bytes, 4096);
        peakLiveBytes.accumulateAndGet(liveBytes.addAndGet(bytes), Math::max);
        AtomicInteger freed = new AtomicInteger();
        return new BufferPool.Allocation(s, () -> {
            if (freed.getAndIncrement() > 0) {
                doubleFrees.incrementAndGet();
                return;
            }
            frees.incrementAndGet();
            liveBytes.addAndGet(-bytes);
            arena.close();
        });
    }

    int live() {
        return allocations.get() - frees.get();
    }
}
