package dev.proofline.engine;

import dev.proofline.engine.ProverPermits.Permit;
import java.util.function.Consumer;

/**
 * The dispatcher: releases queued partitions to synthesis. Each queued partition requests a permit, and
 * a granted permit goes to the highest-priority queued partition; a closed permit is handed straight to
 * the next request, so nothing polls.
 */
final class Dispatcher {

    private final ProverPermits permits;
    private final Scheduler scheduler;
    private final SynthesisStage synthesis;
    private final PartitionEnd partitionEnd;
    /** The one callback, so that a cancelled partition's request can be withdrawn. */
    private final Consumer<Permit> granted = this::granted;
    /** Under {@code permits = "auto"}: told when partitions start waiting for a permit; null otherwise. */
    private final PermitSizer sizer;

    Dispatcher(ProverPermits permits, Scheduler scheduler, SynthesisStage synthesis, PartitionEnd partitionEnd,
            PermitSizer sizer) {
        this.permits = permits;
        this.scheduler = scheduler;
        this.synthesis = synthesis;
        this.partitionEnd = partitionEnd;
        this.sizer = sizer;
    }

    /** A partition was queued. */
    void queued() {
        permits.request(granted);
        if (sizer != null) {
            sizer.demandChanged();
        }
    }

    /** A queued partition was taken out of the queue (its job ended): its request goes too. */
    void withdrawn() {
        permits.withdraw(granted);
    }

    /** A permit was granted: the highest-priority queued partition takes it and starts synthesis. */
    private void granted(Permit permit) {
        PartitionTask t;
        while ((t = scheduler.poll()) != null && t.job.isOver()) {
            partitionEnd.end(t, PartitionState.CANCELLED, null, null);
        }
        if (t == null) {
            permit.close(); // every queued partition was cancelled: hand the permit on
            return;
        }
        t.lease.holdPermit(permit);
        t.grantNanos = System.nanoTime();
        synthesis.submit(t);
    }
}
