package dev.proofline.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The prover queue ({@link ProverQueue}) and its workers. The backend's devices all serve the one queue: each device has
 * its own lock and {@code workersPerDevice} workers bound to it. A worker takes a synthesized
 * partition, runs the backend's {@code prepare} for its device outside the lock and {@code start}
 * inside it (one partition on a device at a time; a second worker of the device stages meanwhile),
 * then the partition leaves the prover stage (buffers, bytes and permit given back) and goes to the
 * finalizers. Keeps each device's busy time. Once closed, it takes nothing more: a partition that
 * arrives later (a synthesis that outlived the engine's close) ends at once, giving back what it holds,
 * and one left on the queue when the workers stop ends at close.
 *
 * <p>Where the backend batches, a worker takes a batch off the {@link ProverQueue} (partitions of one
 * key queued together), prepares each for its device, and starts them in one call under the lock. From
 * there each partition goes on alone: its own permit, timeline events and finalizer, its own end.
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

    private final ProverQueue queue;
    private final List<Thread> workers = new ArrayList<>();
    private final Device[] devices;
    private final ProverBackend<?, ?, ?> backend;
    private final Timeline timeline;
    private final PartitionEnd partitionEnd;
    private final FinalizerStage finalizers;
    private final long startNanos;
    final AtomicLong busyNanos = new AtomicLong();
    final AtomicLong runs = new AtomicLong();
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
        this.queue = new ProverQueue(backend);
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
        if (!queue.offer(t)) {
            partitionEnd.end(t, PartitionState.CANCELLED, null, null);
        }
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
            List<PartitionTask> taken;
            try {
                taken = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (taken.isEmpty()) {
                return; // a stop: the stage is closing
            }
            long now = System.nanoTime();
            for (PartitionTask t : taken) {
                t.dequeuedNanos = now;
                if (sizer != null) {
                    sizer.proverTook();
                }
            }
            boolean goOn;
            try {
                goOn = prove(taken, dev, device);
            } finally {
                if (sizer != null) {
                    for (int i = 0; i < taken.size(); i++) {
                        sizer.proverDone();
                    }
                }
            }
            if (!goOn) {
                return;
            }
        }
    }

    /**
     * Partitions taken together, on {@code device}, each to the finalizers or to its end: one cancelled
     * while queued ends unstarted, one whose prepare fails fails alone, and if the device call fails,
     * every partition in it fails with that error. False when the worker is to stop.
     */
    private boolean prove(List<PartitionTask> taken, Device dev, int device) {
        List<PartitionTask> batch = new ArrayList<>(taken.size());
        for (PartitionTask t : taken) {
            if (t.job.isOver()) {
                partitionEnd.end(t, PartitionState.CANCELLED, null, null);
            } else {
                batch.add(t);
            }
        }
        if (batch.isEmpty()) {
            return true;
        }
        List<? extends StartedPartition<?>> started;
        try {
            for (PartitionTask t : batch) {
                t.job.state(t.partition, PartitionState.PROVING);
                t.device = device;
            }
            started = prepareAndStart(backend, batch, dev, device);
        } catch (InterruptedException e) {
            for (PartitionTask t : batch) {
                partitionEnd.end(t, PartitionState.CANCELLED, null, null); // the engine is closing
            }
            return false;
        } catch (Throwable e) {
            for (PartitionTask t : batch) {
                partitionEnd.end(t, PartitionState.FAILED, null, e);
            }
            return true;
        }
        for (int i = 0; i < batch.size(); i++) {
            PartitionTask t = batch.get(i);
            t.payload = null;
            leave(t, started.get(i), device, batch.size());
        }
        return true;
    }

    /**
     * A started partition leaves the prover stage (buffers, bytes and permit given back) for the
     * finalizers. The sizer counts a batch's device time shared out evenly over its partitions.
     */
    private void leave(PartitionTask t, StartedPartition<?> started, int device, int batchSize) {
        long reserved = t.lease.reservedBytes();
        t.lease.leaveProverStage();
        if (sizer != null) {
            long permitHeldNanos = System.nanoTime() - t.grantNanos;
            long waited = (t.runStart - t.grantNanos) + (t.dequeuedNanos - t.enqueuedNanos);
            sizer.measured(t.job.spec().label(), device, t.runEnd - t.runStart,
                    (t.proverEnd - t.proverStart) / batchSize, permitHeldNanos - waited, reserved);
        }
        t.job.state(t.partition, PartitionState.FINALIZING);
        finalizers.submit(t, started);
    }

    /**
     * The backend's prepare of each partition, then its start of them all under the device's lock:
     * host-side staging outside the lock, so a second worker can overlap it with the device work of the
     * first. A partition whose prepare fails ends here and leaves {@code batch}, which then holds the
     * started ones, in the order of what is returned. Typed by the backend's own states, so that its
     * finish gets exactly what its start returned.
     */
    private <P, S> List<StartedPartition<S>> prepareAndStart(ProverBackend<P, S, ?> b, List<PartitionTask> batch,
            Device dev, int device) throws Exception {
        List<P> prepared = new ArrayList<>(batch.size());
        for (Iterator<PartitionTask> it = batch.iterator(); it.hasNext();) {
            PartitionTask t = it.next();
            try {
                prepared.add(b.prepare(t.payload, device));
            } catch (InterruptedException e) {
                throw e;
            } catch (Throwable e) {
                it.remove();
                partitionEnd.end(t, PartitionState.FAILED, null, e); // as it would alone
            }
        }
        if (batch.isEmpty()) {
            return List.of();
        }
        List<S> states;
        dev.lock.lockInterruptibly();
        try {
            states = onDevice(b, batch, dev, device, prepared);
        } finally {
            dev.lock.unlock();
        }
        List<StartedPartition<S>> started = new ArrayList<>(states.size());
        for (S state : states) {
            started.add(new StartedPartition<>(b, state));
        }
        return started;
    }

    /**
     * The backend's start, with the device's lock held: {@code start} for one partition, {@code startBatch}
     * for more, one state a partition back. Its time is that device's busy time, once however many
     * partitions the call held; each partition's timeline has its own start and end.
     */
    private <P, S> List<S> onDevice(ProverBackend<P, S, ?> b, List<PartitionTask> batch, Device dev, int device,
            List<P> prepared) throws Exception {
        String where = devices.length == 1 ? "" : "device " + device;
        for (PartitionTask t : batch) {
            timeline.record(t.job.id(), t.partition, Timeline.Kind.PROVER_START, where);
        }
        long p0 = System.nanoTime();
        for (PartitionTask t : batch) {
            t.proverStart = p0;
        }
        synchronized (dev.recentRuns) {
            dev.running = p0;
        }
        try {
            List<S> states = prepared.size() == 1 ? Collections.singletonList(b.start(prepared.getFirst(), device))
                    : b.startBatch(Collections.unmodifiableList(prepared), device);
            if (states.size() != prepared.size()) {
                throw new IllegalStateException("backend " + b.name() + " started " + states.size()
                        + " partitions of a batch of " + prepared.size());
            }
            return states;
        } finally {
            long p1 = System.nanoTime();
            for (PartitionTask t : batch) {
                t.proverEnd = p1;
            }
            dev.busyNanos.addAndGet(p1 - p0);
            dev.runs.incrementAndGet();
            busyNanos.addAndGet(p1 - p0);
            runs.incrementAndGet();
            synchronized (dev.recentRuns) {
                dev.running = 0;
                dev.recentRuns.addLast(new long[] {p0, p1});
                trimRuns(dev, p1);
            }
            for (PartitionTask t : batch) {
                timeline.record(t.job.id(), t.partition, Timeline.Kind.PROVER_END, where);
            }
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

    /** Device runs ({@code start} or {@code startBatch} calls) on device {@code d} since the start. */
    long runs(int d) {
        return devices[d].runs.get();
    }

    /**
     * Lets the workers finish what is queued, then ends them (at most a minute each); ends what they left
     * on the queue, and from now on every partition that arrives.
     */
    void close() throws InterruptedException {
        queue.close(workers.size());
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
        for (PartitionTask t : queue.drain()) {
            partitionEnd.end(t, PartitionState.CANCELLED, null, null);
        }
    }
}
