package dev.proofline.engine;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An engine's Micrometer meters (names as Micrometer writes them; a Prometheus registry turns the
 * dots into underscores):
 * <ul>
 *   <li>{@code proofline.permits.max}, {@code proofline.permits.in.use} — prover-queue permits (the
 *       number moves under {@code permits = "auto"}); {@code proofline.permits.littles} — what auto's
 *       estimate asks for;</li>
 *   <li>{@code proofline.partitions.scheduled}, {@code proofline.partitions.prover.queue} — waiting partitions;</li>
 *   <li>{@code proofline.budget.total.bytes}, {@code proofline.budget.reserved.bytes{kind}} — the memory budget;</li>
 *   <li>{@code proofline.pool.checkouts|reuses|allocations|checkins} (counters), {@code proofline.pool.idle.bytes};</li>
 *   <li>{@code proofline.prover.busy} — share of the last minute the prover workers were busy (mean over the
 *       devices), {@code proofline.device.busy{device}} — the same per device;</li>
 *   <li>{@code proofline.partitions{outcome=done|failed|cancelled}} (counters);</li>
 *   <li>{@code proofline.keys.resident}, {@code proofline.pces.resident};</li>
 *   <li>{@code proofline.double.releases} — releases of a permit, reservation, pooled buffer or lease
 *       already released (counter; anything above 0 is a bug);</li>
 *   <li>{@code proofline.stage{stage=queue_wait|synthesis|prover_wait|prover|finalize|total}} — timers,
 *       recorded for every proved partition.</li>
 * </ul>
 */
public final class EngineMetrics {

    private final Map<String, Timer> stages = new java.util.LinkedHashMap<>();

    EngineMetrics(Engine e, EngineStatusReader status, MeterRegistry r) {
        Gauge.builder("proofline.permits.max", e.permits(), ProverPermits::max).register(r);
        Gauge.builder("proofline.permits.in.use", e.permits(), ProverPermits::inUse).register(r);
        Gauge.builder("proofline.permits.littles", e, x -> x.permitSizing().littles())
                .description("permits = auto: the permits Little's law asks for (slower stage's capacity × a"
                        + " partition's work while it holds its permit); NaN before the first measurements")
                .register(r);
        Gauge.builder("proofline.partitions.scheduled", e, Engine::scheduledCount).register(r);
        Gauge.builder("proofline.partitions.prover.queue", e, Engine::proverQueueCount).register(r);
        Gauge.builder("proofline.budget.total.bytes", e.budget(), MemoryBudget::total).baseUnit("bytes").register(r);
        for (MemoryBudget.Kind k : MemoryBudget.Kind.values()) {
            Gauge.builder("proofline.budget.reserved.bytes", e.budget(), b -> b.reserved(k)).baseUnit("bytes")
                    .tag("kind", k.name().toLowerCase(java.util.Locale.ROOT)).register(r);
        }
        BufferPool pool = e.pool();
        FunctionCounter.builder("proofline.pool.checkouts", pool, p -> p.stats().checkouts()).register(r);
        FunctionCounter.builder("proofline.pool.reuses", pool, p -> p.stats().reuses()).register(r);
        FunctionCounter.builder("proofline.pool.allocations", pool, p -> p.stats().allocations()).register(r);
        FunctionCounter.builder("proofline.pool.checkins", pool, p -> p.stats().checkins()).register(r);
        Gauge.builder("proofline.pool.idle.bytes", pool, p -> p.stats().idleBytes()).baseUnit("bytes").register(r);
        Gauge.builder("proofline.prover.busy", e, Engine::proverBusyLastMinute).register(r);
        for (int d = 0; d < e.deviceCount(); d++) {
            int device = d;
            Gauge.builder("proofline.device.busy", e, x -> x.proverBusyLastMinute(device))
                    .tag("device", Integer.toString(d)).register(r);
        }
        FunctionCounter.builder("proofline.partitions", e, x -> x.stats().proofs()).tag("outcome", "done").register(r);
        FunctionCounter.builder("proofline.partitions", e, x -> x.stats().failed()).tag("outcome", "failed").register(r);
        FunctionCounter.builder("proofline.partitions", e, x -> x.stats().cancelled()).tag("outcome", "cancelled")
                .register(r);
        Gauge.builder("proofline.keys.resident", status, x -> x.keys().size()).register(r);
        Gauge.builder("proofline.pces.resident", status, x -> x.pces().size()).register(r);
        FunctionCounter.builder("proofline.double.releases", e, Engine::doubleReleases).register(r);
        for (String s : new String[] {"queue_wait", "synthesis", "prover_wait", "prover", "finalize", "total"}) {
            stages.put(s, Timer.builder("proofline.stage").tag("stage", s).register(r));
        }
    }

    void partitionEnded(PartitionState s, Engine.Timings t) {
        if (s != PartitionState.DONE) {
            return;
        }
        record("queue_wait", t.queueWaitMs());
        record("synthesis", t.synthesisMs());
        record("prover_wait", t.proverWaitMs());
        record("prover", t.proverMs());
        record("finalize", t.finalizeMs());
        record("total", t.totalMs());
    }

    private void record(String stage, double ms) {
        stages.get(stage).record((long) (ms * 1e6), TimeUnit.NANOSECONDS);
    }
}
