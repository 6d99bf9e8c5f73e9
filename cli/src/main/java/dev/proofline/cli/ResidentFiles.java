package dev.proofline.cli;

import dev.proofline.engine.MemoryBudget;
import dev.proofline.engine.ResidentCache;
import dev.proofline.groth16.KeyTableCache;
import dev.proofline.groth16.KeyTables;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.r1cs.wasm.CircomWasm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local engine's {@link Loader}: proving keys and witness generators stay open between requests.
 * Keys are held in the engine's {@link ResidentCache}, paid for from a {@link MemoryBudget} of
 * {@code keyBudgetBytes} (each key's file, mapped, and its precomputed tables): a new key that finds no
 * room unloads the least recently used keys no command uses, and one that still finds none (the others
 * in use, or larger than the whole budget) is opened for its request only, as a one-off command opens
 * it. Witness generators: at most {@code maxWasms}, the least recently used one dropped first.
 *
 * <p>An entry is found by the path as the command names it (made absolute) and is reused only while
 * the file is the same: same file (device and inode), size and modification time; a changed file is
 * opened again and the old entry retired (closed once no command uses it). Keying by the path as given,
 * not the real path, keeps error messages (which name the key's path) as a one-off process prints them.
 */
final class ResidentFiles implements Loader, AutoCloseable {

    /** What makes a file the same as when it was opened. */
    private record Stamp(Object fileKey, long size, FileTime modified) {

        /** Null when the file's attributes cannot be read: it is then opened afresh, for the loader's own error. */
        static Stamp of(Path path) {
            try {
                BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
                return new Stamp(a.fileKey(), a.size(), a.lastModifiedTime());
            } catch (IOException | UnsupportedOperationException e) {
                return null;
            }
        }
    }

    /** A resident key, closed when the cache unloads it. */
    private static final class KeyEntry implements AutoCloseable {
        final Stamp stamp;
        final ProvingKey key;
        final AtomicLong uses = new AtomicLong();
        volatile boolean closed;
        /** Its precomputed tables, for the status: none, being built, their size, or why there are none. */
        volatile String tables = "no tables";
        /** Whether its points were checked yet, for the status ({@link #checkPoints}). */
        volatile String points = "points not checked yet";
        /** The witness file of its last proof that verified, absolute; null: none yet. */
        volatile Path witness;
        /** Released once its tables are attached, or known not to come ({@link #attachTables}). */
        final java.util.concurrent.CountDownLatch tablesSettled = new java.util.concurrent.CountDownLatch(1);

        KeyEntry(Stamp stamp, ProvingKey key) {
            this.stamp = stamp;
            this.key = key;
        }

        @Override
        public void close() {
            closed = true;
            key.close();
        }
    }

    private record WasmEntry(Stamp stamp, CircomWasm wasm) {
    }

    private record WasmId(String path, Path cacheDir) {
    }

    private final MemoryBudget budget;
    private final ResidentCache<KeyEntry> keys;
    private final int maxWasms;
    /** In access order: the first is the least recently used. */
    private final LinkedHashMap<WasmId, WasmEntry> wasms = new LinkedHashMap<>(8, 0.75f, true);
    private volatile boolean closed;

    /** Keys within {@code keyBudgetBytes}, without tables; at most {@code maxWasms} witness generators. */
    ResidentFiles(long keyBudgetBytes, int maxWasms) {
        this(keyBudgetBytes, maxWasms, TableBuilding.NONE);
    }

    /**
     * How resident keys get their precomputed tables ({@link KeyTables}): at most {@code bytes} a key (0:
     * none), found in {@code cache} (null: none) or built by {@code builder} (in the background, or at
     * once before the key is handed out: the engine's warm-up, whose proofs should run the code that
     * requests with tables run), calling {@code beforeChunk} before each chunk of points it builds.
     */
    record TableBuilding(long bytes, KeyTableCache cache, Executor builder, Runnable beforeChunk) {
        static final TableBuilding NONE = new TableBuilding(0, null, Runnable::run, () -> { });
    }

    ResidentFiles(long keyBudgetBytes, int maxWasms, TableBuilding tables) {
        if (keyBudgetBytes < 1 || maxWasms < 1) {
            throw new IllegalArgumentException("room for keys and at least one witness generator");
        }
        this.budget = new MemoryBudget(keyBudgetBytes);
        // no wait for room: the local engine runs one command at a time, so a key that finds none after
        // the idle keys are unloaded would wait for nothing
        this.keys = new ResidentCache<>(budget, MemoryBudget.Kind.KEY, Duration.ZERO);
        this.maxWasms = maxWasms;
        this.tableBuilding = tables;
    }

    private final TableBuilding tableBuilding;

    /**
     * Gives the key its tables, unless it is closed first: mapped from the cache at once where it has
     * them (so that the key's first proof uses them), else built by the builder and then written there.
     */
    private void attachTables(KeyEntry e) {
        TableBuilding tb = tableBuilding;
        if (tb.bytes() <= 0) {
            e.tablesSettled.countDown();
            return;
        }
        if (tb.cache() != null) {
            long t0 = System.nanoTime();
            Optional<String> cached = KeyTables.attachCached(e.key, tb.bytes(), tb.cache());
            if (cached.isPresent()) {
                e.tables = describe(e.key, cached.get(), "mapped from the cache", t0);
                e.tablesSettled.countDown();
                return;
            }
        }
        e.tables = "tables being built";
        tb.builder().execute(() -> {
            long t0 = System.nanoTime();
            try {
                String outcome = KeyTables.attachBuilt(e.key, tb.bytes(), tb.cache(), tb.beforeChunk());
                e.tables = describe(e.key, outcome, "built", t0);
            } finally {
                e.tablesSettled.countDown();
            }
        });
    }

    /** The key's tables for the status: their size and how they came ({@code how}, since {@code t0}), or why none. */
    private static String describe(ProvingKey key, String outcome, String how, long t0) {
        KeyTables t = key.tables();
        return t == null || t.count() == 0 ? outcome : String.format(Locale.ROOT, "tables %s, %s in %.1f s",
                size(t.bytes()), how, (System.nanoTime() - t0) / 1e9);
    }

    /** The resident keys, most recently used first (in use first of all). */
    private List<Map.Entry<String, KeyEntry>> residentKeys() {
        List<Map.Entry<String, KeyEntry>> out = new ArrayList<>();
        keys.entries().stream().filter(ResidentCache.EntryStatus::loaded)
                .sorted(Comparator.comparingLong(ResidentCache.EntryStatus::idleMillis))
                .forEach(st -> keys.peek(st.id()).ifPresent(e -> out.add(Map.entry(st.id(), e))));
        return out;
    }

    /** Native memory of the resident keys' tables. */
    long tableBytes() {
        long b = 0;
        for (Map.Entry<String, KeyEntry> e : residentKeys()) {
            KeyTables t = e.getValue().key.tables();
            b += t == null ? 0 : t.bytes();
        }
        return b;
    }

    /** Bytes of the resident keys' files (mapped: in memory as far as the proofs read them). */
    long keyFileBytes() {
        long b = 0;
        for (Map.Entry<String, KeyEntry> e : residentKeys()) {
            b += e.getValue().stamp.size();
        }
        return b;
    }

    /** The bytes the resident keys may hold in all: their files and their tables. */
    long keyBudgetBytes() {
        return budget.total();
    }

    /**
     * The key at {@code zkey}, resident or opened now. Opening it (mapping it) happens in the cache's
     * load, outside any lock that {@code engine status} needs, so that the status is answered meanwhile.
     */
    @Override
    public KeyLease provingKey(Path zkey) {
        checkOpen();
        String id = zkey.toAbsolutePath().toString();
        Stamp stamp = Stamp.of(zkey);
        if (stamp == null) {
            return Loader.ONE_OFF.provingKey(zkey);
        }
        for (int attempt = 0; ; attempt++) {
            if (keys.peek(id).filter(e -> !e.stamp.equals(stamp)).isPresent()) {
                keys.retire(id);   // the file changed: opened again, the old key closed once unused
            }
            ResidentCache<KeyEntry>.Lease lease;
            try {
                lease = keys.lease(id, loader(zkey, stamp));
            } catch (ResidentCache.LoadException e) {
                if (e.getCause() instanceof RuntimeException bad) {
                    throw bad;   // the key's own error, as a one-off command reports it
                }
                return Loader.ONE_OFF.provingKey(zkey);   // no room: opened for this request only
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while opening " + zkey, e);
            }
            KeyEntry e = lease.value();
            if (e.stamp.equals(stamp) || attempt > 0) {
                e.uses.incrementAndGet();
                return new KeyLease(e.key, lease::close, e.tablesSettled, w -> e.witness = w);
            }
            lease.close();   // loaded before the file changed, by another request: once more
        }
    }

    /**
     * Opens a key as a one-off command opens it, its points checked after this request
     * ({@link #checkPoints}): a request proves at once (at 2^16, checking first made the engine's first
     * request slower than a one-off command), and every proof is verified before it is written, which a
     * bad point fails. Reserves the key's file and the most tables a key gets, trimmed to its own.
     */
    private ResidentCache.Loader<KeyEntry> loader(Path zkey, Stamp stamp) {
        String id = zkey.toAbsolutePath().toString();
        return new ResidentCache.Loader<>() {
            @Override
            public long bytes() {
                return stamp.size() + Math.max(0, tableBuilding.bytes());
            }

            @Override
            public KeyEntry load() {
                checkOpen();
                KeyEntry e = new KeyEntry(stamp, ZkeyFile.open(zkey, ZkeyFile.PointCheck.NONE));
                checkPoints(id, zkey, e);
                attachTables(e);
                return e;
            }

            @Override
            public long bytesOf(KeyEntry e) {
                return stamp.size() + (tableBuilding.bytes() <= 0 ? 0 : KeyTables.plannedBytes(e.key, tableBuilding.bytes()));
            }
        };
    }

    /**
     * Checks every point of the key as {@link ZkeyFile#open(Path)} does, by the table builder (the
     * engine's housekeeping, after its turn), and retires the key where one is not on its curve: the next
     * request opens it again, and its proof, failing verification, is then explained by the bad point
     * ({@link Loader#explain}). A file changed since it was opened is left to the next request.
     */
    private void checkPoints(String id, Path zkey, KeyEntry e) {
        TableBuilding tb = tableBuilding;
        tb.builder().execute(() -> {
            tb.beforeChunk().run();
            if (e.closed || !e.stamp.equals(Stamp.of(zkey))) {
                return;
            }
            try (ProvingKey checked = ZkeyFile.open(zkey)) {
                e.points = "points checked";
            } catch (RuntimeException bad) {
                e.points = "not used: " + bad.getMessage();
                if (keys.peek(id).filter(r -> r == e).isPresent()) {
                    keys.retire(id);
                }
            }
        });
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the resident files are closed");
        }
    }

    /** The generator of {@code wasm}, resident or compiled now (outside this object's lock, as a key is opened). */
    @Override
    public CircomWasm witnessGenerator(Path wasm, Path cacheDir) {
        WasmId id = new WasmId(wasm.toAbsolutePath().toString(), cacheDir);
        Stamp stamp = Stamp.of(wasm);
        synchronized (this) {
            WasmEntry e = wasms.get(id);
            if (e != null && Objects.equals(e.stamp, stamp)) {
                return e.wasm;
            }
            wasms.remove(id);
        }
        CircomWasm loaded = CircomWasm.load(wasm, cacheDir);
        if (stamp != null) {
            synchronized (this) {
                wasms.put(id, new WasmEntry(stamp, loaded));
                Iterator<WasmId> it = wasms.keySet().iterator();
                while (wasms.size() > maxWasms) {
                    it.next();
                    it.remove();
                }
            }
        }
        return loaded;
    }

    /** One line for each resident key and generator, most recently used first, for {@code engine status}. */
    List<String> describe() {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, KeyEntry> k : residentKeys()) {
            KeyEntry e = k.getValue();
            long uses = e.uses.get();
            lines.add(String.format(Locale.ROOT, "key        %s (%s, 2^%d, %s, %s, used %d time%s, %s)",
                    k.getKey(), e.key.curve().snarkjsName(), e.key.logDomainSize(), size(e.stamp.size()),
                    e.tables, uses, uses == 1 ? "" : "s", e.points));
        }
        synchronized (this) {
            List<Map.Entry<WasmId, WasmEntry>> ws = new ArrayList<>(wasms.entrySet());
            for (int i = ws.size() - 1; i >= 0; i--) {
                WasmEntry e = ws.get(i).getValue();
                lines.add(String.format(Locale.ROOT, "wasm       %s (%s, %s)", ws.get(i).getKey().path(),
                        e.wasm().curve().snarkjsName(), size(e.stamp().size())));
            }
        }
        return lines;
    }

    /** The resident keys' paths (as opened, absolute), most recently used first. */
    List<String> keyPaths() {
        return residentKeys().stream().map(Map.Entry::getKey).toList();
    }

    /** The witness file of the last proof that verified with each resident key that has one, by the key's path. */
    Map<String, String> witnessPaths() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, KeyEntry> e : residentKeys()) {
            Path w = e.getValue().witness;
            if (w != null) {
                out.put(e.getKey(), w.toString());
            }
        }
        return out;
    }

    /** Number of resident keys. */
    int keyCount() {
        return residentKeys().size();
    }

    static String size(long bytes) {
        if (bytes < 1 << 20) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        if (bytes < 1L << 30) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
        }
        return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
    }

    /** Unloads every key (one still leased when its last lease goes) and drops the generators. */
    @Override
    public void close() {
        closed = true;
        keys.close();
        synchronized (this) {
            wasms.clear();
        }
    }
}
