package dev.proofline.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The proving pipeline: scheduler (priority queue of partitions) → reactive dispatcher (a permit
 * before a synthesis starts) → synthesis pool (the partition's bytes reserved and its buffers checked
 * out first) → prover queue → prover workers (per device: backend prepare, then start under that device's lock; then
 * the partition's buffers, bytes and permit are given back) → finalizers (backend finish) → the job's
 * result (proofs in partition order).
 *
 * <p>Ownership: a partition's {@link PartitionLease} owns its permit from dispatch until it leaves the
 * prover stage, its reservation and buffers until then too, and its key and PCE leases until it ends;
 * each is given back exactly once on every path (success,
 * failure, cancellation, deadline, engine close), and {@link JobSpec#release} is called exactly once
 * when the partition ends. One prover completion starts exactly one waiting synthesis; nothing polls.
 * What jobs share between them (keys, PCEs) is attached with {@link #residents}; {@link #status()} and
 * {@link #bindMetrics} show what runs.
 *
 * <p>The stages are their own classes: {@link Scheduler}, {@link Dispatcher}, {@link SynthesisStage},
 * {@link ProverStage}, {@link FinalizerStage} and {@link PartitionEnd}, where every partition ends. A
 * job's state machine is {@link SubmittedJob}, the jobs by id and idempotency key are the
 * {@link JobRegistry}'s, and {@link EngineStatusReader} reads the parts into the status and counters;
 * this class wires them and is their public face.
 *
 * @param <R> a partition's result, what the backend's {@code finish} returns: a job's results are a
 *     {@code List<R>} (a Groth16 backend's are {@code ProofResult}s)
 */
public final class Engine<R> implements AutoCloseable {

    /** The most permits {@code auto} grows to; the memory budget bounds it first in practice. */
    static final int MAX_AUTO_PERMITS = 1024;

    /** Counters since the engine started. */
    public record Stats(long proofs, long failed, long cancelled, double proverBusy, double synthMsAvg,
            double proverMsAvg, long wallNanos) {
    }

    private final EngineConfig config;
    private final ProverBackend<?, ?, ? extends R> backend;
    private final ProverPermits permits;
    /** Sizes the permits under {@code auto}; null with a fixed number. */
    private final PermitSizer sizer;
    private final MemoryBudget budget;
    private final Timeline timeline;
    private final BufferPool pool;
    /** By kind, each made on first use ({@link #residents}); closed with the engine. */
    private final Map<Class<?>, Residents> residents = new ConcurrentHashMap<>();
    private final long startNanos = System.nanoTime();
    // the stages, in the order a partition meets them
    /** Second closes of a partition's lease (each a bug, like any double release). */
    private final AtomicLong leaseDoubleCloses = new AtomicLong();
    private final Scheduler scheduler = new Scheduler(leaseDoubleCloses);
    private final Dispatcher dispatcher;
    private final SynthesisStage synthesis;
    private final ProverStage provers;
    private final FinalizerStage finalizers;
    private final PartitionEnd partitionEnd;
    /** Jobs by id and idempotency key, running and retained, and their deadlines. */
    private final JobRegistry<R> jobs;
    private final EngineStatusReader statusReader;
    private volatile boolean closed;
    private volatile EngineMetrics metrics;

    public Engine(EngineConfig config, ProverBackend<?, ?, ? extends R> backend) {
        this.config = config;
        this.backend = backend;
        boolean auto = config.autoPermits();
        this.permits = new ProverPermits(auto ? PermitSizer.initial(backend.deviceCount(), MAX_AUTO_PERMITS)
                : Math.max(1, config.maxProverQueueDepth()));
        this.budget = new MemoryBudget(config.budgetBytes());
        this.timeline = new Timeline(config.timelineCapacity(), config.timelineLog());
        BufferPool.Memory memory = backend.bufferMemory();
        this.pool = new BufferPool(budget, memory, memory == BufferPool.Memory.PINNED ? backend.bufferAllocator() : null);
        this.jobs = new JobRegistry<>(config.resultRetention());
        this.partitionEnd = new PartitionEnd(timeline, () -> metrics);
        this.finalizers = new FinalizerStage(config.finalizerThreads(), timeline, partitionEnd);
        this.sizer = !auto ? null : new PermitSizer(permits, budget, config.synthesisThreads(), backend.deviceCount(),
                MAX_AUTO_PERMITS, scheduler::size, this::proverQueueCount);
        this.provers = new ProverStage(config.proverWorkers(), backend, timeline, partitionEnd, finalizers, startNanos,
                sizer);
        this.synthesis = new SynthesisStage(config.synthesisThreads(), budget, pool, timeline, partitionEnd, provers,
                sizer);
        this.dispatcher = new Dispatcher(permits, scheduler, synthesis, partitionEnd, sizer);
        this.statusReader = new EngineStatusReader(startNanos, backend, jobs, scheduler, synthesis, provers,
                partitionEnd, permits, sizer, budget, pool, residents::values, leaseDoubleCloses);
    }

    /**
     * This engine's residents of {@code kind}: made by {@code make} from this engine (its budget and
     * configuration) the first time they are asked for, the same ones after that; the engine reads them
     * into its status and closes them when it closes.
     */
    public <R extends Residents> R residents(Class<R> kind, Function<Engine, R> make) {
        return kind.cast(residents.computeIfAbsent(kind, k -> make.apply(this)));
    }

    public ProverBackend<?, ?, ? extends R> backend() {
        return backend;
    }

    /** The job with this id, while it runs and for {@code resultRetention} after it ended. */
    public Optional<Job<R>> job(String id) {
        return jobs.find(id).<Job<R>>map(j -> j);
    }

    public ProverPermits permits() {
        return permits;
    }

    /**
     * How the permits are sized: under {@code auto}, the sizer's limit, the reason for it and what it
     * measured (per circuit and per device); with a fixed number, that number.
     */
    public PermitSizing permitSizing() {
        return statusReader.permitSizing();
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
        return SteadyState.of(timeline.snapshot(), provers.deviceCount()).proverBusy();
    }

    /**
     * Proofs per millisecond in steady state: prover starts per millisecond over the same window as
     * {@link #steadyProverBusy} (from the timeline's events); NaN with fewer than ten.
     */
    public double steadyThroughputPerMs() {
        return SteadyState.of(timeline.snapshot(), provers.deviceCount()).throughputPerMs();
    }

    /**
     * Share of the last minute (or of the uptime, if shorter) the devices were busy (prover start), the
     * mean over the backend's devices.
     */
    public double proverBusyLastMinute() {
        return provers.busyLastMinute();
    }

    /** As {@link #proverBusyLastMinute()} for device {@code device} of the backend. */
    public double proverBusyLastMinute(int device) {
        return provers.busyLastMinute(device);
    }

    /** The devices serving the prover queue: the backend's {@link ProverBackend#deviceCount}. */
    public int deviceCount() {
        return provers.deviceCount();
    }

    /** Each device: its line, busy fraction, prover runs and memory (read from the backend now). */
    public List<EngineStatus.Device> deviceStatus() {
        return statusReader.deviceStatus();
    }

    /**
     * Releases of what was already released — permits, reservations, pooled buffers, key and PCE
     * leases — since the start. Each is a bug in its caller: counted, and otherwise changing nothing.
     * 0 in a healthy engine.
     */
    public long doubleReleases() {
        return statusReader.doubleReleases();
    }

    /** Partitions waiting for a permit. */
    public int scheduledCount() {
        return scheduler.size();
    }

    /** Partitions queued ahead of {@code job}'s first queued one (by priority, then submission order). */
    public int queuePosition(Job<?> job) {
        return scheduler.position((SubmittedJob<?>) job); // the only kind of Job there is
    }

    /** Partitions synthesized and waiting for a prover worker. */
    public int proverQueueCount() {
        return provers.size();
    }

    /** A snapshot of the engine: jobs, partitions by state, permits, budget, pool, caches, counters. */
    public EngineStatus status() {
        return statusReader.status();
    }

    /** Registers the engine's meters (see {@link EngineMetrics}) with {@code registry}. */
    public EngineMetrics bindMetrics(io.micrometer.core.instrument.MeterRegistry registry) {
        EngineMetrics m = new EngineMetrics(this, statusReader, registry);
        metrics = m;
        return m;
    }

    public Stats stats() {
        return statusReader.stats();
    }

    /**
     * Where one partition's time went, in milliseconds: waiting for a permit and a synthesis thread,
     * synthesis, waiting for a prover worker, the prover's device half, finalize, and all of it (from
     * submission to the end). A stage the partition did not reach is 0.
     */
    public record Timings(double queueWaitMs, double synthesisMs, double proverWaitMs, double proverMs,
            double finalizeMs, double totalMs) {
    }

    /**
     * A submitted job: its proofs in partition order, or its failure; cancellable.
     *
     * @param <R> a partition's result, the engine's backend's
     */
    public sealed interface Job<R> permits SubmittedJob {
        String id();

        Priority priority();

        JobSpec<?> spec();

        int partitions();

        Instant submittedAt();

        /** Proofs in partition order when every partition is proved; the first failure's cause otherwise. */
        CompletableFuture<List<R>> result();

        /**
         * The proofs in partition order, waiting at most {@code timeout}.
         *
         * @throws TimeoutException when the job is still running after {@code timeout}
         * @throws ExecutionException with the cause of the job's failure (a {@code TimeoutException}
         *     cause when its deadline passed)
         * @throws java.util.concurrent.CancellationException when it was cancelled
         */
        List<R> await(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException;

        PartitionState state(int partition);

        /** Every partition's state, in partition order. */
        List<PartitionState> states();

        /** The partition's stage times once it ended; null before. */
        Timings timings(int partition);

        /** Whole-job figures: the wall time from submission to the end of its last partition, if ended. */
        double totalMs();

        /** Cancels: queued partitions end now, running ones at their next stage boundary. */
        void cancel();

        boolean isCancelled();

        /** Done one way or another (proved, failed, cancelled, past its deadline): nothing more runs for it. */
        boolean isOver();
    }

    /**
     * A job ended (cancelled, failed or past its deadline): its partitions still queued end now, each
     * withdrawing its permit request; the running ones stop at their next stage boundary.
     */
    private void purge(SubmittedJob<?> job) {
        budget.wakeWaiters(); // its partitions waiting for memory give up
        for (PartitionTask t : scheduler.remove(job)) {
            dispatcher.withdrawn();
            partitionEnd.end(t, PartitionState.CANCELLED, null, null);
        }
    }

    /** Submits a job; its partitions are queued by priority, then in submission order. */
    public Job<R> submit(JobSpec<?> spec, Priority priority) {
        return submit(spec, priority, null, null);
    }

    /**
     * Submits a job once per idempotency key: a second submission with the same key (not null) gets
     * the first job back, whatever its state, and queues nothing. A deadline (not null) fails the job
     * with a {@link TimeoutException} when it passes; its partitions stop at their next stage boundary
     * and give back what they hold.
     */
    public Job<R> submit(JobSpec<?> spec, Priority priority, String idempotencyKey, Duration deadline) {
        if (closed) {
            throw new IllegalStateException("engine closed");
        }
        if (idempotencyKey != null) {
            return jobs.once(idempotencyKey, () -> newJob(jobs.nextId(), spec, priority, deadline), this::enqueue);
        }
        SubmittedJob<R> job = newJob(jobs.nextId(), spec, priority, deadline);
        enqueue(job);
        return job;
    }

    /**
     * Submits a job under an id the caller chose (unique among the jobs this engine still knows), for a
     * caller that names the work itself, such as a cluster node proving {@code job-17/2}: the status,
     * the timeline and the dashboard then show that name.
     *
     * @throws IllegalArgumentException when a job with that id is still known
     */
    public Job<R> submitNamed(JobSpec<?> spec, Priority priority, String id) {
        if (closed) {
            throw new IllegalStateException("engine closed");
        }
        SubmittedJob<R> job = newJob(id, spec, priority, null);
        enqueue(job);
        return job;
    }

    private SubmittedJob<R> newJob(String id, JobSpec<?> spec, Priority priority, Duration deadline) {
        SubmittedJob<R> job = new SubmittedJob<>(id, spec, priority, timeline, this::purge, jobs::retire);
        jobs.add(job, deadline);
        return job;
    }

    private void enqueue(SubmittedJob<?> job) {
        for (int p = 0; p < job.partitions(); p++) {
            scheduler.add(job, p);
            timeline.record(job.id(), p, Timeline.Kind.QUEUED, job.priority().name());
            dispatcher.queued();
        }
    }

    public EngineConfig config() {
        return config;
    }

    /**
     * Stops the engine: jobs not yet finished fail ("the engine was closed"), their queued partitions
     * end at once and running ones at their next stage boundary; then the threads end and idle
     * buffers, keys and PCEs are freed.
     */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        jobs.failAll(id -> new IllegalStateException("the engine was closed before " + id + " finished"));
        jobs.stopTimers();
        synthesis.close();
        provers.close();
        finalizers.close();
        residents.values().forEach(Residents::close);
        pool.close();
    }
}
