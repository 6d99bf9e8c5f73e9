package dev.proofline.daemon.cluster;

import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.Engine;
import dev.proofline.engine.groth16.ProofResult;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A daemon's node of a cluster ({@code [cluster]}): one of several daemons on a shared database. It holds
 * each claim under a lease that its {@link Heartbeat} extends; a node that dies stops extending them,
 * and the upkeep any node runs gives its claims back to the queue for the others once they expire. A
 * claim whose lease the heartbeat no longer finds (expired and requeued, or its job ended) is cancelled
 * in the engine. Its heartbeat also tells the others its addresses and load, which the status shows.
 */
public final class ClusterNode extends StoreNode {

    /** The node's knobs, from {@code [cluster]} (see {@code proofline.example.toml}). */
    public record Settings(String nodeId, Duration leaseTimeout, Duration heartbeatInterval, Duration fallbackPoll,
            int maxAttempts, Duration resultRetention, Duration fetchedRetention) {
    }

    private final Settings settings;

    public ClusterNode(ClusterStore store, Engine<ProofResult> engine, Settings settings, Consumer<String> log) {
        super(store, engine, settings.fallbackPoll(), settings.maxAttempts(), log);
        this.settings = settings;
    }

    /** {@code node_id}, or the host name and gRPC port. */
    @Override
    String id(String grpcAddress) {
        if (!settings.nodeId().isEmpty()) {
            return settings.nodeId();
        }
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "localhost";
        }
        return host + ":" + grpcAddress.substring(grpcAddress.lastIndexOf(':') + 1);
    }

    @Override
    Duration lease() {
        return settings.leaseTimeout();
    }

    @Override
    Presence presence(String id, String grpcAddress, String httpAddress, ResultWriter writer) {
        return new Heartbeat(store, engine, settings, id, grpcAddress, httpAddress, startedAt, keys, claims,
                writer::proofs, outage, signal, log);
    }

    @Override
    String describe() {
        return "lease " + settings.leaseTimeout().toMillis() + " ms, heartbeat every "
                + settings.heartbeatInterval().toMillis() + " ms";
    }
}
