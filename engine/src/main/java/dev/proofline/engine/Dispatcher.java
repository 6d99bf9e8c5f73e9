package dev.proofline.engine;

import dev.proofline.engine.ProverPermits.Permit;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The dispatcher: releases queued partitions to synthesis. Reactive: each queued partition requests
 * a permit, and a granted permit goes to the highest-priority queued partition; a closed permit is
 * handed straight to the next request, so nothing polls. Poll (for comparison only): every 250 ms,
 * every queued partition starts while the prover queue is below its limit.
 */
final class Dispatcher {

    private final Engine.Dispatch mode;
    private final ProverPermits permits;
    private final Scheduler scheduler;
    private final SynthesisStage synthesis;
    private final PartitionEnd partitionEnd;
    private final IntSupplier proverQueue;
    private final int depth;
    /** The one callback, so that a cancelled partition's request can be withdrawn. */
    private final Consumer<Permit> granted = this::granted;
    private final ScheduledExecutorService poller;
    /** Under {@code permits = "auto"}: told when partitions start waiting for a permit; null otherwise. */
    private final PermitSizer sizer;

    Dispatcher(Engine.Dispatch mode, ProverPermits permits, Scheduler scheduler, SynthesisStage synthesis,
            PartitionEnd partitionEnd, IntSupplier proverQueue, int depth, PermitSizer sizer) {
        this.mode = mode;
        this.permits = permits;
        this.scheduler = scheduler;
        this.synthesis = synthesis;
        this.partitionEnd = partitionEnd;
        this.proverQueue = proverQueue;
        this.depth = depth;
        this.sizer = sizer;
        if (mode == Engine.Dispatch.POLL) {
            poller = Executors.newSingleThreadScheduledExecutor(NamedThreads.daemons("poll-dispatch", 0));
            poller.scheduleAtFixedRate(this::tick, 250, 250, TimeUnit.MILLISECONDS);
        } else {
            poller = null;
        }
    }

    /** A partition was queued. */
    void queued() {
        if (mode == Engine.Dispatch.REACTIVE) {
            permits.request(granted);
            if (sizer != null) {
                sizer.demandChanged();
            }
        }
    }

    /** A queued partition was taken out of the queue (its job ended): its request goes too. */
    void withdrawn() {
        if (mode == Engine.Dispatch.REACTIVE) {
            permits.withdraw(granted);
        }
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

    /** Poll mode: all waiting partitions start when the prover queue is below its limit. */
    private void tick() {
        if (proverQueue.getAsInt() >= depth) {
            return;
        }
        PartitionTask t;
        while ((t = scheduler.poll()) != null) {
            if (t.job.isOver()) {
                partitionEnd.end(t, PartitionState.CANCELLED, null, null);
            } else {
                synthesis.submit(t);
            }
        }
    }

    void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }
}
