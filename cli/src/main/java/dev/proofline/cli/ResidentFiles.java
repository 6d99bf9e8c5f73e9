package dev.proofline.cli;

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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The local engine's {@link Loader}: proving keys and witness generators stay open between requests,
 * at most {@code maxKeys} keys and {@code maxWasms} generators, the least recently used one dropped
 * first (a key only once no command uses it).
 *
 * <p>An entry is found by the path as the command names it (made absolute) and is reused only while
 * the file is the same: same file (device and inode), size and modification time; a changed file is
 * opened again and the old entry dropped. Keying by the path as given, not the real path, keeps error
 * messages (which name the key's path) as a one-off process prints them.
 *
 * <p>A key is closed when dropped, or by the last lease of it when dropped in use, and by
 * {@link #close()}.
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

    private static final class KeyEntry {
        final Stamp stamp;
        final ProvingKey key;
        int leases;
        boolean dropped;
        long uses;
        /** Its precomputed tables, for the status: none, being built, their size, or why there are none. */
        volatile String tables = "no tables";
        /** Whether its points were checked yet, for the status ({@link #checkPoints}). */
        volatile String points = "points not checked yet";

        KeyEntry(Stamp stamp, ProvingKey key) {
            this.stamp = stamp;
            this.key = key;
        }
    }

    private record WasmEntry(Stamp stamp, CircomWasm wasm) {
    }

    private record WasmId(String path, Path cacheDir) {
    }

    private final int maxKeys;
    private final int maxWasms;
    /** In access order: the first is the least recently used. */
    private final LinkedHashMap<String, KeyEntry> keys = new LinkedHashMap<>(8, 0.75f, true);
    private final LinkedHashMap<WasmId, WasmEntry> wasms = new LinkedHashMap<>(8, 0.75f, true);
    private boolean closed;

    ResidentFiles(int maxKeys, int maxWasms) {
        this(maxKeys, maxWasms, TableBuilding.NONE);
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

    ResidentFiles(int maxKeys, int maxWasms, TableBuilding tables) {
        if (maxKeys < 1 || maxWasms < 1) {
            throw new IllegalArgumentException("at least one key and one witness generator");
        }
        this.maxKeys = maxKeys;
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
            return;
        }
        if (tb.cache() != null) {
            long t0 = System.nanoTime();
            Optional<String> cached = KeyTables.attachCached(e.key, tb.bytes(), tb.cache());
            if (cached.isPresent()) {
                e.tables = describe(e.key, cached.get(), "mapped from the cache", t0);
                return;
            }
        }
        e.tables = "tables being built";
        tb.builder().execute(() -> {
            long t0 = System.nanoTime();
            String outcome = KeyTables.attachBuilt(e.key, tb.bytes(), tb.cache(), tb.beforeChunk());
            e.tables = describe(e.key, outcome, "built", t0);
        });
    }

    /** The key's tables for the status: their size and how they came ({@code how}, since {@code t0}), or why none. */
    private static String describe(ProvingKey key, String outcome, String how, long t0) {
        KeyTables t = key.tables();
        return t == null || t.count() == 0 ? outcome : String.format(Locale.ROOT, "tables %s, %s in %.1f s",
                size(t.bytes()), how, (System.nanoTime() - t0) / 1e9);
    }

    /** Native memory of the resident keys' tables. */
    synchronized long tableBytes() {
        long b = 0;
        for (KeyEntry e : keys.values()) {
            KeyTables t = e.key.tables();
            b += t == null ? 0 : t.bytes();
        }
        return b;
    }

    /** Bytes of the resident keys' files (mapped: in memory as far as the proofs read them). */
    synchronized long keyFileBytes() {
        long b = 0;
        for (KeyEntry e : keys.values()) {
            b += e.stamp.size();
        }
        return b;
    }

    /**
     * The key at {@code zkey}, resident or opened now. Opening it (mapping, every point checked) happens
     * outside this object's lock, so that {@code engine status} is answered meanwhile.
     */
    @Override
    public KeyLease provingKey(Path zkey) {
        String id = zkey.toAbsolutePath().toString();
        Stamp stamp = Stamp.of(zkey);
        synchronized (this) {
            checkOpen();
            KeyEntry e = keys.get(id);
            if (e != null && !e.stamp.equals(stamp)) {
                drop(keys.remove(id));
                e = null;
            }
            if (e != null) {
                return lease(e);
            }
        }
        if (stamp == null) {
            return Loader.ONE_OFF.provingKey(zkey);
        }
        // opened as a one-off command opens it, its points checked after this request (checkPoints): a
        // request proves at once (at 2^16, checking first made the engine's first request slower than a
        // one-off command), and every proof is verified before it is written, which a bad point fails
        ProvingKey key = ZkeyFile.open(zkey, ZkeyFile.PointCheck.NONE);
        KeyLease lease;
        KeyEntry added;
        synchronized (this) {
            if (closed) {
                key.close();
                checkOpen();
            }
            KeyEntry e = keys.get(id);
            if (e != null && e.stamp.equals(stamp)) {   // opened meanwhile for another command
                key.close();
                return lease(e);
            }
            if (e != null) {
                drop(keys.remove(id));
            }
            e = new KeyEntry(stamp, key);
            keys.put(id, e);
            lease = lease(e);
            added = e;
        }
        checkPoints(id, zkey, added);
        attachTables(added);   // outside the lock: status is answered meanwhile
        return lease;
    }

    /**
     * Checks every point of the key as {@link ZkeyFile#open(Path)} does, by the table builder (the
     * engine's housekeeping, after its turn), and drops the key where one is not on its curve: the next
     * request opens it again, and its proof, failing verification, is then explained by the bad point
     * ({@link Loader#explain}). A file changed since it was opened is left to the next request.
     */
    private void checkPoints(String id, Path zkey, KeyEntry e) {
        TableBuilding tb = tableBuilding;
        tb.builder().execute(() -> {
            tb.beforeChunk().run();
            if (e.dropped || !e.stamp.equals(Stamp.of(zkey))) {
                return;
            }
            try (ProvingKey checked = ZkeyFile.open(zkey)) {
                e.points = "points checked";
            } catch (RuntimeException bad) {
                e.points = "not used: " + bad.getMessage();
                synchronized (this) {
                    if (keys.remove(id, e)) {   // not get: that would count as a use in the access order
                        drop(e);
                    }
                }
            }
        });
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the resident files are closed");
        }
    }

    /** A lease of a resident key (under this object's lock). */
    private KeyLease lease(KeyEntry e) {
        e.leases++;
        e.uses++;
        evictKeys();
        return new KeyLease(e.key, () -> release(e));
    }

    private synchronized void release(KeyEntry e) {
        e.leases--;
        if (e.dropped && e.leases == 0) {
            e.key.close();
        }
        evictKeys();
    }

    /** Drops least recently used keys not in use while there are more than allowed. */
    private void evictKeys() {
        Iterator<KeyEntry> it = keys.values().iterator();
        int excess = keys.size() - maxKeys;
        while (excess > 0 && it.hasNext()) {
            KeyEntry e = it.next();
            if (e.leases == 0) {
                it.remove();
                drop(e);
                excess--;
            }
        }
    }

    private static void drop(KeyEntry e) {
        e.dropped = true;
        if (e.leases == 0) {
            e.key.close();
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
    synchronized List<String> describe() {
        List<String> lines = new ArrayList<>();
        List<Map.Entry<String, KeyEntry>> ks = new ArrayList<>(keys.entrySet());
        for (int i = ks.size() - 1; i >= 0; i--) {
            KeyEntry e = ks.get(i).getValue();
            lines.add(String.format(Locale.ROOT, "key        %s (%s, 2^%d, %s, %s, used %d time%s, %s)",
                    ks.get(i).getKey(), e.key.curve().snarkjsName(), e.key.logDomainSize(), size(e.stamp.size()),
                    e.tables, e.uses, e.uses == 1 ? "" : "s", e.points));
        }
        List<Map.Entry<WasmId, WasmEntry>> ws = new ArrayList<>(wasms.entrySet());
        for (int i = ws.size() - 1; i >= 0; i--) {
            WasmEntry e = ws.get(i).getValue();
            lines.add(String.format(Locale.ROOT, "wasm       %s (%s, %s)", ws.get(i).getKey().path(),
                    e.wasm().curve().snarkjsName(), size(e.stamp().size())));
        }
        return lines;
    }

    /** The resident keys' paths (as opened, absolute), most recently used first. */
    synchronized List<String> keyPaths() {
        return List.copyOf(keys.sequencedKeySet().reversed());
    }

    /** Number of resident keys. */
    synchronized int keyCount() {
        return keys.size();
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

    /** Drops every entry; keys still leased are closed by their last lease. */
    @Override
    public synchronized void close() {
        closed = true;
        for (KeyEntry e : keys.values()) {
            drop(e);
        }
        keys.clear();
        wasms.clear();
    }
}
