package dev.proofline.engine;

import dev.proofline.engine.MemoryBudget.Reservation;
import dev.proofline.engine.ProverPermits.Permit;
import java.time.Duration;
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
import java.util.function.Consumer;

/**
 * The proving pipeline: scheduler (priority queue of partitions) → reactive dispatcher (a permit
 * before a synthesis starts) → synthesis pool (the partition's bytes reserved and its buffers checked
 * out first) → prover queue → prover workers (backend prepare, then start under the device lock; then
 * the partition's buffers, bytes and permit are given back) → finalizers (backend finish) → the job's
 * result (proofs in partition order).
 *
 * <p>Ownership: a partition owns its permit from dispatch until it leaves the prover stage, and its
 * reservation and buffers until then too; each is given back exactly once on every path (success,
 * failure, cancellation, deadline, engine close), and {@link JobSpec#release} is called exactly once
 * when the partition ends. One prover completion starts exactly one waiting synthesis; nothing polls.
 * Circuits are registered with {@link #circuits()}; {@link #status()} and {@link #bindMetrics} show
 * what runs.
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

    /**
     * Sizes of the stages and the engine's limits.
     *
     * @param maxProverQueueDepth permits: partitions between the start of synthesis and the end of prover start
     * @param budgetBytes the memory budget shared by keys, PCEs, partitions and idle pool buffers
     * @param timelineCapacity events kept by the timeline's ring buffer
     * @param resultRetention how long an ended job (and its idempotency key) stays findable
     * @param loadTimeout how long loading a key or PCE waits for room in the budget before it gives up
     * @param timelineLog where each timeline event goes as one line, or null
     */
    public record Config(int maxProverQueueDepth, int synthesisThreads, int proverWorkers, int finalizerThreads,
            long budgetBytes, int timelineCapacity, Dispatch dispatch, Duration resultRetention, Duration loadTimeout,
            Consumer<String> timelineLog) {
        public Config {
            if (maxProverQueueDepth < 1 || synthesisThreads < 1 || proverWorkers < 1 || finalizerThreads < 1) {
                throw new IllegalArgumentException("queue depth and thread counts must be at least 1");
            }
            if (budgetBytes <= 0 || timelineCapacity < 1) {
                throw new IllegalArgumentException("budget and timeline capacity must be positive");
            }
        }

        public Config(int maxProverQueueDepth, int synthesisThreads, int proverWorkers, int finalizerThreads,
                long budgetBytes, int timelineCapacity, Dispatch dispatch) {
            this(maxProverQueueDepth, synthesisThreads, proverWorkers, finalizerThreads, budgetBytes, timelineCapacity,
                    dispatch, Duration.ofMinutes(10), Duration.ofMinutes(5), null);
        }

        public Config(int maxProverQueueDepth, int synthesisThreads, int proverWorkers, int finalizerThreads,
                long budgetBytes, int timelineCapacity) {
            this(maxProverQueueDepth, synthesisThreads, proverWorkers, finalizerThreads, budgetBytes, timelineCapacity,
                    Dispatch.REACTIVE);
        }

        /**
         * For a laptop: 2 permits, half the cores synthesizing and half finalizing, one prover worker,
         * a budget of three quarters of the heap limit, results kept 10 minutes.
         */
        public static Config defaults() {
            int cpus = Runtime.getRuntime().availableProcessors();
            return new Config(2, Math.max(1, cpus / 2), 1, Math.max(1, cpus / 2),
                    Runtime.getRuntime().maxMemory() / 4 * 3, 4096);
        }

        public Config withResultRetention(Duration d) {
            return new Config(maxProverQueueDepth, synthesisThreads, proverWorkers, finalizerThreads, budgetBytes,
                    timelineCapacity, dispatch, d, loadTimeout, timelineLog);
        }

        public Config withLoadTimeout(Duration d) {
            return new Config(maxProverQueueDepth, synthesisThreads, proverWorkers, finalizerThreads, budgetBytes,
                    timelineCapacity, dispatch, resultRetention, d, timelineLog);
        }

        public Config withTimelineLog(Consumer<String> log) {
            return new Config(maxProverQueueDepth, synthesisThreads, proverWorkers, finalizerThreads, budgetBytes,
                    timelineCapacity, dispatch, resultRetention, loadTimeout, log);
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
    /**
     * Devices the prover workers share (the CPU, or one GPU, for now): busy fractions are device time
     * over wall time per device. {@code proverWorkers} is the number of workers per device.
     */
    private static final int DEVICES = 1;
    /** Around the device region ({@code backend.start}): one partition on the device at a time. */
    private final java.util.concurrent.locks.ReentrantLock deviceLock = new java.util.concurrent.locks.ReentrantLock();
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
    /** Jobs by id: running ones, and ended ones for {@code resultRetention}. */
    /** The one dispatch callback, so that a cancelled partition's request can be withdrawn. */
    private final Consumer<Permit> dispatcher = this::dispatch;
    private final java.util.concurrent.ConcurrentHashMap<String, Job> jobs = new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicLong submitted = new AtomicLong();
    private final Circuits circuits;
    /** Prover runs (start, end nanos) of the last minute, for the busy fraction; oldest first. */
    private final java.util.ArrayDeque<long[]> recentRuns = new java.util.ArrayDeque<>();
    /** Start nanos of the prover runs in progress, by worker. */
    private final long[] running;
    private volatile EngineMetrics metrics;

    public Engine(Config config, ProverBackend backend) {
        this.config = config;
        this.backend = backend;
        this.permits = new ProverPermits(config.maxProverQueueDepth());
        this.budget = new MemoryBudget(config.budgetBytes());
        this.timeline = new Timeline(config.timelineCapacity(), config.timelineLog());
        this.circuits = new Circuits(budget, config.loadTimeout());
        this.running = new long[config.proverWorkers()];
        this.stop = new Task(null, -1);
        this.pool = new BufferPool(budget, backend.bufferMemory());
        this.timers = Executors.newSingleThreadScheduledExecutor(named("deadlines"));
        if (config.dispatch() == Dispatch.POLL) {
            poller = Executors.newSingleThreadScheduledExecutor(named("poll-dispatch"));
            poller.scheduleAtFixedRate(this::pollDispatch, 250, 250, TimeUnit.MILLISECONDS);
        } else {
            poller = null;
        }
        // witness generators (circom's wasm, deep Java circuits) recurse deeply: a large stack
        this.synthesis = Executors.newFixedThreadPool(config.synthesisThreads(), named("synthesis", 64L << 20));
        this.finalizers = Executors.newFixedThreadPool(config.finalizerThreads(), named("finalizer"));
        for (int i = 0; i < config.proverWorkers(); i++) {
            int worker = i;
            Thread t = Thread.ofPlatform().name("prover-" + i).daemon().start(() -> proverLoop(worker));
            provers.add(t);
        }
    }

    private static java.util.concurrent.ThreadFactory named(String prefix) {
        return named(prefix, 0);
    }

    private static java.util.concurrent.ThreadFactory named(String prefix, long stackBytes) {
        AtomicInteger n = new AtomicInteger();
        return r -> Thread.ofPlatform().name(prefix + "-" + n.getAndIncrement()).daemon().stackSize(stackBytes)
                .unstarted(r);
    }

    /** The registered circuits and the caches of their keys and PCEs, paid for from this engine's budget. */
    public Circuits circuits() {
        return circuits;
    }

    public ProverBackend backend() {
        return backend;
    }

    /** The job with this id, while it runs and for {@code resultRetention} after it ended. */
    public java.util.Optional<Job> job(String id) {
        return java.util.Optional.ofNullable(jobs.get(id));
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
        return (double) busy / ((to - from) * (double) DEVICES);
    }

    private static final long MINUTE = 60_000_000_000L;

    // with recentRuns locked
    private void trimRuns(long now) {
        while (!recentRuns.isEmpty() && recentRuns.peekFirst()[1] < now - MINUTE) {
            recentRuns.pollFirst();
        }
    }

    /** Share of the last minute (or of the uptime, if shorter) the prover workers spent in start. */
    public double proverBusyLastMinute() {
        long now = System.nanoTime();
        long from = Math.max(startNanos, now - MINUTE);
        long busy = 0;
        synchronized (recentRuns) {
            trimRuns(now);
            for (long[] r : recentRuns) {
                busy += Math.max(0, r[1] - Math.max(r[0], from));
            }
            for (long r : running) {
                if (r != 0) {
                    busy += now - Math.max(r, from);
                }
            }
        }
        return now <= from ? 0 : Math.min(1, (double) busy / ((now - from) * (double) DEVICES));
    }

    /** Partitions waiting for a permit (or, in poll mode, for the next tick). */
    public int scheduledCount() {
        return scheduled.size();
    }

    /** Partitions queued ahead of {@code job}'s first queued one (by priority, then submission order). */
    public int queuePosition(Job job) {
        Task first = null;
        for (Task t : scheduled) {
            if (t.job == job && (first == null || t.compareTo(first) < 0)) {
                first = t;
            }
        }
        if (first == null) {
            return 0;
        }
        int ahead = 0;
        for (Task t : scheduled) {
            if (t.compareTo(first) < 0) {
                ahead++;
            }
        }
        return ahead;
    }

    /** Partitions synthesized and waiting for a prover worker. */
    public int proverQueueCount() {
        return proverQueue.size();
    }

    /** A snapshot of the engine: jobs, partitions by state, permits, budget, pool, caches, counters. */
    public EngineStatus status() {
        java.util.EnumMap<PartitionState, Integer> byState = new java.util.EnumMap<>(PartitionState.class);
        for (PartitionState st : PartitionState.values()) {
            byState.put(st, 0);
        }
        List<Job> all = new ArrayList<>(jobs.values());
        all.sort(java.util.Comparator.comparing((Job j) -> j.submittedNanos).reversed());
        List<EngineStatus.JobStatus> js = new ArrayList<>();
        int active = 0;
        for (Job j : all) {
            List<PartitionState> states = j.states();
            boolean ended = states.stream().allMatch(PartitionState::isFinal);
            if (!ended) {
                active++;
                for (PartitionState st : states) {
                    byState.merge(st, 1, Integer::sum);
                }
            }
            String state = !j.done.isDone() ? "running" : j.done.isCancelled() ? "cancelled"
                    : j.done.isCompletedExceptionally() ? "failed" : "done";
            js.add(new EngineStatus.JobStatus(j.id, j.priority, state, j.submittedAt.toEpochMilli(), states));
        }
        java.util.EnumMap<MemoryBudget.Kind, Long> kinds = new java.util.EnumMap<>(MemoryBudget.Kind.class);
        for (MemoryBudget.Kind k : MemoryBudget.Kind.values()) {
            kinds.put(k, budget.reserved(k));
        }
        return new EngineStatus((System.nanoTime() - startNanos) / 1_000_000, backend.name(), active, submitted.get(),
                byState, scheduled.size(), proverQueue.size(), permits.max(), permits.inUse(), budget.total(),
                budget.reserved(), budget.peak(), kinds, pool.stats(), proverBusyLastMinute(),
                circuits.keys().entries(), circuits.pces().entries(), proofs.get(), failures.get(), cancels.get(), js);
    }

    /** Registers the engine's meters (see {@link EngineMetrics}) with {@code registry}. */
    public EngineMetrics bindMetrics(io.micrometer.core.instrument.MeterRegistry registry) {
        EngineMetrics m = new EngineMetrics(this, registry);
        metrics = m;
        return m;
    }

    public Stats stats() {
        long wall = System.nanoTime() - startNanos;
        long pr = proverRuns.get();
        long sr = synthRuns.get();
        return new Stats(proofs.get(), failures.get(), cancels.get(),
                (double) proverBusyNanos.get() / DEVICES / Math.max(1, wall),
                sr == 0 ? 0 : synthNanos.get() / 1e6 / sr, pr == 0 ? 0 : proverBusyNanos.get() / 1e6 / pr, wall);
    }

    /**
     * Where one partition's time went, in milliseconds: waiting for a permit and a synthesis thread,
     * synthesis, waiting for a prover worker, the prover's device half, finalize, and all of it (from
     * submission to the end). A stage the partition did not reach is 0.
     */
    public record Timings(double queueWaitMs, double synthesisMs, double proverWaitMs, double proverMs,
            double finalizeMs, double totalMs) {
    }

    /** A submitted job: its proofs in partition order, or its failure; cancellable. */
    public final class Job {
        private final String id;
        private final JobSpec spec;
        private final Priority priority;
        private final Object[] results;
        private final PartitionState[] states;
        private final Timings[] timings;
        private final CompletableFuture<List<Object>> done = new CompletableFuture<>();
        private final long submittedNanos = System.nanoTime();
        private final java.time.Instant submittedAt = java.time.Instant.now();
        private int remaining;

        private Job(String id, JobSpec spec, Priority priority) {
            this.id = id;
            this.spec = spec;
            this.priority = priority;
            this.results = new Object[spec.partitions()];
            this.states = new PartitionState[spec.partitions()];
            this.timings = new Timings[spec.partitions()];
            Arrays.fill(states, PartitionState.QUEUED);
            this.remaining = spec.partitions();
        }

        public String id() {
            return id;
        }

        public Priority priority() {
            return priority;
        }

        public JobSpec spec() {
            return spec;
        }

        public int partitions() {
            return states.length;
        }

        public java.time.Instant submittedAt() {
            return submittedAt;
        }

        /** Proofs in partition order when every partition is proved; the first failure's cause otherwise. */
        public CompletableFuture<List<Object>> result() {
            return done;
        }

        /**
         * The proofs in partition order, waiting at most {@code timeout}.
         *
         * @throws java.util.concurrent.TimeoutException when the job is still running after {@code timeout}
         * @throws java.util.concurrent.ExecutionException with the cause of the job's failure (a
         *     {@code TimeoutException} cause when its deadline passed)
         * @throws java.util.concurrent.CancellationException when it was cancelled
         */
        public List<Object> await(Duration timeout) throws InterruptedException,
                java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
            return done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }

        public synchronized PartitionState state(int p) {
            return states[p];
        }

        /** Every partition's state, in partition order. */
        public synchronized List<PartitionState> states() {
            return List.of(states.clone());
        }

        /** Partition p's stage times once it ended; null before. */
        public synchronized Timings timings(int p) {
            return timings[p];
        }

        /** Whole-job figures: the wall time from submission to the end of its last partition, if ended. */
        public synchronized double totalMs() {
            double max = 0;
            for (Timings t : timings) {
                if (t != null) {
                    max = Math.max(max, t.totalMs());
                }
            }
            return max;
        }

        /** Cancels: queued partitions end now, running ones at their next stage boundary. */
        public void cancel() {
            if (done.isDone()) {
                return;
            }
            if (done.cancel(false)) {
                timeline.record(id, -1, Timeline.Kind.CANCELLED, "");
                purge(this);
            }
        }

        public boolean isCancelled() {
            return done.isCancelled();
        }

        /** Done one way or another (proved, failed, cancelled, past its deadline): nothing more runs for it. */
        public boolean isOver() {
            return done.isDone();
        }

        /** Fails the job: its queued partitions end now, running ones at their next stage boundary. */
        void fail(Throwable cause) {
            if (done.completeExceptionally(cause)) {
                timeline.record(id, -1, Timeline.Kind.FAILED, String.valueOf(cause.getMessage()));
                purge(this);
            }
        }

        /** Fails the job with a timeout: its partitions stop at their next stage boundary. */
        void expire(java.time.Duration after) {
            if (done.completeExceptionally(new java.util.concurrent.TimeoutException(
                    id + " did not finish within its deadline of " + after.toMillis() + " ms"))) {
                timeline.record(id, -1, Timeline.Kind.FAILED, "deadline");
                purge(this);
            }
        }

        synchronized void state(int p, PartitionState s) {
            if (!states[p].isFinal()) {
                states[p] = s;
            }
        }

        /** Marks partition p ended; completes the job when all are. */
        void ended(int p, PartitionState s, Object result, Throwable failure, Timings t) {
            boolean last;
            synchronized (this) {
                if (states[p].isFinal()) {
                    return;
                }
                states[p] = s;
                results[p] = result;
                timings[p] = t;
                last = --remaining == 0;
            }
            if (last) {
                retire(this);
            }
            if (failure != null) {
                if (done.completeExceptionally(failure)) {
                    purge(this);
                }
            } else if (last && s == PartitionState.DONE && !done.isDone()) {
                // not done yet: no partition failed or was cancelled, so every result is in
                timeline.record(id, -1, Timeline.Kind.JOB_DONE, spec.partitions() + " proofs");
                done.complete(java.util.Collections.unmodifiableList(Arrays.asList(results.clone())));
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
        List<BufferPool.Buffer> buffers;
        Object payload;

        final long queuedNanos = System.nanoTime();
        /** Set by the first {@link #end}; a task is handled by one thread at a time, so no lock. */
        boolean ended;
        long synthStart;
        long synthEnd;
        long proverStart;
        long proverEnd;

        Task(Job job, int p) {
            this.job = job;
            this.p = p;
        }

        Timings timings() {
            long now = System.nanoTime();
            return new Timings(ms(queuedNanos, synthStart), ms(synthStart, synthEnd), ms(synthEnd, proverStart),
                    ms(proverStart, proverEnd), ms(proverEnd, proverEnd == 0 ? 0 : now), ms(job.submittedNanos, now));
        }

        private static double ms(long from, long to) {
            return from == 0 || to == 0 ? 0 : (to - from) / 1e6;
        }

        @Override
        public int compareTo(Task o) {
            int c = job.priority.compareTo(o.job.priority);
            return c != 0 ? c : Long.compare(order, o.order);
        }

        /** Returns the pooled buffers, if any (after the reservation that paid for them is closed). */
        void releaseBuffer() {
            if (buffers != null) {
                for (BufferPool.Buffer b : buffers) {
                    pool.checkin(b);
                }
                buffers = null;
            }
        }

        /** Closes what the task holds (each exactly once) and ends the partition; a second call does nothing. */
        void end(PartitionState s, Object result, Throwable failure) {
            if (ended) {
                return;
            }
            ended = true;
            if (permit != null) {
                permit.close();
                permit = null;
            }
            if (reservation != null) {
                reservation.close();
                reservation = null;
            }
            releaseBuffer();
            try {
                job.spec.release(p);
            } catch (Throwable e) {
                if (failure == null && s == PartitionState.DONE) {
                    s = PartitionState.FAILED;
                    failure = e;
                    result = null;
                }
            }
            Timings times = timings();
            EngineMetrics m = metrics;
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
                timeline.record(job.id, p, Timeline.Kind.FAILED, String.valueOf(failure));
            }
            job.ended(p, s, result, failure, times);
        }
    }

    /**
     * A job ended (cancelled, failed or past its deadline): its partitions still queued end now, each
     * withdrawing its permit request; the running ones stop at their next stage boundary.
     */
    private void purge(Job job) {
        budget.wakeWaiters(); // its partitions waiting for memory give up
        List<Task> mine = new ArrayList<>();
        scheduled.removeIf(t -> {
            if (t.job == job) {
                mine.add(t);
                return true;
            }
            return false;
        });
        for (Task t : mine) {
            if (config.dispatch() == Dispatch.REACTIVE) {
                permits.withdraw(dispatcher);
            }
            t.end(PartitionState.CANCELLED, null, null);
        }
    }

    /** Every partition of the job ended: it stays findable (by id and idempotency key) for the retention time. */
    private void retire(Job job) {
        Runnable forget = () -> {
            jobs.remove(job.id, job);
            byKey.values().remove(job);
        };
        if (closed) {
            return;
        }
        try {
            timers.schedule(forget, config.resultRetention().toNanos(), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            forget.run(); // closing
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
        jobs.put(job.id, job);
        submitted.incrementAndGet();
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
                permits.request(dispatcher);
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
        try {
            synthesis.execute(() -> synthesize(task));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            task.end(PartitionState.CANCELLED, null, null); // closing
        }
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
            try {
                synthesis.execute(() -> synthesize(task));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                task.end(PartitionState.CANCELLED, null, null); // closing
            }
        }
    }

    private void synthesize(Task t) {
        try {
            if (t.job.isOver()) {
                t.end(PartitionState.CANCELLED, null, null);
                return;
            }
            long[] sizes = t.job.spec.bufferSizes(t.p);
            long bytes = t.job.spec.extraBytes(t.p);
            for (long size : sizes) {
                bytes += BufferPool.sizeClass(size);
            }
            // waits for room; a job that ends meanwhile (cancel, failure, deadline, close) wakes it to give up
            java.util.Optional<Reservation> r = budget.acquire(bytes, MemoryBudget.Kind.PARTITION, null, t.job::isOver);
            if (r.isEmpty()) {
                t.end(PartitionState.CANCELLED, null, null);
                return;
            }
            t.reservation = r.get();
            if (t.job.isOver()) {
                t.end(PartitionState.CANCELLED, null, null);
                return;
            }
            List<BufferPool.Buffer> got = new ArrayList<>(sizes.length);
            t.buffers = got;
            for (long size : sizes) {
                got.add(pool.checkout(size));
            }
            t.job.state(t.p, PartitionState.SYNTHESIZING);
            timeline.record(t.job.id, t.p, Timeline.Kind.SYNTH_START, "");
            long s0 = System.nanoTime();
            t.synthStart = s0;
            t.payload = t.job.spec.synthesize(t.p, List.copyOf(got));
            t.synthEnd = System.nanoTime();
            synthNanos.addAndGet(t.synthEnd - s0);
            synthRuns.incrementAndGet();
            timeline.record(t.job.id, t.p, Timeline.Kind.SYNTH_END, "");
            t.job.state(t.p, PartitionState.WAITING_FOR_PROVER);
            timeline.record(t.job.id, t.p, Timeline.Kind.PROVER_QUEUE, "");
            proverQueue.add(t);
        } catch (Throwable e) {
            t.end(PartitionState.FAILED, null, e);
        }
    }

    private void proverLoop(int worker) {
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
                // host-side staging outside the device lock, so a second worker can overlap it with the
                // device work of the first
                Object prepared = backend.prepare(t.payload);
                deviceLock.lockInterruptibly();
                try {
                    timeline.record(t.job.id, t.p, Timeline.Kind.PROVER_START, "");
                    long p0 = System.nanoTime();
                    t.proverStart = p0;
                    synchronized (recentRuns) {
                        running[worker] = p0;
                    }
                    try {
                        started = backend.start(prepared);
                    } finally {
                        long p1 = System.nanoTime();
                        t.proverEnd = p1;
                        proverBusyNanos.addAndGet(p1 - p0);
                        proverRuns.incrementAndGet();
                        synchronized (recentRuns) {
                            running[worker] = 0;
                            recentRuns.addLast(new long[] {p0, p1});
                            trimRuns(p1);
                        }
                    }
                    timeline.record(t.job.id, t.p, Timeline.Kind.PROVER_END, "");
                } finally {
                    deviceLock.unlock();
                }
                t.payload = null;
            } catch (InterruptedException e) {
                t.end(PartitionState.CANCELLED, null, null); // the engine is closing
                return;
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
            try {
                finalizers.execute(() -> finish(t, started));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                t.end(PartitionState.CANCELLED, null, null); // the engine closed while this partition proved
            }
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
    /**
     * Stops the engine: jobs not yet finished fail ("the engine was closed"), their queued partitions
     * end at once and running ones at their next stage boundary; then the threads end and idle
     * buffers, keys and PCEs are freed.
     */
    public void close() throws InterruptedException {
        closed = true;
        for (Job j : jobs.values()) {
            j.fail(new IllegalStateException("the engine was closed before " + j.id + " finished"));
        }
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
        circuits.close();
        pool.close();
    }
}
