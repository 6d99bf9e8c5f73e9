package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} as Prometheus reads it: every family says what it counts and in what unit, stage
 * times come with histogram buckets from milliseconds to minutes, per circuit, and the JVM's heap,
 * garbage collection and threads are there.
 */
class DaemonMetricsTest {

    /** Words that name what a Proofline family counts or its unit. */
    private static final Pattern UNIT = Pattern.compile(
            "\\b(seconds|bytes|partitions|permits|buffers|keys|PCEs|releases|statements|claims|fraction|1 while)\\b");

    private static String scrape;

    @BeforeAll
    static void run() throws Exception {
        scrape = ScrapedMetrics.scrape();
    }

    @Test
    void everyFamilyHasHelpTextAndProoflinesNameTheirUnit() {
        Map<String, String> help = ScrapedMetrics.help(scrape);
        assertTrue(help.size() > 30, help.keySet().toString());
        List<String> bad = new ArrayList<>();
        help.forEach((family, text) -> {
            if (text.isBlank()) {
                bad.add(family + ": no HELP");
            } else if (family.startsWith("proofline_") && !UNIT.matcher(text).find()) {
                bad.add(family + ": no unit in \"" + text + "\"");
            }
        });
        assertEquals(List.of(), bad);
    }

    @Test
    void stageTimesHaveBucketsFromMillisecondsToMinutesPerCircuit() {
        Map<Double, Long> buckets = new TreeMap<>();
        Matcher m = Pattern.compile("proofline_stage_seconds_bucket\\{circuit=\"sim\",stage=\"prover\",le=\"([^\"]+)\"} (\\S+)")
                .matcher(scrape);
        while (m.find()) {
            buckets.put(m.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1)),
                    (long) Double.parseDouble(m.group(2)));
        }
        assertTrue(buckets.containsKey(0.01) && buckets.containsKey(0.1) && buckets.containsKey(1.0)
                && buckets.containsKey(10.0) && buckets.containsKey(60.0) && buckets.containsKey(300.0), buckets.toString());
        Matcher done = Pattern.compile("proofline_partitions_total\\{circuit=\"sim\",outcome=\"done\"} (\\S+)")
                .matcher(scrape);
        assertTrue(done.find(), scrape);
        assertEquals((long) Double.parseDouble(done.group(1)), buckets.get(Double.POSITIVE_INFINITY),
                "each proved partition, once: " + buckets);
        for (String stage : new String[] {"queue_wait", "synthesis", "prover_wait", "prover", "finalize", "total"}) {
            assertTrue(scrape.contains("proofline_stage_seconds_count{circuit=\"sim\",stage=\"" + stage + "\"}"), stage);
        }
    }

    @Test
    void outcomesAreCountedPerCircuit() {
        // 2 + 7 proved (partition 7 of the second job fails; whatever of it was not proved yet is cancelled)
        assertTrue(scrape.contains("proofline_partitions_total{circuit=\"sim\",outcome=\"failed\"} 1.0"), scrape);
        Matcher done = Pattern.compile("proofline_partitions_total\\{circuit=\"sim\",outcome=\"done\"} (\\S+)").matcher(scrape);
        assertTrue(done.find() && Double.parseDouble(done.group(1)) >= 2, scrape);
    }

    @Test
    void theJvmsHeapGcAndThreadsAreExported() {
        for (String family : new String[] {"jvm_memory_used_bytes", "jvm_memory_max_bytes", "jvm_gc_memory_allocated_bytes",
            "jvm_gc_live_data_size_bytes", "jvm_gc_pause_seconds", "jvm_threads_live_threads", "jvm_threads_states_threads",
            "jvm_classes_loaded_classes", "process_cpu_usage", "process_uptime_seconds"}) {
            assertTrue(scrape.contains("\n" + family), family);
        }
        assertTrue(scrape.contains("jvm_memory_used_bytes{area=\"heap\""), "heap by pool");
    }
}
