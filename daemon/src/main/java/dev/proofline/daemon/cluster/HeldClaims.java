package dev.proofline.daemon.cluster;

import dev.proofline.daemon.store.ClusterStore;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The claims a node holds, by lease token: each from its claim until it ends ({@link HeldClaim}). */
final class HeldClaims {

    private final Map<Long, HeldClaim> byToken = new ConcurrentHashMap<>();
    private final AtomicLong doubleEnds = new AtomicLong();

    /** Holds a claim just taken from the store. */
    HeldClaim hold(ClusterStore.Claim c) {
        HeldClaim h = new HeldClaim(c, this);
        byToken.put(c.token(), h);
        return h;
    }

    /** The claim under lease {@code token}, or null when it ended. */
    HeldClaim get(long token) {
        return byToken.get(token);
    }

    /** The tokens of the claims held now. */
    Set<Long> tokens() {
        return Set.copyOf(byToken.keySet());
    }

    int size() {
        return byToken.size();
    }

    boolean isEmpty() {
        return byToken.isEmpty();
    }

    /** Stops proving the claims of a job that ended. */
    void abandonJob(String jobId) {
        for (HeldClaim c : byToken.values()) {
            if (c.claim.jobId().equals(jobId)) {
                c.abandon();
            }
        }
    }

    /** Stops proving every claim (the node stops). */
    void abandonAll() {
        for (HeldClaim c : byToken.values()) {
            c.abandon();
        }
    }

    /** Claims ended a second time (each claim ends once: a second end is a bug, counted and otherwise ignored). */
    long doubleEnds() {
        return doubleEnds.get();
    }

    void ended(HeldClaim c) {
        byToken.remove(c.claim.token());
    }

    void endedTwice() {
        doubleEnds.incrementAndGet();
    }
}
