package dev.proofline.engine;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Where every partition ends, however it ends. It closes the partition's lease (what
 * the prover stage did not give back yet — permit, reservation, buffers — then the key and PCE leases),
 * counts the outcome, and hands the result to its job, which completes with the proofs in partition
 * order when the last one is in (or with the first failure).
 */
final class PartitionEnd {

    private final Timeline timeline;
    private final Supplier<EngineMetrics> metrics;
    final AtomicLong proofs = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong cancels = new AtomicLong();

    PartitionEnd(Timeline timeline, Supplier<EngineMetrics> metrics) {
        this.timeline = timeline;
        this.metrics = metrics;
    }

    /** Ends the partition; a second call for the same partition does nothing. */
    void end(PartitionTask t, PartitionState s, Object result, Throwable failure) {
        if (t.ended) {
            return;
        }
        t.ended = true;
        try {
            t.lease.close();
        } catch (Throwable e) {
            if (failure == null && s == PartitionState.DONE) {
                s = PartitionState.FAILED;
                failure = e;
                result = null;
            }
        }
        Engine.Timings times = t.timings();
        EngineMetrics m = metrics.get();
        if (m != null) {
            m.partitionEnded(t.job.spec().label(), s, times);
        }
        switch (s) {
            case DONE -> proofs.incrementAndGet();
            case FAILED -> failures.incrementAndGet();
            case CANCELLED -> cancels.incrementAndGet();
            default -> { }
        }
        if (s == PartitionState.FAILED) {
            timeline.record(t.job.id(), t.partition, Timeline.Kind.FAILED, String.valueOf(failure));
        }
        t.job.ended(t.partition, s, result, failure, times);
    }
}
