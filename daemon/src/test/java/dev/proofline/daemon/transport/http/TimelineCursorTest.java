package dev.proofline.daemon.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.groth16.testing.CircomFixtures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /timeline?since=<cursor>} on a daemon on loopback, by real HTTP requests: a poller that passes
 * each answer's {@code next} gets every event once, in order, and nothing twice; {@code limit} keeps the
 * newest and counts the rest; a cursor from another daemon process starts over; a malformed cursor, or one
 * ahead of the timeline, is a 400 with a JSON error.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TimelineCursorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    private Daemon daemon;
    private String wtns;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    void start() throws Exception {
        CircomFixtures.Fixture mul = CircomFixtures.build("bn128", "multiplier");
        wtns = Base64.getEncoder().encodeToString(Files.readAllBytes(mul.wtns()));
        Path dir = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), dir.resolve("circuit.zkey"));
        daemon = Daemon.start(DaemonToml.inMemory(tmp.resolve("keys")).parse("timeline.toml"), l -> { });
    }

    @AfterAll
    void stop() throws Exception {
        daemon.shutdown(Duration.ofSeconds(5));
    }

    @Test
    void aPollerPassingEachNextCursorSeesEveryEventOnceAndInOrder() throws Exception {
        prove();
        JsonNode first = page("/timeline?since=0&limit=100000");
        assertFalse(first.get("events").isEmpty(), first.toString());
        assertEquals(0, first.get("missed").asLong());
        assertFalse(first.get("reset").asBoolean());
        String cursor = first.get("next").asText();

        JsonNode nothing = page("/timeline?since=" + cursor);
        assertEquals(0, nothing.get("events").size(), "no event since: " + nothing);
        assertEquals(cursor, nothing.get("next").asText(), "nothing new, the cursor stays");

        prove();
        JsonNode second = page("/timeline?since=" + cursor + "&limit=100000");
        assertNotEquals(cursor, second.get("next").asText());
        Set<String> firstJobs = jobs(first);
        Set<String> secondJobs = jobs(second);
        assertFalse(secondJobs.isEmpty());
        secondJobs.retainAll(firstJobs);
        assertEquals(Set.of(), secondJobs, "an event of the first page came again");
        assertTrue(kinds(second).contains("JOB_DONE"), second.toString());

        // the two pages are the timeline, as /timeline without a cursor gives it
        List<JsonNode> polled = new ArrayList<>();
        first.get("events").forEach(polled::add);
        second.get("events").forEach(polled::add);
        List<JsonNode> whole = new ArrayList<>();
        JSON.readTree(get("/timeline?limit=100000").body()).forEach(whole::add);
        assertEquals(whole, polled);
    }

    @Test
    void aLimitKeepsTheNewestEventsAndCountsTheRest() throws Exception {
        prove();
        List<JsonNode> whole = new ArrayList<>();
        JSON.readTree(get("/timeline?limit=100000").body()).forEach(whole::add);
        JsonNode two = page("/timeline?since=0&limit=2");
        List<JsonNode> events = new ArrayList<>();
        two.get("events").forEach(events::add);
        assertEquals(whole.subList(whole.size() - 2, whole.size()), events);
        assertEquals(whole.size() - 2, two.get("missed").asLong());
    }

    @Test
    void aCursorFromAnotherDaemonProcessStartsOver() throws Exception {
        prove();
        JsonNode other = page("/timeline?since=0000000000000000.3&limit=100000");
        assertTrue(other.get("reset").asBoolean(), other.toString());
        assertEquals(page("/timeline?since=0&limit=100000").get("events"), other.get("events"));
    }

    @Test
    void aMalformedCursorOrOneAheadOfTheTimelineIsA400WithAJsonError() throws Exception {
        for (String bad : List.of("yesterday", "", "-1", "0123456789abcdef", "0123456789abcdef.x",
                "0123456789ABCDEF.1", "%00")) {
            assertError(get("/timeline?since=" + bad), "'since' must be 0 or a cursor");
        }
        String next = page("/timeline?since=0").get("next").asText();
        String epoch = next.substring(0, next.indexOf('.'));
        assertError(get("/timeline?since=" + epoch + ".999999999"), "is ahead of this daemon's timeline");
    }

    // ------------------------------------------------------------------ helpers

    private void prove() throws Exception {
        ObjectNode job = JSON.createObjectNode().put("circuit", "multiplier");
        job.putArray("partitions").addObject().put("wtns", wtns);
        HttpResponse<String> submitted = send(HttpRequest.newBuilder(uri("/v1/jobs"))
                .POST(HttpRequest.BodyPublishers.ofString(job.toString())));
        assertEquals(201, submitted.statusCode(), submitted.body());
        String id = JSON.readTree(submitted.body()).get("job_id").asText();
        HttpResponse<String> done = get("/v1/jobs/" + id + "?wait_ms=60000");
        assertEquals("DONE", JSON.readTree(done.body()).get("state").asText(), done.body());
    }

    private JsonNode page(String target) throws Exception {
        HttpResponse<String> r = get(target);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode page = JSON.readTree(r.body());
        assertTrue(page.get("events").isArray() && page.get("next").isTextual(), r.body());
        return page;
    }

    private static void assertError(HttpResponse<String> r, String inMessage) throws Exception {
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("application/json"));
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals("INVALID_ARGUMENT", e.get("code").asText(), r.body());
        assertTrue(e.get("message").asText().contains(inMessage), r.body());
    }

    private static Set<String> jobs(JsonNode page) {
        Set<String> out = new HashSet<>();
        page.get("events").forEach(e -> out.add(e.get("job").asText()));
        return out;
    }

    private static Set<String> kinds(JsonNode page) {
        Set<String> out = new HashSet<>();
        page.get("events").forEach(e -> out.add(e.get("kind").asText()));
        return out;
    }

    private URI uri(String target) {
        return URI.create("http://" + daemon.httpAddress() + target);
    }

    private HttpResponse<String> get(String target) throws Exception {
        return send(HttpRequest.newBuilder(uri(target)));
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
