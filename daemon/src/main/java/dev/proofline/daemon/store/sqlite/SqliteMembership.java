package dev.proofline.daemon.store.sqlite;

import static dev.proofline.daemon.store.sqlite.SqliteFile.bind;

import dev.proofline.daemon.store.ClusterStore.NodeInfo;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.sqlite.SqliteFile.Sync;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The node of the {@link SqliteStore}, a single daemon ({@code SingleNode}): its leaving (its claims
 * back in the queue, at start and at stop) and its answer to jobs of keys it no longer has; and the
 * contract's heartbeat (a row of load, leases extended), which a single daemon does not use: its
 * claims have no lease, and the status reads it from the process.
 */
final class SqliteMembership implements ClusterStore.Membership {

    private final SqliteFile file;

    SqliteMembership(SqliteFile file) {
        this.file = file;
    }

    @Override
    public Set<Long> heartbeat(NodeInfo n, Duration lease) {
        return file.with("heartbeat", Sync.NORMAL, t -> {
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
        return file.with("giving claims back", Sync.NORMAL, t -> {
            t.update("UPDATE nodes SET stopped_at = ?, permits_in_use = 0, claimed = 0 WHERE node_id = ?", t.now, node);
            try (PreparedStatement s = t.prepare("""
                    UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL,
                           interrupted = interrupted + 1
                    WHERE state = 'CLAIMED' AND lease_owner = ? RETURNING job_id, circuit_id, key_digest""")) {
                s.setString(1, node);
                return SqliteQueue.requeued(t, s);
            }
        });
    }

    /**
     * The only node cannot prove a running job whose circuit it no longer has, or whose key changed
     * since the job was submitted: such a job fails, saying which.
     */
    @Override
    public int refuse(String node, List<String> circuits, List<String> digests) {
        return file.with("failing jobs of changed keys", Sync.NORMAL, t -> {
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
                SqliteQueue.endPartitions(t, j[0]);
                t.update("UPDATE jobs SET state = 'FAILED', ended_at = ?, error = ? WHERE job_id = ?", t.now,
                        node + ": " + j[1], j[0]);
                t.ended(j[0], "FAILED");
            }
            return refused.size();
        });
    }
}
