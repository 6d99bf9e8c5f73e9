package dev.proofline.daemon.store.sqlite;

import static dev.proofline.daemon.store.sqlite.SqliteFile.bind;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.daemon.store.ClusterStore.JobState;
import dev.proofline.daemon.store.ClusterStore.JobView;
import dev.proofline.daemon.store.ClusterStore.PartitionState;
import dev.proofline.daemon.store.ClusterStore.PartitionView;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.StatusQueries;
import dev.proofline.daemon.store.sqlite.SqliteFile.Sync;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the {@link SqliteStore} shows: a job with its partitions, which of some jobs have ended, the
 * queue for the status ({@link StatusQueries}), and counts for checks.
 */
final class SqliteViews implements ClusterStore.Views {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Times are stored as epoch milliseconds, and a heartbeat's age is measured by the store's clock. */
    private static final StatusQueries.Dialect DIALECT = new StatusQueries.Dialect("%s", "? - n.heartbeat_at", "number");

    private final SqliteFile file;

    SqliteViews(SqliteFile file) {
        this.file = file;
    }

    @Override
    public JobView job(String id, boolean fetching) {
        return file.with("reading a job", Sync.NORMAL, t -> {
            if (fetching) {
                t.update("UPDATE jobs SET fetched_at = ? WHERE job_id = ? AND state = 'DONE' AND fetched_at IS NULL",
                        t.now, id);
            }
            try (PreparedStatement s = t.prepare("""
                    SELECT j.job_id, j.circuit_id,
                           CASE WHEN j.state = 'RUNNING' AND j.deadline_at < ? THEN 'DEADLINE_EXCEEDED' ELSE j.state END,
                           j.error, j.partitions, j.submitted_by,
                           p.idx, p.state, coalesce(p.proved_by, p.lease_owner), p.proof_json, p.proof_binary,
                           p.public_signals, p.timings, p.error, p.claims
                    FROM jobs j LEFT JOIN partitions p ON p.job_id = j.job_id
                    WHERE j.job_id = ? ORDER BY p.idx""")) {
                bind(s, t.now, id);
                try (ResultSet r = s.executeQuery()) {
                    JobView v = null;
                    List<PartitionView> parts = new ArrayList<>();
                    while (r.next()) {
                        if (v == null) {
                            v = new JobView(r.getString(1), r.getString(2), JobState.valueOf(r.getString(3)), r.getString(4), r.getInt(5),
                                    r.getString(6), List.of(), parts);
                        }
                        if (r.getObject(7) != null) {
                            parts.add(new PartitionView(r.getInt(7), PartitionState.valueOf(r.getString(8)), r.getString(9), r.getString(10),
                                    r.getBytes(11), strings(r.getString(12)), doubles(r.getString(13)), r.getString(14),
                                    r.getInt(15)));
                        }
                    }
                    return v;
                }
            }
        });
    }

    @Override
    public List<String> ended(List<String> ids) {
        return file.with("checking jobs", Sync.NORMAL, t -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement s = t.prepare("SELECT 1 FROM jobs WHERE job_id = ? AND state = 'RUNNING'"
                    + " AND (deadline_at IS NULL OR deadline_at > ?)")) {
                for (String id : ids) {
                    bind(s, id, t.now);
                    try (ResultSet r = s.executeQuery()) {
                        if (!r.next()) {
                            out.add(id);
                        }
                    }
                }
            }
            return out;
        });
    }

    @Override
    public ClusterStore.Status status(int recentJobs) {
        return file.with("reading the queue", Sync.NORMAL, t -> StatusQueries.read(t::prepare, DIALECT, recentJobs, t.now));
    }

    @Override
    public Map<String, Long> provedBy() {
        return file.with("counting proofs", Sync.NORMAL, t -> {
            Map<String, Long> out = new TreeMap<>();
            try (PreparedStatement s = t.prepare("SELECT proved_by, count(*) FROM partitions WHERE state = 'DONE'"
                    + " GROUP BY proved_by"); ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.put(r.getString(1), r.getLong(2));
                }
            }
            return out;
        });
    }

    /** Partitions by state (for checks): state → count. */
    Map<String, Long> partitionStates() {
        return file.with("counting partitions", Sync.NORMAL, t -> {
            Map<String, Long> out = new TreeMap<>();
            try (PreparedStatement s = t.prepare("SELECT state, count(*) FROM partitions GROUP BY state");
                    ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.put(r.getString(1), r.getLong(2));
                }
            }
            return out;
        });
    }

    private static List<String> strings(String json) {
        if (json == null) {
            return List.of();
        }
        try {
            List<String> out = new ArrayList<>();
            JSON.readTree(json).forEach(n -> out.add(n.asText()));
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored array is not JSON: " + e.getMessage(), e);
        }
    }

    private static double[] doubles(String json) {
        if (json == null) {
            return null;
        }
        try {
            var tree = JSON.readTree(json);
            double[] out = new double[tree.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = tree.get(i).asDouble();
            }
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored timings are not JSON: " + e.getMessage(), e);
        }
    }
}
