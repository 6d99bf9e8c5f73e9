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

    /** Sizes of the stages. */
    public record Config(int maxProverQueueDepth, int synthesisThreads, int proverWorkers, int finalizerThreads,
            long budgetBytes, int timelineCapacity) {
        public static Config defaults() {
            int cpus = Runtime.getRuntime().availableProcessors();
            return new Config(2, Math.max(1, cpus / 2), 1, Math.max(1, cpus / 2), 1L << 32, 4096);
        }
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

    public Engine(Config config, ProverBackend backend) {
        this.config = config;
        this.backend = backend;
        this.permits = new ProverPermits(config.maxProverQueueDepth());
        this.budget = new MemoryBudget(config.budgetBytes());
        this.timeline = new Timeline(config.timelineCapacity(), null);
        this.stop = new Task(null, -1);
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
            if (s == PartitionState.FAILED) {
                timeline.record(job.id, p, Timeline.Kind.FAILED, String.valueOf(failure));
            }
            job.ended(p, s, result, failure);
        }
    }

    /** Submits a job; its partitions are queued by priority, then in submission order. */
    public Job submit(JobSpec spec, Priority priority) {
        if (closed) {
            throw new IllegalStateException("engine closed");
        }
        Job job = new Job("job-" + jobIds.incrementAndGet(), spec, priority);
        for (int p = 0; p < spec.partitions(); p++) {
            scheduled.add(new Task(job, p));
            timeline.record(job.id, p, Timeline.Kind.QUEUED, priority.name());
            permits.request(this::dispatch);
        }
        return job;
    }

    /** A permit was granted: the highest-priority queued partition takes it and starts synthesis. */
    private void dispatch(Permit permit) {
        Task t;
        while ((t = scheduled.poll()) != null && t.job.isCancelled()) {
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

    private void synthesize(Task t) {
        try {
            if (t.job.isCancelled()) {
                t.end(PartitionState.CANCELLED, null, null);
                return;
            }
            t.reservation = budget.acquire(t.job.spec.workingSetBytes(t.p), MemoryBudget.Kind.PARTITION);
            t.job.state(t.p, PartitionState.SYNTHESIZING);
            timeline.record(t.job.id, t.p, Timeline.Kind.SYNTH_START, "");
            t.payload = t.job.spec.synthesize(t.p);
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
            if (t.job.isCancelled()) {
                t.end(PartitionState.CANCELLED, null, null);
                continue;
            }
            Object started;
            try {
                t.job.state(t.p, PartitionState.PROVING);
                timeline.record(t.job.id, t.p, Timeline.Kind.PROVER_START, "");
                started = backend.start(t.payload);
                t.payload = null;
                timeline.record(t.job.id, t.p, Timeline.Kind.PROVER_END, "");
            } catch (Throwable e) {
                t.end(PartitionState.FAILED, null, e);
                continue;
            }
            t.permit.close(); // leaves the prover stage: one waiting synthesis may start
            t.permit = null;
            t.job.state(t.p, PartitionState.FINALIZING);
            finalizers.execute(() -> finish(t, started));
        }
    }

    private void finish(Task t, Object started) {
        try {
            if (t.job.isCancelled()) {
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
    }
}
