package dev.proofline.daemon.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP JSON API (/v1/) of a daemon on loopback, driven by real HTTP requests: a circom witness and
 * circom inputs proved and verified, cancellation, deadlines, idempotency, and each kind of bad request
 * answered with its JSON error, status and the same code and message as gRPC.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsonApiTest {

    private static final String TOKEN = "s3cret";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    private Daemon daemon;
    private CircomFixtures.Fixture mul;
    private VerificationKey vk;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    void start() throws Exception {
        mul = CircomFixtures.build("bn128", "multiplier");
        vk = SnarkjsJson.readVerificationKey(mul.vk());
        Path dir = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), dir.resolve("circuit.zkey"));
        Files.copy(mul.wasm(), dir.resolve("circuit.wasm"));
        Files.copy(mul.r1cs(), dir.resolve("circuit.r1cs"));
        daemon = Daemon.start(DaemonToml.inMemory(tmp.resolve("keys")).set("server.auth_token", TOKEN)
                .set("engine.permits", 1).set("engine.request_memory", "32MiB").set("limits.max_partitions", 512)
                .set("http.max_concurrent_requests", 4).set("http.max_body_bytes", "1KiB")
                .set("http.max_job_bytes", "1MiB").parse("api.toml"), l -> { });
    }

    @AfterAll
    void stop() throws Exception {
        daemon.shutdown(Duration.ofSeconds(5));
    }

    // ------------------------------------------------------------------ proving

    @Test
    void aWitnessAndCircomInputsAreProvedAndTheProofsVerifyHereAndInSnarkjs() throws Exception {
        ObjectNode job = submission();
        job.withArray("partitions").addObject().set("input", JSON.readTree(Files.readString(mul.input())));
        HttpResponse<String> submitted = send("POST", "/v1/jobs", job.toString());
        assertEquals(201, submitted.statusCode(), submitted.body());
        JsonNode s = JSON.readTree(submitted.body());
        assertFalse(s.get("existing").asBoolean());
        assertTrue(s.get("queue_position").isInt());

        JsonNode done = awaitDone(s.get("job_id").asText());
        assertEquals(2, done.get("partitions").size());
        List<BigInteger> expected = SnarkjsJson.readPublic(mul.publicJson());
        for (JsonNode p : done.get("partitions")) {
            assertEquals("done", p.get("state").asText());
            // public signals are decimal strings, as snarkjs writes public.json
            List<BigInteger> signals = iterable(p.get("public_signals")).stream().map(n -> {
                assertTrue(n.isTextual(), n.toString());
                return new BigInteger(n.asText());
            }).toList();
            assertEquals(expected, signals);
            byte[] proof = p.get("proof").toString().getBytes(StandardCharsets.UTF_8);
            assertTrue(Verifier.verify(vk, signals, SnarkjsJson.readProof(proof, "proof.json", PairingCurve.BN254)),
                    "the proof of partition " + p.get("partition") + " verifies");
            assertEquals("groth16", p.get("proof").get("protocol").asText());
            // and snarkjs takes the two as served, as its proof.json and public.json
            Path proofFile = tmp.resolve("proof-" + p.get("partition") + ".json");
            Path publicFile = tmp.resolve("public-" + p.get("partition") + ".json");
            Files.writeString(proofFile, p.get("proof").toString());
            Files.writeString(publicFile, p.get("public_signals").toString());
            assertTrue(CircomFixtures.snarkjsVerifies(mul.vk(), publicFile, proofFile), "snarkjs rejects the proof");
            assertTrue(p.get("timings").get("total_ms").asDouble() >= p.get("timings").get("prover_ms").asDouble());
        }
    }

    @Test
    void aSecondSubmissionWithTheSameIdempotencyKeyReturnsTheFirstJob() throws Exception {
        ObjectNode job = submission().put("idempotency_key", "order-17").put("priority", "high");
        HttpResponse<String> first = send("POST", "/v1/jobs", job.toString());
        HttpResponse<String> second = send("POST", "/v1/jobs", job.toString());
        assertEquals(201, first.statusCode(), first.body());
        assertEquals(200, second.statusCode(), second.body());
        assertEquals(JSON.readTree(first.body()).get("job_id"), JSON.readTree(second.body()).get("job_id"));
        assertTrue(JSON.readTree(second.body()).get("existing").asBoolean());
    }

    @Test
    void aCancelledJobAndAJobPastItsDeadlineAnswer409WithTheirCodes() throws Exception {
        ObjectNode many = JSON.createObjectNode().put("circuit", "multiplier").put("priority", "LOW");
        String wtns = Base64.getEncoder().encodeToString(Files.readAllBytes(mul.wtns()));
        for (int i = 0; i < 256; i++) {
            many.withArray("partitions").addObject().put("wtns", wtns);
        }
        String id = JSON.readTree(send("POST", "/v1/jobs", many.toString()).body()).get("job_id").asText();
        HttpResponse<String> cancelled = send("DELETE", "/v1/jobs/" + id, null);
        assertEquals(200, cancelled.statusCode(), cancelled.body());
        assertEquals("CANCELLED", JSON.readTree(cancelled.body()).get("state").asText());
        assertError(send("GET", "/v1/jobs/" + id + "?wait_ms=10000", null), 409, "CANCELLED", "the job was cancelled");

        String late = JSON.readTree(send("POST", "/v1/jobs", many.put("deadline_ms", 1).toString()).body())
                .get("job_id").asText();
        assertError(send("GET", "/v1/jobs/" + late + "?wait_ms=60000", null), 409, "DEADLINE_EXCEEDED", "deadline");
        assertError(send("DELETE", "/v1/jobs/no-such-job", null), 404, "NOT_FOUND", "no job 'no-such-job'");
    }

    @Test
    void requestsWaitingForAJobHoldNoneOfTheConcurrentRequestPlaces() throws Exception {
        ObjectNode many = JSON.createObjectNode().put("circuit", "multiplier").put("priority", "LOW");
        String wtns = Base64.getEncoder().encodeToString(Files.readAllBytes(mul.wtns()));
        for (int i = 0; i < 512; i++) {
            many.withArray("partitions").addObject().put("wtns", wtns);
        }
        String id = JSON.readTree(send("POST", "/v1/jobs", many.toString()).body()).get("job_id").asText();
        // twice http.max_concurrent_requests (4) wait for the job ...
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> waiting = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waiting.add(http.sendAsync(authorized(HttpRequest.newBuilder(uri("/v1/jobs/" + id + "?wait_ms=120000")))
                    .build(), HttpResponse.BodyHandlers.ofString()));
            // one after the other: each holds a place only until it starts waiting, but arrivals at the same
            // instant could still find the places taken
            Thread.sleep(100);
        }
        Thread.sleep(500); // for them to arrive; were they late, the check below would pass without testing
        // ... and other requests are still answered
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = send("GET", "/v1/circuits", null);
            assertEquals(200, r.statusCode(), r.body());
        }
        for (var w : waiting) {
            assertFalse(w.isDone(), () -> "a request answered before the job ended: " + w.join().statusCode() + " "
                    + w.join().body());
        }
        assertEquals("CANCELLED", JSON.readTree(send("DELETE", "/v1/jobs/" + id, null).body()).get("state").asText());
        for (var w : waiting) {
            assertError(w.get(1, java.util.concurrent.TimeUnit.MINUTES), 409, "CANCELLED", "the job was cancelled");
        }
    }

    @Test
    void aShortWaitIsAnsweredWhileTheJobIsStillProving() throws Exception {
        ObjectNode many = JSON.createObjectNode().put("circuit", "multiplier").put("priority", "LOW");
        String wtns = Base64.getEncoder().encodeToString(Files.readAllBytes(mul.wtns()));
        for (int i = 0; i < 256; i++) {
            many.withArray("partitions").addObject().put("wtns", wtns);
        }
        String id = JSON.readTree(send("POST", "/v1/jobs", many.toString()).body()).get("job_id").asText();
        try {
            Thread.sleep(200); // the prover busy with the job's first partitions
            // the wait's timer must not queue behind the proofs' work (it did on the common fork-join pool,
            // and the answer came only once the job had ended)
            HttpResponse<String> r = send("GET", "/v1/jobs/" + id + "?wait_ms=1", null);
            assertEquals(200, r.statusCode(), r.body());
            JsonNode state = JSON.readTree(r.body());
            assertNotEquals("DONE", state.get("state").asText(), r.body());
        } finally {
            send("DELETE", "/v1/jobs/" + id, null);
        }
    }

    @Test
    void theCircuitsAreListed() throws Exception {
        HttpResponse<String> r = send("GET", "/v1/circuits", null);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode c = JSON.readTree(r.body()).get("circuits");
        assertEquals(1, c.size());
        assertEquals("multiplier", c.get(0).get("id").asText());
        assertEquals("circom", c.get(0).get("kind").asText());
        assertTrue(c.get(0).get("has_wasm").asBoolean());
    }

    // ------------------------------------------------------------------ errors

    @Test
    void refusalsCarryTheSameCodeAndMessageAsGrpc() throws Exception {
        byte[] tampered = Files.readAllBytes(mul.wtns());
        tampered[tampered.length - 32] ^= 1;
        byte[] truncated = java.util.Arrays.copyOf(Files.readAllBytes(mul.wtns()), 40);
        ManagedChannel ch = NettyChannelBuilder.forTarget(daemon.grpcAddress()).usePlaintext().build();
        try {
            Metadata bearer = new Metadata();
            bearer.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + TOKEN);
            var grpc = ProvingEngineGrpc.newBlockingStub(ch)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(bearer));
            record Case(String circuit, byte[] wtns, int status) {
            }
            for (Case c : List.of(new Case("no-such-circuit", Files.readAllBytes(mul.wtns()), 404),
                    new Case("multiplier", tampered, 400), new Case("multiplier", truncated, 400))) {
                StatusRuntimeException g = assertThrows(StatusRuntimeException.class, () -> grpc.submitProof(
                        SubmitProofRequest.newBuilder().setCircuitId(c.circuit()).addPartitions(Partition.newBuilder()
                                .setWtns(ByteString.copyFrom(c.wtns()))).build()));
                ObjectNode job = JSON.createObjectNode().put("circuit", c.circuit());
                job.withArray("partitions").addObject().put("wtns", Base64.getEncoder().encodeToString(c.wtns()));
                HttpResponse<String> r = send("POST", "/v1/jobs", job.toString());
                JsonNode e = assertError(r, c.status(), g.getStatus().getCode().name(), "");
                assertEquals(g.getStatus().getDescription(), e.get("message").asText());
            }
        } finally {
            ch.shutdownNow();
        }
    }

    @Test
    void badRequestsAreAnsweredWithJsonErrors() throws Exception {
        assertError(send("POST", "/v1/jobs", "{\"circuit\": \"multiplier\", \"partitions\": [{\"wtns\": \"not*base64\"}]}"),
                400, "INVALID_ARGUMENT", "partitions[0].wtns is not base64");
        assertError(send("POST", "/v1/jobs", "{\"circuit\": \"multiplier\", \"partitions\": ["), 400, "INVALID_ARGUMENT",
                "the body is not JSON");
        assertError(send("POST", "/v1/jobs", "{\"circuit\": \"multiplier\", \"partitions\": []}"), 400,
                "INVALID_ARGUMENT", "at least one partition");
        assertError(send("POST", "/v1/jobs", "{\"circut\": \"multiplier\"}"), 400, "INVALID_ARGUMENT",
                "unknown field 'circut'");
        assertError(send("POST", "/v1/jobs", submission().put("priority", "urgent").toString()), 400,
                "INVALID_ARGUMENT", "'priority' must be");
        assertError(send("GET", "/v1/jobs/x?wait_ms=soon", null), 400, "INVALID_ARGUMENT", "wait_ms");
        assertError(send("GET", "/v1/jobs/no-such-job", null), 404, "NOT_FOUND", "no job 'no-such-job'");
        assertError(send("GET", "/v1/nothing-here", null), 404, "NOT_FOUND", "no route");
        assertError(send("PUT", "/v1/circuits", "{}"), 405, "UNIMPLEMENTED", "PUT");
    }

    @Test
    void aRequestWithoutTheTokenIsRefused() throws Exception {
        for (String[] r : new String[][] {{"GET", "/v1/circuits"}, {"POST", "/v1/jobs"}, {"DELETE", "/v1/jobs/x"}}) {
            HttpRequest.Builder b = HttpRequest.newBuilder(uri(r[1])).method(r[0], HttpRequest.BodyPublishers.ofString(
                    submission().toString()));
            assertError(http.send(b.build(), HttpResponse.BodyHandlers.ofString()), 401, "UNAUTHENTICATED", "Bearer");
            assertError(http.send(b.header("Authorization", "Bearer wrong").build(),
                    HttpResponse.BodyHandlers.ofString()), 401, "UNAUTHENTICATED", "Bearer");
        }
    }

    @Test
    void aJobMayBeLargerThanOtherBodiesUpToItsOwnLimit() throws Exception {
        // 1 KiB bounds every other route: a 4 KiB submission passes (the witnesses' limit is 1 MiB) ...
        ObjectNode job = submission();
        for (int i = 0; i < 8; i++) {
            job.withArray("partitions").add(job.withArray("partitions").get(0));
        }
        assertTrue(job.toString().length() > 4096, "the submission is larger than max_body_bytes");
        assertEquals(201, send("POST", "/v1/jobs", job.toString()).statusCode());
        // ... a body of 2 MiB is not, announced or chunked
        String huge = "{\"circuit\": \"multiplier\", \"partitions\": [{\"wtns\": \"" + "A".repeat(2 << 20) + "\"}]}";
        assertError(send("POST", "/v1/jobs", huge), 413, "RESOURCE_EXHAUSTED", "http.max_job_bytes");
        HttpRequest chunked = authorized(HttpRequest.newBuilder(uri("/v1/jobs")).POST(HttpRequest.BodyPublishers
                .ofInputStream(() -> new java.io.ByteArrayInputStream(huge.getBytes(StandardCharsets.UTF_8))))).build();
        assertError(http.send(chunked, HttpResponse.BodyHandlers.ofString()), 413, "RESOURCE_EXHAUSTED",
                "http.max_job_bytes");
        // and a 4 KiB body elsewhere is past max_body_bytes
        assertError(send("PUT", "/v1/circuits", job.toString()), 413, "RESOURCE_EXHAUSTED", "http.max_body_bytes");
    }

    @Test
    void submissionsBeingReceivedShareTheRequestsMemory() throws Exception {
        // engine.request_memory, 32 MiB = 33,554,432 bytes, counted as the bytes arrive, each at what it costs
        // while it is decoded (8): four bodies of which 900,000 bytes arrived fit, a fifth's 900,000 do not
        String host = daemon.httpAddress().substring(0, daemon.httpAddress().lastIndexOf(':'));
        int port = Integer.parseInt(daemon.httpAddress().substring(daemon.httpAddress().lastIndexOf(':') + 1));
        String head = "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                + "\r\nContent-Length: 1000000\r\nExpect: 100-continue\r\n\r\n";
        byte[] part = new byte[900_000];
        java.util.Arrays.fill(part, (byte) ' ');
        List<java.net.Socket> held = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                java.net.Socket s = new java.net.Socket(host, port);
                held.add(s);
                s.setSoTimeout(30_000);
                s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
                assertTrue(statusLine(s).startsWith("HTTP/1.1 100"), "submission " + i + " may send its body");
                s.getOutputStream().write(part);
                s.getOutputStream().flush();
            }
            // a write returns once the bytes are in the kernel's buffers: the fifth body is sent once the
            // daemon has read (and counted) the four, or it could be counted first
            long giveUp = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            long four = 4 * 900_000L * dev.proofline.daemon.transport.RequestBudget.HTTP_COPIES;
            while (daemon.requestBytes().held() < four && System.nanoTime() < giveUp) {
                Thread.sleep(5);
            }
            assertEquals(four, daemon.requestBytes().held(), "the four bodies' bytes, as they arrived");
            try (java.net.Socket fifth = new java.net.Socket(host, port)) {
                fifth.setSoTimeout(30_000);
                fifth.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
                assertTrue(statusLine(fifth).startsWith("HTTP/1.1 100"), "an announced length reserves nothing");
                String status = "";
                try {
                    fifth.getOutputStream().write(part);
                    fifth.getOutputStream().flush();
                } catch (java.io.IOException e) {
                    // the server answered and stopped reading: its answer is still there to read
                }
                status = statusLine(fifth);
                assertTrue(status.startsWith("HTTP/1.1 503"), status);
                int length = 0;
                for (String h = statusLine(fifth); !h.isEmpty(); h = statusLine(fifth)) {
                    if (h.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                        length = Integer.parseInt(h.substring("content-length:".length()).strip());
                    }
                }
                String rest = new String(fifth.getInputStream().readNBytes(length), StandardCharsets.UTF_8);
                assertTrue(rest.contains("\"UNAVAILABLE\"") && rest.contains("engine.request_memory"), rest);
            }
        } finally {
            for (java.net.Socket s : held) {
                s.close();
            }
        }
        // their connections closed, their bytes are free again (the server sees the closes soon after)
        long giveUp = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (daemon.requestBytes().held() > 0 && System.nanoTime() < giveUp) {
            Thread.sleep(5);
        }
        assertEquals(0, daemon.requestBytes().held(), "bytes held once the connections closed");
        assertEquals(201, send("POST", "/v1/jobs", submission().toString()).statusCode());
    }

    @Test
    void connectionsThatOnlyAnnounceLargeBodiesHoldNoneOfTheBudget() throws Exception {
        String host = daemon.httpAddress().substring(0, daemon.httpAddress().lastIndexOf(':'));
        int port = Integer.parseInt(daemon.httpAddress().substring(daemon.httpAddress().lastIndexOf(':') + 1));
        String head = "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                + "\r\nContent-Length: 1048576\r\n\r\n";
        List<java.net.Socket> held = new java.util.ArrayList<>();
        try {
            // 16 announced bodies of max_job_bytes, past the shared budget at their cost, of which nothing arrives
            for (int i = 0; i < 16; i++) {
                java.net.Socket s = new java.net.Socket(host, port);
                held.add(s);
                s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
            }
            HttpResponse<String> r = send("POST", "/v1/jobs", submission().toString());
            assertEquals(201, r.statusCode(), r.body());
        } finally {
            for (java.net.Socket s : held) {
                s.close();
            }
        }
    }

    private static String statusLine(java.net.Socket s) throws Exception {
        StringBuilder line = new StringBuilder();
        for (int b; (b = s.getInputStream().read()) != -1 && b != '\n';) {
            line.append((char) b);
        }
        String first = line.toString().strip();
        if (first.startsWith("HTTP/1.1 100")) {
            s.getInputStream().read(); // the blank line after an interim response
            s.getInputStream().read();
        }
        return first;
    }

    @Test
    void theOpenApiDescriptionNamesEveryRoute() throws Exception {
        HttpResponse<String> r = send("GET", "/v1/openapi.json", null);
        assertEquals(200, r.statusCode());
        JsonNode api = JSON.readTree(r.body());
        assertTrue(api.get("openapi").asText().startsWith("3."));
        Set<String> routes = new TreeSet<>();
        api.get("paths").properties().forEach(p -> p.getValue().properties().forEach(m -> {
            if (!m.getKey().equals("parameters")) {
                routes.add(m.getKey().toUpperCase() + " " + p.getKey());
            }
        }));
        assertEquals(new TreeSet<>(Set.of("POST /v1/jobs", "GET /v1/jobs/{id}", "DELETE /v1/jobs/{id}",
                "GET /v1/circuits", "GET /v1/openapi.json")), routes);
        // every reference resolves
        java.util.regex.Matcher ref = java.util.regex.Pattern.compile("\"\\$ref\": \"#(/[^\"]+)\"").matcher(r.body());
        int refs = 0;
        while (ref.find()) {
            refs++;
            assertFalse(api.at(ref.group(1)).isMissingNode(), ref.group(1));
        }
        assertTrue(refs > 10, refs + " references");
    }

    // ------------------------------------------------------------------ helpers

    private ObjectNode submission() throws Exception {
        ObjectNode job = JSON.createObjectNode().put("circuit", "multiplier");
        job.putArray("partitions").addObject().put("wtns", Base64.getEncoder().encodeToString(
                Files.readAllBytes(mul.wtns())));
        return job;
    }

    private JsonNode awaitDone(String id) throws Exception {
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> r = send("GET", "/v1/jobs/" + id + "?wait_ms=30000", null);
            assertEquals(200, r.statusCode(), r.body());
            JsonNode j = JSON.readTree(r.body());
            if (j.get("state").asText().equals("DONE")) {
                return j;
            }
            assertEquals("RUNNING", j.get("state").asText());
        }
        throw new AssertionError("job " + id + " not done in 10 minutes");
    }

    private static JsonNode assertError(HttpResponse<String> r, int status, String code, String inMessage)
            throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("application/json"), r.headers().toString());
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertNotNull(e, r.body());
        assertEquals(code, e.get("code").asText(), r.body());
        assertTrue(e.get("message").asText().contains(inMessage), r.body());
        return e;
    }

    private static List<JsonNode> iterable(JsonNode array) {
        List<JsonNode> out = new java.util.ArrayList<>();
        ((ArrayNode) array).forEach(out::add);
        return out;
    }

    private URI uri(String path) {
        return URI.create("http://" + daemon.httpAddress() + path);
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder b) {
        return b.header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofMinutes(3));
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = authorized(HttpRequest.newBuilder(uri(path)).method(method, body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
