package dev.proofline.engine;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The prover-queue permits of reactive dispatch: {@code max} permits, each standing for one slot of
 * prover work. A permit is taken before a partition's synthesis starts and belongs to that partition
 * until it leaves the prover stage; then it is closed, exactly once, whatever happened.
 *
 * <p>Waiting is by callback, not polling: {@link #request} runs its callback at once when a permit is
 * free, otherwise queues it; a closed permit goes straight to the oldest queued callback (on the
 * closing thread), so each prover completion starts exactly one waiting synthesis. A second close of
 * the same permit does nothing but is counted ({@link #doubleReleases}): it is a bug in the caller.
 *
 * <p>Hand-offs run one after another, never one inside another: a permit closed by a callback (the
 * dispatcher hands on a permit whose request has no partition left) is taken from the queue at once,
 * but its callback runs after the current one returns, in the same loop on the same thread. So a
 * chain of any length needs no stack, and a callback that throws stops no other hand-off.
 */
public final class ProverPermits {

    /** One permit. Closing it returns it; closing it again only counts a double release. */
    public final class Permit implements AutoCloseable {
        private final AtomicBoolean open = new AtomicBoolean(true);
        private final long id;

        private Permit(long id) {
            this.id = id;
        }

        public long id() {
            return id;
        }

        public boolean isOpen() {
            return open.get();
        }

        @Override
        public void close() {
            if (!open.compareAndSet(true, false)) {
                doubleReleases.incrementAndGet();
                return;
            }
            release();
        }
    }

    /** How many permits may be out at once: fixed, or moved by the engine's {@link PermitSizer}. */
    private int limit;
    /** Permits handed out and not yet closed. */
    private int open;
    private final Deque<Consumer<Permit>> waiting = new ArrayDeque<>();
    private final AtomicLong granted = new AtomicLong();
    private final AtomicLong doubleReleases = new AtomicLong();
    private final AtomicLong nextId = new AtomicLong();
    private final java.util.List<Runnable> releaseListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The hand-offs still to run on this thread, while it runs one (absent otherwise). */
    private final ThreadLocal<Deque<Runnable>> handOffs = new ThreadLocal<>();

    public ProverPermits(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("at least one permit: " + max);
        }
        this.limit = max;
    }

    /** The number of permits: how many may be out at once (it moves under {@code permits = "auto"}). */
    public synchronized int max() {
        return limit;
    }

    /** Permits that could be handed out now; 0 while more are out than a lowered limit allows. */
    public synchronized int available() {
        return Math.max(0, limit - open);
    }

    /** Permits held by their owners. */
    public synchronized int inUse() {
        return open;
    }

    /**
     * Sets how many permits may be out at once. Raised, it hands the new permits to waiting callbacks at
     * once (in request order, on this thread) and tells the release listeners; lowered, it takes back
     * nothing: permits out beyond the new limit are simply not handed on when they close.
     */
    public void resize(int newLimit) {
        if (newLimit < 1) {
            throw new IllegalArgumentException("at least one permit: " + newLimit);
        }
        java.util.List<Consumer<Permit>> start = new java.util.ArrayList<>();
        boolean raised;
        synchronized (this) {
            raised = newLimit > limit;
            limit = newLimit;
            while (open < limit && !waiting.isEmpty()) {
                open++;
                start.add(waiting.pollFirst());
            }
        }
        if (!raised) {
            return;
        }
        handOff(() -> {
            for (Consumer<Permit> c : start) {
                c.accept(newPermit());
            }
            releaseListeners.forEach(Runnable::run);
        });
    }

    /** Callbacks waiting for a permit. */
    public synchronized int waiting() {
        return waiting.size();
    }

    /** Permits handed out so far. */
    public long granted() {
        return granted.get();
    }

    /** Closes of an already closed permit (each one a bug in the caller). */
    public long doubleReleases() {
        return doubleReleases.get();
    }

    /** A permit now, or empty. */
    public Optional<Permit> tryAcquire() {
        synchronized (this) {
            if (open >= limit) {
                return Optional.empty();
            }
            open++;
        }
        return Optional.of(newPermit());
    }

    /** A permit, waiting as long as it takes. */
    public Permit acquire() throws InterruptedException {
        java.util.concurrent.CompletableFuture<Permit> f = new java.util.concurrent.CompletableFuture<>();
        request(f::complete);
        try {
            return f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            // the permit may still arrive: hand it back when it does
            f.thenAccept(Permit::close);
            throw e;
        }
    }

    /**
     * Runs {@code onGranted} with a permit: now, on this thread, when one is free; otherwise later, on
     * the thread that closes a permit, in the order of the requests. The callback owns the permit.
     */
    public void request(Consumer<Permit> onGranted) {
        synchronized (this) {
            if (open >= limit) {
                waiting.addLast(onGranted);
                return;
            }
            open++;
        }
        onGranted.accept(newPermit());
    }

    /**
     * Runs {@code listener} (on the closing thread, after the permit was handed on or made available)
     * each time a permit is closed: for whoever starts work on a free permit from outside the engine,
     * such as a cluster node claiming partitions.
     */
    public void addReleaseListener(Runnable listener) {
        releaseListeners.add(listener);
    }

    /** Withdraws a queued callback (a cancelled partition); true when it was still waiting. */
    public synchronized boolean withdraw(Consumer<Permit> onGranted) {
        return waiting.remove(onGranted);
    }

    private Permit newPermit() {
        granted.incrementAndGet();
        return new Permit(nextId.incrementAndGet());
    }

    private void release() {
        Consumer<Permit> next;
        synchronized (this) {
            // handed straight on while the limit allows; past a lowered limit, it just goes
            next = open <= limit ? waiting.pollFirst() : null;
            if (next == null) {
                open--;
            }
        }
        handOff(() -> {
            if (next != null) {
                next.accept(newPermit());
            }
            releaseListeners.forEach(Runnable::run);
        });
    }

    /**
     * Runs {@code h} now, or after the hand-off this thread runs now (a close inside a callback): one
     * loop per thread, so the depth of the stack never grows with the number of hand-offs. The first
     * throw of a hand-off is rethrown once all have run.
     */
    private void handOff(Runnable h) {
        Deque<Runnable> pending = handOffs.get();
        if (pending != null) {
            pending.addLast(h);
            return;
        }
        pending = new ArrayDeque<>();
        handOffs.set(pending);
        Throwable first = null;
        try {
            for (Runnable next = h; next != null; next = pending.pollFirst()) {
                try {
                    next.run();
                } catch (Throwable t) {
                    if (first == null) {
                        first = t;
                    } else if (t != first) {
                        first.addSuppressed(t);
                    }
                }
            }
        } finally {
            handOffs.remove();
        }
        if (first instanceof RuntimeException r) {
            throw r;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw new IllegalStateException(first);
        }
    }
}
