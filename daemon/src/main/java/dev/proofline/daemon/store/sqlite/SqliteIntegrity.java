package dev.proofline.daemon.store.sqlite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The checks a {@link SqliteFile} passes before the daemon uses it: a store that is empty, truncated,
 * corrupt, or whose write-ahead log lost committed transactions is refused ({@link DamagedException}),
 * never used as if it were sound (SQLite alone would start an empty file as a new store, and silently
 * drop a log's frames after a damaged one, acknowledged jobs with them, whose numbers it would then
 * issue again).
 *
 * <p>Before SQLite opens the file: the database must not be empty and must start with SQLite's
 * header, and the log ({@code queue.db-wal}) must be whole up to its last frame of the current
 * generation ({@link #logDamage}). Once it is open: {@code PRAGMA quick_check}, SQLite's own check of
 * every page, and any SQLITE_CORRUPT or SQLITE_NOTADB on the way is damage too.
 */
final class SqliteIntegrity {

    private static final byte[] HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    /** The log's magic numbers: checksums of big-endian (…83) or little-endian (…82) words. */
    private static final int LOG_MAGIC_LE = 0x377f0682;
    private static final int LOG_MAGIC_BE = 0x377f0683;
    private static final int LOG_HEADER = 32;
    private static final int FRAME_HEADER = 24;

    private SqliteIntegrity() {
    }

    /**
     * A store that cannot be used as it is; the message is one line naming the file and what to do. An
     * {@link IllegalArgumentException}, as a bad configuration is: the command line prints it and exits 2.
     */
    static final class DamagedException extends IllegalArgumentException {
        final Path file;
        final String problem;

        DamagedException(Path file, String problem) {
            super("job store " + file + " " + problem + ": restore the store directory from a backup, or start with"
                    + " --set-aside-damaged-store ([store] on_damage = \"set_aside\") to move the damaged files into"
                    + " damaged-<time>/ beside it and begin with an empty store (its jobs are then not proved)");
            this.file = file;
            this.problem = problem;
        }
    }

    /** Checks the files of the store at {@code db} before SQLite opens them; absent files are a new store. */
    static void beforeOpen(Path db) throws IOException {
        if (!Files.exists(db)) {
            Path log = log(db);
            if (Files.exists(log) && Files.size(log) > LOG_HEADER) {
                throw new DamagedException(db, "is missing while its write-ahead log " + log.getFileName() + " holds "
                        + Files.size(log) + " bytes");
            }
            return;
        }
        long size = Files.size(db);
        if (size == 0) {
            throw new DamagedException(db, "is empty (0 bytes)");
        }
        byte[] head = new byte[HEADER.length];
        try (FileChannel ch = FileChannel.open(db, StandardOpenOption.READ)) {
            int n = ch.read(ByteBuffer.wrap(head));
            if (n < HEADER.length || !Arrays.equals(head, HEADER)) {
                throw new DamagedException(db, "is not an SQLite database (its first bytes are not SQLite's header)");
            }
        }
        String log = logDamage(log(db));
        if (log != null) {
            throw new DamagedException(log(db), log);
        }
    }

    /** SQLite's check of every page of the open store. */
    static void afterOpen(Path db, Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("PRAGMA quick_check(1)")) {
            String result = r.next() ? r.getString(1) : "no answer";
            if (!result.equals("ok")) {
                throw new DamagedException(db, "is corrupt (SQLite's quick_check: " + oneLine(result) + ")");
            }
        }
    }

    /** Whether {@code e} (or a cause of it) is SQLite finding the file damaged or not a database. */
    static boolean isDamage(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLiteException s && s.getResultCode() != null) {
                SQLiteErrorCode code = s.getResultCode();
                if (code.name().startsWith("SQLITE_CORRUPT") || code == SQLiteErrorCode.SQLITE_NOTADB) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The damage SQLite reported, as a {@link DamagedException}. */
    static DamagedException damaged(Path db, Throwable e) {
        String why = e.getMessage();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLiteException s) {
                why = s.getMessage();
            }
        }
        return new DamagedException(db, "is corrupt (SQLite: " + oneLine(why) + ")");
    }

    /**
     * Moves the store's files ({@code db}, its log and shared-memory index) into a new directory
     * {@code damaged-<UTC time>} beside them, and returns it.
     */
    static Path setAside(Path db) throws IOException {
        String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path aside = db.resolveSibling("damaged-" + stamp);
        for (int n = 2; Files.exists(aside); n++) {
            aside = db.resolveSibling("damaged-" + stamp + "-" + n);
        }
        Files.createDirectory(aside);
        for (Path f : new Path[] {db, log(db), db.resolveSibling(db.getFileName() + "-shm")}) {
            if (Files.exists(f)) {
                Files.move(f, aside.resolve(f.getFileName()));
            }
        }
        return aside;
    }

    static Path log(Path db) {
        return db.resolveSibling(db.getFileName() + "-wal");
    }

    /**
     * What is wrong with the write-ahead log at {@code log}, or null when it is whole (or absent).
     *
     * <p>SQLite's log is a header (magic, version, page size, checkpoint sequence, two salts, a
     * checksum) and frames (page number, database size at a commit, the salts, a running checksum over
     * every frame so far, then the page). At recovery SQLite keeps the frames up to the first whose
     * salts or checksum do not match, and silently drops the rest. An invalid tail is what a crash in
     * the middle of a write leaves (a transaction that was never acknowledged); but a frame of the
     * current generation (the header's salts) <em>after</em> an invalid one means the log was damaged
     * where committed transactions were, and SQLite would drop them.
     */
    static String logDamage(Path log) throws IOException {
        if (!Files.exists(log)) {
            return null;
        }
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < LOG_HEADER) {
                return null; // never written past its header: nothing committed in it
            }
            ByteBuffer header = read(ch, 0, LOG_HEADER);
            int magic = header.getInt(0);
            int pageSize = header.getInt(8);
            boolean sizeValid = pageSize >= 512 && pageSize <= 65536 && Integer.bitCount(pageSize) == 1;
            if ((magic != LOG_MAGIC_LE && magic != LOG_MAGIC_BE) || !sizeValid) {
                return size > LOG_HEADER ? "is damaged: its header is not a write-ahead log's" : null;
            }
            ByteOrder words = magic == LOG_MAGIC_BE ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            int[] sum = checksum(header, 0, 24, words, new int[] {0, 0});
            if (sum[0] != header.getInt(24) || sum[1] != header.getInt(28)) {
                return size > LOG_HEADER ? "is damaged: its header's checksum does not match" : null;
            }
            int salt1 = header.getInt(16);
            int salt2 = header.getInt(20);
            long frameBytes = FRAME_HEADER + (long) pageSize;
            long frames = (size - LOG_HEADER) / frameBytes;
            long firstInvalid = -1;
            for (long i = 0; i < frames; i++) {
                ByteBuffer frame = read(ch, LOG_HEADER + i * frameBytes, (int) frameBytes);
                boolean ours = frame.getInt(8) == salt1 && frame.getInt(12) == salt2;
                if (firstInvalid < 0) {
                    if (ours) {
                        int[] next = checksum(frame, 0, 8, words, sum);
                        next = checksum(frame, FRAME_HEADER, pageSize, words, next);
                        if (next[0] == frame.getInt(16) && next[1] == frame.getInt(20)) {
                            sum = next;
                            continue;
                        }
                    }
                    firstInvalid = i;
                } else if (ours) {
                    return "is damaged: frame " + (firstInvalid + 1) + " of " + frames + " is invalid and frames"
                            + " written after it (frame " + (i + 1) + ") would be dropped with it";
                }
            }
            return null;
        }
    }

    private static ByteBuffer read(FileChannel ch, long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                break;
            }
        }
        return b.order(ByteOrder.BIG_ENDIAN);
    }

    /** SQLite's log checksum over {@code length} bytes (a multiple of 8) at {@code from}, continuing {@code sum}. */
    private static int[] checksum(ByteBuffer b, int from, int length, ByteOrder words, int[] sum) {
        ByteBuffer w = b.duplicate().order(words);
        int s0 = sum[0];
        int s1 = sum[1];
        for (int i = from; i < from + length; i += 8) {
            s0 += w.getInt(i) + s1;
            s1 += w.getInt(i + 4) + s0;
        }
        return new int[] {s0, s1};
    }

    private static String oneLine(String s) {
        String line = s == null ? "" : s.replaceAll("\\s+", " ").trim();
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
