package dev.proofline.engine;

import dev.proofline.engine.MemoryBudget.Reservation;
import dev.proofline.engine.ProverPermits.Permit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The proving pipeline: scheduler (priority queue of partitions) → reactive dispatcher (a permit
 * before a synthesis starts) → synthesis pool → prover queue → prover workers (backend start, then
 * the permit is released) → finalizers (backend finish) → assembler (proofs in partition order).
 *
 * <p>Ownership: a partition owns its permit from dispatch until it leaves the prover stage and its
 * budget reservation until it ends; both are closed exactly once on every path (success, failure,
 * cancellation). One prover completion starts exactly one waiting synthesis; nothing polls.
 */
public final class Engine implements AutoCloseable {

    /** How partitions are released to synthesis. */
    public enum Dispatch {
        /** A permit per partition, taken before synthesis, returned when it leaves the prover stage. */
        REACTIVE,
        /**
         * Every 250 ms, all waiting partitions start while the prover queue is below its limit. Kept only
         * to show, side by side, what reactive dispatch avoids.
         */
        POLL
    }

    /** Sizes of the stages. */
    public record Config(int maxProverQueueDepth, int synthesisThreads, int proverWorkers, int finalizerThreads,
            long budgetBytes, int timelineCapacity, Dispatch dispatch) {
        public Config(int maxProverQueueDepth, int synthesisThreads, int proverWorkers, int finalizerThreads,
                long budgetBytes, int timelineCapacity) {
            this(maxProverQueueDepth, synthesisThreads, proverWorkers, finalizerThreads, budgetBytes, timelineCapacity,
                    Dispatch.REACTIVE);
        }

        public static Config defaults() {
            int cpus = Runtime.getRuntime().availableProcessors();
            return new Config(2, Math.max(1, cpus / 2), 1, Math.max(1, cpus / 2), 1L << 32, 4096);
        }
    }

    /** Counters since the engine started. */
    public record Stats(long proofs, long failed, long cancelled, double proverBusy, double synthMsAvg,
            double proverMsAvg, long wallNanos) {
    }

    private final Config config;
    private final ProverBackend backend;
    private final ProverPermits permits;
    private final MemoryBudget budget;
    private final Timeline timeline;
    private final PriorityBlockingQueue<Task> scheduled = new PriorityBlockingQueue<>();
    private final LinkedBlockingQueue<Task> proverQueue = new LinkedBlockingQueue<>();
    private final ExecutorService synthesis;
    private final ExecutorService finalizers;
    private final List<Thread> provers = new ArrayList<>();
    private final AtomicLong seq = new AtomicLong();
    /** Put on the prover queue once per worker at close: the worker ends when it takes it. */
    private final Task stop;
    private final AtomicInteger jobIds = new AtomicInteger();
    private volatile boolean closed;
    private final BufferPool pool;
    private final long startNanos = System.nanoTime();
    private final AtomicLong proverBusyNanos = new AtomicLong();
    private final AtomicLong proverRuns = new AtomicLong();
    private final AtomicLong synthNanos = new AtomicLong();
    private final AtomicLong synthRuns = new AtomicLong();
    private final AtomicLong proofs = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong cancels = new AtomicLong();
    private final java.util.concurrent.ScheduledExecutorService poller;
    /** Deadlines: one timer thread, each job's expiry scheduled once (no polling). */
    private final java.util.concurrent.ScheduledExecutorService timers;
    private final java.util.concurrent.ConcurrentHashMap<String, Job> byKey = new java.util.concurrent.ConcurrentHashMap<>();

    public Engine(Config config, ProverBackend backend) {
        this.config = config;
        this.backend = backend;
        this.permits = new ProverPermits(config.maxProverQueueDepth());
        this.budget = new MemoryBudget(config.budgetBytes());
        this.timeline = new Timeline(config.timelineCapacity(), null);
        this.stop = new Task(null, -1);
        this.pool = new BufferPool(budget);
        this.timers = Executors.newSingleThreadScheduledExecutor(named("deadlines"));
        if (config.dispatch() == Dispatch.POLL) {
            poller = Executors.newSingleThreadScheduledExecutor(named("poll-dispatch"));
            poller.scheduleAtFixedRate(this::pollDispatch, 250, 250, TimeUnit.MILLISECONDS);
        } else {
            poller = null;
        }
        this.synthesis = Executors.newFixedThreadPool(config.synthesisThreads(), named("synthesis"));
        this.finalizers = Executors.newFixedThreadPool(config.finalizerThreads(), named("finalizer"));
        for (int i = 0; i < config.proverWorkers(); i++) {
            Thread t = Thread.ofPlatform().name("prover-" + i).daemon().start(this::proverLoop);
            provers.add(t);
        }
    }

    private static java.util.concurrent.ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> Thread.ofPlatform().name(prefix + "-" + n.getAndIncrement()).daemon().unstarted(r);
    }

    public ProverPermits permits() {
        return permits;
    }

    public MemoryBudget budget() {
        return budget;
    }

    public Timeline timeline() {
        return timeline;
    }

    public BufferPool pool() {
        return pool;
    }

    /**
     * The prover busy fraction in steady state: over the window from the end of the first tenth of
     * the prover runs to the start of the last tenth (so ramp-up and drain are left out), the share
     * of the window the prover workers spent in {@code start}, from the timeline's events.
     */
    public double steadyProverBusy() {
        java.util.Map<String, long[]> runs = new java.util.HashMap<>();
        for (Timeline.Event e : timeline.snapshot()) {
            if (e.kind() == Timeline.Kind.PROVER_START || e.kind() == Timeline.Kind.PROVER_END) {
                long[] r = runs.computeIfAbsent(e.job() + "/" + e.partition(), k -> new long[] {-1, -1});
                r[e.kind() == Timeline.Kind.PROVER_START ? 0 : 1] = e.offsetMs();
            }
        }
        List<long[]> done = new ArrayList<>();
        for (long[] r : runs.values()) {
            if (r[0] >= 0 && r[1] >= 0) {
                done.add(r);
            }
        }
        if (done.size() < 10) {
            return Double.NaN;
        }
        done.sort(java.util.Comparator.comparingLong(r -> r[0]));
        int k = done.size() / 10;
        long from = done.get(k)[0];
        long to = done.get(done.size() - 1 - k)[0];
        if (to <= from) {
            return Double.NaN;
        }
        long busy = 0;
        for (long[] r : done) {
            busy += Math.max(0, Math.min(r[1], to) - Math.max(r[0], from));
        }
        return (double) busy / ((to - from) * (double) config.proverWorkers());
    }

    public Stats stats() {
        long wall = System.nanoTime() - startNanos;
        long pr = proverRuns.get();
        long sr = synthRuns.get();
        return new Stats(proofs.get(), failures.get(), cancels.get(),
                (double) proverBusyNanos.get() / config.proverWorkers() / Math.max(1, wall),
                sr == 0 ? 0 : synthNanos.get() / 1e6 / sr, pr == 0 ? 0 : proverBusyNanos.get() / 1e6 / pr, wall);
    }

    /** A submitted job: its proofs in partition order, or its failure; cancellable. */
    public final class Job {
        private final String id;
        private final JobSpec spec;
        private final Priority priority;
        private final Object[] results;
        private final PartitionState[] states;
        private final CompletableFuture<List<Object>> done = new CompletableFuture<>();
        private int remaining;

        private Job(String id, JobSpec spec, Priority priority) {
            this.id = id;
            this.spec = spec;
            this.priority = priority;
            this.results = new Object[spec.partitions()];
            this.states = new PartitionState[spec.partitions()];
            Arrays.fill(states, PartitionState.QUEUED);
            this.remaining = spec.partitions();
        }

        public String id() {
            return id;
        }

        public CompletableFuture<List<Object>> result() {
            return done;
        }

        public synchronized PartitionState state(int p) {
            return states[p];
        }

        /** Cancels: queued partitions end now, running ones at their next stage boundary. */
        public void cancel() {
            if (done.isDone()) {
                return;
            }
            done.cancel(false);
            timeline.record(id, -1, Timeline.Kind.CANCELLED, "");
        }

        public boolean isCancelled() {
            return done.isCancelled();
        }

        /** Done one way or another (proved, failed, cancelled, past its deadline): nothing more runs for it. */
        public boolean isOver() {
            return done.isDone();
        }

        /** Fails the job with a timeout: its partitions stop at their next stage boundary. */
        void expire(java.time.Duration after) {
            if (done.completeExceptionally(new java.util.concurrent.TimeoutException(
                    id + " did not finish within its deadline of " + after.toMillis() + " ms"))) {
                timeline.record(id, -1, Timeline.Kind.FAILED, "deadline");
            }
        }

        synchronized void state(int p, PartitionState s) {
            if (!states[p].isFinal()) {
                states[p] = s;
            }
        }

        /** Marks partition p ended; completes the job when all are. */
        void ended(int p, PartitionState s, Object result, Throwable failure) {
            boolean last;
            synchronized (this) {
                if (states[p].isFinal()) {
                    return;
                }
                states[p] = s;
                results[p] = result;
                last = --remaining == 0;
            }
            if (failure != null) {
                done.completeExceptionally(failure);
            } else if (last && s == PartitionState.DONE) {
                timeline.record(id, -1, Timeline.Kind.JOB_DONE, spec.partitions() + " proofs");
                done.complete(List.of(results));
            }
        }
    }

    /** One partition moving through the stages. */
    private final class Task implements Comparable<Task> {
        final Job job;
        final int p;
        final long order = seq.getAndIncrement();
        Permit permit;
        Reservation reservation;
        BufferPool.Buffer buffer;
        Object payload;

        Task(Job job, int p) {
            this.job = job;
            this.p = p;
        }

        @Override
        public int compareTo(Task o) {
            int c = job.priority.compareTo(o.job.priority);
            return c != 0 ? c : Long.compare(order, o.order);
        }

        /** Returns the pooled buffer, if any (after the reservation that paid for it is closed). */
        void releaseBuffer() {
            if (buffer != null) {
                pool.checkin(buffer);
                buffer = null;
            }
        }

        /** Closes what the task holds (each exactly once) and ends the partition. */
        void end(PartitionState s, Object result, Throwable failure) {
            if (permit != null) {
                permit.close();
                permit = null;
            }
            if (reservation != null) {
                reservation.close();
                reservation = null;
            }
            releaseBuffer();
            switch (s) {
                case DONE -> proofs.incrementAndGet();
                case FAILED -> failures.incrementAndGet();
                case CANCELLED -> cancels.incrementAndGet();
                default -> { }
            }
            if (s == PartitionState.FAILED) {
                timeline.record(job.id, p, Timeline.Kind.FAILED, String.valueOf(failure));
            }
            job.ended(p, s, result, failure);
        }
    }

    /** Submits a job; its partitions are queued by priority, then in submission order. */
    public Job submit(JobSpec spec, Priority priority) {
        return submit(spec, priority, null, null);
    }

    /**
     * Submits a job once per idempotency key: a second submission with the same key (not null) gets
     * the first job back, whatever its state, and queues nothing. A deadline (not null) fails the job
     * with a {@link java.util.concurrent.TimeoutException} when it passes; its partitions stop at their
     * next stage boundary and give back what they hold.
     */
    public Job submit(JobSpec spec, Priority priority, String idempotencyKey, java.time.Duration deadline) {
        if (closed) {
            throw new IllegalStateException("engine closed");
        }
        if (idempotencyKey != null) {
            Job[] created = new Job[1];
            Job job = byKey.computeIfAbsent(idempotencyKey, k -> created[0] = newJob(spec, priority, deadline));
            if (created[0] != null) {
                enqueue(job);
            }
            return job;
        }
        Job job = newJob(spec, priority, deadline);
        enqueue(job);
        return job;
    }

    private Job newJob(JobSpec spec, Priority priority, java.time.Duration deadline) {
        Job job = new Job("job-" + jobIds.incrementAndGet(), spec, priority);
        if (deadline != null) {
            timers.schedule(() -> job.expire(deadline), deadline.toNanos(), TimeUnit.NANOSECONDS);
        }
        return job;
    }

    private void enqueue(Job job) {
        JobSpec spec = job.spec;
        Priority priority = job.priority;
        for (int p = 0; p < spec.partitions(); p++) {
            scheduled.add(new Task(job, p));
            timeline.record(job.id, p, Timeline.Kind.QUEUED, priority.name());
            if (config.dispatch() == Dispatch.REACTIVE) {
                permits.request(this::dispatch);
            }
        }
    }

    /** A permit was granted: the highest-priority queued partition takes it and starts synthesis. */
    private void dispatch(Permit permit) {
        Task t;
        while ((t = scheduled.poll()) != null && t.job.isOver()) {
            t.end(PartitionState.CANCELLED, null, null);
        }
        if (t == null) {
            permit.close(); // every queued partition was cancelled: hand the permit on
            return;
        }
        t.permit = permit;
        Task task = t;
        synthesis.execute(() -> synthesize(task));
    }

    /** Poll mode: all waiting partitions start when the prover queue is below its limit. */
    private void pollDispatch() {
        if (proverQueue.size() >= config.maxProverQueueDepth()) {
            return;
        }
        Task t;
        while ((t = scheduled.poll()) != null) {
            Task task = t;
            if (task.job.isOver()) {
                task.end(PartitionState.CANCELLED, null, null);
                continue;
            }
            synthesis.execute(() -> synthesize(task));
        }
    }

    private void synthesize(Task t) {
        try {
            if (t.job.isOver()) {
                t.end(PartitionState.CANCELLED, null, null);
                return;
            }
            long bytes = BufferPool.sizeClass(t.job.spec.workingSetBytes(t.p));
            t.reservation = budget.acquire(bytes, MemoryBudget.Kind.PARTITION);
            t.buffer = pool.checkout(bytes);
            t.job.state(t.p, PartitionState.SYNTHESIZING);
            timeline.record(t.job.id, t.p, Timeline.Kind.SYNTH_START, "");
            long s0 = System.nanoTime();
            t.payload = t.job.spec.synthesize(t.p, t.buffer.segment());
            synthNanos.addAndGet(System.nanoTime() - s0);
            synthRuns.incrementAndGet();
            timeline.record(t.job.id, t.p, Timeline.Kind.SYNTH_END, "");
            t.job.state(t.p, PartitionState.WAITING_FOR_PROVER);
            timeline.record(t.job.id, t.p, Timeline.Kind.PROVER_QUEUE, "");
            proverQueue.add(t);
        } catch (Throwable e) {
            t.end(PartitionState.FAILED, null, e);
        }
    }

    private void proverLoop() {
        while (true) {
            Task t;
            try {
                t = proverQueue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (t == stop) {
                return;
            }
            if (t.job.isOver()) {
                t.end(PartitionState.CANCELLED, null, null);
                continue;
            }
            Object started;
            try {
                t.job.state(t.p, PartitionState.PROVING);
                timeline.record(t.job.id, t.p, Timeline.Kind.PROVER_START, "");
                long p0 = System.nanoTime();
                try {
                    started = backend.start(t.payload);
                } finally {
                    proverBusyNanos.addAndGet(System.nanoTime() - p0);
                    proverRuns.incrementAndGet();
                }
                t.payload = null;
                timeline.record(t.job.id, t.p, Timeline.Kind.PROVER_END, "");
            } catch (Throwable e) {
                t.end(PartitionState.FAILED, null, e);
                continue;
            }
            // leaves the prover stage: its vectors go back to the pool, its bytes to the budget, its
            // permit to one waiting synthesis
            t.reservation.close();
            t.reservation = null;
            t.releaseBuffer();
            if (t.permit != null) {
                t.permit.close();
                t.permit = null;
            }
            t.job.state(t.p, PartitionState.FINALIZING);
            finalizers.execute(() -> finish(t, started));
        }
    }

    private void finish(Task t, Object started) {
        try {
            if (t.job.isOver()) {
                t.end(PartitionState.CANCELLED, null, null);
                return;
            }
            Object proof = backend.finish(started);
            timeline.record(t.job.id, t.p, Timeline.Kind.FINALIZE_END, "");
            t.end(PartitionState.DONE, proof, null);
        } catch (Throwable e) {
            t.end(PartitionState.FAILED, null, e);
        }
    }

    public Config config() {
        return config;
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        if (poller != null) {
            poller.shutdownNow();
        }
        timers.shutdownNow();
        synthesis.shutdown();
        synthesis.awaitTermination(1, TimeUnit.MINUTES);
        for (int i = 0; i < provers.size(); i++) {
            proverQueue.add(stop);
        }
        for (Thread t : provers) {
            t.join(TimeUnit.MINUTES.toMillis(1));
        }
        finalizers.shutdown();
        finalizers.awaitTermination(1, TimeUnit.MINUTES);
        pool.close();
    }
}
