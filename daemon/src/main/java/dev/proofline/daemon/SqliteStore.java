package dev.proofline.daemon;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.daemon.SqliteFile.Sync;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * A single daemon's durable job queue ({@link ClusterStore}, whose model, states and contract it
 * keeps) in one SQLite file ({@link SqliteFile}, used by one process at a time). Every call is one
 * transaction; its announcements go to this process's listeners once it committed.
 *
 * <p>A partition's witness (or input JSON) is in the file until the partition ends, so that jobs
 * acknowledged before a crash are proved after the restart; proofs stay until the retention of
 * ended jobs passes.
 */
final class SqliteStore implements ClusterStore {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SqliteFile file;

    private SqliteStore(SqliteFile file) {
        this.file = file;
    }

    /** Opens (or creates) the store in {@code directory}, on the system clock. */
    static SqliteStore open(Path directory) {
        return open(directory, System::currentTimeMillis);
    }

    /**
     * Opens (or creates) the store in {@code directory} (made owner-only: witnesses are in it);
     * {@code clock}: milliseconds since the epoch. Another process with the store open is a
     * {@link DaemonConfig.ConfigException}.
     */
    static SqliteStore open(Path directory, LongSupplier clock) {
        return new SqliteStore(SqliteFile.open(directory, clock));
    }

    @Override
    public String describe() {
        return "SQLite " + file.path();
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

    private <T> T with(String what, Sync level, SqliteFile.Work<T> work) {
        return file.with(what, level, work);
    }

    private static void bind(PreparedStatement s, Object... args) throws SQLException {
        SqliteFile.bind(s, args);
    }

    private static String json(List<?> values) {
        try {
            return values == null ? null : JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
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

    // ------------------------------------------------------------------ submit

    /** SQLite's largest value (its default SQLITE_MAX_LENGTH): a partition's witness or input must be smaller. */
    static final int MAX_PAYLOAD = 1_000_000_000;

    @Override
    public Submitted submit(String idempotencyKey, String circuit, String digest, int priority, Duration deadline,
            String node, List<NewPartition> parts) {
        for (int p = 0; p < parts.size(); p++) {
            if (parts.get(p).payload().length >= MAX_PAYLOAD) {
                throw new IllegalArgumentException("partition " + p + ": " + parts.get(p).payload().length
                        + " bytes; the job store keeps at most " + (MAX_PAYLOAD - 1) + " bytes per partition");
            }
        }
        return with("submitting a job", Sync.FULL, t -> {
            if (idempotencyKey != null) {
                try (PreparedStatement s = t.prepare("SELECT job_id FROM jobs WHERE idempotency_key = ?")) {
                    s.setString(1, idempotencyKey);
                    try (ResultSet r = s.executeQuery()) {
                        if (r.next()) {
                            return new Submitted(r.getString(1), true, 0);
                        }
                    }
                }
            }
            int ahead;
            try (PreparedStatement s = t.prepare("SELECT count(*) FROM partitions WHERE state = 'QUEUED' AND priority >= ?")) {
                s.setInt(1, priority);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    ahead = r.getInt(1);
                }
            }
            long number = t.next("job_numbers");
            String id = "job-" + number;
            Long deadlineAt = deadline == null ? null : t.now + deadline.toMillis();
            t.update("""
                    INSERT INTO jobs (job_id, number, idempotency_key, circuit_id, key_digest, priority, partitions,
                                      submitted_by, submitted_at, deadline_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", id, number, idempotencyKey, circuit, digest, priority,
                    parts.size(), node, t.now, deadlineAt);
            try (PreparedStatement s = t.prepare("""
                    INSERT INTO partitions (job_id, idx, seq, circuit_id, key_digest, priority, kind, payload,
                                            submitted_at, deadline_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
                for (int i = 0; i < parts.size(); i++) {
                    bind(s, id, i, number, circuit, digest, priority, parts.get(i).kind(), parts.get(i).payload(),
                            t.now, deadlineAt);
                    s.addBatch();
                }
                s.executeBatch();
            }
            t.work(id, circuit, digest);
            return new Submitted(id, false, ahead);
        });
    }

    // ------------------------------------------------------------------ claims and results

    @Override
    public List<Claim> claim(String node, int limit, Duration lease, List<String> circuits, List<String> digests) {
        if (circuits.isEmpty() || limit <= 0) {
            return List.of();
        }
        return with("claiming partitions", Sync.NORMAL, t -> {
            String pairs = String.join(", ", java.util.Collections.nCopies(circuits.size(), "(?, ?)"));
            List<Object> args = new ArrayList<>();
            args.add(t.now);
            for (int i = 0; i < circuits.size(); i++) {
                args.add(circuits.get(i));
                args.add(digests.get(i));
            }
            args.add(limit);
            List<Claim> out = new ArrayList<>();
            try (PreparedStatement s = t.prepare("""
                    SELECT job_id, idx, circuit_id, kind, payload, priority, submitted_at, claims FROM partitions
                    WHERE state = 'QUEUED' AND (deadline_at IS NULL OR deadline_at > ?)
                      AND (circuit_id, key_digest) IN (VALUES %s)
                    ORDER BY priority DESC, seq, idx LIMIT ?""".formatted(pairs))) {
                bind(s, args.toArray());
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.add(new Claim(r.getString(1), r.getInt(2), 0, r.getString(3), r.getString(4), r.getBytes(5),
                                r.getInt(6), t.now - r.getLong(7), r.getInt(8) + 1));
                    }
                }
            }
            List<Claim> claimed = new ArrayList<>(out.size());
            for (Claim c : out) {
                long token = t.next("lease_tokens");
                t.update("""
                        UPDATE partitions SET state = 'CLAIMED', lease_owner = ?, lease_token = ?, lease_expires = ?,
                               claims = claims + 1, claimed_at = ?
                        WHERE job_id = ? AND idx = ?""", node, token, t.now + lease.toMillis(), t.now, c.jobId(),
                        c.partition());
                claimed.add(new Claim(c.jobId(), c.partition(), token, c.circuit(), c.kind(), c.payload(), c.priority(),
                        c.waitedMs(), c.claims()));
            }
            return claimed;
        });
    }

    @Override
    public boolean complete(Claim claim, String node, String proofJson, byte[] proofBinary, List<String> publicSignals,
            double[] timings) {
        return with("storing a proof", Sync.FULL, t -> {
            List<Double> ts = new ArrayList<>();
            for (double d : timings) {
                ts.add(d);
            }
            int stored = t.update("""
                    UPDATE partitions SET state = 'DONE', proved_by = ?, proof_json = ?, proof_binary = ?,
                           public_signals = ?, timings = ?, lease_owner = NULL, lease_expires = NULL, payload = NULL
                    WHERE job_id = ? AND idx = ? AND state = 'CLAIMED' AND lease_token = ?""", node, proofJson,
                    proofBinary, json(publicSignals), json(ts), claim.jobId(), claim.partition(), claim.token());
            if (stored == 0) {
                return false;
            }
            try (PreparedStatement s = t.prepare("""
                    UPDATE jobs SET done = done + 1,
                           state = CASE WHEN done + 1 >= partitions THEN 'DONE' ELSE state END,
                           ended_at = CASE WHEN done + 1 >= partitions THEN ? ELSE ended_at END
                    WHERE job_id = ? AND state = 'RUNNING' RETURNING state""")) {
                bind(s, t.now, claim.jobId());
                try (ResultSet r = s.executeQuery()) {
                    if (r.next() && r.getString(1).equals("DONE")) {
                        t.ended(claim.jobId(), "DONE");
                    }
                }
            }
            return true;
        });
    }

    @Override
    public boolean fail(Claim claim, String node, String error) {
        return with("failing a job", Sync.FULL, t -> {
            try (PreparedStatement s = t.prepare("SELECT 1 FROM partitions WHERE job_id = ? AND idx = ?"
                    + " AND state = 'CLAIMED' AND lease_token = ?")) {
                bind(s, claim.jobId(), claim.partition(), claim.token());
                try (ResultSet r = s.executeQuery()) {
                    if (!r.next()) {
                        return false;
                    }
                }
            }
            t.update("""
                    UPDATE partitions SET state = CASE WHEN idx = ? THEN 'FAILED' ELSE 'CANCELLED' END,
                           error = CASE WHEN idx = ? THEN ? END, proved_by = CASE WHEN idx = ? THEN ? END,
                           lease_owner = NULL, lease_expires = NULL, payload = NULL
                    WHERE job_id = ? AND state IN ('QUEUED', 'CLAIMED')""", claim.partition(), claim.partition(),
                    error, claim.partition(), node, claim.jobId());
            if (t.update("UPDATE jobs SET state = 'FAILED', ended_at = ?, error = ? WHERE job_id = ? AND state = 'RUNNING'",
                    t.now, "partition " + claim.partition() + " on " + node + ": " + error, claim.jobId()) > 0) {
                t.ended(claim.jobId(), "FAILED");
            }
            return true;
        });
    }

    @Override
    public boolean release(Claim claim, String why) {
        return with("releasing a partition", Sync.NORMAL, t -> {
            try (PreparedStatement s = t.prepare("""
                    UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL,
                           error = ?
                    WHERE job_id = ? AND idx = ? AND state = 'CLAIMED' AND lease_token = ?
                    RETURNING job_id, circuit_id, key_digest""")) {
                bind(s, why, claim.jobId(), claim.partition(), claim.token());
                return requeued(t, s) == 1;
            }
        });
    }

    /** Runs a requeueing statement (RETURNING job_id, circuit_id, key_digest), announcing each row. */
    private static int requeued(SqliteFile.Transaction t, PreparedStatement s) throws SQLException {
        int n = 0;
        try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
                t.work(r.getString(1), r.getString(2), r.getString(3));
                n++;
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ the node

    @Override
    public Set<Long> heartbeat(NodeInfo n, Duration lease) {
        return with("heartbeat", Sync.NORMAL, t -> {
            t.update("""
                    INSERT INTO nodes (node_id, grpc_address, http_address, backend, started_at, heartbeat_at, permits_max,
                                       permits_in_use, claimed, proofs, prover_busy, circuits)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (node_id) DO UPDATE SET grpc_address = excluded.grpc_address,
                       http_address = excluded.http_address, backend = excluded.backend,
                       started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at, stopped_at = NULL,
                       permits_max = excluded.permits_max, permits_in_use = excluded.permits_in_use,
                       claimed = excluded.claimed, proofs = excluded.proofs, prover_busy = excluded.prover_busy,
                       circuits = excluded.circuits""", n.id(), n.grpcAddress(), n.httpAddress(), n.backend(),
                    n.startedAt().toEpochMilli(), t.now, n.permitsMax(), n.permitsInUse(), n.claimed(), n.proofs(),
                    n.proverBusy(), n.circuits());
            Set<Long> held = new HashSet<>();
            try (PreparedStatement s = t.prepare("UPDATE partitions SET lease_expires = ?"
                    + " WHERE state = 'CLAIMED' AND lease_owner = ? RETURNING lease_token")) {
                bind(s, t.now + lease.toMillis(), n.id());
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        held.add(r.getLong(1));
                    }
                }
            }
            return held;
        });
    }

    @Override
    public int leave(String node) {
        return with("giving claims back", Sync.NORMAL, t -> {
            t.update("UPDATE nodes SET stopped_at = ?, permits_in_use = 0, claimed = 0 WHERE node_id = ?", t.now, node);
            try (PreparedStatement s = t.prepare("""
                    UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL
                    WHERE state = 'CLAIMED' AND lease_owner = ? RETURNING job_id, circuit_id, key_digest""")) {
                s.setString(1, node);
                return requeued(t, s);
            }
        });
    }

    @Override
    public int upkeep(Duration retention, Duration fetchedRetention) {
        return with("upkeep", Sync.NORMAL, t -> {
            int requeued;
            try (PreparedStatement s = t.prepare("""
                    UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL,
                           error = 'lease of ' || lease_owner || ' expired'
                    WHERE state = 'CLAIMED' AND lease_expires < ? RETURNING job_id, circuit_id, key_digest""")) {
                s.setLong(1, t.now);
                requeued = requeued(t, s);
            }
            List<String> late = new ArrayList<>();
            try (PreparedStatement s = t.prepare("UPDATE jobs SET state = 'DEADLINE_EXCEEDED', ended_at = ?,"
                    + " error = 'the deadline passed before every partition was proved'"
                    + " WHERE state = 'RUNNING' AND deadline_at < ? RETURNING job_id")) {
                bind(s, t.now, t.now);
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        late.add(r.getString(1));
                    }
                }
            }
            for (String id : late) {
                endPartitions(t, id);
                t.ended(id, "DEADLINE_EXCEEDED");
            }
            // partitions go with their job (ON DELETE CASCADE)
            t.update("DELETE FROM jobs WHERE state <> 'RUNNING' AND (ended_at < ? OR fetched_at < ?)",
                    t.now - retention.toMillis(), t.now - fetchedRetention.toMillis());
            t.update("DELETE FROM nodes WHERE heartbeat_at < ?", t.now - Duration.ofDays(1).toMillis());
            return requeued;
        });
    }

    /** The unfinished partitions of an ended job: cancelled, their witnesses dropped. */
    private static void endPartitions(SqliteFile.Transaction t, String job) throws SQLException {
        t.update("UPDATE partitions SET state = 'CANCELLED', lease_owner = NULL, lease_expires = NULL, payload = NULL"
                + " WHERE job_id = ? AND state IN ('QUEUED', 'CLAIMED')", job);
    }

    /**
     * The only node cannot prove a running job whose circuit it no longer has, or whose key changed
     * since the job was submitted: such a job fails, saying which.
     */
    @Override
    public int refuse(String node, List<String> circuits, List<String> digests) {
        return with("failing jobs of changed keys", Sync.NORMAL, t -> {
            Map<String, String> mine = new TreeMap<>();
            for (int i = 0; i < circuits.size(); i++) {
                mine.put(circuits.get(i), digests.get(i));
            }
            List<String[]> refused = new ArrayList<>();
            try (PreparedStatement s = t.prepare("SELECT DISTINCT job_id, circuit_id, key_digest FROM jobs"
                    + " WHERE state = 'RUNNING'"); ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    String digest = mine.get(r.getString(2));
                    if (!r.getString(3).equals(digest)) {
                        refused.add(new String[] {r.getString(1), digest == null
                            ? "circuit '" + r.getString(2) + "' is no longer in the keys directory"
                            : "the key of circuit '" + r.getString(2) + "' changed since the job was submitted (digest "
                                    + r.getString(3) + ", now " + digest + "): submit it again"});
                    }
                }
            }
            for (String[] j : refused) {
                endPartitions(t, j[0]);
                t.update("UPDATE jobs SET state = 'FAILED', ended_at = ?, error = ? WHERE job_id = ?", t.now,
                        node + ": " + j[1], j[0]);
                t.ended(j[0], "FAILED");
            }
            return refused.size();
        });
    }

    // ------------------------------------------------------------------ reads

    @Override
    public JobView job(String id, boolean fetching) {
        return with("reading a job", Sync.NORMAL, t -> {
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
                            v = new JobView(r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getInt(5),
                                    r.getString(6), List.of(), parts);
                        }
                        if (r.getObject(7) != null) {
                            parts.add(new PartitionView(r.getInt(7), r.getString(8), r.getString(9), r.getString(10),
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
        return with("checking jobs", Sync.NORMAL, t -> {
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
    public String cancel(String id) {
        return with("cancelling a job", Sync.FULL, t -> {
            if (t.update("UPDATE jobs SET state = 'CANCELLED', ended_at = ? WHERE job_id = ? AND state = 'RUNNING'",
                    t.now, id) == 1) {
                endPartitions(t, id);
                t.ended(id, "CANCELLED");
                return "CANCELLED";
            }
            try (PreparedStatement s = t.prepare("SELECT state FROM jobs WHERE job_id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() ? r.getString(1) : null;
                }
            }
        });
    }

    @Override
    public String clusterJson(int recentJobs) {
        return with("reading the queue", Sync.NORMAL, t -> {
            try (PreparedStatement s = t.prepare("""
                    SELECT json_object(
                      'nodes', json((SELECT json_group_array(json_object(
                          'id', n.node_id, 'grpc', n.grpc_address, 'http', n.http_address, 'backend', n.backend,
                          'started_at', strftime('%Y-%m-%dT%H:%M:%fZ', n.started_at / 1000.0, 'unixepoch'),
                          'heartbeat_age_ms', ? - n.heartbeat_at,
                          'stopped', json(CASE WHEN n.stopped_at IS NULL THEN 'false' ELSE 'true' END),
                          'permits_max', n.permits_max, 'permits_in_use', n.permits_in_use, 'proofs', n.proofs,
                          'prover_busy', n.prover_busy, 'circuits', n.circuits,
                          'holding', (SELECT count(*) FROM partitions p WHERE p.state = 'CLAIMED'
                                      AND p.lease_owner = n.node_id)) ORDER BY n.node_id) FROM nodes n)),
                      'partitions', json((SELECT json_group_object(state, k) FROM
                          (SELECT state, count(*) AS k FROM partitions GROUP BY state))),
                      'recent', json((SELECT json_group_array(json_object('id', j.job_id, 'circuit', j.circuit_id,
                          'state', j.state, 'submitted_by', j.submitted_by,
                          'submitted_at', strftime('%Y-%m-%dT%H:%M:%fZ', j.submitted_at / 1000.0, 'unixepoch'),
                          'partitions', json((SELECT json_group_array(json_object('state', p.state,
                              'node', coalesce(p.proved_by, p.lease_owner)) ORDER BY p.idx)
                              FROM partitions p WHERE p.job_id = j.job_id))) ORDER BY j.number DESC)
                          FROM (SELECT * FROM jobs ORDER BY number DESC LIMIT ?) j)))""")) {
                bind(s, t.now, recentJobs);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getString(1);
                }
            }
        });
    }

    @Override
    public Map<String, Long> provedBy() {
        return with("counting proofs", Sync.NORMAL, t -> {
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
        return with("counting partitions", Sync.NORMAL, t -> {
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
}
