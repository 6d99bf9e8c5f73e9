package dev.proofline.lab;

import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.Priority;
import dev.proofline.engine.SimBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code proofline bench permits}: {@code permits = "auto"} against every fixed number of permits, on
 * the simulated backend, over a grid of synthesis:prover time ratios and synthesis thread counts. Per
 * cell: the steady throughput of {@code auto} against the slower stage's capacity, its peak reserved
 * memory, and the smallest fixed number of permits that reaches the same throughput (within 1%) with its
 * peak; a Markdown table, one row per cell.
 */
@Command(name = "permits", mixinStandardHelpOptions = true,
        description = "Sweep: permits = auto against fixed permit counts on simulated workloads (Markdown table).")
final class PermitSweepCommand implements Callable<Integer> {

    @Option(names = "--ratios", defaultValue = "1:4,1:1,2:1,4:1,8:1", split = ",",
            description = "synthesis:prover time ratios")
    List<String> ratios;

    @Option(names = "--threads", defaultValue = "1,4,8", split = ",", description = "synthesis thread counts")
    List<Integer> threads;

    @Option(names = "--prove-ms", defaultValue = "10", description = "simulated prover time per partition")
    long proveMs;

    @Option(names = "--seconds", defaultValue = "3", description = "about how long each run lasts")
    double seconds;

    @Option(names = "--bytes", defaultValue = "16777216", description = "working set per partition")
    long bytes;

    @Option(names = "--same", defaultValue = "0.99",
            description = "a fixed count reaches auto's throughput when it makes at least this share of it")
    double same;

    /** What one run of the engine did. */
    record Run(String permits, double throughputVsCapacity, double perMs, long peakBytes, String reason) {
    }

    @Override
    public Integer call() throws Exception {
        System.out.println("| synthesis:prover | synthesis threads | auto: steady throughput / capacity | auto: permits"
                + " at the end | auto: peak reserved | smallest fixed count with the same throughput | its"
                + " throughput / capacity | its peak | peak ratio auto / fixed |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        // a run whose figures are dropped: the first run in a JVM shares the cores with the JIT compiling
        // the engine, which would count against whichever cell came first
        run(EngineConfig.AUTO_PERMITS, proveMs, 4, 100);
        for (String ratio : ratios) {
            String[] r = ratio.split(":");
            double synthMs = proveMs * Double.parseDouble(r[0]) / Double.parseDouble(r[1]);
            for (int s : threads) {
                cell(ratio, Math.max(1, Math.round(synthMs)), s);
            }
        }
        return 0;
    }

    private void cell(String ratio, long synthMs, int synthThreads) throws Exception {
        double capacityPerMs = Math.min((double) synthThreads / synthMs, 1.0 / proveMs);
        int partitions = (int) Math.max(100, Math.min(600, capacityPerMs * seconds * 1000));
        Run auto = run(EngineConfig.AUTO_PERMITS, synthMs, synthThreads, partitions);
        Run fixed = null;
        // the permits that keep the slower stage fed, with slack: the sweep stops there at the latest
        int ceiling = (int) Math.ceil(capacityPerMs * (synthMs + proveMs)) + 4;
        for (int p = 1; p <= ceiling; p++) {
            Run f = run(p, synthMs, synthThreads, partitions);
            if (f.perMs() >= same * auto.perMs()) {
                fixed = f;
                break;
            }
        }
        System.out.printf(Locale.ROOT, "| %s (%d ms : %d ms) | %d | %.3f | %s | %d MiB | %s | %s | %s | %s |%n", ratio,
                synthMs, proveMs, synthThreads, auto.throughputVsCapacity(), auto.permits(), auto.peakBytes() >> 20,
                fixed == null ? "none up to " + ceiling : fixed.permits(),
                fixed == null ? "–" : String.format(Locale.ROOT, "%.3f", fixed.throughputVsCapacity()),
                fixed == null ? "–" : (fixed.peakBytes() >> 20) + " MiB",
                fixed == null ? "–" : String.format(Locale.ROOT, "%.2f", (double) auto.peakBytes() / fixed.peakBytes()));
        System.err.println("  auto: " + auto.reason());
    }

    private Run run(int permits, long synthMs, int synthThreads, int partitions) throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(permits).synthesisThreads(synthThreads).proverWorkers(1)
                .finalizerThreads(2).budgetBytes(64L * bytes + (1L << 30)).timelineCapacity(100_000).build();
        try (var e = new Engine<>(cfg, new SimBackend(proveMs, 0))) {
            List<Engine.Job<?>> jobs = new ArrayList<>();
            for (int left = partitions; left > 0; left -= 10) {
                jobs.add(e.submit(new SimBackend.Job(Math.min(10, left), synthMs, bytes), Priority.NORMAL));
            }
            for (Engine.Job<?> j : jobs) {
                j.result().get(10, TimeUnit.MINUTES);
            }
            Engine.Stats st = e.stats();
            double capacityPerMs = Math.min(synthThreads / st.synthMsAvg(), 1 / st.proverMsAvg());
            double perMs = e.steadyThroughputPerMs();
            return new Run(e.permitSizing().mode().equals("auto") ? String.valueOf(e.permits().max())
                    : String.valueOf(permits), perMs / capacityPerMs, perMs, e.budget().peak(),
                    e.permitSizing().reason());
        }
    }
}
