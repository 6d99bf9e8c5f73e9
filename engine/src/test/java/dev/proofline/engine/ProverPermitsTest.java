package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ProverPermitsTest {

    @Test
    void eachReleaseStartsExactlyOneWaiterInRequestOrder() {
        ProverPermits permits = new ProverPermits(2);
        List<ProverPermits.Permit> held = new ArrayList<>();
        List<Integer> started = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            final int n = i;
            permits.request(p -> {
                started.add(n);
                held.add(p);
            });
        }
        assertEquals(List.of(0, 1), started, "two permits: two start at once");
        assertEquals(3, permits.waiting());
        held.get(0).close();
        assertEquals(List.of(0, 1, 2), started, "one completion starts exactly one");
        held.get(1).close();
        held.get(2).close();
        assertEquals(List.of(0, 1, 2, 3, 4), started);
        assertEquals(0, permits.waiting());
        assertEquals(0, permits.available());
        held.get(3).close();
        held.get(4).close();
        assertEquals(2, permits.available(), "all back at quiescence");
        assertEquals(5, permits.granted());
    }

    @Test
    void aSecondCloseIsCountedAndChangesNothing() {
        ProverPermits permits = new ProverPermits(1);
        ProverPermits.Permit p = permits.tryAcquire().orElseThrow();
        assertFalse(permits.tryAcquire().isPresent());
        p.close();
        p.close();
        p.close();
        assertEquals(1, permits.available());
        assertEquals(2, permits.doubleReleases());
        assertFalse(p.isOpen());
    }

    @Test
    void aWithdrawnRequestNeverRuns() {
        ProverPermits permits = new ProverPermits(1);
        ProverPermits.Permit p = permits.tryAcquire().orElseThrow();
        AtomicInteger ran = new AtomicInteger();
        java.util.function.Consumer<ProverPermits.Permit> cb = q -> ran.incrementAndGet();
        permits.request(cb);
        assertTrue(permits.withdraw(cb));
        p.close();
        assertEquals(0, ran.get());
        assertEquals(1, permits.available());
    }

    @Test
    void manyThreadsNeverHoldMoreThanMaxAndAllReturn() throws Exception {
        int max = 3;
        ProverPermits permits = new ProverPermits(max);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger worst = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        int jobs = 2000;
        CountDownLatch done = new CountDownLatch(jobs);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < jobs; i++) {
            permits.request(p -> pool.execute(() -> {
                try {
                    int now = inside.incrementAndGet();
                    worst.accumulateAndGet(now, Math::max);
                    Thread.onSpinWait();
                    inside.decrementAndGet();
                } catch (Throwable t) {
                    errors.add(t);
                } finally {
                    p.close();
                    done.countDown();
                }
            }));
        }
        assertTrue(done.await(30, TimeUnit.SECONDS));
        pool.shutdown();
        assertTrue(errors.isEmpty());
        assertTrue(worst.get() <= max, "at most " + max + " at once, saw " + worst.get());
        assertEquals(max, permits.available());
        assertEquals(jobs, permits.granted());
        assertEquals(0, permits.doubleReleases());
    }

    @Test
    void aCloseHandsOnThroughAHundredThousandWaitersOnASmallStack() throws Exception {
        // each waiter hands its permit straight back, as the dispatcher does when every queued partition of
        // the request's job was cancelled: the hand-offs run one after another, not one inside the other
        ProverPermits permits = new ProverPermits(1);
        ProverPermits.Permit held = permits.tryAcquire().orElseThrow();
        int waiters = 100_000;
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < waiters; i++) {
            permits.request(p -> {
                ran.incrementAndGet();
                p.close();
            });
        }
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread small = new Thread(null, () -> {
            try {
                held.close();
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "small", 256 * 1024);
        small.start();
        small.join();
        assertNull(thrown.get(), () -> "the close threw " + thrown.get());
        assertEquals(waiters, ran.get());
        assertEquals(1, permits.available(), "the permit is back");
        assertEquals(0, permits.waiting());
        assertEquals(0, permits.doubleReleases());
    }

    @Test
    void acquireBlocksUntilAClose() throws Exception {
        ProverPermits permits = new ProverPermits(1);
        ProverPermits.Permit p = permits.acquire();
        CountDownLatch got = new CountDownLatch(1);
        Thread t = Thread.ofPlatform().start(() -> {
            try (ProverPermits.Permit q = permits.acquire()) {
                got.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertFalse(got.await(200, TimeUnit.MILLISECONDS), "no permit while one is held");
        p.close();
        assertTrue(got.await(10, TimeUnit.SECONDS));
        t.join();
        assertEquals(1, permits.available());
    }

    @Test
    void raisingTheLimitStartsWaitersInRequestOrderAndLoweringItStopsHandingOn() {
        ProverPermits permits = new ProverPermits(1);
        List<ProverPermits.Permit> held = new ArrayList<>();
        List<Integer> started = new ArrayList<>();
        AtomicInteger told = new AtomicInteger();
        permits.addReleaseListener(told::incrementAndGet);
        for (int i = 0; i < 5; i++) {
            final int n = i;
            permits.request(p -> {
                started.add(n);
                held.add(p);
            });
        }
        assertEquals(List.of(0), started);
        permits.resize(3);
        assertEquals(List.of(0, 1, 2), started, "two more permits: the next two waiters start");
        assertEquals(1, told.get(), "listeners hear of new permits");
        assertEquals(0, permits.available());
        permits.resize(1);
        assertEquals(3, permits.inUse(), "lowering takes nothing back");
        held.get(0).close();
        held.get(1).close();
        assertEquals(List.of(0, 1, 2), started, "out beyond the new limit: not handed on");
        assertEquals(1, permits.inUse());
        held.get(2).close();
        assertEquals(List.of(0, 1, 2, 3), started, "within the limit again: handed on");
        held.get(3).close();
        held.get(4).close();
        assertEquals(1, permits.available(), "all back at quiescence, at the new limit");
        assertEquals(0, permits.doubleReleases());
    }
}
