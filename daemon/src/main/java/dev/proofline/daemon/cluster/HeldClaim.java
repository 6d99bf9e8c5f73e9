package dev.proofline.daemon.cluster;

import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.Engine;
import dev.proofline.engine.groth16.ProofResult;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A claim being proved here, with one owner from the claim until it ends: its result stored, its job
 * failed, the claim given back to the queue, or dropped (lease lost, job cancelled). Ending removes it
 * from the claims this node holds ({@link HeldClaims}), exactly once; a second end changes nothing and
 * is counted ({@link HeldClaims#doubleEnds}), the engine's policy for its own leases: it is a bug, and
 * the tests fail on it.
 */
final class HeldClaim implements AutoCloseable {

    final ClusterStore.Claim claim;
    /** The engine job proving it, once submitted. */
    volatile Engine.Job<ProofResult> job;
    /** Set when the lease was lost or the job ended: nothing is written for it. */
    volatile boolean lost;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final HeldClaims holder;

    HeldClaim(ClusterStore.Claim claim, HeldClaims holder) {
        this.claim = claim;
        this.holder = holder;
    }

    /** Stops proving it: its lease was lost or its job ended. */
    void abandon() {
        lost = true;
        Engine.Job<ProofResult> j = job;
        if (j != null) {
            j.cancel();
        }
    }

    /** Ends the claim here: what became of it has been written to the store, or need not be. */
    @Override
    public void close() {
        if (ended.compareAndSet(false, true)) {
            holder.ended(this);
        } else {
            holder.endedTwice();
        }
    }
}
