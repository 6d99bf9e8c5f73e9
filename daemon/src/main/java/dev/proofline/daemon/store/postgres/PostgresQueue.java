package dev.proofline.daemon.store.postgres;

import dev.proofline.daemon.store.ClusterStore.Claim;
import dev.proofline.daemon.store.ClusterStore.JobState;
import dev.proofline.daemon.store.ClusterStore.NewPartition;
import dev.proofline.daemon.store.ClusterStore.PartitionKind;
import dev.proofline.daemon.store.ClusterStore.Submitted;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.JobIds;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The queue protocol of the {@link PostgresStore}: a job goes in ({@link #submit}), its partitions are
 * claimed under leases ({@link #claim}) and end with a proof ({@link #complete}), a failure of the job
 * ({@link #fail}), back in the queue ({@link #release}), or cancelled with their job ({@link #cancel}).
 * Each is one statement (one round trip) but the failure path; what becomes claimable is announced on
 * {@code proofline_work}, a job that ends on {@code proofline_jobs}. Locks are always taken partitions
 * first, then the job row.
 */
final class PostgresQueue implements ClusterStore.Queue {

    private final PostgresConnections db;

    PostgresQueue(PostgresConnections db) {
        this.db = db;
    }

    /**
     * Inserts a job and its partitions and announces them, in one statement: durable once this returns.
     * A repeated idempotency key returns the first job.
     */
    @Override
    public Submitted submit(String idempotencyKey, String circuit, String digest, int priority, Duration deadline,
            String node, List<NewPartition> parts) {
        return db.run("submitting a job", c -> {
            String sql = """
                    WITH j AS (
                      INSERT INTO jobs (job_id, idempotency_key, circuit_id, key_digest, priority, partitions,
                                        submitted_by, deadline_at)
                      VALUES ('job-' || nextval('job_numbers') || '-' || ?, ?, ?, ?, ?, ?, ?,
                              CASE WHEN ? > 0 THEN now() + ? * interval '1 millisecond' END)
                      ON CONFLICT (idempotency_key) DO NOTHING
                      RETURNING job_id, submitted_at, deadline_at),
                    p AS (
                      INSERT INTO partitions (job_id, idx, circuit_id, key_digest, priority, kind, payload,
                                              submitted_at, deadline_at)
                      SELECT j.job_id, u.ord - 1, ?, ?, ?, u.kind, u.payload, j.submitted_at, j.deadline_at
                      FROM j, unnest(?::text[], ?::bytea[]) WITH ORDINALITY AS u(kind, payload, ord)
                      RETURNING 1)
                    SELECT j.job_id,
                           (SELECT count(*) FROM partitions q WHERE q.state = 'QUEUED' AND q.priority >= ?),
                           pg_notify('proofline_work', j.job_id || ' ' || ? || ' ' || ?),
                           (SELECT count(*) FROM p)
                    FROM j""";
            long ms = deadline == null ? 0 : deadline.toMillis();
            String[] kinds = parts.stream().map(p -> p.kind().stored()).toArray(String[]::new);
            byte[][] payloads = parts.stream().map(NewPartition::payload).toArray(byte[][]::new);
            try (PreparedStatement s = db.prepare(c, sql)) {
                int i = 1;
                s.setString(i++, JobIds.suffix());
                s.setString(i++, idempotencyKey);
                s.setString(i++, circuit);
                s.setString(i++, digest);
                s.setInt(i++, priority);
                s.setInt(i++, parts.size());
                s.setString(i++, node);
                s.setLong(i++, ms);
                s.setLong(i++, ms);
                s.setString(i++, circuit);
                s.setString(i++, digest);
                s.setInt(i++, priority);
                s.setArray(i++, c.createArrayOf("text", kinds));
                s.setArray(i++, c.createArrayOf("bytea", payloads));
                s.setInt(i++, priority);
                s.setString(i++, circuit);
                s.setString(i++, digest);
                try (ResultSet r = s.executeQuery()) {
                    if (r.next()) {
                        return new Submitted(r.getString(1), false, r.getInt(2));
                    }
                }
            }
            try (PreparedStatement s = db.prepare(c, "SELECT job_id FROM jobs WHERE idempotency_key = ?")) {
                s.setString(1, idempotencyKey);
                try (ResultSet r = s.executeQuery()) {
                    if (!r.next()) {
                        throw new IllegalStateException("idempotency key '" + idempotencyKey + "' has no job");
                    }
                    return new Submitted(r.getString(1), true, 0);
                }
            }
        });
    }

    /**
     * Claims at most {@code limit} queued partitions of the given circuits (each with the key digest
     * this node has), highest priority first, then oldest; rows other nodes are claiming are skipped.
     */
    @Override
    public List<Claim> claim(String node, int limit, Duration lease, List<String> circuits, List<String> digests) {
        return db.run("claiming partitions", c -> {
            String sql = """
                    UPDATE partitions p SET state = 'CLAIMED', lease_owner = ?, lease_token = nextval('lease_tokens'),
                           lease_expires = now() + ? * interval '1 millisecond', claims = p.claims + 1,
                           claimed_at = now()
                    FROM (SELECT job_id, idx FROM partitions
                          WHERE state = 'QUEUED' AND (deadline_at IS NULL OR deadline_at > now())
                            AND (circuit_id, key_digest) IN (SELECT * FROM unnest(?::text[], ?::text[]))
                          ORDER BY priority DESC, seq LIMIT ? FOR UPDATE SKIP LOCKED) q
                    WHERE p.job_id = q.job_id AND p.idx = q.idx
                    RETURNING p.job_id, p.idx, p.lease_token, p.circuit_id, p.kind, p.payload, p.priority,
                              extract(epoch FROM now() - p.submitted_at) * 1000, p.claims, p.interrupted""";
            try (PreparedStatement s = db.prepare(c, sql)) {
                s.setString(1, node);
                if (lease == null) {
                    s.setNull(2, java.sql.Types.BIGINT); // no expiry: held until given back
                } else {
                    s.setLong(2, lease.toMillis());
                }
                s.setArray(3, c.createArrayOf("text", circuits.toArray()));
                s.setArray(4, c.createArrayOf("text", digests.toArray()));
                s.setInt(5, limit);
                List<Claim> out = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.add(new Claim(r.getString(1), r.getInt(2), r.getLong(3), r.getString(4), PartitionKind.of(r.getString(5)),
                                r.getBytes(6), r.getInt(7), r.getDouble(8), r.getInt(9), r.getInt(10)));
                    }
                }
                return out;
            }
        });
    }

    /**
     * Stores a proof for a claimed partition, if this node still holds its lease; the job is done with
     * its last partition. False: the result came too late (lease lost, job ended) and was discarded.
     */
    @Override
    public boolean complete(Claim claim, String node, String proofJson, byte[] proofBinary, List<String> publicSignals,
            double[] timings) {
        return db.run("storing a proof", c -> {
            String sql = """
                    WITH p AS (
                      UPDATE partitions SET state = 'DONE', proved_by = ?, proof_json = ?, proof_binary = ?,
                             public_signals = ?, timings = ?, lease_owner = NULL, lease_expires = NULL, payload = NULL
                      WHERE job_id = ? AND idx = ? AND state = 'CLAIMED' AND lease_token = ?
                      RETURNING job_id),
                    j AS (
                      UPDATE jobs SET done = done + 1,
                             state = CASE WHEN done + 1 >= partitions THEN 'DONE' ELSE state END,
                             ended_at = CASE WHEN done + 1 >= partitions THEN now() ELSE ended_at END
                      WHERE job_id IN (SELECT job_id FROM p) AND state = 'RUNNING'
                      RETURNING job_id, state)
                    SELECT (SELECT count(*) FROM p),
                           (SELECT count(*) FROM (SELECT pg_notify('proofline_jobs', job_id || ' DONE') FROM j WHERE state = 'DONE') x)""";
            try (PreparedStatement s = db.prepare(c, sql)) {
                s.setString(1, node);
                s.setString(2, proofJson);
                s.setBytes(3, proofBinary);
                s.setArray(4, publicSignals == null ? null : c.createArrayOf("text", publicSignals.toArray()));
                Double[] t = new Double[timings.length];
                for (int i = 0; i < t.length; i++) {
                    t[i] = timings[i];
                }
                s.setArray(5, c.createArrayOf("float8", t));
                s.setString(6, claim.jobId());
                s.setInt(7, claim.partition());
                s.setLong(8, claim.token());
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getLong(1) == 1;
                }
            }
        });
    }

    /**
     * Fails the job of a claimed partition (its proof cannot be made: the error names why), cancelling
     * its other partitions, if this node still holds the lease. False: discarded as too late.
     */
    @Override
    public boolean fail(Claim claim, String node, String error) {
        return db.run("failing a job", c -> {
            c.setAutoCommit(false);
            try {
                try (PreparedStatement s = db.prepare(c, "SELECT 1 FROM partitions WHERE job_id = ? AND idx = ?"
                        + " AND state = 'CLAIMED' AND lease_token = ? FOR UPDATE")) {
                    s.setString(1, claim.jobId());
                    s.setInt(2, claim.partition());
                    s.setLong(3, claim.token());
                    try (ResultSet r = s.executeQuery()) {
                        if (!r.next()) {
                            c.rollback();
                            return false;
                        }
                    }
                }
                String sql = """
                        WITH o AS (
                          UPDATE partitions x SET state = CASE WHEN x.idx = ? THEN 'FAILED' ELSE 'CANCELLED' END,
                                 error = CASE WHEN x.idx = ? THEN ? END, proved_by = CASE WHEN x.idx = ? THEN ? END,
                                 lease_owner = NULL, lease_expires = NULL, payload = NULL
                          FROM (SELECT job_id, idx FROM partitions WHERE job_id = ? AND state IN ('QUEUED', 'CLAIMED')
                                ORDER BY idx FOR UPDATE) l
                          WHERE x.job_id = l.job_id AND x.idx = l.idx RETURNING 1),
                        j AS (
                          UPDATE jobs SET state = 'FAILED', ended_at = now(), error = ?
                          WHERE job_id = ? AND state = 'RUNNING' AND (SELECT count(*) FROM o) >= 0 RETURNING job_id)
                        SELECT count(*) FROM (SELECT pg_notify('proofline_jobs', job_id || ' FAILED') FROM j) x""";
                try (PreparedStatement s = db.prepare(c, sql)) {
                    s.setInt(1, claim.partition());
                    s.setInt(2, claim.partition());
                    s.setString(3, error);
                    s.setInt(4, claim.partition());
                    s.setString(5, node);
                    s.setString(6, claim.jobId());
                    s.setString(7, "partition " + claim.partition() + " on " + node + ": " + error);
                    s.setString(8, claim.jobId());
                    s.executeQuery().close();
                }
                db.countRoundTrip();
                c.commit();
                return true;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    /**
     * Gives a claimed partition back to the queue and announces it; {@code attempt}: this node could not
     * prove it (else it is stopping: the claim counts as interrupted).
     */
    @Override
    public boolean release(Claim claim, String why, boolean attempt) {
        return db.run("releasing a partition", c -> {
            String sql = """
                    WITH r AS (
                      UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL,
                             lease_expires = NULL, error = ?, interrupted = interrupted + ?
                      WHERE job_id = ? AND idx = ? AND state = 'CLAIMED' AND lease_token = ?
                      RETURNING job_id, circuit_id, key_digest)
                    SELECT count(*) FROM (SELECT pg_notify('proofline_work', job_id || ' ' || circuit_id || ' ' || key_digest) FROM r) x""";
            try (PreparedStatement s = db.prepare(c, sql)) {
                s.setString(1, why);
                s.setInt(2, attempt ? 0 : 1);
                s.setString(3, claim.jobId());
                s.setInt(4, claim.partition());
                s.setLong(5, claim.token());
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getLong(1) == 1;
                }
            }
        });
    }

    /** Cancels a running job and its unfinished partitions; its state afterwards, or null when there is no such job. */
    @Override
    public JobState cancel(String id) {
        return db.run("cancelling a job", c -> {
            String sql = """
                    WITH p AS (
                      UPDATE partitions SET state = 'CANCELLED', lease_owner = NULL, lease_expires = NULL, payload = NULL
                      WHERE job_id = ? AND state IN ('QUEUED', 'CLAIMED') RETURNING 1),
                    j AS (
                      UPDATE jobs SET state = 'CANCELLED', ended_at = now()
                      WHERE job_id = ? AND state = 'RUNNING' AND (SELECT count(*) FROM p) >= 0 RETURNING job_id)
                    SELECT count(*) FROM (SELECT pg_notify('proofline_jobs', job_id || ' CANCELLED') FROM j) x""";
            try (PreparedStatement s = db.prepare(c, sql)) {
                s.setString(1, id);
                s.setString(2, id);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    if (r.getLong(1) == 1) {
                        return JobState.CANCELLED;
                    }
                }
            }
            // not running (any more): its state now, read after the statement above (whose own snapshot
            // may predate a result stored meanwhile)
            try (PreparedStatement s = db.prepare(c, "SELECT state FROM jobs WHERE job_id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() ? JobState.valueOf(r.getString(1)) : null;
                }
            }
        });
    }
}
