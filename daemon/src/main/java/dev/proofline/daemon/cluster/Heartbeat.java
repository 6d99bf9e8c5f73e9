package dev.proofline.daemon.cluster;

import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.Engine;
import dev.proofline.engine.groth16.ProofResult;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A cluster member's presence in the job store ({@link ClusterNode}), on its thread
 * {@code cluster-heartbeat}: it rejoins (giving back the claims of a previous life), beats every
 * {@code heartbeat_interval} (its load, its leases extended, the claims whose lease it lost stopped here,
 * the store's upkeep), and leaves when the node stops.
 */
final class Heartbeat implements Presence {

    private final ClusterStore store;
    private final Engine<ProofResult> engine;
    private final ClusterNode.Settings settings;
    private final String nodeId;
    private final String grpcAddress;
    private final String httpAddress;
    private final Instant startedAt;
    private final KeyDigests keys;
    private final HeldClaims claims;
    private final LongSupplier proofs;
    private final StoreOutage outage;
    private final Consumer<String> log;
    /** The claims of a previous life taken back, and the store's upkeep after each beat. */
    private final StoreUpkeep upkeep;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
            StoreNode.threads("cluster-heartbeat"));

    Heartbeat(ClusterStore store, Engine<ProofResult> engine, ClusterNode.Settings settings, String nodeId, String grpcAddress,
            String httpAddress, Instant startedAt, KeyDigests keys, HeldClaims claims, LongSupplier proofs,
            StoreOutage outage, ClaimSignal signal, Consumer<String> log) {
        this.store = store;
        this.engine = engine;
        this.settings = settings;
        this.nodeId = nodeId;
        this.grpcAddress = grpcAddress;
        this.httpAddress = httpAddress;
        this.startedAt = startedAt;
        this.keys = keys;
        this.claims = claims;
        this.proofs = proofs;
        this.outage = outage;
        this.log = log;
        this.upkeep = new StoreUpkeep(store, nodeId, settings.heartbeatInterval(), settings.resultRetention(),
                settings.fetchedRetention(), outage, signal, log);
    }

    /**
     * A node that died (a crash, SIGKILL) and starts again under the same id left claims behind that its
     * heartbeats would otherwise keep alive: they go back to the queue first.
     */
    @Override
    public void rejoin() {
        upkeep.rejoin();
    }

    /** Beats every {@code heartbeat_interval} from now on. */
    @Override
    public void start() {
        thread.scheduleWithFixedDelay(this::beat, settings.heartbeatInterval().toMillis(),
                settings.heartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Tells the store the node's load, extends its leases, stops the claims whose lease it lost, does upkeep. */
    @Override
    public void beat() {
        try {
            Set<Long> before = claims.tokens();
            Set<Long> held = store.membership().heartbeat(new ClusterStore.NodeInfo(nodeId, grpcAddress, httpAddress,
                    engine.backend().name(), startedAt, engine.permits().max(), engine.permits().inUse(), claims.size(),
                    proofs.getAsLong(), engine.proverBusyLastMinute(), String.join(",", keys.circuits())),
                    settings.leaseTimeout());
            for (Long token : before) {
                HeldClaim l = claims.get(token);
                if (l != null && !held.contains(token) && !l.lost && l.job != null && !l.job.isOver()) {
                    log.accept("lease on " + l.claim.jobId() + " partition " + l.claim.partition()
                            + " lost (expired, or the job ended): stopping it here");
                    l.abandon();
                }
            }
        } catch (RuntimeException e) {
            outage.noteDown(e);
            return;
        }
        upkeep.beat();
    }

    /** Beats no more. */
    @Override
    public void stop() {
        thread.shutdownNow();
    }

    /** Leaves the store: the claims still held go back to the queue, and the node shows as stopped. */
    @Override
    public void leave() {
        try {
            store.membership().leave(nodeId);
        } catch (RuntimeException e) {
            log.accept("cluster: leaving: " + e.getMessage() + " (its leases expire instead)");
        }
    }
}
