package dev.proofline.engine;


/**
 * One partition moving through the stages: its {@link PartitionLease} (the one owner of its permit,
 * reservation, pooled buffers and key/PCE leases), what the stages hand on, and when each stage had it.
 * A task is handled by one stage at a time, so its fields need no lock.
 */
final class PartitionTask implements Comparable<PartitionTask> {

    final SubmittedJob<?> job;
    /** Its index in the job (0 .. partitions - 1): its place in the job's results. */
    final int partition;
    /** Submission order, the tie-break between partitions of one priority. */
    final long order;
    final long queuedNanos = System.nanoTime();
    /** Everything the partition holds. */
    final PartitionLease lease;
    /** What synthesis produced, until the backend's start took it. */
    Object payload;
    /** The device its prover worker serves (0 .. devices - 1), once a worker took it; -1 before. */
    int device = -1;
    /** Set by the first {@link PartitionEnd#end}. */
    boolean ended;
    /** When its permit was granted, its synthesis thread took it and let it go, it joined and left the prover queue. */
    long grantNanos;
    long runStart;
    long runEnd;
    long enqueuedNanos;
    long dequeuedNanos;
    long synthStart;
    long synthEnd;
    long proverStart;
    long proverEnd;

    PartitionTask(SubmittedJob<?> job, int partition, long order, java.util.concurrent.atomic.AtomicLong doubleCloses) {
        this.job = job;
        this.partition = partition;
        this.order = order;
        this.lease = job == null ? null : new PartitionLease(() -> job.spec().release(partition), doubleCloses);
    }

    Engine.Timings timings() {
        long now = System.nanoTime();
        return new Engine.Timings(ms(queuedNanos, synthStart), ms(synthStart, synthEnd), ms(synthEnd, proverStart),
                ms(proverStart, proverEnd), ms(proverEnd, proverEnd == 0 ? 0 : now), ms(job.submittedNanos(), now));
    }

    private static double ms(long from, long to) {
        return from == 0 || to == 0 ? 0 : (to - from) / 1e6;
    }

    /** Higher priority first, then submission order. */
    @Override
    public int compareTo(PartitionTask o) {
        int c = job.priority().compareTo(o.job.priority());
        return c != 0 ? c : Long.compare(order, o.order);
    }

    void record(Timeline timeline, Timeline.Kind kind) {
        timeline.record(job.id(), partition, kind, "");
    }
}
