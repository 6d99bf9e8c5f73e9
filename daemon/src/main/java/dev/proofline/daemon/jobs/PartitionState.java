package dev.proofline.daemon.jobs;

import dev.proofline.daemon.store.ClusterStore;
import java.util.Locale;

/**
 * A partition's state as a wait answers it: where the engine has it (a daemon without a store) or
 * what its stored row says (a durable queue). The names are the engine's and the store's; a client
 * reads them in lower case ({@link #wire}: "queued", "proving", "done", ...).
 */
public enum PartitionState {
    /** Waiting for a permit (in the engine) or for a node to claim it (in a store). */
    QUEUED,
    /** A node holds it (a store's). */
    CLAIMED,
    SYNTHESIZING, WAITING_FOR_PROVER, PROVING, FINALIZING,
    DONE, FAILED, CANCELLED;

    /** The engine's state of the same name. */
    public static PartitionState of(dev.proofline.engine.PartitionState s) {
        return valueOf(s.name());
    }

    /** The stored state of the same name. */
    public static PartitionState of(ClusterStore.PartitionState s) {
        return valueOf(s.name());
    }

    /** As the API and the status pages write it: the name in lower case. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
