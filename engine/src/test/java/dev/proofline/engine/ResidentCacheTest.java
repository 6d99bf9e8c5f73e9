package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResidentCacheTest {

    private static final long MB = 1L << 20;

    /** A value that records whether it was closed. */
    static final class Value implements AutoCloseable {
        final String name;
        volatile boolean closed;

        Value(String name) {
            this.name = name;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Loads a {@link Value} of {@code bytes}, counting loads. */
    static ResidentCache.Loader<Value> loader(String name, long bytes, AtomicInteger loads) {
        return new ResidentCache.Loader<>() {
            @Override
            public long bytes() {
                return bytes;
            }

            @Override
            public Value load() throws Exception {
                loads.incrementAndGet();
                Thread.sleep(20);
                return new Value(name);
            }
        };
    }

    @Test
    void concurrentFirstUsersShareOneLoadAndReferencesAreCounted() throws Exception {
        MemoryBudget budget = new MemoryBudget(100 * MB);
        ResidentCache<Value> cache = new ResidentCache<>(budget, MemoryBudget.Kind.KEY, Duration.ofSeconds(5));
        AtomicInteger loads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<ResidentCache<Value>.Lease>> leases = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                leases.add(pool.submit(() -> {
                    go.await();
                    return cache.lease("k", loader("k", 10 * MB, loads));
                }));
            }
            go.countDown();
            Value first = leases.get(0).get().value();
            for (Future<ResidentCache<Value>.Lease> f : leases) {
                assertSame(first, f.get().value());
            }
            assertEquals(1, loads.get(), "loaded once");
            assertEquals(8, cache.references());
            assertEquals(10 * MB, budget.reserved(MemoryBudget.Kind.KEY));
            assertEquals(ResidentCache.Eviction.IN_USE, cache.evict("k"), "never evicted while in use");
            for (Future<ResidentCache<Value>.Lease> f : leases) {
                f.get().close();
                f.get().close(); // a second close changes nothing
            }
            assertEquals(0, cache.references());
            assertEquals(8, cache.doubleReleases(), "each second close counted");
            assertEquals(ResidentCache.Eviction.EVICTED, cache.evict("k"));
            assertTrue(first.closed);
            assertEquals(0, budget.reserved());
            assertEquals(ResidentCache.Eviction.NOT_RESIDENT, cache.evict("k"));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void underPressureIdleEntriesGoLeastRecentlyUsedFirstAndEntriesInUseStay() throws Exception {
        MemoryBudget budget = new MemoryBudget(30 * MB);
        ResidentCache<Value> cache = new ResidentCache<>(budget, MemoryBudget.Kind.KEY, Duration.ofSeconds(5));
        AtomicInteger loads = new AtomicInteger();
        cache.preload("a", loader("a", 10 * MB, loads));
        cache.preload("b", loader("b", 10 * MB, loads));
        ResidentCache<Value>.Lease c = cache.lease("c", loader("c", 10 * MB, loads)); // in use
        cache.lease("a", loader("a", 10 * MB, loads)).close(); // a used after b: b is least recently used
        assertEquals(3, loads.get());
        // a partition needs 10 MB: b (idle, least recently used) goes, a (idle) and c (in use) stay
        MemoryBudget.Reservation r = budget.tryAcquire(10 * MB, MemoryBudget.Kind.PARTITION).orElseThrow();
        List<String> resident = cache.entries().stream().map(ResidentCache.EntryStatus::id).toList();
        assertEquals(List.of("a", "c"), resident);
        // 20 MB more: only a can go; c is in use, so the request does not fit
        assertTrue(budget.tryAcquire(20 * MB, MemoryBudget.Kind.PARTITION).isEmpty());
        assertEquals(List.of("c"), cache.entries().stream().map(ResidentCache.EntryStatus::id).toList());
        assertFalse(c.value().closed);
        r.close();
        c.close();
        assertEquals(2, cache.evictions());
    }

    @Test
    void aLoadThatFindsNoRoomGivesUpWithAReasonAndHoldsNothing() throws Exception {
        MemoryBudget budget = new MemoryBudget(30 * MB);
        ResidentCache<Value> cache = new ResidentCache<>(budget, MemoryBudget.Kind.KEY, Duration.ofMillis(100));
        AtomicInteger loads = new AtomicInteger();
        MemoryBudget.Reservation held = budget.acquire(25 * MB, MemoryBudget.Kind.PARTITION);
        ResidentCache.LoadException e = assertThrows(ResidentCache.LoadException.class,
                () -> cache.lease("big", loader("big", 10 * MB, loads)));
        assertTrue(e.getMessage().contains("big needs 10485760 bytes") && e.getMessage().contains("100 ms"),
                e.getMessage());
        e = assertThrows(ResidentCache.LoadException.class, () -> cache.lease("huge", loader("huge", 31 * MB, loads)));
        assertTrue(e.getMessage().contains("more than the whole memory budget"), e.getMessage());
        assertEquals(0, loads.get());
        assertTrue(cache.entries().isEmpty());
        held.close();
        // a load waiting for room gets it when a reservation is released
        MemoryBudget.Reservation again = budget.acquire(25 * MB, MemoryBudget.Kind.PARTITION);
        ResidentCache<Value> patient = new ResidentCache<>(budget, MemoryBudget.Kind.PCE, Duration.ofSeconds(10));
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException ignored) {
                // released at once then
            }
            again.close();
        });
        try (var lease = patient.lease("p", loader("p", 10 * MB, loads))) {
            assertEquals("p", lease.value().name);
        }
        t.join();
        assertEquals(10 * MB, budget.reserved(MemoryBudget.Kind.PCE));
    }

    @Test
    void aFailedLoadReleasesItsBytesAndTheNextUserTriesAgain() throws Exception {
        MemoryBudget budget = new MemoryBudget(30 * MB);
        ResidentCache<Value> cache = new ResidentCache<>(budget, MemoryBudget.Kind.KEY, Duration.ofSeconds(1));
        ResidentCache.Loader<Value> broken = new ResidentCache.Loader<>() {
            @Override
            public long bytes() {
                return 5 * MB;
            }

            @Override
            public Value load() {
                throw new IllegalArgumentException("k.zkey: section 2 is truncated");
            }
        };
        ResidentCache.LoadException e = assertThrows(ResidentCache.LoadException.class, () -> cache.lease("k", broken));
        assertTrue(e.getMessage().contains("section 2 is truncated"), e.getMessage());
        assertEquals(0, budget.reserved());
        assertEquals(0, cache.references());
        AtomicInteger loads = new AtomicInteger();
        try (var lease = cache.lease("k", loader("k", 5 * MB, loads))) {
            assertEquals("k", lease.value().name);
        }
        assertEquals(1, loads.get());
    }

    @Test
    void aClosedCacheUnloadsAnEntryInUseWhenItsLastReferenceGoes() throws Exception {
        MemoryBudget budget = new MemoryBudget(30 * MB);
        ResidentCache<Value> cache = new ResidentCache<>(budget, MemoryBudget.Kind.KEY, Duration.ofSeconds(1));
        AtomicInteger loads = new AtomicInteger();
        cache.preload("idle", loader("idle", 5 * MB, loads));
        ResidentCache<Value>.Lease used = cache.lease("used", loader("used", 5 * MB, loads));
        cache.close();
        assertEquals(List.of("used"), cache.entries().stream().map(ResidentCache.EntryStatus::id).toList(),
                "the idle entry unloaded, the one in use kept");
        assertFalse(used.value().closed);
        used.close();
        assertTrue(used.value().closed, "unloaded with its last reference");
        assertTrue(cache.entries().isEmpty());
        assertEquals(0, budget.reserved());
        assertEquals(0, cache.doubleReleases());
    }

    @Test
    void anEstimatedSizeIsTrimmedToTheLoadedValuesSize() throws Exception {
        MemoryBudget budget = new MemoryBudget(30 * MB);
        ResidentCache<Value> cache = new ResidentCache<>(budget, MemoryBudget.Kind.PCE, Duration.ofSeconds(1));
        cache.preload("x", new ResidentCache.Loader<>() {
            @Override
            public long bytes() {
                return 8 * MB;
            }

            @Override
            public Value load() {
                return new Value("x");
            }

            @Override
            public long bytesOf(Value v) {
                return 3 * MB;
            }
        });
        assertEquals(3 * MB, budget.reserved(MemoryBudget.Kind.PCE));
        assertEquals(3 * MB, cache.entries().get(0).bytes());
    }
    @Test
    void aRetiredEntryInUseStaysWithItsUsersAndTheNextLeaseLoadsItAfresh() throws Exception {
        MemoryBudget budget = new MemoryBudget(30 * MB);
        ResidentCache<Value> cache = new ResidentCache<>(budget, MemoryBudget.Kind.KEY, Duration.ofSeconds(1));
        AtomicInteger loads = new AtomicInteger();
        ResidentCache<Value>.Lease old = cache.lease("k", loader("old", 5 * MB, loads));
        assertSame(old.value(), cache.peek("k").orElseThrow(), "peek sees the loaded value");
        cache.retire("k");
        assertTrue(cache.peek("k").isEmpty(), "out of the cache");
        assertFalse(old.value().closed, "not unloaded while in use");
        assertEquals(5 * MB, budget.reserved(), "its bytes still held by its user");
        try (ResidentCache<Value>.Lease fresh = cache.lease("k", loader("new", 5 * MB, loads))) {
            assertEquals("new", fresh.value().name);
            assertEquals(2, loads.get(), "loaded afresh");
            assertEquals(10 * MB, budget.reserved());
        }
        old.close();
        assertTrue(old.value().closed, "unloaded with its last reference");
        assertEquals(5 * MB, budget.reserved(), "the fresh one, idle, stays");
        old.close();
        assertEquals(1, cache.doubleReleases());
        assertEquals(5 * MB, budget.reserved(), "a second close unloads nothing more");

        cache.retire("k");
        assertEquals(0, budget.reserved(), "an idle entry retired is unloaded at once");
        assertTrue(cache.entries().isEmpty());
        cache.retire("never-loaded");   // nothing to do
    }
}
