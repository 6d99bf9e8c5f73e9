package dev.proofline.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The synthesis pool: takes a partition's shared leases ({@link JobSpec#lease}: its key, first, so that
 * its own reservation cannot evict it), reserves its bytes (waiting for room, giving up if its job ends
 * meanwhile), checks its buffers out of the pool, runs its job spec's synthesis, and puts it on the
 * prover queue.
 */
final class SynthesisStage {

    /** How long {@link #close} waits for running syntheses before it interrupts them, and after. */
    private static final long CLOSE_PATIENCE_SECONDS = 2;

    private final ExecutorService threads;
    private final MemoryBudget budget;
    private final BufferPool pool;
    private final Timeline timeline;
    private final PartitionEnd partitionEnd;
    private final ProverStage provers;
    final AtomicLong nanos = new AtomicLong();
    final AtomicLong runs = new AtomicLong();
    /** Under {@code permits = "auto"}: told when a thread takes and lets go a partition; null otherwise. */
    private final PermitSizer sizer;

    SynthesisStage(int threads, MemoryBudget budget, BufferPool pool, Timeline timeline, PartitionEnd partitionEnd,
            ProverStage provers, PermitSizer sizer) {
        // witness generators (circom's wasm, deep Java circuits) recurse deeply: a large stack
        this.threads = Executors.newFixedThreadPool(threads, NamedThreads.daemons("synthesis", 64L << 20));
        this.budget = budget;
        this.pool = pool;
        this.timeline = timeline;
        this.partitionEnd = partitionEnd;
        this.provers = provers;
        this.sizer = sizer;
    }

    void submit(PartitionTask t) {
        if (sizer != null) {
            sizer.synthesisQueued();
        }
        try {
            threads.execute(() -> run(t));
        } catch (RejectedExecutionException e) {
            if (sizer != null) {
                sizer.synthesisDropped();
            }
            partitionEnd.end(t, PartitionState.CANCELLED, null, null); // closing
        }
    }

    private void run(PartitionTask t) {
        t.runStart = System.nanoTime();
        if (sizer != null) {
            sizer.synthesisStarted();
        }
        try {
            synthesize(t);
        } finally {
            if (sizer != null) {
                sizer.synthesisEnded();
            }
        }
    }

    private void synthesize(PartitionTask t) {
        try {
            if (t.job.isOver()) {
                partitionEnd.end(t, PartitionState.CANCELLED, null, null);
                return;
            }
            JobSpec<?> spec = t.job.spec();
            spec.lease(t.partition);
            long[] sizes = spec.bufferSizes(t.partition, pool.memory());
            long bytes = spec.extraBytes(t.partition, pool.memory());
            for (long size : sizes) {
                bytes += BufferPool.sizeClass(size);
            }
            // waits for room; a job that ends meanwhile (cancel, failure, deadline, close) wakes it to give up
            Optional<MemoryBudget.Reservation> r = budget.acquire(bytes, MemoryBudget.Kind.PARTITION, null,
                    t.job::isOver);
            if (r.isEmpty()) {
                partitionEnd.end(t, PartitionState.CANCELLED, null, null);
                return;
            }
            t.lease.holdReservation(r.get());
            if (t.job.isOver()) {
                partitionEnd.end(t, PartitionState.CANCELLED, null, null);
                return;
            }
            for (long size : sizes) {
                t.lease.holdBuffer(pool, pool.checkout(size));
            }
            t.job.state(t.partition, PartitionState.SYNTHESIZING);
            t.record(timeline, Timeline.Kind.SYNTH_START);
            t.synthStart = System.nanoTime();
            t.payload = spec.synthesize(t.partition, t.lease.buffers());
            t.synthEnd = System.nanoTime();
            nanos.addAndGet(t.synthEnd - t.synthStart);
            runs.incrementAndGet();
            t.record(timeline, Timeline.Kind.SYNTH_END);
            t.job.state(t.partition, PartitionState.WAITING_FOR_PROVER);
            t.record(timeline, Timeline.Kind.PROVER_QUEUE);
            t.runEnd = System.nanoTime(); // before the hand-off, which publishes it to the prover's thread
            provers.enqueue(t);
        } catch (Throwable e) {
            partitionEnd.end(t, PartitionState.FAILED, null, e);
        }
    }

    /**
     * Stops the syntheses (their jobs have ended at close): queued ones end at once, running ones are
     * given a moment, then interrupted, then another moment. One that still runs after that (a witness
     * generator deaf to interrupts) is not waited for: when it returns, the closed prover stage ends its
     * partition, which gives back its permit, bytes, buffers and leases then.
     */
    void close() throws InterruptedException {
        threads.shutdown();
        if (threads.awaitTermination(CLOSE_PATIENCE_SECONDS, TimeUnit.SECONDS)) {
            return;
        }
        // each queued one ends its partition on this thread (its job is over); the running ones are interrupted
        for (Runnable queued : threads.shutdownNow()) {
            queued.run();
        }
        threads.awaitTermination(CLOSE_PATIENCE_SECONDS, TimeUnit.SECONDS);
    }
}
