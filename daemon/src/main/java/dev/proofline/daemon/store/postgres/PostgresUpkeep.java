package dev.proofline.daemon.store.postgres;

import dev.proofline.daemon.store.ClusterStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;

/** The cluster's upkeep in the {@link PostgresStore}, which any node does with its heartbeats. */
final class PostgresUpkeep implements ClusterStore.Upkeep {

    private final PostgresConnections db;

    PostgresUpkeep(PostgresConnections db) {
        this.db = db;
    }

    /**
     * The cluster's upkeep, which any node may do: partitions whose lease expired (their node died or
     * lost the database) go back to the queue, announced; jobs past their deadline end; ended jobs are
     * deleted after {@code retention}, fetched ones after {@code fetchedRetention}. Returns the
     * partitions requeued.
     */
    @Override
    public int run(Duration retention, Duration fetchedRetention) {
        return db.run("upkeep", c -> {
            int requeued;
            String expire = """
                    WITH r AS (
                      UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL,
                             error = 'lease of ' || lease_owner || ' expired', interrupted = interrupted + 1
                      WHERE state = 'CLAIMED' AND lease_expires < now() RETURNING job_id, circuit_id, key_digest)
                    SELECT count(*) FROM (SELECT pg_notify('proofline_work', job_id || ' ' || circuit_id || ' ' || key_digest)
                                          FROM r) x""";
            try (PreparedStatement s = db.prepare(c, expire); ResultSet r = s.executeQuery()) {
                r.next();
                requeued = r.getInt(1);
            }
            String late = """
                    WITH late AS (
                      SELECT job_id FROM jobs WHERE state = 'RUNNING' AND deadline_at < now() FOR UPDATE SKIP LOCKED),
                    p AS (
                      UPDATE partitions SET state = 'CANCELLED', lease_owner = NULL, lease_expires = NULL, payload = NULL
                      WHERE job_id IN (SELECT job_id FROM late) AND state IN ('QUEUED', 'CLAIMED') RETURNING 1),
                    j AS (
                      UPDATE jobs SET state = 'DEADLINE_EXCEEDED', ended_at = now(),
                             error = 'the deadline passed before every partition was proved'
                      WHERE job_id IN (SELECT job_id FROM late) AND (SELECT count(*) FROM p) >= 0 RETURNING job_id),
                    gone AS (
                      DELETE FROM jobs WHERE state <> 'RUNNING'
                        AND (ended_at < now() - ? * interval '1 millisecond'
                             OR fetched_at < now() - ? * interval '1 millisecond') RETURNING 1),
                    old AS (DELETE FROM nodes WHERE heartbeat_at < now() - interval '1 day' RETURNING 1)
                    SELECT (SELECT count(*) FROM (SELECT pg_notify('proofline_jobs', job_id || ' DEADLINE_EXCEEDED') FROM j) x),
                           (SELECT count(*) FROM gone), (SELECT count(*) FROM old)""";
            try (PreparedStatement s = db.prepare(c, late)) {
                s.setLong(1, retention.toMillis());
                s.setLong(2, fetchedRetention.toMillis());
                s.executeQuery().close();
            }
            return requeued;
        });
    }
}
