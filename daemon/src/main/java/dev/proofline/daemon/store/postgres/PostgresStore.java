package dev.proofline.daemon.store.postgres;

import dev.proofline.daemon.store.ClusterStore;
import java.time.Duration;

/**
 * The cluster's durable queue in PostgreSQL: a {@link ClusterStore} whose parts are
 * {@link PostgresConnections} (URL, pool, LISTEN connections, schema), {@link PostgresQueue} (submit,
 * claim, complete, fail, release, cancel), {@link PostgresMembership} (heartbeats, leaving, refusals),
 * {@link PostgresUpkeep} and {@link PostgresViews} (jobs and the cluster as the clients and the status
 * see them). Every read and write is one SQL statement (one round trip, counted by
 * {@link PostgresConnections#roundTrips}) except the rare failure path. Times are the database's
 * ({@code now()}), never a node's clock. Locks are always taken partitions first, then the job row.
 *
 * <p>Notifications: {@code proofline_work} ("job circuit digest" when partitions became claimable) and
 * {@code proofline_jobs} ("job STATE" when a job ended).
 */
public final class PostgresStore {

    private PostgresStore() {
    }

    /**
     * Connects to {@code database} ({@code postgresql://user:password@host:port/db?...}, or a
     * {@code jdbc:postgresql:} URL) with a pool of {@code poolSize}, creating or migrating the schema.
     */
    public static ClusterStore open(String database, int poolSize, Duration connectTimeout) {
        PostgresConnections db = PostgresConnections.open(database, poolSize, connectTimeout);
        return new ClusterStore(db, new PostgresQueue(db), new PostgresMembership(db), new PostgresUpkeep(db),
                new PostgresViews(db));
    }
}
