package dev.proofline.daemon.store.postgres;

import dev.proofline.daemon.store.ClusterStore.JobState;
import dev.proofline.daemon.store.ClusterStore.JobView;
import dev.proofline.daemon.store.ClusterStore.PartitionState;
import dev.proofline.daemon.store.ClusterStore.PartitionView;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.StatusQueries;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the {@link PostgresStore} shows: a job with its partitions, which of some jobs have ended, and the
 * cluster for the status ({@link StatusQueries}).
 */
final class PostgresViews implements ClusterStore.Views {

    /** Times are timestamps, and a heartbeat's age is measured by the database's clock (the one that wrote it). */
    private static final StatusQueries.Dialect DIALECT = new StatusQueries.Dialect(
            "floor(extract(epoch FROM %s) * 1000)::bigint",
            "round(extract(epoch FROM now() - n.heartbeat_at) * 1000)::bigint", "submitted_at");

    private final PostgresConnections db;

    PostgresViews(PostgresConnections db) {
        this.db = db;
    }

    /**
     * The job, or null when there is none; {@code fetching}: the caller is returning its proofs, so a
     * done job is marked fetched (and kept only {@code fetched_retention} more).
     */
    @Override
    public JobView job(String id, boolean fetching) {
        return db.run("reading a job", c -> {
            String sql = """
                    WITH f AS (UPDATE jobs SET fetched_at = now()
                               WHERE job_id = ? AND ? AND state = 'DONE' AND fetched_at IS NULL)
                    SELECT j.job_id, j.circuit_id,
                           CASE WHEN j.state = 'RUNNING' AND j.deadline_at < now() THEN 'DEADLINE_EXCEEDED'
                                ELSE j.state END,
                           j.error, j.partitions, j.submitted_by,
                           (SELECT array_agg(r.node_id || ': ' || r.reason ORDER BY r.node_id) FROM refusals r
                            WHERE r.job_id = j.job_id),
                           p.idx, p.state, coalesce(p.proved_by, p.lease_owner), p.proof_json, p.proof_binary,
                           p.public_signals, p.timings, p.error, p.claims
                    FROM jobs j LEFT JOIN partitions p ON p.job_id = j.job_id
                    WHERE j.job_id = ? ORDER BY p.idx""";
            try (PreparedStatement s = db.prepare(c, sql)) {
                s.setString(1, id);
                s.setBoolean(2, fetching);
                s.setString(3, id);
                try (ResultSet r = s.executeQuery()) {
                    JobView v = null;
                    List<PartitionView> parts = new ArrayList<>();
                    while (r.next()) {
                        if (v == null) {
                            v = new JobView(r.getString(1), r.getString(2), JobState.valueOf(r.getString(3)), r.getString(4), r.getInt(5),
                                    r.getString(6), strings(r.getArray(7)), parts);
                        }
                        if (r.getObject(8) != null) {
                            Array t = r.getArray(14);
                            double[] timings = null;
                            if (t != null) {
                                Object[] ds = (Object[]) t.getArray();
                                timings = new double[ds.length];
                                for (int i = 0; i < ds.length; i++) {
                                    timings[i] = ((Number) ds[i]).doubleValue();
                                }
                            }
                            parts.add(new PartitionView(r.getInt(8), PartitionState.valueOf(r.getString(9)), r.getString(10), r.getString(11),
                                    r.getBytes(12), strings(r.getArray(13)), timings, r.getString(15), r.getInt(16)));
                        }
                    }
                    return v;
                }
            }
        });
    }

    private static List<String> strings(Array a) throws SQLException {
        if (a == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object o : (Object[]) a.getArray()) {
            out.add(String.valueOf(o));
        }
        return out;
    }

    /** Of {@code ids}, those whose job has ended (or is gone). */
    @Override
    public List<String> ended(List<String> ids) {
        return db.run("checking jobs", c -> {
            String sql = """
                    SELECT i FROM unnest(?::text[]) AS i
                    WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.job_id = i AND j.state = 'RUNNING'
                                      AND (j.deadline_at IS NULL OR j.deadline_at > now()))""";
            try (PreparedStatement s = db.prepare(c, sql)) {
                s.setArray(1, c.createArrayOf("text", ids.toArray()));
                List<String> out = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.add(r.getString(1));
                    }
                }
                return out;
            }
        });
    }

    /**
     * The cluster for the status, its statements in one snapshot (repeatable read) so that the nodes,
     * the counts and the recent jobs agree.
     */
    @Override
    public ClusterStore.Status status(int recentJobs) {
        return db.run("reading the cluster", c -> {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                ClusterStore.Status out = StatusQueries.read(sql -> db.prepare(c, sql), DIALECT, recentJobs);
                db.countRoundTrip();
                c.commit();
                return out;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                c.setAutoCommit(true);
            }
        });
    }

    /** Proofs stored per node (for checks and benchmarks): node id → partitions it proved. */
    @Override
    public Map<String, Long> provedBy() {
        return db.run("counting proofs", c -> {
            Map<String, Long> out = new TreeMap<>();
            try (PreparedStatement s = db.prepare(c, "SELECT proved_by, count(*) FROM partitions WHERE state = 'DONE'"
                    + " GROUP BY proved_by"); ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.put(r.getString(1), r.getLong(2));
                }
            }
            return out;
        });
    }
}
