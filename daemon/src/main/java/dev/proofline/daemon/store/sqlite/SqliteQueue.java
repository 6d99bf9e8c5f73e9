package dev.proofline.daemon.store.sqlite;

import static dev.proofline.daemon.store.sqlite.SqliteFile.bind;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.daemon.store.ClusterStore.Claim;
import dev.proofline.daemon.store.ClusterStore.JobState;
import dev.proofline.daemon.store.ClusterStore.NewPartition;
import dev.proofline.daemon.store.ClusterStore.PartitionKind;
import dev.proofline.daemon.store.ClusterStore.Submitted;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.sqlite.SqliteFile.Sync;
import dev.proofline.engine.JobIds;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The queue protocol of the {@link SqliteStore}: a job goes in ({@link #submit}), its partitions are
 * claimed under leases ({@link #claim}) and end with a proof ({@link #complete}), a failure of the job
 * ({@link #fail}), back in the queue ({@link #release}), or cancelled with their job ({@link #cancel}).
 * Each is one transaction, committed {@link Sync#FULL} where a client may have seen what it did.
 */
final class SqliteQueue implements ClusterStore.Queue {

    /** SQLite's largest value (its default SQLITE_MAX_LENGTH): a partition's witness or input must be smaller. */
    static final int MAX_PAYLOAD = 1_000_000_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SqliteFile file;

    SqliteQueue(SqliteFile file) {
        this.file = file;
    }

    @Override
    public Submitted submit(String idempotencyKey, String circuit, String digest, int priority, Duration deadline,
            String node, List<NewPartition> parts) {
        file.refuseIfDamaged();
        for (int p = 0; p < parts.size(); p++) {
            if (parts.get(p).payload().length >= MAX_PAYLOAD) {
                throw new IllegalArgumentException("partition " + p + ": " + parts.get(p).payload().length
                        + " bytes; the job store keeps at most " + (MAX_PAYLOAD - 1) + " bytes per partition");
            }
        }
        return file.with("submitting a job", Sync.FULL, t -> {
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
            String id = JobIds.of(number);
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
                    bind(s, id, i, number, circuit, digest, priority, parts.get(i).kind().stored(), parts.get(i).payload(),
                            t.now, deadlineAt);
                    s.addBatch();
                }
                s.executeBatch();
            }
            t.work(id, circuit, digest);
            return new Submitted(id, false, ahead);
        });
    }

    @Override
    public List<Claim> claim(String node, int limit, Duration lease, List<String> circuits, List<String> digests) {
        if (circuits.isEmpty() || limit <= 0) {
            return List.of();
        }
        return file.with("claiming partitions", Sync.NORMAL, t -> {
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
                    SELECT job_id, idx, circuit_id, kind, payload, priority, submitted_at, claims, interrupted FROM partitions
                    WHERE state = 'QUEUED' AND (deadline_at IS NULL OR deadline_at > ?)
                      AND (circuit_id, key_digest) IN (VALUES %s)
                    ORDER BY priority DESC, seq, idx LIMIT ?""".formatted(pairs))) {
                bind(s, args.toArray());
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.add(new Claim(r.getString(1), r.getInt(2), 0, r.getString(3), PartitionKind.of(r.getString(4)), r.getBytes(5),
                                r.getInt(6), t.now - r.getLong(7), r.getInt(8) + 1, r.getInt(9)));
                    }
                }
            }
            List<Claim> claimed = new ArrayList<>(out.size());
            for (Claim c : out) {
                long token = t.next("lease_tokens");
                t.update("""
                        UPDATE partitions SET state = 'CLAIMED', lease_owner = ?, lease_token = ?, lease_expires = ?,
                               claims = claims + 1, claimed_at = ?
                        WHERE job_id = ? AND idx = ?""", node, token, lease == null ? null : t.now + lease.toMillis(), t.now, c.jobId(),
                        c.partition());
                claimed.add(new Claim(c.jobId(), c.partition(), token, c.circuit(), c.kind(), c.payload(), c.priority(),
                        c.waitedMs(), c.claims(), c.interrupted()));
            }
            return claimed;
        });
    }

    @Override
    public boolean complete(Claim claim, String node, String proofJson, byte[] proofBinary, List<String> publicSignals,
            double[] timings) {
        return file.with("storing a proof", Sync.FULL, t -> {
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
        return file.with("failing a job", Sync.FULL, t -> {
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
    public boolean release(Claim claim, String why, boolean attempt) {
        return file.with("releasing a partition", Sync.NORMAL, t -> {
            try (PreparedStatement s = t.prepare("""
                    UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL,
                           error = ?, interrupted = interrupted + ?
                    WHERE job_id = ? AND idx = ? AND state = 'CLAIMED' AND lease_token = ?
                    RETURNING job_id, circuit_id, key_digest""")) {
                bind(s, why, attempt ? 0 : 1, claim.jobId(), claim.partition(), claim.token());
                return requeued(t, s) == 1;
            }
        });
    }

    @Override
    public JobState cancel(String id) {
        return file.with("cancelling a job", Sync.FULL, t -> {
            if (t.update("UPDATE jobs SET state = 'CANCELLED', ended_at = ? WHERE job_id = ? AND state = 'RUNNING'",
                    t.now, id) == 1) {
                endPartitions(t, id);
                t.ended(id, "CANCELLED");
                return JobState.CANCELLED;
            }
            try (PreparedStatement s = t.prepare("SELECT state FROM jobs WHERE job_id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() ? JobState.valueOf(r.getString(1)) : null;
                }
            }
        });
    }

    /** Runs a requeueing statement (RETURNING job_id, circuit_id, key_digest), announcing each row. */
    static int requeued(SqliteFile.Transaction t, PreparedStatement s) throws SQLException {
        int n = 0;
        try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
                t.work(r.getString(1), r.getString(2), r.getString(3));
                n++;
            }
        }
        return n;
    }

    /** The unfinished partitions of an ended job: cancelled, their witnesses dropped. */
    static void endPartitions(SqliteFile.Transaction t, String job) throws SQLException {
        t.update("UPDATE partitions SET state = 'CANCELLED', lease_owner = NULL, lease_expires = NULL, payload = NULL"
                + " WHERE job_id = ? AND state IN ('QUEUED', 'CLAIMED')", job);
    }

    private static String json(List<?> values) {
        try {
            return values == null ? null : JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
