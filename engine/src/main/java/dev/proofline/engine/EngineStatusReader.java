package dev.proofline.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads an engine's parts into the figures its status page, meters and benchmarks show: the
 * {@link EngineStatus} snapshot, the {@link Engine.Stats} counters, each device's line, and the
 * double releases summed over every owner of a token. It only reads; it changes nothing.
 */
final class EngineStatusReader {

    private final long startNanos;
    private final ProverBackend<?, ?, ?> backend;
    private final JobRegistry<?> jobs;
    private final Scheduler scheduler;
    private final SynthesisStage synthesis;
    private final ProverStage provers;
    private final PartitionEnd partitionEnd;
    private final ProverPermits permits;
    /** Null with a fixed number of permits. */
    private final PermitSizer sizer;
    private final MemoryBudget budget;
    private final BufferPool pool;
    /** The engine's residents, as attached now. */
    private final Supplier<Collection<Residents>> residents;
    private final AtomicLong leaseDoubleCloses;

    EngineStatusReader(long startNanos, ProverBackend<?, ?, ?> backend, JobRegistry<?> jobs, Scheduler scheduler,
            SynthesisStage synthesis, ProverStage provers, PartitionEnd partitionEnd, ProverPermits permits,
            PermitSizer sizer, MemoryBudget budget, BufferPool pool, Supplier<Collection<Residents>> residents,
            AtomicLong leaseDoubleCloses) {
        this.startNanos = startNanos;
        this.backend = backend;
        this.jobs = jobs;
        this.scheduler = scheduler;
        this.synthesis = synthesis;
        this.provers = provers;
        this.partitionEnd = partitionEnd;
        this.permits = permits;
        this.sizer = sizer;
        this.budget = budget;
        this.pool = pool;
        this.residents = residents;
        this.leaseDoubleCloses = leaseDoubleCloses;
    }

    /** See {@link Engine#permitSizing()}. */
    PermitSizing permitSizing() {
        return sizer != null ? sizer.snapshot() : PermitSizing.fixed(permits.max());
    }

    /** See {@link Engine#doubleReleases()}. */
    long doubleReleases() {
        long residentDoubles = 0;
        for (Residents r : residents.get()) {
            residentDoubles += r.keys().doubleReleases() + r.pces().doubleReleases();
        }
        return leaseDoubleCloses.get() + permits.doubleReleases() + budget.doubleReleases() + pool.doubleReleases()
                + residentDoubles;
    }

    /** The resident keys' entries (of every kind of residents). */
    List<ResidentCache.EntryStatus> keys() {
        return entries(Residents::keys);
    }

    /** The entries of what is derived from the keys (of every kind of residents). */
    List<ResidentCache.EntryStatus> pces() {
        return entries(Residents::pces);
    }

    private List<ResidentCache.EntryStatus> entries(Function<Residents, ResidentCache<?>> cache) {
        List<ResidentCache.EntryStatus> out = new ArrayList<>();
        for (Residents r : residents.get()) {
            out.addAll(cache.apply(r).entries());
        }
        return out;
    }

    /** See {@link Engine#deviceStatus()}. */
    List<EngineStatus.Device> deviceStatus() {
        int n = provers.deviceCount();
        List<String> names = backend.devices();
        List<ProverBackend.DeviceMemory> memory;
        try {
            memory = backend.deviceMemory();
        } catch (RuntimeException e) {
            memory = List.of(); // a status page shows what it can
        }
        List<EngineStatus.Device> out = new ArrayList<>(n);
        for (int d = 0; d < n; d++) {
            ProverBackend.DeviceMemory m = d < memory.size() ? memory.get(d) : ProverBackend.DeviceMemory.UNKNOWN;
            out.add(new EngineStatus.Device(d, d < names.size() ? names.get(d) : backend.name() + " device " + d,
                    provers.busyLastMinute(d), provers.runs(d), m.totalBytes(), m.freeBytes(), m.residentKeyBytes(),
                    m.residentKeys()));
        }
        return out;
    }

    /** See {@link Engine#status()}. */
    EngineStatus status() {
        EnumMap<PartitionState, Integer> byState = new EnumMap<>(PartitionState.class);
        for (PartitionState st : PartitionState.values()) {
            byState.put(st, 0);
        }
        List<? extends SubmittedJob<?>> all = new ArrayList<>(jobs.all());
        all.sort(Comparator.comparingLong((SubmittedJob<?> j) -> j.submittedNanos()).reversed());
        List<EngineStatus.JobStatus> jobLines = new ArrayList<>();
        int active = 0;
        for (SubmittedJob<?> j : all) {
            List<PartitionState> states = j.states();
            boolean ended = states.stream().allMatch(PartitionState::isFinal);
            if (!ended) {
                active++;
                for (PartitionState st : states) {
                    byState.merge(st, 1, Integer::sum);
                }
            }
            jobLines.add(new EngineStatus.JobStatus(j.id(), j.priority(), j.outcome(), j.submittedAt().toEpochMilli(),
                    states));
        }
        EnumMap<MemoryBudget.Kind, Long> kinds = new EnumMap<>(MemoryBudget.Kind.class);
        for (MemoryBudget.Kind k : MemoryBudget.Kind.values()) {
            kinds.put(k, budget.reserved(k));
        }
        return new EngineStatus((System.nanoTime() - startNanos) / 1_000_000, backend.name(), backend.devices(), active,
                jobs.submitted(),
                byState, scheduler.size(), provers.size(), permits.max(), permits.inUse(), permitSizing(), budget.total(),
                budget.reserved(), budget.peak(), kinds, pool.stats(), provers.busyLastMinute(), deviceStatus(),
                keys(), pces(), partitionEnd.proofs.get(),
                partitionEnd.failures.get(), partitionEnd.cancels.get(), doubleReleases(), jobLines);
    }

    /** See {@link Engine#stats()}. */
    Engine.Stats stats() {
        long wall = System.nanoTime() - startNanos;
        long proverRuns = provers.runs.get();
        long synthesisRuns = synthesis.runs.get();
        long busy = provers.busyNanos.get();
        return new Engine.Stats(partitionEnd.proofs.get(), partitionEnd.failures.get(), partitionEnd.cancels.get(),
                (double) busy / provers.deviceCount() / Math.max(1, wall),
                synthesisRuns == 0 ? 0 : synthesis.nanos.get() / 1e6 / synthesisRuns,
                proverRuns == 0 ? 0 : busy / 1e6 / proverRuns, wall);
    }
}
