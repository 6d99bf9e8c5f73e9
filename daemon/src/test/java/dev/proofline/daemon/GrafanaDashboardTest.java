package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/grafana: the dashboard and the alert rules ask only for series the daemon exports, so that
 * a renamed meter cannot leave an empty panel or an alert that never fires.
 */
class GrafanaDashboardTest {

    private static final Path DOCS = Path.of("..", "docs", "grafana");
    private static final Pattern SERIES = Pattern.compile("(proofline|jvm|process)_[a-z_]+");

    /** The series names a daemon's meters export in Prometheus's text format once work has run. */
    private static Set<String> exported() throws Exception {
        Set<String> names = new TreeSet<>();
        for (String line : ScrapedMetrics.scrape().split("\n")) {
            Matcher m = SERIES.matcher(line);
            if (!line.startsWith("#") && m.lookingAt()) {
                names.add(m.group());
            }
        }
        return names;
    }

    /** The cluster meters are registered by the daemon (DaemonMetrics.java) when it runs on a job store. */
    private static Set<String> daemonMeters() throws Exception {
        String source = Files.readString(Path.of("src/main/java/dev/proofline/daemon/DaemonMetrics.java"));
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("\"(proofline\\.cluster\\.[a-z.]+)\"").matcher(source);
        while (m.find()) {
            names.add(m.group(1).replace('.', '_'));
        }
        return names;
    }

    private static Set<String> asked(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = SERIES.matcher(text);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    @Test
    void everySeriesTheDashboardAndTheAlertsAskForIsExported() throws Exception {
        Set<String> known = exported();
        known.addAll(daemonMeters());
        assertTrue(known.contains("proofline_permits_max"), known.toString());
        JsonNode dashboard = new ObjectMapper().readTree(DOCS.resolve("proofline.json").toFile());
        assertEquals("Proofline", dashboard.get("title").asText());
        assertTrue(dashboard.get("panels").size() >= 8, "panels");
        Set<String> unknown = new TreeSet<>();
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                for (String s : asked(target.get("expr").asText())) {
                    if (!known.contains(s)) {
                        unknown.add(panel.get("title").asText() + ": " + s);
                    }
                }
            }
        }
        for (String s : asked(Files.readString(DOCS.resolve("alerts.yml")))) {
            if (!known.contains(s)) {
                unknown.add("alerts.yml: " + s);
            }
        }
        assertTrue(unknown.isEmpty(), "series not exported: " + unknown + "; exported: " + known);
    }
}
