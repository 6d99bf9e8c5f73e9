package dev.proofline.engine;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/** The finalizers: the backend's CPU tail ({@code finish}: G2 MSM, assembly, verification) per partition. */
final class FinalizerStage {

    private final ExecutorService threads;
    private final Timeline timeline;
    private final PartitionEnd partitionEnd;

    FinalizerStage(int threads, Timeline timeline, PartitionEnd partitionEnd) {
        this.threads = Executors.newFixedThreadPool(threads, NamedThreads.daemons("finalizer", 0));
        this.timeline = timeline;
        this.partitionEnd = partitionEnd;
    }

    void submit(PartitionTask t, StartedPartition<?> started) {
        try {
            threads.execute(() -> run(t, started));
        } catch (RejectedExecutionException e) {
            partitionEnd.end(t, PartitionState.CANCELLED, null, null); // the engine closed while this partition proved
        }
    }

    private void run(PartitionTask t, StartedPartition<?> started) {
        try {
            if (t.job.isOver()) {
                partitionEnd.end(t, PartitionState.CANCELLED, null, null);
                return;
            }
            Object proof = started.finish();
            t.record(timeline, Timeline.Kind.FINALIZE_END);
            partitionEnd.end(t, PartitionState.DONE, proof, null);
        } catch (Throwable e) {
            partitionEnd.end(t, PartitionState.FAILED, null, e);
        }
    }

    void close() throws InterruptedException {
        threads.shutdown();
        threads.awaitTermination(1, TimeUnit.MINUTES);
    }
}
