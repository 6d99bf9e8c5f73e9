package dev.proofline.daemon;

import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.Priority;
import dev.proofline.engine.SimBackend;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a daemon's {@code /metrics} holds once work has run: an engine's meters and the daemon's JVM
 * meters in one Prometheus registry, after a simulated job of the circuit {@code sim} (its label) proved
 * two partitions and a second one failed one, and after a garbage collection.
 */
final class ScrapedMetrics {

    private static final Pattern HEADER = Pattern.compile("# (HELP|TYPE) (\\S+) ?(.*)");

    private ScrapedMetrics() {
    }

    static String scrape() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (var e = new Engine<>(EngineConfig.defaults(), new SimBackend(1, 1, x -> x == 7));
                DaemonMetrics jvm = new DaemonMetrics(registry)) {
            e.bindMetrics(registry);
            e.submit(new SimBackend.Job(2, 1, 1024, p -> false), Priority.NORMAL).await(Duration.ofSeconds(30));
            try {
                e.submit(new SimBackend.Job(8, 1, 1024, p -> false), Priority.NORMAL).await(Duration.ofSeconds(30));
            } catch (Exception expected) {
                // partition 7 fails in the prover
            }
            // a collection, so that the garbage collector's pause timer exists (it is made at the first)
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            String scrape;
            do {
                System.gc();
                Thread.sleep(50);
                scrape = registry.scrape();
            } while (!scrape.contains("jvm_gc_pause_seconds_count") && System.nanoTime() < deadline);
            return scrape;
        }
    }

    /** Metric family → its HELP text ("" where a family has a TYPE line and no HELP). */
    static Map<String, String> help(String scrape) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : scrape.split("\n")) {
            Matcher m = HEADER.matcher(line);
            if (m.matches()) {
                if (m.group(1).equals("TYPE")) {
                    out.putIfAbsent(m.group(2), "");
                } else {
                    out.put(m.group(2), m.group(3).strip());
                }
            }
        }
        return out;
    }
}
