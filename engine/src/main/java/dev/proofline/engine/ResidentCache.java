package dev.proofline.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Objects loaded once and shared (proving keys, PCE matrices), paid for from the memory budget.
 *
 * <p>{@link #lease} loads an entry on first use: its bytes are reserved (waiting for room, asking the
 * budget's evictors, at most {@code loadTimeout}) before it is loaded, and concurrent first users wait
 * for the same load. Each lease counts as a reference; {@link Lease#close} drops it. Under budget
 * pressure the cache, as an {@link MemoryBudget.Evictor}, unloads idle entries (no reference),
 * least recently used first, and never one in use. {@link #preload} loads without keeping a
 * reference; {@link #evict} unloads one idle entry on request; {@link #retire} takes an entry out in use
 * or not, to be loaded afresh. A lease is closed once; a second close
 * does nothing but is counted ({@link #doubleReleases}). Once the cache is closed, an entry is unloaded
 * as soon as its last reference goes.
 *
 * @param <V> the cached value, closed when it is unloaded if it is {@link AutoCloseable}
 */
public final class ResidentCache<V> implements MemoryBudget.Evictor {

    /** How to load one entry: its size (reserved first), then the value. */
    public interface Loader<V> {
        /** Bytes the loaded value will hold (for a mapped file: its size), or an estimate. */
        long bytes() throws Exception;

        V load() throws Exception;

        /**
         * The bytes {@code value} holds once loaded, when {@link #bytes} was an estimate (-1: it was
         * exact). The reservation is trimmed to it, or grown if the budget has room.
         */
        default long bytesOf(V value) {
            return -1;
        }
    }

    /** Raised when an entry cannot be loaded; the message says why (too large, no room in time, load failed). */
    public static final class LoadException extends RuntimeException {
        LoadException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A reference to a loaded entry; close it exactly once (a second close changes nothing but is counted). */
    public final class Lease implements AutoCloseable {
        private final Entry entry;
        private boolean closed;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        public V value() {
            return entry.value;
        }

        public String id() {
            return entry.id;
        }

        @Override
        public void close() {
            synchronized (ResidentCache.this) {
                if (closed) {
                    doubleReleases++;
                    return;
                }
                closed = true;
            }
            drop(entry);
        }
    }

    /** One entry as {@link #entries} reports it. */
    public record EntryStatus(String id, long bytes, int references, boolean loaded, long idleMillis) {
    }

    /** What {@link #evict(String)} did. */
    public enum Eviction { EVICTED, IN_USE, NOT_RESIDENT }

    private final class Entry {
        final String id;
        final CompletableFuture<V> loading = new CompletableFuture<>();
        V value;
        MemoryBudget.Reservation reservation;
        int refs;
        long lastUsed = System.nanoTime();
        /** Taken out of the cache by {@link #retire} while in use: unloaded when its last reference goes. */
        boolean retired;

        Entry(String id) {
            this.id = id;
        }

        boolean loaded() {
            return value != null;
        }
    }

    private final MemoryBudget budget;
    private final MemoryBudget.Kind kind;
    private final Duration loadTimeout;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private long loads;
    private long evictions;
    private long doubleReleases;
    private boolean closed;

    /**
     * A cache paying for its entries from {@code budget} as {@code kind}; a load that finds no room within
     * {@code loadTimeout} gives up with a {@link LoadException}.
     */
    public ResidentCache(MemoryBudget budget, MemoryBudget.Kind kind, Duration loadTimeout) {
        this.budget = budget;
        this.kind = kind;
        this.loadTimeout = loadTimeout;
        budget.addEvictor(this);
    }

    /** A reference to entry {@code id}, loading it first if it is not resident. */
    public Lease lease(String id, Loader<? extends V> loader) throws InterruptedException {
        Entry e;
        boolean mine = false;
        synchronized (this) {
            e = entries.get(id);
            if (e == null) {
                e = new Entry(id);
                entries.put(id, e);
                mine = true;
            }
            e.refs++; // counted before the load, so the entry cannot be evicted before its first user has it
        }
        if (mine) {
            load(e, loader);
        }
        try {
            e.loading.get();
        } catch (ExecutionException ex) {
            drop(e);
            Throwable cause = ex.getCause();
            throw cause instanceof LoadException le ? le : new LoadException(id + ": " + cause.getMessage(), cause);
        } catch (InterruptedException ex) {
            drop(e);
            throw ex;
        }
        return new Lease(e);
    }

    /** Drops one reference to {@code e}; once the cache is closed, the last one unloads it. */
    private void drop(Entry e) {
        synchronized (this) {
            e.refs--;
            e.lastUsed = System.nanoTime();
            if (e.refs > 0 || !e.loaded()) {
                return;
            }
            if (e.retired) {
                e.retired = false;   // unloaded once
            } else if (closed && entries.get(e.id) == e) {
                entries.remove(e.id);
                evictions++;
            } else {
                return;
            }
        }
        unload(e);
    }

    @SuppressWarnings("unchecked")
    private void load(Entry e, Loader<? extends V> loader) throws InterruptedException {
        MemoryBudget.Reservation r = null;
        try {
            long bytes = loader.bytes();
            if (bytes > budget.total()) {
                throw new LoadException(e.id + " needs " + bytes + " bytes, more than the whole memory budget of "
                        + budget.total(), null);
            }
            Optional<MemoryBudget.Reservation> got = budget.acquire(bytes, kind, loadTimeout);
            if (got.isEmpty()) {
                throw new LoadException(e.id + " needs " + bytes + " bytes and the budget had no room within "
                        + loadTimeout.toMillis() + " ms (" + budget.reserved() + " of " + budget.total()
                        + " reserved, by entries in use or partitions in flight)", null);
            }
            r = got.get();
            V v = loader.load();
            long actual = ((Loader<V>) loader).bytesOf(v);
            if (actual >= 0 && actual < r.bytes()) {
                r.release(r.bytes() - actual);
            } else if (actual > r.bytes()) {
                r.tryGrow(actual - r.bytes());
            }
            synchronized (this) {
                e.value = v;
                e.reservation = r;
                loads++;
            }
            e.loading.complete(v);
        } catch (Throwable t) {
            if (r != null) {
                r.close();
            }
            synchronized (this) {
                entries.remove(e.id, e);
            }
            e.loading.completeExceptionally(t);
            if (t instanceof InterruptedException ie) {
                throw ie;
            }
        }
    }

    /** Loads entry {@code id} if it is not resident, without keeping a reference. */
    public void preload(String id, Loader<? extends V> loader) throws InterruptedException {
        lease(id, loader).close();
    }

    /** Unloads entry {@code id} if it is resident and idle. */
    public Eviction evict(String id) {
        Entry victim;
        synchronized (this) {
            Entry e = entries.get(id);
            if (e == null || !e.loaded()) {
                return e == null ? Eviction.NOT_RESIDENT : Eviction.IN_USE;
            }
            if (e.refs > 0) {
                return Eviction.IN_USE;
            }
            entries.remove(id);
            evictions++;
            victim = e;
        }
        unload(victim);
        return Eviction.EVICTED;
    }

    /**
     * Takes entry {@code id} out of the cache, in use or not (its file changed, or it turned out bad): the
     * next {@link #lease} loads it afresh, and this one is unloaded now if idle, else when its last
     * reference goes.
     */
    public void retire(String id) {
        Entry victim;
        synchronized (this) {
            Entry e = entries.remove(id);
            if (e == null) {
                return;
            }
            evictions++;
            if (e.refs > 0 || !e.loaded()) {
                e.retired = true;
                return;
            }
            victim = e;
        }
        unload(victim);
    }

    /** The value of entry {@code id} if it is loaded, without taking a reference or counting as a use. */
    public synchronized Optional<V> peek(String id) {
        Entry e = entries.get(id);
        return e == null || !e.loaded() ? Optional.empty() : Optional.of(e.value);
    }

    /** Budget pressure: unloads idle entries, least recently used first, until {@code bytesWanted} are freed. */
    @Override
    public long evict(long bytesWanted) {
        List<Entry> victims = new ArrayList<>();
        long freed = 0;
        synchronized (this) {
            List<Entry> idle = new ArrayList<>();
            for (Entry e : entries.values()) {
                if (e.loaded() && e.refs == 0) {
                    idle.add(e);
                }
            }
            idle.sort(Comparator.comparingLong(e -> e.lastUsed));
            for (Entry e : idle) {
                if (freed >= bytesWanted) {
                    break;
                }
                entries.remove(e.id);
                evictions++;
                victims.add(e);
                freed += e.reservation.bytes();
            }
        }
        for (Entry e : victims) {
            unload(e);
        }
        return freed;
    }

    private void unload(Entry e) {
        try {
            if (e.value instanceof AutoCloseable c) {
                c.close();
            }
        } catch (Exception ignored) {
            // the bytes go back whatever closing said
        } finally {
            e.reservation.close();
        }
    }

    /** The entries, resident or loading, in insertion order. */
    public synchronized List<EntryStatus> entries() {
        long now = System.nanoTime();
        List<EntryStatus> out = new ArrayList<>();
        for (Entry e : entries.values()) {
            out.add(new EntryStatus(e.id, e.reservation == null ? 0 : e.reservation.bytes(), e.refs, e.loaded(),
                    e.refs > 0 ? 0 : (now - e.lastUsed) / 1_000_000));
        }
        return out;
    }

    /** References held now, all entries. */
    public synchronized int references() {
        int n = 0;
        for (Entry e : entries.values()) {
            n += e.refs;
        }
        return n;
    }

    public synchronized long loads() {
        return loads;
    }

    public synchronized long evictions() {
        return evictions;
    }

    /** Closes of a lease already closed (each one a bug in the caller). */
    public synchronized long doubleReleases() {
        return doubleReleases;
    }

    /** Unloads every idle entry; an entry in use (or loading) is unloaded when its last reference goes. */
    public void close() {
        List<String> ids;
        synchronized (this) {
            closed = true;
            ids = new ArrayList<>(entries.keySet());
        }
        for (String id : ids) {
            evict(id);
        }
    }
}
