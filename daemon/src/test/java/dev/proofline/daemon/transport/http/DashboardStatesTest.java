package dev.proofline.daemon.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.HeadlessChromium;
import dev.proofline.daemon.jobs.StatusJson;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.Priority;
import dev.proofline.engine.SimBackend;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard's page in states that live load rarely shows, in headless Chromium (skipped without it,
 * as {@link DashboardBrowserTest}): an engine that has proved nothing yet, a job with a failed
 * partition, and a durable store's single node ({@code local}). The page is served as the daemon
 * serves it, with {@code /status} and {@code /timeline} from a real engine (the simulated backend) as
 * the daemon writes them, and the cluster part as the job store's views write it.
 */
class DashboardStatesTest {

    private HttpServer server;
    private WebDriver browser;
    private final AtomicReference<Supplier<String>> status = new AtomicReference<>();
    private final AtomicReference<String> events = new AtomicReference<>("[]");

    @BeforeEach
    void start() throws IOException {
        assumeTrue(HeadlessChromium.installed(), HeadlessChromium.missing());
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            String path = x.getRequestURI().getPath();
            if (path.equals("/status")) {
                send(x, "application/json", status.get().get());
            } else if (path.equals("/timeline")) {
                // the first poll (since=0) gets every event, later polls what is new: nothing
                boolean first = x.getRequestURI().getQuery().contains("since=0&");
                send(x, "application/json", "{\"events\": " + (first ? events.get() : "[]")
                        + ", \"next\": \"c.1\", \"missed\": 0, \"reset\": false}");
            } else {
                try (InputStream page = Daemon.class.getResourceAsStream("web/index.html")) {
                    send(x, "text/html", new String(page.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        });
        server.start();
        browser = HeadlessChromium.start();
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    private static void send(HttpExchange x, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", type);
        x.sendResponseHeaders(200, b.length);
        x.getResponseBody().write(b);
        x.close();
    }

    private WebDriverWait open() {
        browser.get("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.ignoring(StaleElementReferenceException.class);
        wait.until(d -> "true".equals(d.findElement(By.id("conn")).getDomAttribute("data-ok")));
        return wait;
    }

    private static String busyNote(WebDriver d) {
        List<org.openqa.selenium.WebElement> note = d.findElements(By.cssSelector("#busy-chart text.empty-note"));
        return note.isEmpty() ? "" : note.get(0).getText();
    }

    @Test
    void anEmptyBusyChartSaysThereIsNoDataYetAndWhy() throws Exception {
        try (var e = new Engine<>(EngineConfig.defaults(), new SimBackend(1, 1, x -> false))) {
            status.set(() -> StatusJson.write(e.status()));
            WebDriverWait wait = open();
            wait.until(d -> "true".equals(d.findElement(By.id("busy-chart")).getDomAttribute("data-empty"))
                    && busyNote(d).startsWith("No data yet"));
            // two samples in, the prover still without work: the note says so rather than an empty chart
            wait.until(d -> busyNote(d).equals("No data yet: no partition has reached the prover since the daemon"
                    + " started."));
            assertTrue(browser.findElement(By.id("permits-reason")).getText()
                    .startsWith("auto: 2 to begin with (one partition proving, one synthesizing)"),
                    browser.findElement(By.id("permits-reason")).getText());
        }
    }

    @Test
    void aFailedPartitionsCellAndItsJobSayWhy() throws Exception {
        try (var e = new Engine<>(EngineConfig.defaults(), new SimBackend(1, 1, x -> x == 2))) {
            Engine.Job<?> job = e.submit(new SimBackend.Job(4, 1, 1024, p -> false), Priority.NORMAL);
            try {
                job.await(Duration.ofSeconds(30));
            } catch (Exception expected) {
                // partition 2 fails in the prover
            }
            status.set(() -> StatusJson.write(e.status()));
            events.set(StatusJson.timeline(e.timeline().snapshot()));
            WebDriverWait wait = open();
            wait.until(d -> !d.findElements(By.cssSelector("#partitions .cell[data-state=FAILED]")).isEmpty());
            String title = browser.findElement(By.cssSelector("#partitions .cell[data-state=FAILED]"))
                    .getDomAttribute("title");
            assertEquals(job.id() + "/2: failed: simulated prover failure on 2", title);
            assertEquals("partition 2 failed: simulated prover failure on 2",
                    browser.findElement(By.cssSelector("#partitions .job[data-job='" + job.id() + "'] .why")).getText());
            // and the busy chart has data: the prover ran
            wait.until(d -> "false".equals(d.findElement(By.id("busy-chart")).getDomAttribute("data-empty")));
        }
    }

    @Test
    void aClusterOfOneShowsNoTruncatedNodeNamesAndFailedCellsSayWhy() throws Exception {
        String cluster = """
                {"nodes": [{"id": "local", "grpc": "127.0.0.1:9090", "http": "127.0.0.1:8080", "backend": "cpu",
                  "heartbeat_age_ms": 400, "stopped": false, "permits_max": 2, "permits_in_use": 0, "proofs": 1,
                  "prover_busy": 0.1, "circuits": [], "holding": 0}],
                 "partitions": {"DONE": 1, "FAILED": 1},
                 "recent": [{"id": "job-1-ab", "circuit": "poseidon", "state": "FAILED",
                   "error": "partition 1: the witness does not satisfy the circuit", "submitted_by": "",
                   "partitions": [{"state": "DONE", "node": "local", "error": null},
                                  {"state": "FAILED", "node": "local", "error": "the witness does not satisfy the circuit"}]}]}
                """;
        try (var e = new Engine<>(EngineConfig.defaults(), new SimBackend(1, 1, x -> false))) {
            status.set(() -> StatusJson.write(e.status(), Map.of("node_id", "local", "database", "ok"), cluster));
            WebDriverWait wait = open();
            wait.until(d -> d.findElements(By.cssSelector("#cluster-jobs .cell")).size() == 2);
            for (var node : browser.findElements(By.cssSelector("#cluster-jobs .cell .node"))) {
                assertEquals("", node.getText(), "one node: no node label to tell apart, none cut short");
            }
            assertEquals("job-1-ab/1: failed on node local: the witness does not satisfy the circuit",
                    browser.findElement(By.cssSelector("#cluster-jobs .cell[data-state=FAILED]")).getDomAttribute("title"));
            assertEquals("partition 1 failed: the witness does not satisfy the circuit",
                    browser.findElement(By.cssSelector("#cluster-jobs .why")).getText());

            // two nodes: each cell shows its node's number in the table, whole
            status.set(() -> StatusJson.write(e.status(), Map.of("node_id", "local", "database", "ok"),
                    cluster.replace("\"nodes\": [", "\"nodes\": [{\"id\": \"prover-b\", \"grpc\": \"\", \"http\": \"\","
                            + " \"backend\": \"cpu\", \"heartbeat_age_ms\": 1, \"stopped\": false, \"permits_max\": 1,"
                            + " \"permits_in_use\": 0, \"proofs\": 0, \"prover_busy\": 0, \"holding\": 0}, ")));
            wait.until(d -> d.findElement(By.cssSelector("#cluster-jobs .cell .node")).getText().equals("2"));
            assertEquals("2", browser.findElement(By.cssSelector("#node-rows tr[data-node=local] td")).getText());
        }
    }
}
