package dev.proofline.daemon.cluster;

import dev.proofline.daemon.store.ClusterStore;
import java.util.function.Consumer;

/**
 * Whether a node's job store answers: an outage is noted (and logged) once when a call finds the store
 * unreachable, and ends with the next call it answers, which wakes the claim loop.
 */
final class StoreOutage {

    private final Consumer<String> log;
    private final Runnable onReturn;
    private volatile String reason;

    StoreOutage(Consumer<String> log, Runnable onReturn) {
        this.log = log;
        this.onReturn = onReturn;
    }

    /** Why the database is unreachable now, or null. */
    String reason() {
        return reason;
    }

    /** A call failed: an unreachable store starts an outage (logged once); another failure is logged. */
    void noteDown(RuntimeException e) {
        if (e instanceof ClusterStore.DamagedStoreException) {
            return; // said once by the store, and in the status for as long as it lasts
        }
        if (!(e instanceof ClusterStore.UnavailableException)) {
            log.accept("job store: " + e.getMessage());
            return;
        }
        if (reason == null) {
            reason = e.getMessage();
            log.accept("job store: " + e.getMessage() + "; proving goes on, results are written when it returns");
        }
    }

    /** The job store answered: ends an outage {@link #noteDown} noted, and wakes the claim loop. */
    void noteUp() {
        if (reason != null) {
            reason = null;
            log.accept("job store: reachable again");
            onReturn.run();
        }
    }
}
