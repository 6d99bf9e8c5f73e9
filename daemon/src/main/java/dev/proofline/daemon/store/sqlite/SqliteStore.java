package dev.proofline.daemon.store.sqlite;

import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.store.ClusterStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A single daemon's durable job queue ({@link ClusterStore}, whose model, states and contract it
 * keeps) in one SQLite file ({@link SqliteFile}, used by one process at a time). Every call is one
 * transaction; its announcements go to this process's listeners once it committed.
 *
 * <p>Its parts, the same as the {@code PostgresStore}'s: {@link SqliteQueue} (submit, claim,
 * complete, fail, release, cancel), {@link SqliteMembership} (heartbeat, leaving, refusals),
 * {@link SqliteUpkeep} and {@link SqliteViews}.
 *
 * <p>A partition's witness (or input JSON) is in the file until the partition ends, so that jobs
 * acknowledged before a crash are proved after the restart; proofs stay until the retention of
 * ended jobs passes.
 */
public final class SqliteStore implements ClusterStore {

    private final SqliteFile file;
    private final SqliteQueue queue;
    private final SqliteMembership node;
    private final SqliteUpkeep upkeep;
    private final SqliteViews views;

    private SqliteStore(SqliteFile file) {
        this.file = file;
        this.queue = new SqliteQueue(file);
        this.node = new SqliteMembership(file);
        this.upkeep = new SqliteUpkeep(file);
        this.views = new SqliteViews(file);
    }

    /** Opens (or creates) the store in {@code directory}, on the system clock. */
    public static SqliteStore open(Path directory) {
        return open(directory, System::currentTimeMillis);
    }

    /**
     * Opens (or creates) the store in {@code directory} (made owner-only: witnesses are in it);
     * {@code clock}: milliseconds since the epoch. Another process with the store open is a
     * {@link DaemonConfig.ConfigException}.
     */
    public static SqliteStore open(Path directory, LongSupplier clock) {
        return new SqliteStore(SqliteFile.open(directory, clock));
    }

    /** As {@link #open(Path, LongSupplier)}, saying on {@code log} what happens to the store while it runs. */
    public static SqliteStore open(Path directory, LongSupplier clock, java.util.function.Consumer<String> log) {
        return new SqliteStore(SqliteFile.open(directory, clock, false, log));
    }

    /** Its file (tests: faults are injected there). */
    SqliteFile file() {
        return file;
    }

    /**
     * Opens (or creates) the store in {@code directory}, on the system clock; a damaged store is refused
     * ({@link SqliteIntegrity.DamagedException}), or with {@code setAsideDamaged} moved aside (said on
     * {@code log}) for an empty one.
     */
    public static SqliteStore open(Path directory, boolean setAsideDamaged, java.util.function.Consumer<String> log) {
        return new SqliteStore(SqliteFile.open(directory, System::currentTimeMillis, setAsideDamaged, log));
    }

    @Override
    public String describe() {
        return "SQLite " + file.path();
    }

    @Override
    public String problem() {
        return file.problem();
    }

    @Override
    public String retentionKey() {
        return "store.result_retention";
    }

    @Override
    public long roundTrips() {
        return file.calls();
    }

    @Override
    public Notices listen() {
        return file.listen();
    }

    @Override
    public void close() {
        file.close();
    }

    @Override
    public Submitted submit(String idempotencyKey, String circuit, String digest, int priority, Duration deadline,
            String node, List<NewPartition> parts) {
        file.refuseIfDamaged();
        return queue.submit(idempotencyKey, circuit, digest, priority, deadline, node, parts);
    }

    @Override
    public List<Claim> claim(String node, int limit, Duration lease, List<String> circuits, List<String> digests) {
        return queue.claim(node, limit, lease, circuits, digests);
    }

    @Override
    public boolean complete(Claim claim, String node, String proofJson, byte[] proofBinary, List<String> publicSignals,
            double[] timings) {
        return queue.complete(claim, node, proofJson, proofBinary, publicSignals, timings);
    }

    @Override
    public boolean fail(Claim claim, String node, String error) {
        return queue.fail(claim, node, error);
    }

    @Override
    public boolean release(Claim claim, String why, boolean attempt) {
        return queue.release(claim, why, attempt);
    }

    @Override
    public String cancel(String id) {
        return queue.cancel(id);
    }

    @Override
    public Set<Long> heartbeat(NodeInfo n, Duration lease) {
        return node.heartbeat(n, lease);
    }

    @Override
    public int leave(String node) {
        return this.node.leave(node);
    }

    @Override
    public int refuse(String node, List<String> circuits, List<String> digests) {
        return this.node.refuse(node, circuits, digests);
    }

    @Override
    public int upkeep(Duration retention, Duration fetchedRetention) {
        return upkeep.upkeep(retention, fetchedRetention);
    }

    @Override
    public JobView job(String id, boolean fetching) {
        return views.job(id, fetching);
    }

    @Override
    public List<String> ended(List<String> ids) {
        return views.ended(ids);
    }

    @Override
    public String clusterJson(int recentJobs) {
        return views.clusterJson(recentJobs);
    }

    @Override
    public Map<String, Long> provedBy() {
        return views.provedBy();
    }

    /** Partitions by state (for checks): state → count. */
    public Map<String, Long> partitionStates() {
        return views.partitionStates();
    }
}
