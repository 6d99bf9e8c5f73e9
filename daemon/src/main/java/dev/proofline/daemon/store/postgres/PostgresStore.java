package dev.proofline.daemon.store.postgres;

import dev.proofline.daemon.store.ClusterStore;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cluster's durable queue ({@link ClusterStore}, whose states and contract it keeps) in
 * PostgreSQL: every read and write of the cluster mode, each one SQL statement (one round trip,
 * counted by {@link #roundTrips}) except the rare failure path. Times are the database's
 * ({@code now()}), never a node's clock. Locks are always taken partitions first, then the job row.
 *
 * <p>Its parts: {@link PostgresConnections} (URL, pool, LISTEN connections, schema),
 * {@link PostgresQueue} (submit, claim, complete, fail, release, cancel), {@link PostgresMembership}
 * (heartbeats, leaving, refusals), {@link PostgresUpkeep} and {@link PostgresViews} (jobs and the
 * cluster as the clients and the status see them).
 *
 * <p>Notifications: {@code proofline_work} ("job circuit digest" when partitions became claimable) and
 * {@code proofline_jobs} ("job STATE" when a job ended).
 */
public final class PostgresStore implements ClusterStore {

    private final PostgresConnections db;
    private final PostgresQueue queue;
    private final PostgresMembership nodes;
    private final PostgresUpkeep upkeep;
    private final PostgresViews views;

    private PostgresStore(PostgresConnections db) {
        this.db = db;
        this.queue = new PostgresQueue(db);
        this.nodes = new PostgresMembership(db);
        this.upkeep = new PostgresUpkeep(db);
        this.views = new PostgresViews(db);
    }

    /**
     * Connects to {@code database} ({@code postgresql://user:password@host:port/db?...}, or a
     * {@code jdbc:postgresql:} URL) with a pool of {@code poolSize}, creating or migrating the schema.
     */
    public static PostgresStore open(String database, int poolSize, Duration connectTimeout) {
        return new PostgresStore(PostgresConnections.open(database, poolSize, connectTimeout));
    }

    /** Statements sent so far (each one round trip to the database). */
    @Override
    public long roundTrips() {
        return db.roundTrips();
    }

    @Override
    public String describe() {
        return "PostgreSQL " + db.url();
    }

    @Override
    public String retentionKey() {
        return "cluster.result_retention";
    }

    /** LISTEN on a connection of its own, outside the pool. */
    @Override
    public Notices listen() throws SQLException {
        return db.listen();
    }

    @Override
    public void close() {
        db.close();
    }

    @Override
    public Submitted submit(String idempotencyKey, String circuit, String digest, int priority, Duration deadline,
            String node, List<NewPartition> parts) {
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
        return nodes.heartbeat(n, lease);
    }

    @Override
    public int leave(String node) {
        return nodes.leave(node);
    }

    @Override
    public int refuse(String node, List<String> circuits, List<String> digests) {
        return nodes.refuse(node, circuits, digests);
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
}
