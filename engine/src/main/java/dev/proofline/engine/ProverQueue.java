package dev.proofline.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The prover queue: synthesized partitions in the order they arrived, taken by the prover workers a
 * batch at a time. A batch is the partition at the head and, where the backend batches
 * ({@code maxBatch} over 1), the ones queued right behind it with an equal {@code batchKey}, up to
 * {@code maxBatch}: what is there when the worker takes, never waited for. A partition of another key
 * ends the batch, so that no partition overtakes one of another key. Once closed, nothing more goes on.
 */
final class ProverQueue {

    private final LinkedBlockingQueue<PartitionTask> queue = new LinkedBlockingQueue<>();
    /** Put on the queue once per worker at close: the worker that takes it ends. */
    private final PartitionTask stop = new PartitionTask(null, -1, -1, null);
    private final ProverBackend<?, ?, ?> backend;
    /** Set by {@link #close}; with it, nothing more goes on the queue. Guarded by {@code queue}. */
    private boolean closed;

    ProverQueue(ProverBackend<?, ?, ?> backend) {
        this.backend = backend;
    }

    /** Queues a synthesized partition; false (it is not queued) once closed. */
    boolean offer(PartitionTask t) {
        synchronized (queue) {
            if (closed) {
                return false;
            }
            t.enqueuedNanos = System.nanoTime();
            queue.add(t);
            return true;
        }
    }

    int size() {
        return queue.size();
    }

    /**
     * The next batch, in queue order, waiting for its first partition; empty when the worker is to stop.
     * A cancelled partition of the batch's key is taken along, to end at once, and does not count
     * towards {@code maxBatch}.
     */
    List<PartitionTask> take() throws InterruptedException {
        PartitionTask first = queue.take();
        if (first == stop) {
            return List.of();
        }
        List<PartitionTask> taken = new ArrayList<>();
        taken.add(first);
        int max = backend.maxBatch();
        Object key = max > 1 ? batchKey(first) : null;
        int live = first.job.isOver() ? 0 : 1;
        while (key != null && live < max) {
            PartitionTask next = queue.peek();
            // another worker may take the head between peek and remove: then remove finds nothing
            if (next == null || next == stop || !key.equals(batchKey(next)) || !queue.remove(next)) {
                break;
            }
            taken.add(next);
            if (!next.job.isOver()) {
                live++;
            }
        }
        return taken;
    }

    /** The backend's batch key of a queued partition; null (it goes alone) where the backend's answer throws. */
    private Object batchKey(PartitionTask t) {
        try {
            return backend.batchKey(t.payload);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Takes nothing more, and puts a stop behind what is queued for each of {@code workers}. */
    void close(int workers) {
        synchronized (queue) {
            closed = true;
            for (int i = 0; i < workers; i++) {
                queue.add(stop);
            }
        }
    }

    /** What the workers left on the queue, taken off it (the stops aside). */
    List<PartitionTask> drain() {
        List<PartitionTask> left = new ArrayList<>();
        for (PartitionTask t : queue) {
            if (t != stop && queue.remove(t)) {
                left.add(t);
            }
        }
        return left;
    }
}
