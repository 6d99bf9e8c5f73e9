package dev.proofline.daemon.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.CancelProofRequest;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.Priority;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.daemon.HeadlessChromium;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in headless Chromium against a daemon with jobs in flight: partition cells in several
 * states, the busy chart, the memory bar and the timeline waterfall fill in from live data and move on
 * their own. Needs the system's {@code chromium} and {@code chromedriver} (the Debian packages
 * {@code chromium} and {@code chromium-driver}; other paths with {@code -Dproofline.chromium=} and
 * {@code -Dproofline.chromedriver=}); skipped without them. Leaves a screenshot in
 * {@code target/dashboard.png}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardBrowserTest {


    @TempDir
    static Path tmp;

    private Daemon daemon;
    private ManagedChannel channel;
    private WebDriver browser;
    private Map<String, Partition> witnesses;
    private Thread load;
    private volatile boolean stopLoad;
    private final AtomicReference<Throwable> loadFailure = new AtomicReference<>();

    @BeforeAll
    void start() throws Exception {
        if (!HeadlessChromium.installed()) {
            return;   // each test reports itself skipped
        }
        CircomFixtures.Fixture bn = CircomFixtures.build("bn128", "poseidon");
        CircomFixtures.Fixture bls = CircomFixtures.build("bls12381", "poseidon");
        Path keys = tmp.resolve("keys");
        for (var c : Map.of("poseidon-bn128", bn, "poseidon-bls12381", bls).entrySet()) {
            Files.createDirectories(keys.resolve(c.getKey()));
            Files.copy(c.getValue().zkey(), keys.resolve(c.getKey()).resolve("circuit.zkey"));
        }
        daemon = Daemon.start(DaemonToml.inMemory(keys)
                .set("keys.preload", List.of("poseidon-bn128", "poseidon-bls12381")).set("engine.budget", "32MiB")
                .set("engine.permits", 2).set("engine.result_retention", "10m").set("limits.max_partitions", 64)
                .parse("dashboard.toml"), l -> { });
        channel = NettyChannelBuilder.forTarget(daemon.grpcAddress()).usePlaintext().build();
        witnesses = Map.of("poseidon-bn128", wtns(bn), "poseidon-bls12381", wtns(bls));

        browser = HeadlessChromium.start();
    }

    @BeforeEach
    void needsTheBrowser() {
        assumeTrue(HeadlessChromium.installed(), HeadlessChromium.missing());
    }

    private static Partition wtns(CircomFixtures.Fixture fx) throws Exception {
        return Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(fx.wtns()))).build();
    }

    /**
     * Starts keeping about three jobs of many partitions running on both curves until the test ends;
     * the first job is cancelled at once, so its cells stay cancelled.
     */
    private void startLoad(Map<String, Partition> witnesses) {
        var stub = ProvingEngineGrpc.newBlockingStub(channel);
        List<String> circuits = List.copyOf(new TreeSet<>(witnesses.keySet()));
        load = Thread.ofPlatform().name("dashboard-load").daemon().start(() -> {
            try {
                int n = 0;
                while (!stopLoad) {
                    if (n > 0 && daemon.engine().status().jobsActive() >= 3) {
                        Thread.sleep(50);
                        continue;
                    }
                    String circuit = circuits.get(n % circuits.size());
                    SubmitProofRequest.Builder b = SubmitProofRequest.newBuilder().setCircuitId(circuit)
                            .setPriority(n % 3 == 2 ? Priority.HIGH : Priority.NORMAL);
                    for (int p = 0; p < 12 + 4 * (n % 3); p++) {
                        b.addPartitions(witnesses.get(circuit));
                    }
                    String job = stub.submitProof(b.build()).getJobId();
                    if (n == 0) {
                        stub.cancelProof(CancelProofRequest.newBuilder().setJobId(job).build());
                    }
                    n++;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                if (!stopLoad) {
                    loadFailure.set(t);
                }
            }
        });
    }

    @AfterAll
    void stop() throws Exception {
        stopLoad = true;
        if (browser != null) {
            browser.quit();
        }
        if (load != null) {
            load.join(TimeUnit.SECONDS.toMillis(30));
        }
        if (channel != null) {
            channel.shutdownNow();
        }
        if (daemon != null) {
            daemon.shutdown(Duration.ZERO);
        }
    }

    private static String attr(WebDriver d, String css, String name) {
        return d.findElement(By.cssSelector(css)).getDomAttribute(name);
    }

    private static int intAttr(WebDriver d, String css, String name) {
        String v = attr(d, css, name);
        return v == null ? 0 : Integer.parseInt(v);
    }

    private static String text(WebDriver d, String id) {
        return d.findElement(By.id(id)).getText();
    }

    /** The states of the partition cells, read in one go (the page redraws them every second). */
    @SuppressWarnings("unchecked")
    private static Set<String> cellStates(WebDriver d) {
        return new TreeSet<>((List<String>) ((JavascriptExecutor) d).executeScript(
                "return [...document.querySelectorAll('#partitions .cell[data-state]')].map(c => c.dataset.state);"));
    }

    private static int busyPoints(WebDriver d) {
        String pts = attr(d, "#busy-chart polyline.busy-now", "points");
        return pts == null || pts.isBlank() ? 0 : pts.trim().split("\\s+").length;
    }

    /** What the page shows that moves while work runs. */
    private record View(String uptime, int samples, String busyLine, String cells, String waterfall) {
        static View of(WebDriver d) {
            return new View(attr(d, "#uptime", "data-ms"), intAttr(d, "#busy-chart", "data-samples"),
                    attr(d, "#busy-chart polyline.busy-now", "points"),
                    d.findElement(By.id("partitions")).getDomProperty("innerHTML"),
                    d.findElement(By.id("waterfall")).getDomProperty("innerHTML"));
        }
    }

    @Test
    void theDashboardShowsLiveWork() throws Exception {
        browser.get("http://" + daemon.httpAddress() + "/");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(120));
        wait.ignoring(StaleElementReferenceException.class);
        wait.until(d -> "true".equals(attr(d, "#conn", "data-ok")));
        assertEquals("cpu", text(browser, "backend"));
        assertEquals("2", text(browser, "permits-max"));
        assertTrue(text(browser, "partitions").contains("No jobs yet"), text(browser, "partitions"));
        startLoad(witnesses);

        // cells: the cancelled first job, then queued and running ones, and done ones as jobs finish
        wait.until(d -> cellStates(d).contains("CANCELLED") && cellStates(d).contains("QUEUED"));
        wait.until(d -> cellStates(d).size() >= 3 && cellStates(d).contains("DONE"));
        assertEquals(8, browser.findElements(By.cssSelector("#legend .key[data-state]")).size());

        // the busy chart: a point per second once two samples are in, and the prover has been busy
        wait.until(d -> busyPoints(d) >= 3 && !attr(d, "#busy-chart", "data-latest").isEmpty()
                && Double.parseDouble(attr(d, "#busy-chart", "data-latest")) > 0);
        // (read through the wait, which retries when a redraw replaces the line being read)
        wait.until(d -> intAttr(d, "#busy-chart", "data-samples") >= busyPoints(d));
        wait.until(d -> !text(d, "busy-minute").equals("0 %"));
        assertTrue(text(browser, "busy-minute").matches("[0-9.]+ %"), text(browser, "busy-minute"));

        // the memory bar against the engine's 24 MiB (the 32 MiB budget less the requests' quarter): both
        // keys are resident, so the KEY segment has bytes
        assertEquals(String.valueOf(24L << 20), attr(browser, "#memory", "data-total"));
        assertEquals("24 MiB", text(browser, "memory-total"));
        wait.until(d -> Long.parseLong(attr(d, "#memory .segment[data-kind=KEY]", "data-bytes")) > 0);
        assertTrue(browser.findElement(By.cssSelector("#memory .segment[data-kind=KEY]")).getSize().getWidth() > 0);
        assertTrue(text(browser, "memory-summary").contains("of 24 MiB reserved"), text(browser, "memory-summary"));
        assertEquals(2, browser.findElements(By.cssSelector("#resident-rows tr[data-kind=KEY]")).size(),
                text(browser, "resident"));

        // the waterfall: a row per partition, with synthesis and prover segments drawn
        wait.until(d -> d.findElements(By.cssSelector("#waterfall .row")).size() >= 10
                && !d.findElements(By.cssSelector("#waterfall .row rect.seg-prove")).isEmpty());
        // the drawn rows match the count the page gives (read through the wait: a redraw between the two reads
        // replaces both)
        wait.until(d -> d.findElements(By.cssSelector("#waterfall .row")).size() == intAttr(d, "#waterfall", "data-rows"));
        assertFalse(browser.findElements(By.cssSelector("#waterfall rect.seg-synth")).isEmpty());
        wait.until(d -> !d.findElements(By.cssSelector("#waterfall .row[data-outcome=done]")).isEmpty());

        // it moves on its own: two reads a second apart differ
        View before = wait.until(View::of);   // retried when a redraw replaces an element being read
        Thread.sleep(1000);
        wait.until(d -> View.of(d).samples() > before.samples());   // a slow refresh may still be under way
        View after = wait.until(View::of);
        assertNotEquals(before.uptime(), after.uptime());
        assertNotEquals(before.busyLine(), after.busyLine());
        assertNotEquals(before.waterfall(), after.waterfall());
        wait.until(d -> !View.of(d).cells().equals(after.cells()));

        Path shot = Path.of("target", "dashboard.png");
        Files.createDirectories(shot.getParent());
        Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        assertNull(loadFailure.get(), () -> "submitting load failed: " + loadFailure.get());
    }

    @Test
    void withATokenThePagePassesItsQueryOnToTheApi() throws Exception {
        DaemonConfig cfg = DaemonToml.inMemory(tmp.resolve("none")).set("server.auth_token", "s3cret")
                .parse("token.toml");
        Daemon d = Daemon.start(cfg, l -> { });
        try {
            browser.get("http://" + d.httpAddress() + "/?token=s3cret");
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            wait.until(b -> "true".equals(attr(b, "#conn", "data-ok")));
            assertEquals("cpu", text(browser, "backend"));
            assertTrue(browser.findElement(By.id("partitions")).getText().contains("No jobs yet"));
        } finally {
            d.shutdown(Duration.ZERO);
        }
    }
}
