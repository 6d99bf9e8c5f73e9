package dev.proofline.daemon;

import dev.proofline.daemon.cluster.ClusterNode;
import dev.proofline.daemon.cluster.SingleNode;
import dev.proofline.daemon.cluster.StoreNode;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.config.DatabaseUrl;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.postgres.PostgresStore;
import dev.proofline.daemon.store.sqlite.SqliteStore;
import dev.proofline.engine.Engine;
import dev.proofline.engine.groth16.ProofResult;
import java.util.function.Consumer;

/**
 * Where a daemon keeps its jobs: the cluster's database ({@code cluster.database}), a single daemon's
 * durable store ({@code store.kind = "sqlite"}), or nothing but memory. Opened before the ports, so
 * that a store that cannot be opened stops the start before anything listens.
 */
final class DaemonStores {

    private DaemonStores() {
    }

    /** The durable queue the configuration names, as this daemon's node of it; null: jobs kept in memory. */
    static StoreNode open(DaemonConfig config, Engine<ProofResult> engine, Consumer<String> log) {
        return config.cluster().enabled() ? joinCluster(config, engine, log)
                : config.store().durable() ? openStore(config, engine, log) : null;
    }

    private static ClusterNode joinCluster(DaemonConfig config, Engine<ProofResult> engine, Consumer<String> log) {
        DaemonConfig.Cluster c = config.cluster();
        ClusterStore store = PostgresStore.open(c.database(), c.poolSize(), DaemonConfig.parseDuration(c.connectTimeout()));
        log.accept("cluster mode: database " + DatabaseUrl.redacted(c.database()));
        return new ClusterNode(store, engine, new ClusterNode.Settings(c.nodeId(),
                DaemonConfig.parseDuration(c.leaseTimeout()), DaemonConfig.parseDuration(c.heartbeatInterval()),
                DaemonConfig.parseDuration(c.fallbackPoll()), c.maxAttempts(),
                DaemonConfig.parseDuration(c.resultRetention()), DaemonConfig.parseDuration(c.fetchedRetention())), log);
    }

    /**
     * A single daemon's durable queue: its {@link SingleNode} on an embedded file (after a crash the next
     * start takes back the partitions its previous life held).
     */
    private static SingleNode openStore(DaemonConfig config, Engine<ProofResult> engine, Consumer<String> log) {
        DaemonConfig.Store s = config.store();
        ClusterStore store = SqliteStore.open(s.path(System.getenv()), s.setAsideDamaged(), log);
        try {
            return new SingleNode(store, engine, DaemonConfig.parseDuration(s.resultRetention()),
                    DaemonConfig.parseDuration(s.fetchedRetention()), log);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }
}
