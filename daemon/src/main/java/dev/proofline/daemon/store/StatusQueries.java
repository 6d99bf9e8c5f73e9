package dev.proofline.daemon.store;

import dev.proofline.daemon.store.ClusterStore.Status;
import dev.proofline.daemon.store.ClusterStore.StatusJob;
import dev.proofline.daemon.store.ClusterStore.StatusNode;
import dev.proofline.daemon.store.ClusterStore.StatusPartition;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The statements that read the queue for the status ({@link ClusterStore.Views#status}), the same for
 * both kinds of store but for what their dialects spell differently ({@link Dialect}): how a stored time
 * becomes epoch milliseconds, whose clock a heartbeat's age is measured by, and which column orders jobs
 * newest first. The caller runs them in one transaction, so that they read one moment.
 */
public final class StatusQueries {

    /**
     * What a dialect spells its own way: {@code epochMillis}, a stored time (its column as {@code %s}) as
     * epoch milliseconds; {@code heartbeatAgeMillis}, the milliseconds since node {@code n}'s heartbeat,
     * whose parameters, if any, {@link #read} binds first; {@code newestFirst}, the column of {@code jobs}
     * that orders them by submission, descending.
     */
    public record Dialect(String epochMillis, String heartbeatAgeMillis, String newestFirst) {
    }

    /** Prepares a statement on the store's handle (a connection, a transaction). */
    @FunctionalInterface
    public interface Statements {
        PreparedStatement prepare(String sql) throws SQLException;
    }

    private StatusQueries() {
    }

    /**
     * Reads the nodes, the partitions by state and the {@code recentJobs} newest jobs; {@code ageParams}
     * are the parameters of the dialect's {@code heartbeatAgeMillis} (the store's clock, where the
     * database does not keep it).
     */
    public static Status read(Statements on, Dialect d, int recentJobs, Object... ageParams) throws SQLException {
        return new Status(nodes(on, d, ageParams), partitions(on), recent(on, d, recentJobs));
    }

    private static List<StatusNode> nodes(Statements on, Dialect d, Object... ageParams) throws SQLException {
        String sql = """
                SELECT n.node_id, n.grpc_address, n.http_address, n.backend, %s, %s, n.stopped_at IS NOT NULL,
                       n.permits_max, n.permits_in_use, n.proofs, n.prover_busy, n.circuits,
                       (SELECT count(*) FROM partitions p WHERE p.state = 'CLAIMED' AND p.lease_owner = n.node_id)
                FROM nodes n ORDER BY n.node_id""".formatted(d.epochMillis().formatted("n.started_at"),
                d.heartbeatAgeMillis());
        try (PreparedStatement s = on.prepare(sql)) {
            for (int i = 0; i < ageParams.length; i++) {
                s.setObject(i + 1, ageParams[i]);
            }
            List<StatusNode> out = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(new StatusNode(r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                            Instant.ofEpochMilli(r.getLong(5)), r.getLong(6), r.getBoolean(7), r.getInt(8), r.getInt(9),
                            r.getLong(10), r.getDouble(11), r.getString(12), r.getLong(13)));
                }
            }
            return out;
        }
    }

    private static Map<String, Long> partitions(Statements on) throws SQLException {
        // by the state's name, as the dashboard and the CLI list them
        Map<String, Long> out = new TreeMap<>();
        try (PreparedStatement s = on.prepare("SELECT state, count(*) FROM partitions GROUP BY state");
                ResultSet r = s.executeQuery()) {
            while (r.next()) {
                out.put(r.getString(1), r.getLong(2));
            }
        }
        return out;
    }

    private static List<StatusJob> recent(Statements on, Dialect d, int recentJobs) throws SQLException {
        // jobs and their partitions in one statement: a job's rows come together, its partitions in order
        String sql = """
                SELECT j.job_id, j.circuit_id, j.state, j.error, j.submitted_by, %s,
                       p.idx, p.state, coalesce(p.proved_by, p.lease_owner), p.error
                FROM (SELECT * FROM jobs ORDER BY %s DESC LIMIT ?) j LEFT JOIN partitions p ON p.job_id = j.job_id
                ORDER BY j.%s DESC, j.job_id, p.idx""".formatted(d.epochMillis().formatted("j.submitted_at"),
                d.newestFirst(), d.newestFirst());
        try (PreparedStatement s = on.prepare(sql)) {
            s.setInt(1, recentJobs);
            List<StatusJob> out = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                List<StatusPartition> parts = null;
                String job = null;
                while (r.next()) {
                    if (!r.getString(1).equals(job)) {
                        job = r.getString(1);
                        parts = new ArrayList<>();
                        out.add(new StatusJob(job, r.getString(2), r.getString(3), r.getString(4), r.getString(5),
                                Instant.ofEpochMilli(r.getLong(6)), parts));
                    }
                    if (r.getObject(7) != null) {
                        parts.add(new StatusPartition(r.getString(8), r.getString(9), r.getString(10)));
                    }
                }
            }
            return out;
        }
    }
}
