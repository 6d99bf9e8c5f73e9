package dev.proofline.daemon.store.sqlite;

import static dev.proofline.daemon.store.sqlite.SqliteFile.bind;

import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.sqlite.SqliteFile.Sync;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The upkeep of the {@link SqliteStore}, which its node runs every few seconds. */
final class SqliteUpkeep implements ClusterStore.Upkeep {

    private final SqliteFile file;

    SqliteUpkeep(SqliteFile file) {
        this.file = file;
    }

    @Override
    public int run(Duration retention, Duration fetchedRetention) {
        return file.with("upkeep", Sync.NORMAL, t -> {
            int requeued;
            try (PreparedStatement s = t.prepare("""
                    UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL,
                           error = 'lease of ' || lease_owner || ' expired', interrupted = interrupted + 1
                    WHERE state = 'CLAIMED' AND lease_expires < ? RETURNING job_id, circuit_id, key_digest""")) {
                s.setLong(1, t.now);
                requeued = SqliteQueue.requeued(t, s);
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
                SqliteQueue.endPartitions(t, id);
                t.ended(id, "DEADLINE_EXCEEDED");
            }
            // partitions go with their job (ON DELETE CASCADE)
            t.update("DELETE FROM jobs WHERE state <> 'RUNNING' AND (ended_at < ? OR fetched_at < ?)",
                    t.now - retention.toMillis(), t.now - fetchedRetention.toMillis());
            t.update("DELETE FROM nodes WHERE heartbeat_at < ?", t.now - Duration.ofDays(1).toMillis());
            return requeued;
        });
    }
}
