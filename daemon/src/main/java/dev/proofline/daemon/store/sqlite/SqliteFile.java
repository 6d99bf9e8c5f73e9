package dev.proofline.daemon.store.sqlite;

import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.SqlWork;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.flywaydb.core.Flyway;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The {@link SqliteStore}'s file, {@code queue.db} in the store directory: opened by one process at
 * a time (it holds the directory's {@code lock} for its life), its schema created or migrated by
 * Flyway from {@code dev/proofline/daemon/sqlite}, used through one connection, one transaction at a
 * time, each committed as durably as it asks ({@link Sync}). What a transaction announces goes to
 * this process's listeners once it committed.
 */
final class SqliteFile implements ClusterStore.Database {

    static {
        // Flyway's progress messages are not the daemon's
        java.util.logging.Logger.getLogger("org.flywaydb").setLevel(java.util.logging.Level.WARNING);
    }

    private final Path directory;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final Connection connection;
    private final LongSupplier clock;
    /** One transaction at a time on the one connection (SQLite has one writer anyway). */
    private final ReentrantLock busy = new ReentrantLock();
    /** The connection's safety level now (guarded by {@link #busy}). */
    private Sync sync = Sync.FULL;
    private final AtomicLong calls = new AtomicLong();
    private final List<LinkedBlockingQueue<ClusterStore.Notice>> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    private final Consumer<String> log;
    /** Why the file is damaged, found while running (for good: a restart checks it again), or null. */
    private volatile String damage;
    /** Why the disk took no more, until a transaction commits again, or null. */
    private volatile String full;
    /** Tests: a failure each transaction meets before its work, as a disk or a damaged file would give. */
    private volatile SqlWork<String, SQLException> fault;
    /** Free bytes on the store's disk (tests: what a full disk would say). */
    private volatile LongSupplier freeBytes = this::usableSpace;

    private SqliteFile(Path directory, FileChannel lockFile, FileLock lock, Connection connection, LongSupplier clock,
            Consumer<String> log) {
        this.directory = directory;
        this.lockFile = lockFile;
        this.lock = lock;
        this.connection = connection;
        this.clock = clock;
        this.log = log;
    }

    /**
     * Opens (or creates) the store in {@code directory} (made owner-only: witnesses are in it),
     * creating or migrating its schema; {@code clock}: milliseconds since the epoch. Another process
     * with the store open is a {@link DaemonConfig.ConfigException}, a damaged store a
     * {@link SqliteIntegrity.DamagedException}.
     */
    static SqliteFile open(Path directory, LongSupplier clock) {
        return open(directory, clock, false, line -> { });
    }

    /**
     * As {@link #open(Path, LongSupplier)}; with {@code setAsideDamaged} a damaged store's files are
     * moved into {@code damaged-<time>/} in the directory (said on {@code log}) and an empty store begins.
     */
    static SqliteFile open(Path directory, LongSupplier clock, boolean setAsideDamaged, Consumer<String> log) {
        FileChannel lockFile = null;
        try {
            Files.createDirectories(directory);
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
            lockFile = FileChannel.open(directory.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = lockFile.tryLock();
            } catch (java.nio.channels.OverlappingFileLockException e) {
                lock = null; // held by this process already
            }
            if (lock == null) {
                throw new DaemonConfig.ConfigException("store.directory: " + directory
                        + " is in use by another daemon (each daemon needs a store directory of its own)");
            }
            Path db = directory.resolve("queue.db");
            Connection c;
            try {
                c = connect(db);
            } catch (SqliteIntegrity.DamagedException e) {
                if (!setAsideDamaged) {
                    throw e;
                }
                Path aside = SqliteIntegrity.setAside(db);
                log.accept("job store " + e.file + " " + e.problem + ": its files were moved into " + aside
                        + "; starting with an empty store");
                c = connect(db);
            }
            SqliteFile s = new SqliteFile(directory, lockFile, lock, c, clock, log);
            lockFile = null; // the file owns it now
            return s;
        } catch (IOException e) {
            throw new DaemonConfig.ConfigException("store.directory: " + directory + ": " + e.getMessage());
        } catch (SQLException | RuntimeException e) {
            if (e instanceof DaemonConfig.ConfigException || e instanceof SqliteIntegrity.DamagedException) {
                throw (RuntimeException) e;
            }
            throw new IllegalStateException("opening the job store in " + directory + ": "
                    + String.valueOf(e.getMessage()).replaceAll("\\s+", " "), e);
        } finally {
            if (lockFile != null) {
                try {
                    lockFile.close();
                } catch (IOException ignored) {
                    // failing anyway
                }
            }
        }
    }

    /**
     * How a transaction's commit reaches the disk. WAL mode: a commit appends to the log (no rewrite
     * of the database pages), and readers do not block the writer. {@code FULL}: the commit fsyncs
     * the log before it returns, so a job is on the disk itself when SubmitProof acknowledges it, and
     * a proof, a failure or a cancel once a client may have seen it. {@code NORMAL}: the log is synced
     * at checkpoints and by the next FULL commit (which covers every earlier one); such a commit
     * survives the process dying (kill -9: the OS still writes its pages) but may be lost with the
     * machine's power, which is harmless for what it is used for: claims (a lost one is queued
     * again), heartbeats, fetch marks and the upkeep, all redone by the next start or upkeep. The
     * file is never corrupted either way. What each costs: docs/reliability.md.
     */
    enum Sync {
        FULL, NORMAL
    }

    /** A connection to the store at {@code file}, checked ({@link SqliteIntegrity}) and its schema migrated. */
    private static Connection connect(Path file) throws SQLException, IOException {
        SqliteIntegrity.beforeOpen(file);
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.enforceForeignKeys(true);
        // someone inspecting the file with the sqlite3 shell holds its lock for a moment at most
        config.setBusyTimeout(5000);
        SQLiteDataSource ds = new SQLiteDataSource(config);
        ds.setUrl("jdbc:sqlite:" + file);
        Connection c = null;
        try {
            c = ds.getConnection();
            SqliteIntegrity.afterOpen(file, c);
            Flyway.configure().dataSource(ds).locations("classpath:dev/proofline/daemon/sqlite")
                    .table("proofline_schema_history").load().migrate();
            // transactions are begun and committed by hand (with), so that the safety level can be set
            // between them: SQLite refuses to change it inside one
            c.setAutoCommit(true);
            return c;
        } catch (SQLException | RuntimeException e) {
            if (c != null) {
                c.close();
            }
            if (!(e instanceof SqliteIntegrity.DamagedException) && SqliteIntegrity.isDamage(e)) {
                throw SqliteIntegrity.damaged(file, e);
            }
            throw e;
        }
    }

    Path path() {
        return directory.resolve("queue.db");
    }

    /** Statements prepared so far. */
    long calls() {
        return calls.get();
    }

    @Override
    public String describe() {
        return "SQLite " + path();
    }

    @Override
    public String retentionKey() {
        return "store.result_retention";
    }

    @Override
    public long roundTrips() {
        return calls();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        busy.lock();
        try {
            closed = true;
            connection.close();
        } catch (SQLException ignored) {
            // the file is consistent after every commit
        } finally {
            busy.unlock();
            try {
                lock.release();
                lockFile.close();
            } catch (IOException ignored) {
                // the OS releases the lock with the process
            }
        }
    }

    // ------------------------------------------------------------------ plumbing

    /** One transaction: its statements and the announcements made once it committed. */
    final class Transaction {
        final long now = clock.getAsLong();
        final List<ClusterStore.Notice> notices = new ArrayList<>();

        PreparedStatement prepare(String sql) throws SQLException {
            calls.incrementAndGet();
            return connection.prepareStatement(sql);
        }

        void work(String job, String circuit, String digest) {
            notices.add(new ClusterStore.Notice(ClusterStore.WORK, job + " " + circuit + " " + digest));
        }

        void ended(String job, String state) {
            notices.add(new ClusterStore.Notice(ClusterStore.JOBS, job + " " + state));
        }

        long next(String counter) throws SQLException {
            try (PreparedStatement s = prepare("UPDATE counters SET value = value + 1 WHERE name = ? RETURNING value")) {
                s.setString(1, counter);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getLong(1);
                }
            }
        }

        int update(String sql, Object... args) throws SQLException {
            try (PreparedStatement s = prepare(sql)) {
                bind(s, args);
                return s.executeUpdate();
            }
        }
    }

    static void bind(PreparedStatement s, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            s.setObject(i + 1, args[i]);
        }
    }

    private void execute(String sql) throws SQLException {
        try (var s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    /**
     * Runs {@code work} as one transaction committed as {@code level} says, then announces what it
     * did. A disk that is full or failing is an {@link UnavailableException} (the caller's request:
     * UNAVAILABLE; a result: retried).
     */
    <T> T with(String what, Sync level, SqlWork<Transaction, T> work) {
        Transaction t = new Transaction();
        T value;
        busy.lock();
        try {
            if (closed) {
                throw new ClusterStore.UnavailableException("the job store is closed (" + what + ")", null);
            }
            if (sync != level) {
                execute("PRAGMA synchronous = " + level.name());
                sync = level;
            }
            if (full != null && freeBytes.getAsLong() >= resumeFreeBytes()) {
                spaceAgain();
            }
            SqlWork<String, SQLException> f = fault;
            SQLException injected = f == null ? null : f.run(what);
            if (injected != null) {
                throw injected;
            }
            execute("BEGIN IMMEDIATE");
            try {
                value = work.run(t);
                execute("COMMIT");
            } catch (SQLException | RuntimeException e) {
                try {
                    execute("ROLLBACK");
                } catch (SQLException ignored) {
                    // no transaction left to roll back (SQLite ended it with the error)
                }
                throw e;
            }
        } catch (SQLException e) {
            if (SqliteIntegrity.isDamage(e)) {
                throw damaged(what, e);
            }
            if (isStorageProblem(e)) {
                if (isFull(e) && full == null) {
                    full = "the disk of job store " + path() + " is full (" + what + ": " + oneLine(e) + "): new jobs"
                            + " are refused until " + (resumeFreeBytes() >> 10) + " KiB are free; accepted jobs are"
                            + " kept, their results written once the disk takes them";
                    log.accept(full);
                }
                String f = full;
                throw new ClusterStore.UnavailableException(isFull(e) && f != null ? f
                        : "the job store cannot be written (" + what + "): " + oneLine(e), e);
            }
            throw new IllegalStateException(what + ": " + e.getMessage(), e);
        } finally {
            busy.unlock();
        }
        if (full != null && what.startsWith("submitting")) {
            spaceAgain();
        }
        for (ClusterStore.Notice n : t.notices) {
            for (LinkedBlockingQueue<ClusterStore.Notice> q : listeners) {
                q.offer(n);
            }
        }
        return value;
    }

    /**
     * Why the store takes no new jobs now (damaged, or its disk full), or null.
     */
    @Override
    public String problem() {
        String d = damage;
        return d != null ? d : full;
    }

    /** A damaged file takes no new jobs: they are refused before anything is written. */
    void refuseIfDamaged() {
        String d = damage;
        if (d != null) {
            throw new ClusterStore.DamagedStoreException(d, null);
        }
    }

    /**
     * Free space on the store's disk at which a store whose disk was full takes new jobs again (a quarter
     * of a disk smaller than four times this).
     */
    static final long RESUME_FREE_BYTES = 64L << 20;

    /** {@link #RESUME_FREE_BYTES}, or a quarter of a smaller disk. */
    private long resumeFreeBytes() {
        try {
            return Math.min(RESUME_FREE_BYTES, Files.getFileStore(directory).getTotalSpace() / 4);
        } catch (IOException e) {
            return RESUME_FREE_BYTES;
        }
    }

    private long usableSpace() {
        try {
            return Files.getFileStore(directory).getUsableSpace();
        } catch (IOException e) {
            return 0;
        }
    }

    private void spaceAgain() {
        full = null;
        log.accept("job store " + path() + ": its disk takes writes again; new jobs are accepted");
    }

    /**
     * Tests: each transaction from now on first meets what {@code f} gives for its name (null: none), and
     * the disk says it has {@code free} bytes free (null: what it has).
     */
    void injectFault(SqlWork<String, SQLException> f, LongSupplier free) {
        fault = f;
        freeBytes = free == null ? this::usableSpace : free;
    }

    /** Notes damage SQLite reported while running (logged once) and the caller's exception for it. */
    private ClusterStore.DamagedStoreException damaged(String what, SQLException e) {
        synchronized (this) {
            if (damage == null) {
                damage = "job store " + path() + " is damaged (" + what + ": " + oneLine(e) + "): new jobs are"
                        + " refused; stop the daemon and restore the store directory from a backup, or restart it with"
                        + " --set-aside-damaged-store to set the damaged files aside and begin an empty store";
                log.accept(damage);
            }
        }
        return new ClusterStore.DamagedStoreException(damage, e);
    }

    private static String oneLine(SQLException e) {
        return String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
    }

    private static boolean isFull(SQLException e) {
        return e instanceof SQLiteException s && s.getResultCode() != null
                && s.getResultCode().name().startsWith("SQLITE_FULL");
    }

    private static boolean isStorageProblem(SQLException e) {
        if (!(e instanceof SQLiteException s)) {
            return false;
        }
        SQLiteErrorCode code = s.getResultCode();
        String name = code == null ? "" : code.name();
        return name.startsWith("SQLITE_FULL") || name.startsWith("SQLITE_IOERR") || name.startsWith("SQLITE_BUSY")
                || name.startsWith("SQLITE_CANTOPEN") || name.startsWith("SQLITE_READONLY");
    }

    /** A subscription to the announcements of the transactions committed from now on. */
    @Override
    public ClusterStore.Notices listen() {
        LinkedBlockingQueue<ClusterStore.Notice> queue = new LinkedBlockingQueue<>();
        listeners.add(queue);
        return new ClusterStore.Notices() {
            @Override
            public List<ClusterStore.Notice> poll(Duration timeout) throws InterruptedException {
                List<ClusterStore.Notice> out = new ArrayList<>();
                ClusterStore.Notice first = queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (first != null) {
                    out.add(first);
                    queue.drainTo(out);
                }
                return out;
            }

            @Override
            public void close() {
                listeners.remove(queue);
            }
        };
    }
}
