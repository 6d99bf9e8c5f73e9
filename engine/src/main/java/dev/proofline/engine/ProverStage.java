package dev.proofline.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The prover queue and its workers. The backend's devices all serve the one queue: each device has
 * its own lock and {@code workersPerDevice} workers bound to it. A worker takes a synthesized
 * partition, runs the backend's {@code prepare} for its device outside the lock and {@code start}
 * inside it (one partition on a device at a time; a second worker of the device stages meanwhile),
 * then the partition leaves the prover stage (buffers, bytes and permit given back) and goes to the
 * finalizers. Keeps each device's busy time. Once closed, it takes nothing more: a partition that
 * arrives later (a synthesis that outlived the engine's close) ends at once, giving back what it holds,
 * and one left on the queue when the workers stop ends at close.
 */
final class ProverStage {

    private static final long MINUTE = 60_000_000_000L;

    /** One device: its lock and its busy time. */
    private static final class Device {
        final ReentrantLock lock = new ReentrantLock();
        final AtomicLong busyNanos = new AtomicLong();
        final AtomicLong runs = new AtomicLong();
        /** Device runs (start, end nanos) of the last minute, oldest first. */
        final ArrayDeque<long[]> recentRuns = new ArrayDeque<>();
        /** Start nanos of the device run in progress, or 0 (one at a time: the lock). */
        long running;
    }

    private final LinkedBlockingQueue<PartitionTask> queue = new LinkedBlockingQueue<>();
    /** Put on the queue once per worker at close: the worker ends when it takes it. */
    private final PartitionTask stop = new PartitionTask(null, -1, -1, null);
    private final List<Thread> workers = new ArrayList<>();
    private final Device[] devices;
    private final ProverBackend<?, ?, ?> backend;
    private final Timeline timeline;
    private final PartitionEnd partitionEnd;
    private final FinalizerStage finalizers;
    private final long startNanos;
    final AtomicLong busyNanos = new AtomicLong();
    final AtomicLong runs = new AtomicLong();
    /** Set by {@link #close}; with it, nothing more goes on the queue. */
    private boolean closed;
    /** Under {@code permits = "auto"}: told what each device does and what each partition took; null otherwise. */
    private final PermitSizer sizer;

    ProverStage(int workersPerDevice, ProverBackend<?, ?, ?> backend, Timeline timeline, PartitionEnd partitionEnd,
            FinalizerStage finalizers, long startNanos, PermitSizer sizer) {
        int n = backend.deviceCount();
        if (n < 1) {
            throw new IllegalArgumentException("backend " + backend.name() + " has " + n + " devices");
        }
        this.devices = new Device[n];
        for (int d = 0; d < n; d++) {
            devices[d] = new Device();
        }
        this.backend = backend;
        this.timeline = timeline;
        this.partitionEnd = partitionEnd;
        this.finalizers = finalizers;
        this.startNanos = startNanos;
        this.sizer = sizer;
        // the first worker of every device before the second of any, so partitions spread from the start
        for (int k = 0; k < workersPerDevice; k++) {
            for (int d = 0; d < n; d++) {
                int device = d;
                String name = n == 1 ? "prover-" + k : "prover-" + d + "-" + k;
                this.workers.add(Thread.ofPlatform().name(name).daemon().start(() -> work(device)));
            }
        }
    }

    /** Queues a synthesized partition; once the stage is closed, ends it instead (cancelled). */
    void enqueue(PartitionTask t) {
        synchronized (queue) {
            if (!closed) {
                t.enqueuedNanos = System.nanoTime();
                queue.add(t);
                return;
            }
        }
        partitionEnd.end(t, PartitionState.CANCELLED, null, null);
    }

    int size() {
        return queue.size();
    }

    int deviceCount() {
        return devices.length;
    }

    private void work(int device) {
        Device dev = devices[device];
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
            t.dequeuedNanos = System.nanoTime();
            if (sizer != null) {
                sizer.proverTook();
            }
            boolean goOn;
            try {
                goOn = prove(t, dev, device);
            } finally {
                if (sizer != null) {
                    sizer.proverDone();
                }
            }
            if (!goOn) {
                return;
            }
        }
    }

    /** One partition on {@code device}, to the finalizers or to its end; false when the worker is to stop. */
    private boolean prove(PartitionTask t, Device dev, int device) {
        if (t.job.isOver()) {
            partitionEnd.end(t, PartitionState.CANCELLED, null, null);
            return true;
        }
        StartedPartition<?> started;
        try {
            t.job.state(t.partition, PartitionState.PROVING);
            t.device = device;
            started = prepareAndStart(backend, t, dev, device);
            t.payload = null;
        } catch (InterruptedException e) {
            partitionEnd.end(t, PartitionState.CANCELLED, null, null); // the engine is closing
            return false;
        } catch (Throwable e) {
            partitionEnd.end(t, PartitionState.FAILED, null, e);
            return true;
        }
        long reserved = t.lease.reservedBytes();
        t.lease.leaveProverStage();
        if (sizer != null) {
            long permitHeldNanos = System.nanoTime() - t.grantNanos;
            long waited = (t.runStart - t.grantNanos) + (t.dequeuedNanos - t.enqueuedNanos);
            sizer.measured(t.job.spec().label(), device, t.runEnd - t.runStart, t.proverEnd - t.proverStart,
                    permitHeldNanos - waited, reserved);
        }
        t.job.state(t.partition, PartitionState.FINALIZING);
        finalizers.submit(t, started);
        return true;
    }

    /**
     * The backend's prepare, then its start under the device's lock: host-side staging outside the
     * lock, so a second worker can overlap it with the device work of the first. Typed by the backend's
     * own states, so that its finish gets exactly what its start returned.
     */
    private <P, S> StartedPartition<S> prepareAndStart(ProverBackend<P, S, ?> b, PartitionTask t, Device dev, int device)
            throws Exception {
        P prepared = b.prepare(t.payload, device);
        dev.lock.lockInterruptibly();
        try {
            return new StartedPartition<>(b, onDevice(b, t, dev, device, prepared));
        } finally {
            dev.lock.unlock();
        }
    }

    /** The backend's start, with the device's lock held; its time is that device's busy time. */
    private <P, S> S onDevice(ProverBackend<P, S, ?> b, PartitionTask t, Device dev, int device, P prepared)
            throws Exception {
        String where = devices.length == 1 ? "" : "device " + device;
        timeline.record(t.job.id(), t.partition, Timeline.Kind.PROVER_START, where);
        long p0 = System.nanoTime();
        t.proverStart = p0;
        synchronized (dev.recentRuns) {
            dev.running = p0;
        }
        try {
            return b.start(prepared, device);
        } finally {
            long p1 = System.nanoTime();
            t.proverEnd = p1;
            dev.busyNanos.addAndGet(p1 - p0);
            dev.runs.incrementAndGet();
            busyNanos.addAndGet(p1 - p0);
            runs.incrementAndGet();
            synchronized (dev.recentRuns) {
                dev.running = 0;
                dev.recentRuns.addLast(new long[] {p0, p1});
                trimRuns(dev, p1);
            }
            timeline.record(t.job.id(), t.partition, Timeline.Kind.PROVER_END, where);
        }
    }

    // with dev.recentRuns locked
    private static void trimRuns(Device dev, long now) {
        while (!dev.recentRuns.isEmpty() && dev.recentRuns.peekFirst()[1] < now - MINUTE) {
            dev.recentRuns.pollFirst();
        }
    }

    /** Share of the last minute (or of the uptime, if shorter) the devices were busy, on average. */
    double busyLastMinute() {
        double sum = 0;
        for (int d = 0; d < devices.length; d++) {
            sum += busyLastMinute(d);
        }
        return sum / devices.length;
    }

    /** Share of the last minute (or of the uptime, if shorter) device {@code d} was busy. */
    double busyLastMinute(int d) {
        Device dev = devices[d];
        long now = System.nanoTime();
        long from = Math.max(startNanos, now - MINUTE);
        long busy = 0;
        synchronized (dev.recentRuns) {
            trimRuns(dev, now);
            for (long[] r : dev.recentRuns) {
                busy += Math.max(0, r[1] - Math.max(r[0], from));
            }
            if (dev.running != 0) {
                busy += now - Math.max(dev.running, from);
            }
        }
        return now <= from ? 0 : Math.min(1, (double) busy / (now - from));
    }

    /** Device runs ({@code start} calls) on device {@code d} since the start. */
    long runs(int d) {
        return devices[d].runs.get();
    }

    /**
     * Lets the workers finish what is queued, then ends them (at most a minute each); ends what they left
     * on the queue, and from now on every partition that arrives.
     */
    void close() throws InterruptedException {
        synchronized (queue) {
            closed = true;
            for (int i = 0; i < workers.size(); i++) {
                queue.add(stop);
            }
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
        // a worker interrupted in start returned without taking the rest of the queue
        for (PartitionTask t : queue) {
            if (t != stop && queue.remove(t)) {
                partitionEnd.end(t, PartitionState.CANCELLED, null, null);
            }
        }
    }
}
