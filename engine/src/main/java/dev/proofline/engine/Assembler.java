package dev.proofline.engine;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The assembler: where every partition ends, however it ends. It gives back what the partition holds
 * (permit, reservation, buffers), each exactly once, lets its job spec release what synthesis took,
 * counts the outcome, and hands the result to its job, which completes with the proofs in partition
 * order when the last one is in (or with the first failure).
 */
final class Assembler {

    private final BufferPool pool;
    private final Timeline timeline;
    private final Supplier<EngineMetrics> metrics;
    final AtomicLong proofs = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong cancels = new AtomicLong();

    Assembler(BufferPool pool, Timeline timeline, Supplier<EngineMetrics> metrics) {
        this.pool = pool;
        this.timeline = timeline;
        this.metrics = metrics;
    }

    /**
     * The partition leaves the prover stage: its vectors go back to the pool, their bytes moving from
     * the partition's reservation to the pool's in one step; then the rest of its bytes go back to the
     * budget, then its permit to one waiting synthesis. In that order, a live buffer is paid for by
     * someone at every moment, so nobody can reserve and allocate on its bytes before it is idle.
     */
    void leaveProverStage(PartitionTask t) {
        checkInBuffers(t);
        if (t.reservation != null) {
            t.reservation.close();
            t.reservation = null;
        }
        if (t.permit != null) {
            t.permit.close();
            t.permit = null;
        }
    }

    private void checkInBuffers(PartitionTask t) {
        if (t.buffers != null) {
            for (BufferPool.Buffer b : t.buffers) {
                pool.checkin(b, t.reservation);
            }
            t.buffers = null;
        }
    }

    /** Ends the partition; a second call for the same partition does nothing. */
    void end(PartitionTask t, PartitionState s, Object result, Throwable failure) {
        if (t.ended) {
            return;
        }
        t.ended = true;
        leaveProverStage(t);
        try {
            t.job.spec().release(t.p);
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
            m.partitionEnded(s, times);
        }
        switch (s) {
            case DONE -> proofs.incrementAndGet();
            case FAILED -> failures.incrementAndGet();
            case CANCELLED -> cancels.incrementAndGet();
            default -> { }
        }
        if (s == PartitionState.FAILED) {
            timeline.record(t.job.id(), t.p, Timeline.Kind.FAILED, String.valueOf(failure));
        }
        t.job.ended(t.p, s, result, failure, times);
    }
}
