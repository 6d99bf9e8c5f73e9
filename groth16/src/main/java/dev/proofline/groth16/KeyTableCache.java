package dev.proofline.groth16;

import dev.proofline.algebra.msm.FixedBaseTable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Proving keys' precomputed tables ({@link KeyTables}) kept on disk, so that a prover that starts again
 * maps them instead of building them (seconds to tens of seconds a key). A file holds one key's tables
 * for one memory budget and processor count (they decide the tables' shape), and is found by the SHA-256
 * of the key file's bytes: a key copied elsewhere finds its tables, a changed key does not. The digest of
 * a key file is remembered by its path, file identity, size and modification time, so that an unchanged
 * key is not read again to find it.
 *
 * <p>Every file is checked when it is loaded: its header (format, key digest, budget, processors, the
 * tables' shapes), a CRC-32C of all its bytes, and the first points of each table's first row against
 * the key's own points; a file that fails is deleted (and the tables built again by the caller). Files
 * are written to a temporary name and moved into place, so a crash leaves no half-written table where a
 * reader would take it. The cache holds at most {@code maxBytes}: after each write, the least recently
 * used files (by modification time, which a load renews) are deleted until it fits.
 *
 * <p>Thread-safe: two writers of the same file write their own temporary files and the last move wins.
 */
public final class KeyTableCache {

    private static final byte[] MAGIC = "proofline tables".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    private static final int SETS = 5;
    /** Header: magic (16), version (4), sets (4), digest (32), budget (8), processors (4), reserved (4). */
    private static final int HEADER = 72;
    /** Each set: count, kept, window bits, indices kept (0: all points, in order), data offset, data length. */
    private static final int SET_ENTRY = 32;
    /** Each table's rows start on a page, so that the mapped rows are aligned for any access. */
    private static final int ALIGN = 4096;
    /** Points of each table's first row compared with the key's at load. */
    private static final int CHECKED_POINTS = 16;
    private static final String SUFFIX = ".tables";
    /** Bytes checksummed at a time (a buffer over a mapping holds at most 2 GiB). */
    private static final long CRC_CHUNK = 1L << 30;

    private final Path dir;
    private final long maxBytes;

    /**
     * The size a cache in {@code dir} is given unless told otherwise: 4 GiB, or a quarter of the space
     * left on the file system it would be on where that is less.
     */
    public static long defaultMaxBytes(Path dir) {
        long cap = 4L << 30;
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            if (existing != null) {
                cap = Math.min(cap, Files.getFileStore(existing).getUsableSpace() / 4);
            }
        } catch (IOException e) {
            // the default
        }
        return cap;
    }

    /** A cache in {@code dir} of its {@link #defaultMaxBytes default size}. */
    public KeyTableCache(Path dir) {
        this(dir, defaultMaxBytes(dir));
    }

    /** A cache in {@code dir} (created when first written) of at most {@code maxBytes}. */
    public KeyTableCache(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    public Path dir() {
        return dir;
    }

    /** The most the cache holds. */
    public long maxBytes() {
        return maxBytes;
    }

    /**
     * The key's tables for {@code budget} bytes from the cache, mapped; empty where there are none, or
     * where the file fails a check (it is deleted then).
     */
    public Optional<KeyTables> load(ProvingKey key, long budget) {
        Path file;
        try {
            file = fileFor(key, budget);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment all;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                all = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            }
            KeyTables tables = read(all, key, budget, digestOf(key.source()), arena);
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
            return Optional.of(tables);
        } catch (IOException | RuntimeException e) {
            arena.close();
            deleteQuietly(file);
            return Optional.empty();
        }
    }

    /** Reads and checks the tables of a mapped file. */
    private static KeyTables read(MemorySegment all, ProvingKey key, long budget, byte[] digest, Arena arena) {
        long size = all.byteSize();
        if (size < HEADER + SETS * SET_ENTRY + 8) {
            throw new IllegalArgumentException("too short");
        }
        CRC32C crc = new CRC32C();
        for (long at = 0; at < size - 8; at += CRC_CHUNK) {
            crc.update(all.asSlice(at, Math.min(CRC_CHUNK, size - 8 - at)).asByteBuffer());
        }
        if (crc.getValue() != all.get(LE_LONG, size - 8)) {
            throw new IllegalArgumentException("checksum mismatch");
        }
        ByteBuffer h = all.asSlice(0, HEADER).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[MAGIC.length];
        h.get(magic);
        int version = h.getInt();
        int setCount = h.getInt();
        byte[] stored = new byte[32];
        h.get(stored);
        if (!java.util.Arrays.equals(magic, MAGIC) || version != VERSION || setCount != SETS
                || !java.util.Arrays.equals(stored, digest) || h.getLong() != budget || h.getInt() != Runtime.getRuntime().availableProcessors()) {
            throw new IllegalArgumentException("made for another key, budget or machine");
        }
        List<KeyTables.Set> sets = KeyTables.sets(key);
        FixedBaseTable[] tables = new FixedBaseTable[SETS];
        long at = HEADER + (long) SETS * SET_ENTRY;
        for (int i = 0; i < SETS; i++) {
            ByteBuffer e = all.asSlice(HEADER + (long) i * SET_ENTRY, SET_ENTRY).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            int count = e.getInt();
            int kept = e.getInt();
            int c = e.getInt();
            int indices = e.getInt();
            long offset = e.getLong();
            long length = e.getLong();
            if (c == 0) {
                continue;
            }
            KeyTables.Set set = sets.get(i);
            if (count != set.count() || indices < 0 || indices > count || offset < 0 || length < 0
                    || offset + length > size - 8 || at + 4L * indices > offset) {
                throw new IllegalArgumentException("set " + i + " does not fit the key or the file");
            }
            int[] original = null;
            if (indices > 0) {
                original = new int[indices];
                MemorySegment.copy(all, LE_INT, at, original, 0, indices);
                at += 4L * indices;
            }
            tables[i] = FixedBaseTable.over(set.curve(), count, kept, original, c, all.asSlice(offset, length));
            checkFirstRow(tables[i], set);
        }
        return KeyTables.of(tables, arena::close);
    }

    /** The table's first row holds the set's points not at infinity, in order: a few are compared. */
    private static void checkFirstRow(FixedBaseTable t, KeyTables.Set set) {
        long pointBytes = 8L * set.curve().affineWidth();
        int[] original = t.originalIndices();
        for (int k = 0; k < Math.min(CHECKED_POINTS, t.kept()); k++) {
            int index = original == null ? k : original[k];
            if (MemorySegment.mismatch(t.segment(), k * pointBytes, (k + 1) * pointBytes, set.points(),
                    index * pointBytes, (index + 1) * pointBytes) >= 0) {
                throw new IllegalArgumentException("a table's point differs from the key's");
            }
        }
    }

    /**
     * Writes the key's tables for {@code budget} to the cache (atomically), then deletes the least
     * recently used files while the cache is over its size. A write that fails leaves the cache as it was.
     */
    public void store(ProvingKey key, long budget, KeyTables tables) {
        Path tmp = null;
        try {
            Path file = fileFor(key, budget);
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, "write-", ".tmp");
            write(tmp, tables.bySet(), digestOf(key.source()), budget);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
            evict();
        } catch (IOException | RuntimeException e) {
            // a cache that cannot be written: the tables are built again next time
        } finally {
            if (tmp != null) {
                deleteQuietly(tmp);
            }
        }
    }

    private static void write(Path file, FixedBaseTable[] tables, byte[] digest, long budget) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(HEADER + SETS * SET_ENTRY).order(ByteOrder.LITTLE_ENDIAN);
        head.put(MAGIC).putInt(VERSION).putInt(SETS).put(digest).putLong(budget)
                .putInt(Runtime.getRuntime().availableProcessors()).putInt(0);
        long indicesBytes = 0;
        for (FixedBaseTable t : tables) {
            if (t != null && t.originalIndices() != null) {
                indicesBytes += 4L * t.kept();
            }
        }
        long at = align(HEADER + (long) SETS * SET_ENTRY + indicesBytes);
        long[] offsets = new long[SETS];
        for (int i = 0; i < SETS; i++) {
            FixedBaseTable t = tables[i];
            if (t == null) {
                head.putInt(0).putInt(0).putInt(0).putInt(0).putLong(0).putLong(0);
                continue;
            }
            int[] original = t.originalIndices();
            offsets[i] = at;
            head.putInt(t.count()).putInt(t.kept()).putInt(t.windowBits()).putInt(original == null ? 0 : original.length)
                    .putLong(at).putLong(t.segment().byteSize());
            at = align(at + t.segment().byteSize());
        }
        CRC32C crc = new CRC32C();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            head.flip();
            writeAll(ch, head, crc);
            for (FixedBaseTable t : tables) {
                int[] original = t == null ? null : t.originalIndices();
                if (original != null) {
                    ByteBuffer b = ByteBuffer.allocate(4 * original.length).order(ByteOrder.LITTLE_ENDIAN);
                    b.asIntBuffer().put(original);
                    writeAll(ch, b, crc);
                }
            }
            for (int i = 0; i < SETS; i++) {
                if (tables[i] != null) {
                    writeAll(ch, ByteBuffer.allocate((int) (offsets[i] - ch.position())), crc);
                    MemorySegment rows = tables[i].segment();
                    for (long from = 0; from < rows.byteSize(); from += CRC_CHUNK) {
                        writeAll(ch, rows.asSlice(from, Math.min(CRC_CHUNK, rows.byteSize() - from)).asByteBuffer(), crc);
                    }
                }
            }
            ByteBuffer tail = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(crc.getValue());
            tail.flip();
            while (tail.hasRemaining()) {
                ch.write(tail);
            }
            ch.force(true);
        }
    }

    private static void writeAll(FileChannel ch, ByteBuffer b, CRC32C crc) throws IOException {
        crc.update(b.duplicate());
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static long align(long n) {
        return (n + ALIGN - 1) / ALIGN * ALIGN;
    }

    /** Deletes the least recently used table files while the cache holds more than its size. */
    private void evict() throws IOException {
        record Entry(Path path, long size, FileTime used) {
        }
        List<Entry> entries = new ArrayList<>();
        long total = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            for (Path f : files) {
                BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                entries.add(new Entry(f, a.size(), a.lastModifiedTime()));
                total += a.size();
            }
        }
        entries.sort(Comparator.comparing(Entry::used));
        for (Entry e : entries) {
            if (total <= maxBytes) {
                break;
            }
            deleteQuietly(e.path());
            total -= e.size();
        }
    }

    /** The cache file of the key's tables for {@code budget} bytes on this machine's processor count. */
    Path fileFor(ProvingKey key, long budget) throws IOException {
        return dir.resolve(HexFormat.of().formatHex(digestOf(key.source())) + "-" + budget + "-"
                + Runtime.getRuntime().availableProcessors() + SUFFIX);
    }

    /**
     * The SHA-256 of the file's bytes, remembered under a name made of its path, identity, size and
     * modification time (in {@code index/}), so that an unchanged file is read once.
     */
    byte[] digestOf(Path file) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        String stamp = file.toAbsolutePath() + "\n" + a.fileKey() + "\n" + a.size() + "\n"
                + a.lastModifiedTime().toInstant();
        Path remembered = dir.resolve("index").resolve(HexFormat.of().formatHex(sha256().digest(
                stamp.getBytes(StandardCharsets.UTF_8))));
        try {
            byte[] d = HexFormat.of().parseHex(Files.readString(remembered, StandardCharsets.US_ASCII).strip());
            if (d.length == 32) {
                return d;
            }
        } catch (IOException | IllegalArgumentException e) {
            // not remembered yet
        }
        MessageDigest md = sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 20];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
        }
        byte[] d = md.digest();
        try {
            Files.createDirectories(remembered.getParent());
            Path tmp = Files.createTempFile(remembered.getParent(), "digest-", ".tmp");
            Files.writeString(tmp, HexFormat.of().formatHex(d), StandardCharsets.US_ASCII);
            Files.move(tmp, remembered, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // computed again next time
        }
        return d;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // left behind; a later eviction or load retries
        }
    }

    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
}
