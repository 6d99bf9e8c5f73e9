package dev.proofline.daemon.store.postgres;

import dev.proofline.daemon.store.ClusterStore.NodeInfo;
import dev.proofline.daemon.store.ClusterStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The nodes of a cluster in the {@link PostgresStore}: each one's heartbeat (its load, its leases
 * extended), its leaving (its claims back in the queue, announced) and its refusals of jobs submitted
 * against another key than its own.
 */
final class PostgresMembership implements ClusterStore.Membership {

    private final PostgresConnections db;

    PostgresMembership(PostgresConnections db) {
        this.db = db;
    }

    /**
     * Records the node's heartbeat and load, and extends the leases it holds; returns the tokens of
     * those leases (a claim not among them was lost: requeued after expiry, or its job ended).
     */
    @Override
    public Set<Long> heartbeat(NodeInfo n, Duration lease) {
        return db.run("heartbeat", c -> {
            String sql = """
                    WITH n AS (
                      INSERT INTO nodes (node_id, grpc_address, http_address, backend, started_at, permits_max,
                                         permits_in_use, claimed, proofs, prover_busy, circuits)
                      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                      ON CONFLICT (node_id) DO UPDATE SET grpc_address = EXCLUDED.grpc_address,
                         http_address = EXCLUDED.http_address, backend = EXCLUDED.backend,
                         started_at = EXCLUDED.started_at, heartbeat_at = now(), stopped_at = NULL,
                         permits_max = EXCLUDED.permits_max, permits_in_use = EXCLUDED.permits_in_use,
                         claimed = EXCLUDED.claimed, proofs = EXCLUDED.proofs, prover_busy = EXCLUDED.prover_busy,
                         circuits = EXCLUDED.circuits),
                    l AS (
                      UPDATE partitions SET lease_expires = now() + ? * interval '1 millisecond'
                      WHERE state = 'CLAIMED' AND lease_owner = ? RETURNING lease_token)
                    SELECT lease_token FROM l""";
            try (PreparedStatement s = db.prepare(c, sql)) {
                int i = 1;
                s.setString(i++, n.id());
                s.setString(i++, n.grpcAddress());
                s.setString(i++, n.httpAddress());
                s.setString(i++, n.backend());
                s.setObject(i++, java.time.OffsetDateTime.ofInstant(n.startedAt(), java.time.ZoneOffset.UTC));
                s.setInt(i++, n.permitsMax());
                s.setInt(i++, n.permitsInUse());
                s.setInt(i++, n.claimed());
                s.setLong(i++, n.proofs());
                s.setDouble(i++, n.proverBusy());
                s.setString(i++, n.circuits());
                s.setLong(i++, lease.toMillis());
                s.setString(i++, n.id());
                Set<Long> held = new HashSet<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        held.add(r.getLong(1));
                    }
                }
                return held;
            }
        });
    }

    /** A node that stops: its leases go back to the queue at once (announced), and it shows as stopped. */
    @Override
    public int leave(String node) {
        return db.run("leaving the cluster", c -> {
            String sql = """
                    WITH r AS (
                      UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL,
                             interrupted = interrupted + 1
                      WHERE state = 'CLAIMED' AND lease_owner = ? RETURNING job_id, circuit_id, key_digest),
                    n AS (UPDATE nodes SET stopped_at = now(), permits_in_use = 0, claimed = 0 WHERE node_id = ?)
                    SELECT count(*) FROM (SELECT pg_notify('proofline_work', job_id || ' ' || circuit_id || ' ' || key_digest) FROM r) x""";
            try (PreparedStatement s = db.prepare(c, sql)) {
                s.setString(1, node);
                s.setString(2, node);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getInt(1);
                }
            }
        });
    }

    /**
     * Records this node's refusal of every running job on one of its circuits that was submitted against
     * another key (a different digest); returns the refusals added.
     */
    @Override
    public int refuse(String node, List<String> circuits, List<String> digests) {
        return db.run("recording refusals", c -> {
            String sql = """
                    INSERT INTO refusals (job_id, node_id, reason)
                    SELECT j.job_id, ?, 'refused: its key for ' || j.circuit_id || ' has digest ' || m.digest
                           || ', the job was submitted against ' || j.key_digest
                    FROM jobs j JOIN unnest(?::text[], ?::text[]) AS m(circuit, digest) ON j.circuit_id = m.circuit
                    WHERE j.state = 'RUNNING' AND j.key_digest <> m.digest
                    ON CONFLICT DO NOTHING""";
            try (PreparedStatement s = db.prepare(c, sql)) {
                s.setString(1, node);
                s.setArray(2, c.createArrayOf("text", circuits.toArray()));
                s.setArray(3, c.createArrayOf("text", digests.toArray()));
                return s.executeUpdate();
            }
        });
    }
}
