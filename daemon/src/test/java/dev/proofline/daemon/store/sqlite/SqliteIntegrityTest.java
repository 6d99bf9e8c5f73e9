package dev.proofline.daemon.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.daemon.store.ClusterStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged store is refused at start with one line naming the file and what to do, or, when the
 * operator asks, moved aside for an empty store; it is never used as if it were sound. The damage is
 * made on real store files: emptied, truncated, junk over its pages or header, a write-ahead log
 * damaged where committed transactions are.
 */
class SqliteIntegrityTest {

    @TempDir
    Path dir;

    private static final List<String> CIRCUITS = List.of("multiplier");
    private static final List<String> DIGESTS = List.of("d1");

    /** A store in {@code store} with {@code jobs} jobs of a 16 KiB witness each (so its file spans many pages). */
    private static List<String> fill(ClusterStore s, int jobs) {
        List<String> ids = new ArrayList<>();
        byte[] witness = new byte[16 << 10];
        new Random(jobs).nextBytes(witness);
        for (int j = 0; j < jobs; j++) {
            ids.add(s.queue().submit("key-" + j, "multiplier", "d1", 1, null, "local",
                    List.of(new ClusterStore.NewPartition(ClusterStore.PartitionKind.WTNS, witness))).jobId());
        }
        return ids;
    }

    private Path closedStore(int jobs) {
        Path store = dir.resolve("store");
        try (ClusterStore s = SqliteStore.open(store)) {
            fill(s, jobs);
        }
        return store;
    }

    private static SqliteIntegrity.DamagedException refused(Path store) {
        var e = assertThrows(SqliteIntegrity.DamagedException.class, () -> SqliteStore.open(store).close());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertTrue(e.getMessage().contains("--set-aside-damaged-store"), "says what to do: " + e.getMessage());
        return e;
    }

    @Test
    void anEmptiedStoreIsRefused() throws Exception {
        Path store = closedStore(3);
        Files.write(store.resolve("queue.db"), new byte[0]);
        var e = refused(store);
        assertTrue(e.getMessage().startsWith("job store " + store.resolve("queue.db") + " is empty (0 bytes)"), e.getMessage());
        assertEquals(0, Files.size(store.resolve("queue.db")), "the file was left as it was");
    }

    @Test
    void aTruncatedStoreIsRefused() throws Exception {
        Path store = closedStore(40);
        Path db = store.resolve("queue.db");
        try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
            f.setLength(f.length() / 2);
        }
        var e = refused(store);
        assertTrue(e.getMessage().contains(db.toString()), e.getMessage());
    }

    @Test
    void junkInTheMiddleOfTheStoreIsRefused() throws Exception {
        Path store = closedStore(40);
        Path db = store.resolve("queue.db");
        byte[] junk = new byte[64 << 10];
        new Random(7).nextBytes(junk);
        try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
            // in the middle: pages of the witnesses, which opening the store does not read
            f.seek(f.length() / 2 / 4096 * 4096);
            f.write(junk);
        }
        var e = refused(store);
        assertTrue(e.getMessage().contains(db + " is corrupt"), e.getMessage());
    }

    @Test
    void aStoreWithoutSqlitesHeaderIsRefused() throws Exception {
        Path store = closedStore(3);
        try (RandomAccessFile f = new RandomAccessFile(store.resolve("queue.db").toFile(), "rw")) {
            f.write(new byte[100]);
        }
        var e = refused(store);
        assertTrue(e.getMessage().contains("is not an SQLite database"), e.getMessage());
    }

    /**
     * The files of a store as a process killed after {@code jobs} acknowledged submissions leaves them:
     * the database and its write-ahead log, which holds the latest commits.
     */
    private Path killedStore(int jobs, List<String> ids) throws IOException {
        Path live = dir.resolve("live");
        Path image = Files.createDirectories(dir.resolve("image"));
        try (ClusterStore s = SqliteStore.open(live)) {
            ids.addAll(fill(s, jobs));
            for (String f : new String[] {"queue.db", "queue.db-wal"}) {
                Files.copy(live.resolve(f), image.resolve(f));
            }
        }
        assertTrue(Files.size(image.resolve("queue.db-wal")) > 64 << 10, "the commits are in the log");
        return image;
    }

    @Test
    void aWholeLogIsRecoveredWithEveryAcknowledgedJob() throws Exception {
        List<String> ids = new ArrayList<>();
        Path image = killedStore(20, ids);
        // a crash in the middle of a write leaves a torn frame at the log's end: SQLite drops it, and it
        // held nothing that was acknowledged
        try (RandomAccessFile f = new RandomAccessFile(image.resolve("queue.db-wal").toFile(), "rw")) {
            f.seek(f.length());
            byte[] torn = new byte[3000];
            new Random(3).nextBytes(torn);
            f.write(torn);
        }
        try (ClusterStore s = SqliteStore.open(image)) {
            for (String id : ids) {
                assertNotNull(s.views().job(id, false), id + " survived the kill");
            }
        }
    }

    @Test
    void aLogDamagedBeforeItsLastCommitsIsRefused() throws Exception {
        List<String> ids = new ArrayList<>();
        Path image = killedStore(20, ids);
        Path wal = image.resolve("queue.db-wal");
        long size = Files.size(wal);
        byte[] junk = new byte[64 << 10];
        new Random(11).nextBytes(junk);
        try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
            f.seek(size / 3);
            f.write(junk);
        }
        assertNotNull(SqliteIntegrity.logDamage(wal));
        var e = refused(image);
        assertTrue(e.getMessage().startsWith("job store " + wal + " is damaged: frame "), e.getMessage());
        assertEquals(size, Files.size(wal), "the log was left as it was");
    }

    @Test
    void theOperatorMayHaveADamagedStoreMovedAsideForAnEmptyOne() throws Exception {
        Path store = closedStore(3);
        Files.write(store.resolve("queue.db"), new byte[0]);
        List<String> log = new ArrayList<>();
        String id;
        try (ClusterStore s = SqliteStore.open(store, true, log::add)) {
            id = fill(s, 1).getFirst();
            assertEquals(1, s.queue().claim("local", 10, Duration.ofMinutes(1), CIRCUITS, DIGESTS).size(), "a working store");
        }
        assertEquals(1, log.size(), log.toString());
        assertTrue(log.getFirst().contains("is empty (0 bytes): its files were moved into " + store.resolve("damaged-")),
                log.getFirst());
        Path aside;
        try (Stream<Path> files = Files.list(store)) {
            aside = files.filter(p -> p.getFileName().toString().startsWith("damaged-")).findFirst().orElseThrow();
        }
        assertEquals(0, Files.size(aside.resolve("queue.db")), "the damaged file is kept as it was");
        try (ClusterStore s = SqliteStore.open(store)) {
            assertNotNull(s.views().job(id, false), "the new store is used from then on, and checked like any other");
            assertNull(SqliteIntegrity.logDamage(store.resolve("queue.db-wal")));
        }
    }
}
