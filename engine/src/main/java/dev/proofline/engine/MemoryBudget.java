package dev.proofline.engine;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One byte budget for everything large: resident keys, PCE matrices, each partition's working set
 * and the pool's idle buffers. Bytes are reserved before they are allocated; a {@link Reservation}
 * can be released in parts (a partition gives back its a, b, c right after prover start) and is
 * released completely exactly once. {@link #acquire} blocks until the bytes are free, first asking
 * the registered {@link Evictor}s (idle caches) to make room; it waits on a condition signalled by
 * releases, never spinning. Reserved bytes never exceed the total.
 */
public final class MemoryBudget {

    /** What the bytes are for (reported separately). */
    public enum Kind { KEY, PCE, PARTITION, POOL }

    /** Frees idle memory on request: returns how many reserved bytes it released (0 when none). */
    @FunctionalInterface
    public interface Evictor {
        long evict(long bytesWanted);
    }

    /** Reserved bytes; {@link #release(long)} returns a part, {@link #close()} the rest, once. */
    public final class Reservation implements AutoCloseable {
        private final Kind kind;
        private long bytes;
        private boolean closed;

        private Reservation(Kind kind, long bytes) {
            this.kind = kind;
            this.bytes = bytes;
        }

        public Kind kind() {
            return kind;
        }

        /** Bytes still held. */
        public long bytes() {
            lock.lock();
            try {
                return bytes;
            } finally {
                lock.unlock();
            }
        }

        /** Returns {@code part} of the bytes now; the reservation keeps the rest. */
        public void release(long part) {
            lock.lock();
            try {
                if (closed || part < 0 || part > bytes) {
                    throw new IllegalStateException("cannot release " + part + " of " + (closed ? "a closed " : "")
                            + "reservation of " + bytes + " bytes");
                }
                bytes -= part;
                give(kind, part);
            } finally {
                lock.unlock();
            }
            released(part);
        }

        /** Grows the reservation by {@code more} bytes if they are free now; false otherwise. */
        public boolean tryGrow(long more) {
            lock.lock();
            try {
                if (closed || more < 0 || reserved + more > total) {
                    return false;
                }
                take(kind, more);
                bytes += more;
                return true;
            } finally {
                lock.unlock();
            }
        }

        /**
         * Moves {@code part} of these bytes to {@code to} (of the same budget) in one step, so that
         * nothing is free in between: a partition hands its buffers' bytes to the pool that keeps them.
         * False, moving nothing, when either is closed or this holds less than {@code part}.
         */
        public boolean transferTo(Reservation to, long part) {
            if (to.budget() != MemoryBudget.this) {
                throw new IllegalArgumentException("a reservation of another budget");
            }
            lock.lock();
            try {
                if (closed || to.closed || part < 0 || part > bytes) {
                    return false;
                }
                bytes -= part;
                to.bytes += part;
                byKind.merge(kind, -part, Long::sum);
                byKind.merge(to.kind, part, Long::sum);
                if (part > 0) {
                    // what holds them now may give them up on request (idle pool buffers): waiters ask again
                    released.signalAll();
                }
                return true;
            } finally {
                lock.unlock();
            }
        }

        private MemoryBudget budget() {
            return MemoryBudget.this;
        }

        public boolean isClosed() {
            lock.lock();
            try {
                return closed;
            } finally {
                lock.unlock();
            }
        }

        /** Returns what is left; a second close does nothing but is counted as a double release. */
        @Override
        public void close() {
            long given;
            lock.lock();
            try {
                if (closed) {
                    doubleReleases++;
                    return;
                }
                closed = true;
                given = bytes;
                give(kind, bytes);
                bytes = 0;
                open--;
            } finally {
                lock.unlock();
            }
            released(given);
        }
    }

    private final long total;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private final Map<Kind, Long> byKind = new EnumMap<>(Kind.class);
    private final List<Evictor> evictors = new CopyOnWriteArrayList<>();
    private final List<Runnable> releaseListeners = new CopyOnWriteArrayList<>();
    private long reserved;
    private long peak;
    private long open;
    private long doubleReleases;

    public MemoryBudget(long totalBytes) {
        if (totalBytes <= 0) {
            throw new IllegalArgumentException("budget must be positive: " + totalBytes);
        }
        this.total = totalBytes;
        for (Kind k : Kind.values()) {
            byKind.put(k, 0L);
        }
    }

    /** A budget of the machine's memory less a margin: what {@code budget = auto} means. */
    public static MemoryBudget auto(long marginBytes) {
        long physical = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getTotalMemorySize();
        return new MemoryBudget(Math.max(1L << 26, physical - marginBytes));
    }

    public void addEvictor(Evictor e) {
        evictors.add(e);
    }

    /**
     * Runs {@code listener} each time bytes are given back (a reservation released in part or closed),
     * on the releasing thread once the budget's lock is let go: for whoever starts work when memory
     * frees up, and for tests that check what the releasing thread does next cannot over-commit.
     */
    public void addReleaseListener(Runnable listener) {
        releaseListeners.add(listener);
    }

    // without the lock
    private void released(long bytes) {
        if (bytes > 0) {
            releaseListeners.forEach(Runnable::run);
        }
    }

    public long total() {
        return total;
    }

    public long reserved() {
        lock.lock();
        try {
            return reserved;
        } finally {
            lock.unlock();
        }
    }

    public long reserved(Kind kind) {
        lock.lock();
        try {
            return byKind.get(kind);
        } finally {
            lock.unlock();
        }
    }

    /** The most ever reserved at once (never above the total). */
    public long peak() {
        lock.lock();
        try {
            return peak;
        } finally {
            lock.unlock();
        }
    }

    /** Reservations not yet closed. */
    public long openReservations() {
        lock.lock();
        try {
            return open;
        } finally {
            lock.unlock();
        }
    }

    public long doubleReleases() {
        lock.lock();
        try {
            return doubleReleases;
        } finally {
            lock.unlock();
        }
    }

    /** The bytes now, or empty (after asking the evictors once). Never blocks on other reservations. */
    public Optional<Reservation> tryAcquire(long bytes, Kind kind) {
        check(bytes);
        Optional<Reservation> r = tryTake(bytes, kind);
        if (r.isPresent()) {
            return r;
        }
        evict(bytes);
        return tryTake(bytes, kind);
    }

    /** The bytes, waiting as long as it takes (asking the evictors each time memory is short). */
    public Reservation acquire(long bytes, Kind kind) throws InterruptedException {
        return acquire(bytes, kind, null).orElseThrow();
    }

    /**
     * The bytes, waiting at most {@code timeout} (null: no limit); empty when they did not become
     * free in time. The wait ends on releases, not on a timer loop.
     */
    public Optional<Reservation> acquire(long bytes, Kind kind, Duration timeout) throws InterruptedException {
        return acquire(bytes, kind, timeout, () -> false);
    }

    /**
     * As {@link #acquire(long, Kind, Duration)}, giving up (empty) as soon as {@code abandoned} says so:
     * it is checked before each wait, and {@link #wakeWaiters} makes waiters check it again (call it when
     * what they wait for is cancelled).
     */
    public Optional<Reservation> acquire(long bytes, Kind kind, Duration timeout,
            java.util.function.BooleanSupplier abandoned) throws InterruptedException {
        check(bytes);
        long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<Reservation> r = tryTake(bytes, kind);
            if (r.isPresent()) {
                return r;
            }
            evict(bytes);
            lock.lock();
            try {
                if (reserved + bytes <= total) {
                    continue;
                }
                if (abandoned.getAsBoolean()) {
                    return Optional.empty();
                }
                if (timeout == null) {
                    released.await();
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return Optional.empty();
                    }
                    released.awaitNanos(left);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** Wakes every waiting {@code acquire}, so that those whose work was abandoned give up. */
    public void wakeWaiters() {
        lock.lock();
        try {
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void check(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative reservation: " + bytes);
        }
        if (bytes > total) {
            throw new IllegalArgumentException(bytes + " bytes can never fit a budget of " + total);
        }
    }

    private Optional<Reservation> tryTake(long bytes, Kind kind) {
        lock.lock();
        try {
            if (reserved + bytes > total) {
                return Optional.empty();
            }
            take(kind, bytes);
            open++;
            return Optional.of(new Reservation(kind, bytes));
        } finally {
            lock.unlock();
        }
    }

    private void evict(long bytes) {
        for (Evictor e : evictors) {
            if (reserved() + bytes <= total) {
                return;
            }
            e.evict(reserved() + bytes - total);
        }
    }

    // with the lock held
    private void take(Kind kind, long bytes) {
        reserved += bytes;
        byKind.merge(kind, bytes, Long::sum);
        peak = Math.max(peak, reserved);
    }

    // with the lock held
    private void give(Kind kind, long bytes) {
        reserved -= bytes;
        byKind.merge(kind, -bytes, Long::sum);
        if (bytes > 0) {
            released.signalAll();
        }
    }
}
