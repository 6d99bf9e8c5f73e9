package dev.proofline.daemon.store.sqlite;

import dev.proofline.daemon.store.ClusterStore;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A single daemon's durable job queue in one SQLite file ({@link SqliteFile}, used by one process at
 * a time): a {@link ClusterStore} whose parts are {@link SqliteQueue} (submit, claim, complete, fail,
 * release, cancel), {@link SqliteMembership} (heartbeat, leaving, refusals), {@link SqliteUpkeep} and
 * {@link SqliteViews}, the same parts as PostgreSQL's. Every call is one transaction; its
 * announcements go to this process's listeners once it committed.
 *
 * <p>A partition's witness (or input JSON) is in the file until the partition ends, so that jobs
 * acknowledged before a crash are proved after the restart; proofs stay until the retention of
 * ended jobs passes.
 */
public final class SqliteStore {

    private SqliteStore() {
    }

    private static ClusterStore of(SqliteFile file) {
        return new ClusterStore(file, new SqliteQueue(file), new SqliteMembership(file), new SqliteUpkeep(file),
                new SqliteViews(file));
    }

    /** Opens (or creates) the store in {@code directory}, on the system clock. */
    public static ClusterStore open(Path directory) {
        return open(directory, System::currentTimeMillis);
    }

    /**
     * Opens (or creates) the store in {@code directory} (made owner-only: witnesses are in it);
     * {@code clock}: milliseconds since the epoch. Another process with the store open is a
     * {@link dev.proofline.daemon.config.DaemonConfig.ConfigException}.
     */
    public static ClusterStore open(Path directory, LongSupplier clock) {
        return of(SqliteFile.open(directory, clock));
    }

    /** As {@link #open(Path, LongSupplier)}, saying on {@code log} what happens to the store while it runs. */
    public static ClusterStore open(Path directory, LongSupplier clock, Consumer<String> log) {
        return of(SqliteFile.open(directory, clock, false, log));
    }

    /**
     * Opens (or creates) the store in {@code directory}, on the system clock; a damaged store is refused
     * ({@link SqliteIntegrity.DamagedException}), or with {@code setAsideDamaged} moved aside (said on
     * {@code log}) for an empty one.
     */
    public static ClusterStore open(Path directory, boolean setAsideDamaged, Consumer<String> log) {
        return of(SqliteFile.open(directory, System::currentTimeMillis, setAsideDamaged, log));
    }

    /** The file of a store this class opened (tests: faults are injected there). */
    static SqliteFile file(ClusterStore store) {
        return (SqliteFile) store.database();
    }

    /** Partitions by state (for checks): state → count. */
    public static Map<String, Long> partitionStates(ClusterStore store) {
        return ((SqliteViews) store.views()).partitionStates();
    }
}
