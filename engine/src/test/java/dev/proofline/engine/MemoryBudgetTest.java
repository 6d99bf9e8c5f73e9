package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.engine.MemoryBudget.Kind;
import dev.proofline.engine.MemoryBudget.Reservation;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MemoryBudgetTest {

    @Test
    void partialReleaseThenCloseReturnEverythingOnce() {
        MemoryBudget b = new MemoryBudget(1000);
        Reservation r = b.tryAcquire(600, Kind.PARTITION).orElseThrow();
        assertEquals(600, b.reserved(Kind.PARTITION));
        r.release(450); // a, b, c handed back after prover start
        assertEquals(150, b.reserved());
        r.close();
        r.close();
        assertEquals(0, b.reserved());
        assertEquals(1, b.doubleReleases());
        assertEquals(0, b.openReservations());
        assertEquals(600, b.peak());
        assertThrows(IllegalStateException.class, () -> r.release(1));
    }

    @Test
    void aTransferMovesBytesBetweenKindsWithNothingFreeInBetween() {
        MemoryBudget b = new MemoryBudget(1000);
        Reservation from = b.tryAcquire(600, Kind.PARTITION).orElseThrow();
        Reservation to = b.tryAcquire(0, Kind.POOL).orElseThrow();
        assertTrue(from.transferTo(to, 400));
        assertEquals(600, b.reserved());
        assertEquals(200, b.reserved(Kind.PARTITION));
        assertEquals(400, b.reserved(Kind.POOL));
        assertEquals(400, to.bytes());
        assertFalse(from.transferTo(to, 201), "more than it holds");
        from.close();
        assertFalse(from.transferTo(to, 0), "closed");
        assertEquals(400, b.reserved());
        to.close();
        assertEquals(0, b.reserved());
        assertThrows(IllegalArgumentException.class,
                () -> b.tryAcquire(1, Kind.PARTITION).orElseThrow().transferTo(new MemoryBudget(10).tryAcquire(1,
                        Kind.POOL).orElseThrow(), 1));
    }

    @Test
    void tooLargeForTheBudgetIsAnErrorNotAWait() {
        MemoryBudget b = new MemoryBudget(1000);
        assertThrows(IllegalArgumentException.class, () -> b.acquire(1001, Kind.KEY));
    }

    @Test
    void acquireWaitsForAReleaseAndATimedAcquireGivesUp() throws Exception {
        MemoryBudget b = new MemoryBudget(1000);
        Reservation big = b.tryAcquire(900, Kind.KEY).orElseThrow();
        assertFalse(b.tryAcquire(200, Kind.PARTITION).isPresent());
        long t0 = System.nanoTime();
        assertTrue(b.acquire(200, Kind.PARTITION, Duration.ofMillis(150)).isEmpty(), "gives up");
        assertTrue(System.nanoTime() - t0 >= 100_000_000L);
        CountDownLatch got = new CountDownLatch(1);
        Thread t = Thread.ofPlatform().start(() -> {
            try (Reservation r = b.acquire(200, Kind.PARTITION)) {
                got.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertFalse(got.await(200, TimeUnit.MILLISECONDS));
        big.release(300);
        assertTrue(got.await(10, TimeUnit.SECONDS), "woken by the release");
        t.join();
        big.close();
        assertEquals(0, b.reserved());
    }

    @Test
    void evictorsAreAskedBeforeWaiting() throws Exception {
        MemoryBudget b = new MemoryBudget(1000);
        Reservation cached = b.tryAcquire(800, Kind.PCE).orElseThrow();
        AtomicLong asked = new AtomicLong();
        b.addEvictor(wanted -> {
            asked.set(wanted);
            cached.close();
            return 800;
        });
        Optional<Reservation> r = b.tryAcquire(500, Kind.PARTITION);
        assertTrue(r.isPresent(), "room made by evicting the idle cache entry");
        assertEquals(300, asked.get());
        r.get().close();
    }

    @Test
    void underConcurrentLoadPeakNeverExceedsTotalAndAllIsReturned() throws Exception {
        long total = 10_000;
        MemoryBudget b = new MemoryBudget(total);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        int n = 2000;
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            final long seed = i;
            pool.execute(() -> {
                Random rnd = new Random(seed);
                try (Reservation r = b.acquire(1 + rnd.nextInt(3000), Kind.PARTITION)) {
                    assertTrue(b.reserved() <= total);
                    Thread.sleep(0, 200_000); // hold it a moment, so that reservations overlap
                    if (rnd.nextBoolean()) {
                        r.release(r.bytes() / 2);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
        }
        assertTrue(done.await(60, TimeUnit.SECONDS));
        pool.shutdown();
        assertTrue(b.peak() <= total);
        assertTrue(b.peak() > total / 2, "the budget was actually contended");
        assertEquals(0, b.reserved());
        assertEquals(0, b.openReservations());
        assertEquals(0, b.doubleReleases());
    }
}
