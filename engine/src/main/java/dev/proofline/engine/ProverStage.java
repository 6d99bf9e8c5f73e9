package dev.proofline.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The prover queue and its workers: each worker takes a synthesized partition, runs the backend's
 * {@code prepare} outside the device lock and {@code start} inside it (one partition on the device at
 * a time; a second worker stages meanwhile), then the partition leaves the prover stage (buffers,
 * bytes and permit given back) and goes to the finalizers. Keeps the device's busy time.
 */
final class ProverStage {

    private static final long MINUTE = 60_000_000_000L;

    private final LinkedBlockingQueue<PartitionTask> queue = new LinkedBlockingQueue<>();
    /** Put on the queue once per worker at close: the worker ends when it takes it. */
    private final PartitionTask stop = new PartitionTask(null, -1, -1);
    private final List<Thread> workers = new ArrayList<>();
    private final ReentrantLock deviceLock = new ReentrantLock();
    private final ProverBackend backend;
    private final Timeline timeline;
    private final Assembler assembler;
    private final FinalizerStage finalizers;
    private final long startNanos;
    final AtomicLong busyNanos = new AtomicLong();
    final AtomicLong runs = new AtomicLong();
    /** Device runs (start, end nanos) of the last minute, oldest first. */
    private final ArrayDeque<long[]> recentRuns = new ArrayDeque<>();
    /** Start nanos of the device run in progress, or 0. */
    private long running;

    ProverStage(int workers, ProverBackend backend, Timeline timeline, Assembler assembler, FinalizerStage finalizers,
            long startNanos) {
        this.backend = backend;
        this.timeline = timeline;
        this.assembler = assembler;
        this.finalizers = finalizers;
        this.startNanos = startNanos;
        for (int i = 0; i < workers; i++) {
            this.workers.add(Thread.ofPlatform().name("prover-" + i).daemon().start(this::work));
        }
    }

    void enqueue(PartitionTask t) {
        queue.add(t);
    }

    int size() {
        return queue.size();
    }

    private void work() {
        while (true) {
            PartitionTask t;
            try {
                t = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (t == stop) {
                return;
            }
            if (t.job.isOver()) {
                assembler.end(t, PartitionState.CANCELLED, null, null);
                continue;
            }
            Object started;
            try {
                t.job.state(t.p, PartitionState.PROVING);
                // host-side staging outside the device lock, so a second worker can overlap it with the
                // device work of the first
                Object prepared = backend.prepare(t.payload);
                deviceLock.lockInterruptibly();
                try {
                    started = onDevice(t, prepared);
                } finally {
                    deviceLock.unlock();
                }
                t.payload = null;
            } catch (InterruptedException e) {
                assembler.end(t, PartitionState.CANCELLED, null, null); // the engine is closing
                return;
            } catch (Throwable e) {
                assembler.end(t, PartitionState.FAILED, null, e);
                continue;
            }
            assembler.leaveProverStage(t);
            t.job.state(t.p, PartitionState.FINALIZING);
            finalizers.submit(t, started);
        }
    }

    /** The backend's start, with the device lock held; its time is device busy time. */
    private Object onDevice(PartitionTask t, Object prepared) throws Exception {
        t.record(timeline, Timeline.Kind.PROVER_START);
        long p0 = System.nanoTime();
        t.proverStart = p0;
        synchronized (recentRuns) {
            running = p0;
        }
        try {
            return backend.start(prepared);
        } finally {
            long p1 = System.nanoTime();
            t.proverEnd = p1;
            busyNanos.addAndGet(p1 - p0);
            runs.incrementAndGet();
            synchronized (recentRuns) {
                running = 0;
                recentRuns.addLast(new long[] {p0, p1});
                trimRuns(p1);
            }
            t.record(timeline, Timeline.Kind.PROVER_END);
        }
    }

    // with recentRuns locked
    private void trimRuns(long now) {
        while (!recentRuns.isEmpty() && recentRuns.peekFirst()[1] < now - MINUTE) {
            recentRuns.pollFirst();
        }
    }

    /** Share of the last minute (or of the uptime, if shorter) the device was busy. */
    double busyLastMinute() {
        long now = System.nanoTime();
        long from = Math.max(startNanos, now - MINUTE);
        long busy = 0;
        synchronized (recentRuns) {
            trimRuns(now);
            for (long[] r : recentRuns) {
                busy += Math.max(0, r[1] - Math.max(r[0], from));
            }
            if (running != 0) {
                busy += now - Math.max(running, from);
            }
        }
        return now <= from ? 0 : Math.min(1, (double) busy / (now - from));
    }

    /** Lets the workers finish what is queued, then ends them (at most a minute each). */
    void close() throws InterruptedException {
        for (int i = 0; i < workers.size(); i++) {
            queue.add(stop);
        }
        long patience = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (Thread t : workers) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(patience - System.nanoTime())));
        }
        // a prover still running after that was told to stop (its job failed when the engine closed):
        // interrupted, so that one that waits or sleeps ends now
        for (Thread t : workers) {
            if (t.isAlive()) {
                t.interrupt();
                t.join(TimeUnit.MINUTES.toMillis(1));
            }
        }
    }
}
