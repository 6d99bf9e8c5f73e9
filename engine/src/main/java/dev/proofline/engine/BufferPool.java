package dev.proofline.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Reusable buffers for the vectors that go to the prover (a, b, c, witness): on the heap, off-heap, or
 * pinned (native memory from the backend's {@link Allocator}: page-locked host memory on the CUDA
 * backend, which the device copies from by DMA). A checkout takes an idle buffer of the size class
 * (the next power of two, at least 64 KiB) or allocates one; a checkin keeps it for the next checkout
 * of that class.
 *
 * <p>Budget: a buffer that is checked out is paid for by the partition that holds it (its own
 * reservation covers the bytes), not by the pool; an idle buffer is paid for by the pool's
 * reservation ({@link MemoryBudget.Kind#POOL}). Every live buffer is paid for by one of them at every
 * moment: checking a buffer in moves its bytes from the partition's reservation to the pool's in one
 * step ({@link #checkin(Buffer, MemoryBudget.Reservation)}; without a payer it grows the pool's
 * reservation, or frees the buffer when the budget has no room for it), checking one out shrinks the
 * pool's, and a buffer is freed before its bytes are given back. The pool is an
 * {@link MemoryBudget.Evictor}: under pressure it frees idle buffers.
 *
 * <p>A buffer is checked in once; a second checkin does nothing but is counted ({@link #doubleReleases}):
 * it is a bug in the caller. {@link #close} frees the idle buffers and gives back the pool's
 * reservation; a buffer checked in after it is freed, and checkouts are refused.
 */
public final class BufferPool implements MemoryBudget.Evictor {

    /** The smallest size class. */
    public static final long MIN_CLASS = 1L << 16;

    /** Where buffers live. */
    public enum Memory {
        /** Native memory (an arena per buffer), for device copies and native code. */
        OFF_HEAP,
        /** A {@code long[]} per buffer, for the Java prover's vectors ({@link Buffer#longs()}). */
        HEAP,
        /**
         * Native memory from the backend's {@link Allocator} ({@link ProverBackend#bufferAllocator}):
         * page-locked host memory on the CUDA backend, so a, b, c and the witness go to the device by
         * DMA, without a staging copy.
         */
        PINNED
    }

    /** Native memory a backend allocates for the pool ({@link Memory#PINNED}), and how to free it. */
    public interface Allocator {
        /** At least {@code bytes} of native memory, aligned to at least 64 bytes, usable from any thread. */
        Allocation allocate(long bytes);
    }

    /** One allocation of an {@link Allocator}: its memory, and what frees it (run exactly once, by the pool). */
    public record Allocation(MemorySegment segment, Runnable free) {
        public Allocation {
            java.util.Objects.requireNonNull(segment, "segment");
            java.util.Objects.requireNonNull(free, "free");
            if (!segment.isNative()) {
                throw new IllegalArgumentException("an allocator's memory must be native");
            }
        }
    }

    /** A buffer: its segment, which is at least as long as asked. Check it in exactly once (a second checkin is counted). */
    public static final class Buffer {
        private final Arena arena;
        private final Runnable release;
        private final MemorySegment segment;
        private final long sizeClass;
        private final Memory memory;
        private boolean out;

        private Buffer(long sizeClass, Memory memory, Allocator allocator) {
            Runnable release = null;
            Arena arena = null;
            MemorySegment segment;
            switch (memory) {
                case HEAP -> {
                    if (sizeClass / 8 > Integer.MAX_VALUE - 8) {
                        throw new IllegalArgumentException("a heap buffer holds at most 2^31 longs; asked " + sizeClass
                                + " bytes");
                    }
                    segment = MemorySegment.ofArray(new long[(int) (sizeClass / 8)]);
                }
                case OFF_HEAP -> {
                    arena = Arena.ofShared();
                    segment = arena.allocate(sizeClass, 64);
                }
                case PINNED -> {
                    Allocation a = allocator.allocate(sizeClass);
                    if (a.segment().byteSize() < sizeClass) {
                        a.free().run();
                        throw new IllegalStateException("the allocator gave " + a.segment().byteSize()
                                + " bytes for a buffer of " + sizeClass);
                    }
                    segment = a.segment().asSlice(0, sizeClass);
                    release = a.free();
                }
                default -> throw new IllegalArgumentException(String.valueOf(memory));
            }
            this.arena = arena;
            this.release = release;
            this.segment = segment;
            this.sizeClass = sizeClass;
            this.memory = memory;
        }

        /** Where this buffer lives. */
        public Memory memory() {
            return memory;
        }

        public MemorySegment segment() {
            return segment;
        }

        /** The {@code long[]} behind a heap buffer. */
        public long[] longs() {
            return (long[]) segment.heapBase().orElseThrow(() -> new IllegalStateException("not a heap buffer"));
        }

        private void free() {
            if (arena != null) {
                arena.close();
            }
            if (release != null) {
                release.run();
            }
        }

        public long sizeClass() {
            return sizeClass;
        }
    }

    /** Counters since the pool was made. */
    public record Stats(long allocations, long checkouts, long reuses, long checkins, long freed, long idleBytes,
            long outBytes) {
        /** Reuses over checkouts (1 when every checkout was served by an idle buffer). */
        public double reuseRatio() {
            return checkouts == 0 ? 0 : (double) reuses / checkouts;
        }
    }

    private final Memory memory;
    private final Allocator allocator;
    private final MemoryBudget.Reservation idleReservation;
    private final Map<Long, Deque<Buffer>> idle = new HashMap<>();
    private long allocations;
    private long checkouts;
    private long reuses;
    private long checkins;
    private long freed;
    private long idleBytes;
    private long outBytes;
    private long doubleReleases;
    private boolean closed;

    /** A pool of off-heap buffers whose idle buffers are paid for from {@code budget}. */
    public BufferPool(MemoryBudget budget) {
        this(budget, Memory.OFF_HEAP);
    }

    /** A pool of {@code memory} (heap or off-heap) buffers whose idle buffers are paid for from {@code budget}. */
    public BufferPool(MemoryBudget budget, Memory memory) {
        this(budget, memory, null);
    }

    /**
     * A pool of {@code memory} buffers whose idle buffers are paid for from {@code budget};
     * {@link Memory#PINNED} buffers come from {@code allocator} (required then, unused otherwise).
     */
    public BufferPool(MemoryBudget budget, Memory memory, Allocator allocator) {
        if (memory == Memory.PINNED && allocator == null) {
            throw new IllegalArgumentException("pinned buffers need the backend's allocator");
        }
        this.memory = memory;
        this.allocator = allocator;
        this.idleReservation = budget.tryAcquire(0, MemoryBudget.Kind.POOL).orElseThrow();
        budget.addEvictor(this);
    }

    /** The size class of a request: the next power of two, at least {@link #MIN_CLASS}. */
    public static long sizeClass(long bytes) {
        if (bytes <= MIN_CLASS) {
            return MIN_CLASS;
        }
        long c = Long.highestOneBit(bytes);
        return c == bytes ? c : c << 1;
    }

    /**
     * A buffer of at least {@code bytes}. The caller's reservation must already cover
     * {@link #sizeClass}(bytes): the pool does not reserve checked-out buffers.
     */
    public Buffer checkout(long bytes) {
        long cls = sizeClass(bytes);
        Buffer b;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the buffer pool is closed");
            }
            checkouts++;
            Deque<Buffer> q = idle.get(cls);
            b = q == null ? null : q.pollFirst();
            if (b != null) {
                reuses++;
                idleBytes -= cls;
                idleReservation.release(cls);
            } else {
                allocations++;
            }
            outBytes += cls;
        }
        if (b == null) {
            try {
                b = new Buffer(cls, memory, allocator);
            } catch (RuntimeException | Error e) {
                synchronized (this) {
                    allocations--;
                    checkouts--;
                    outBytes -= cls;
                }
                throw e;
            }
        }
        b.out = true;
        return b;
    }

    /**
     * Returns a buffer: kept for reuse when the budget has room for it idle, freed otherwise (and always
     * once the pool is closed). A buffer already checked in is left alone; the checkin is counted.
     */
    public void checkin(Buffer b) {
        checkin(b, null);
    }

    /**
     * Returns a buffer that {@code payer} paid for: kept for reuse with its bytes moved from {@code payer}
     * to the pool's reservation in one step (so that it is paid for all along and the payer can close
     * after), or, when the pool is closed, freed (the payer still holds its bytes until it closes).
     * Without a payer (null) or when the payer holds less, as {@link #checkin(Buffer)}.
     */
    public void checkin(Buffer b, MemoryBudget.Reservation payer) {
        synchronized (this) {
            if (!b.out) {
                doubleReleases++;
                return;
            }
            b.out = false;
            checkins++;
            outBytes -= b.sizeClass;
            if (!closed && (payer != null && payer.transferTo(idleReservation, b.sizeClass)
                    || idleReservation.tryGrow(b.sizeClass))) {
                idle.computeIfAbsent(b.sizeClass, k -> new ArrayDeque<>()).addLast(b);
                idleBytes += b.sizeClass;
                return;
            }
            freed++;
        }
        b.free();
    }

    /**
     * Frees idle buffers until {@code bytesWanted} are released (or none is left); returns the bytes. Each
     * is freed before its bytes go back, so that nobody allocates on them while it still lives.
     */
    public long trim(long bytesWanted) {
        long done = 0;
        while (done < bytesWanted) {
            Buffer victim = null;
            synchronized (this) {
                for (Deque<Buffer> q : idle.values()) {
                    victim = q.pollLast();
                    if (victim != null) {
                        break;
                    }
                }
                if (victim == null) {
                    return done;
                }
                idleBytes -= victim.sizeClass;
                freed++;
            }
            victim.free();
            synchronized (this) {
                if (!idleReservation.isClosed()) { // closed: its bytes went back with it
                    idleReservation.release(victim.sizeClass);
                }
            }
            done += victim.sizeClass;
        }
        return done;
    }

    @Override
    public long evict(long bytesWanted) {
        return trim(bytesWanted);
    }

    public Memory memory() {
        return memory;
    }

    /** Checkins of a buffer already checked in (each one a bug in the caller). */
    public synchronized long doubleReleases() {
        return doubleReleases;
    }

    public synchronized Stats stats() {
        return new Stats(allocations, checkouts, reuses, checkins, freed, idleBytes, outBytes);
    }

    /** Idle buffers, all classes. */
    public synchronized int idleCount() {
        int n = 0;
        for (Deque<Buffer> q : idle.values()) {
            n += q.size();
        }
        return n;
    }

    /**
     * Frees every idle buffer and gives back the pool's reservation; buffers still checked out are freed
     * when they are checked in, and later checkouts are refused.
     */
    public void close() {
        synchronized (this) {
            closed = true;
        }
        trim(Long.MAX_VALUE);
        synchronized (this) {
            idleReservation.close();
        }
    }
}
