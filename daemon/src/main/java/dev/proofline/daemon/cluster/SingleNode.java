package dev.proofline.daemon.cluster;

import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.Engine;
import dev.proofline.engine.groth16.ProofResult;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A single daemon's node on its own store ({@code [store]}, an SQLite file that one daemon holds at a
 * time): the queue, states and idempotency keys of a cluster's, without the cluster. No other node can
 * take its claims, so they have no lease: each holds until the daemon proves it, gives it back, or
 * starts again after it died (the start takes back what its previous life held, at once). Its periodic
 * task is the store's upkeep alone ({@link StoreUpkeep}): it writes no heartbeat and no row of its own,
 * and the status shows it as it is now, read from the process.
 */
public final class SingleNode extends StoreNode {

    /**
     * The owner its claims carry in the store. Fixed, because a start takes back the claims its previous
     * life held by this id: an id that changed from one start to the next (a host and port, the port
     * chosen anew for a {@code :0}) would leave them claimed for ever. Stores written before hold it too.
     */
    public static final String NODE_ID = "local";

    /**
     * How often it runs the store's upkeep, {@code cluster.heartbeat_interval}'s default: a job past its
     * deadline ends, and its waiters are answered, within this.
     */
    public static final Duration UPKEEP_INTERVAL = Duration.ofSeconds(2);

    /**
     * Its fallback poll. Its store's announcements stay in the process and are never lost, so the poll is
     * only a safety net; {@code cluster.fallback_poll}'s default.
     */
    public static final Duration FALLBACK_POLL = Duration.ofSeconds(10);

    /** Attempts before a partition fails its job: {@code cluster.max_attempts}'s default. */
    public static final int MAX_ATTEMPTS = 3;

    private final Duration resultRetention;
    private final Duration fetchedRetention;
    private volatile String grpcAddress = "";
    private volatile String httpAddress = "";

    /** A node on {@code store} that keeps ended jobs for {@code resultRetention}, fetched ones for {@code fetchedRetention}. */
    public SingleNode(ClusterStore store, Engine<ProofResult> engine, Duration resultRetention,
            Duration fetchedRetention, Consumer<String> log) {
        super(store, engine, FALLBACK_POLL, MAX_ATTEMPTS, log);
        this.resultRetention = resultRetention;
        this.fetchedRetention = fetchedRetention;
    }

    @Override
    String id(String grpcAddress) {
        return NODE_ID;
    }

    /** None: nobody else can take its claims. */
    @Override
    Duration lease() {
        return null;
    }

    @Override
    Presence presence(String id, String grpcAddress, String httpAddress, ResultWriter writer) {
        this.grpcAddress = grpcAddress;
        this.httpAddress = httpAddress;
        return new StoreUpkeep(store, id, UPKEEP_INTERVAL, resultRetention, fetchedRetention, outage, signal, log);
    }

    @Override
    String describe() {
        return "claims without a lease, upkeep every " + UPKEEP_INTERVAL.toMillis() + " ms";
    }

    /** The store's partitions and recent jobs, and this daemon as the one node, as it is now. */
    @Override
    ClusterStore.Status status(int recentJobs) {
        ClusterStore.Status s = super.status(recentJobs);
        ClusterStore.StatusNode self = new ClusterStore.StatusNode(NODE_ID, grpcAddress, httpAddress,
                engine.backend().name(), startedAt, 0, false, engine.permits().max(), engine.permits().inUse(),
                proofs(), engine.proverBusyLastMinute(), String.join(",", keys.circuits()), holding());
        return new ClusterStore.Status(List.of(self), s.partitions(), s.recent());
    }
}
