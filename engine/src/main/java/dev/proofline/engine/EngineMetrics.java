package dev.proofline.engine;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An engine's Micrometer meters (names as Micrometer writes them; a Prometheus registry turns the
 * dots into underscores and adds {@code _total} to counters, {@code _seconds} to timers). Each has a
 * description, which Prometheus's text format carries as its HELP line: what it counts, in what unit.
 * <ul>
 *   <li>{@code proofline.permits.max}, {@code proofline.permits.in.use} — prover-queue permits (the
 *       number moves under {@code permits = "auto"}); {@code proofline.permits.littles} — what auto's
 *       estimate asks for;</li>
 *   <li>{@code proofline.partitions.scheduled}, {@code proofline.partitions.prover.queue} — waiting partitions;</li>
 *   <li>{@code proofline.budget.total.bytes}, {@code proofline.budget.reserved.bytes{kind}} — the memory budget;</li>
 *   <li>{@code proofline.pool.checkouts|reuses|allocations|checkins} (counters), {@code proofline.pool.idle.bytes};</li>
 *   <li>{@code proofline.prover.busy} — share of the last minute the prover workers were busy (mean over the
 *       devices), {@code proofline.device.busy{device}} — the same per device;</li>
 *   <li>{@code proofline.partitions{outcome=done|failed|cancelled, circuit}} (counters, from a circuit's
 *       first ended partition on);</li>
 *   <li>{@code proofline.keys.resident}, {@code proofline.pces.resident};</li>
 *   <li>{@code proofline.double.releases} — releases of a permit, reservation, pooled buffer or lease
 *       already released (counter; anything above 0 is a bug);</li>
 *   <li>{@code proofline.stage{stage=queue_wait|synthesis|prover_wait|prover|finalize|total, circuit}} —
 *       timers with histogram buckets ({@link #BUCKETS}), recorded for every proved partition.</li>
 * </ul>
 * The circuit label is a job's {@link JobSpec#label} (a daemon's circuit id).
 */
public final class EngineMetrics {

    /** The stages of {@link Engine.Timings}, in its order. */
    static final String[] STAGES = {"queue_wait", "synthesis", "prover_wait", "prover", "finalize", "total"};

    /**
     * The stage timers' histogram buckets: from the milliseconds a small circuit's stage takes to the
     * minutes a large proof (or a long wait for a permit) takes, about three to a decade, so that a
     * quantile read from them is within a factor of ~2 anywhere in that range.
     */
    static final Duration[] BUCKETS = {ms(5), ms(10), ms(25), ms(50), ms(100), ms(250), ms(500), ms(1000),
        ms(2500), ms(5000), ms(10_000), ms(30_000), ms(60_000), ms(120_000), ms(300_000), ms(600_000)};

    private static final String[] OUTCOMES = {"done", "failed", "cancelled"};

    private final MeterRegistry registry;
    /** circuit → its stage timers, in {@link #STAGES}' order. */
    private final Map<String, Timer[]> stages = new ConcurrentHashMap<>();
    /** circuit → its outcome counters, in {@link #OUTCOMES}' order. */
    private final Map<String, Counter[]> outcomes = new ConcurrentHashMap<>();

    EngineMetrics(Engine<?> e, EngineStatusReader status, MeterRegistry r) {
        this.registry = r;
        Gauge.builder("proofline.permits.max", e.permits(), ProverPermits::max)
                .description("prover-queue permits there are now (partitions allowed between the start of their"
                        + " synthesis and the end of their prover start; moves under permits = auto)")
                .register(r);
        Gauge.builder("proofline.permits.in.use", e.permits(), ProverPermits::inUse)
                .description("prover-queue permits held by partitions now (partitions)").register(r);
        Gauge.builder("proofline.permits.littles", e, x -> x.permitSizing().littles())
                .description("permits = auto: the permits Little's law asks for (slower stage's capacity x a"
                        + " partition's work while it holds its permit); NaN before the first measurements")
                .register(r);
        Gauge.builder("proofline.partitions.scheduled", e, Engine::scheduledCount)
                .description("partitions queued for a permit, their synthesis not started (partitions)").register(r);
        Gauge.builder("proofline.partitions.prover.queue", e, Engine::proverQueueCount)
                .description("synthesized partitions waiting for a prover worker (partitions)").register(r);
        Gauge.builder("proofline.budget.total.bytes", e.budget(), MemoryBudget::total).baseUnit("bytes")
                .description("the memory budget: bytes that keys, PCEs, partitions and pooled buffers may hold")
                .register(r);
        for (MemoryBudget.Kind k : MemoryBudget.Kind.values()) {
            Gauge.builder("proofline.budget.reserved.bytes", e.budget(), b -> b.reserved(k)).baseUnit("bytes")
                    .tag("kind", k.name().toLowerCase(Locale.ROOT))
                    .description("bytes of the memory budget reserved now, by what holds them (kind)").register(r);
        }
        BufferPool pool = e.pool();
        FunctionCounter.builder("proofline.pool.checkouts", pool, p -> p.stats().checkouts())
                .description("buffers handed out by the buffer pool (buffers)").register(r);
        FunctionCounter.builder("proofline.pool.reuses", pool, p -> p.stats().reuses())
                .description("pool checkouts served by an idle buffer rather than a new allocation (buffers)")
                .register(r);
        FunctionCounter.builder("proofline.pool.allocations", pool, p -> p.stats().allocations())
                .description("buffers the pool allocated (pinned memory on the CUDA backend) (buffers)").register(r);
        FunctionCounter.builder("proofline.pool.checkins", pool, p -> p.stats().checkins())
                .description("buffers given back to the pool (buffers)").register(r);
        Gauge.builder("proofline.pool.idle.bytes", pool, p -> p.stats().idleBytes()).baseUnit("bytes")
                .description("bytes of idle buffers the pool keeps for reuse").register(r);
        Gauge.builder("proofline.prover.busy", e, Engine::proverBusyLastMinute)
                .description("share of the last minute the prover workers were busy, mean over the devices"
                        + " (a fraction, 0 to 1)").register(r);
        for (int d = 0; d < e.deviceCount(); d++) {
            int device = d;
            Gauge.builder("proofline.device.busy", e, x -> x.proverBusyLastMinute(device))
                    .tag("device", Integer.toString(d))
                    .description("share of the last minute this device's prover was busy (a fraction, 0 to 1)")
                    .register(r);
        }
        Gauge.builder("proofline.keys.resident", status, x -> x.keys().size())
                .description("proving keys held in memory (keys)").register(r);
        Gauge.builder("proofline.pces.resident", status, x -> x.pces().size())
                .description("pre-compiled constraint systems held in memory (PCEs)").register(r);
        FunctionCounter.builder("proofline.double.releases", e, Engine::doubleReleases)
                .description("releases of a permit, reservation, pooled buffer or lease already released (a bug"
                        + " when above 0) (releases)").register(r);
    }

    void partitionEnded(String circuit, PartitionState s, Engine.Timings t) {
        int outcome = switch (s) {
            case DONE -> 0;
            case FAILED -> 1;
            case CANCELLED -> 2;
            default -> -1;
        };
        if (outcome < 0) {
            return;
        }
        outcomes.computeIfAbsent(circuit, this::outcomeCounters)[outcome].increment();
        if (s != PartitionState.DONE) {
            return;
        }
        Timer[] timers = stages.computeIfAbsent(circuit, this::stageTimers);
        double[] ms = {t.queueWaitMs(), t.synthesisMs(), t.proverWaitMs(), t.proverMs(), t.finalizeMs(), t.totalMs()};
        for (int i = 0; i < timers.length; i++) {
            timers[i].record((long) (ms[i] * 1e6), TimeUnit.NANOSECONDS);
        }
    }

    private Counter[] outcomeCounters(String circuit) {
        Counter[] c = new Counter[OUTCOMES.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = Counter.builder("proofline.partitions").tags("outcome", OUTCOMES[i], "circuit", circuit)
                    .description("partitions that ended, by outcome and circuit (partitions)").register(registry);
        }
        return c;
    }

    private Timer[] stageTimers(String circuit) {
        Timer[] timers = new Timer[STAGES.length];
        for (int i = 0; i < timers.length; i++) {
            timers[i] = Timer.builder("proofline.stage").tags("stage", STAGES[i], "circuit", circuit)
                    .description("time a proved partition spent in each stage, by circuit (seconds): waiting for a"
                            + " permit and a synthesis thread, synthesis, waiting for a prover, prover start,"
                            + " finalize, and in all from submission")
                    .serviceLevelObjectives(BUCKETS).register(registry);
        }
        return timers;
    }

    private static Duration ms(long n) {
        return Duration.ofMillis(n);
    }
}
