package dev.proofline.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/** The scheduler: queued partitions by priority (CRITICAL first), then in submission order. */
final class Scheduler {

    private final PriorityBlockingQueue<PartitionTask> queue = new PriorityBlockingQueue<>();
    private final AtomicLong order = new AtomicLong();
    /** Where the partitions' leases count a second close. */
    private final AtomicLong doubleCloses;

    Scheduler(AtomicLong doubleCloses) {
        this.doubleCloses = doubleCloses;
    }

    /** Queues partition {@code partition} of {@code job}. */
    PartitionTask add(SubmittedJob<?> job, int partition) {
        PartitionTask t = new PartitionTask(job, partition, order.getAndIncrement(), doubleCloses);
        queue.add(t);
        return t;
    }

    /** The first queued partition, or null. */
    PartitionTask poll() {
        return queue.poll();
    }

    /** Takes every queued partition of {@code job} out of the queue. */
    List<PartitionTask> remove(SubmittedJob<?> job) {
        List<PartitionTask> mine = new ArrayList<>();
        queue.removeIf(t -> {
            if (t.job == job) {
                mine.add(t);
                return true;
            }
            return false;
        });
        return mine;
    }

    int size() {
        return queue.size();
    }

    /** Partitions queued ahead of {@code job}'s first queued one. */
    int position(SubmittedJob<?> job) {
        PartitionTask first = null;
        for (PartitionTask t : queue) {
            if (t.job == job && (first == null || t.compareTo(first) < 0)) {
                first = t;
            }
        }
        if (first == null) {
            return 0;
        }
        int ahead = 0;
        for (PartitionTask t : queue) {
            if (t.compareTo(first) < 0) {
                ahead++;
            }
        }
        return ahead;
    }
}
