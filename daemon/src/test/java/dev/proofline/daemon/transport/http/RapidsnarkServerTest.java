package dev.proofline.daemon.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * rapidsnark's prover-server routes ({@code server.rapidsnark_listen}) driven over HTTP as rapidsnark's own
 * client drives them (post the input, poll {@code GET /status} while it says busy): the proofs in
 * {@code proof} and {@code pubData} verify in snarkjs on BN254 and BLS12-381; concurrent clients each get
 * their own proof; a second input does not abort the first; cancel, errors and the routes rapidsnark
 * ignores answer as documented in docs/daemon.md.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RapidsnarkServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    private Daemon daemon;
    private CircomFixtures.Fixture bn;
    private CircomFixtures.Fixture bls;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    void start() throws Exception {
        bn = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        bls = CircomFixtures.build(CircomFixtures.BLS12381, "multiplier");
        install(bn, "multiplier");
        install(bls, "multiplier_bls");
        daemon = Daemon.start(DaemonToml.inMemory(tmp.resolve("keys")).set("server.rapidsnark_listen", "127.0.0.1:0")
                .set("engine.permits", 1).parse("rapidsnark.toml"), l -> { });
    }

    private static void install(CircomFixtures.Fixture f, String id) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("keys").resolve(id));
        Files.copy(f.zkey(), dir.resolve("circuit.zkey"));
        Files.copy(f.wasm(), dir.resolve("circuit.wasm"));
    }

    @AfterAll
    void stop() throws Exception {
        daemon.shutdown(Duration.ofSeconds(5));
    }

    @Test
    @Order(1)
    void anInputIsProvedAndStatusGivesProofAndPubDataThatSnarkjsVerifies() throws Exception {
        // before any input, rapidsnark's server says it is ready
        assertEquals("{\"status\":\"ready\"}", send("GET", "/status", null).body());

        HttpResponse<String> posted = send("POST", "/input/multiplier", Files.readString(bn.input()));
        assertEquals(200, posted.statusCode(), posted.body());
        JsonNode st = pollLatest();
        assertEquals("success", st.get("status").asText(), st.toString());
        // as rapidsnark sends them: a JSON document in each string
        assertTrue(st.get("proof").isTextual() && st.get("pubData").isTextual(), st.toString());
        assertEquals(SnarkjsJson.readPublic(bn.publicJson()), signals(st));
        assertTrue(snarkjsVerifies(bn, st, "bn"), "snarkjs rejects the proof from GET /status");

        // the answer stays as it is, as rapidsnark's does, and is also the job's by its id
        assertEquals(st, JSON.readTree(send("GET", "/status", null).body()));
        String id = JSON.readTree(posted.body()).get("job_id").asText();
        assertEquals(st, JSON.readTree(send("GET", "/status/" + id, null).body()));
    }

    @Test
    @Order(2)
    void aBls12381CircuitIsProvedToo() throws Exception {
        assertEquals(200, send("POST", "/input/multiplier_bls", Files.readString(bls.input())).statusCode());
        JsonNode st = pollLatest();
        assertEquals("success", st.get("status").asText(), st.toString());
        assertEquals(SnarkjsJson.readPublic(bls.publicJson()), signals(st));
        assertTrue(snarkjsVerifies(bls, st, "bls"), "snarkjs rejects the BLS12-381 proof");
    }

    @Test
    @Order(3)
    void concurrentClientsEachGetTheirOwnProof() throws Exception {
        int clients = 8;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<CompletableFuture<JsonNode>> answers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int a = 100 + i;
                answers.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        String input = "{\"a\": \"" + a + "\", \"b\": \"" + (2 * a) + "\", \"x\": \"5\", \"y\": \"7\","
                                + " \"z\": \"9\"}";
                        HttpResponse<String> posted = send("POST", "/input/multiplier", input);
                        assertEquals(200, posted.statusCode(), posted.body());
                        String id = JSON.readTree(posted.body()).get("job_id").asText();
                        return JSON.readTree(send("GET", "/status/" + id + "?wait_ms=120000", null).body());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, pool));
            }
            var vk = SnarkjsJson.readVerificationKey(bn.vk());
            for (int i = 0; i < clients; i++) {
                JsonNode st = answers.get(i).get(3, TimeUnit.MINUTES);
                assertEquals("success", st.get("status").asText(), st.toString());
                List<BigInteger> pub = signals(st);
                // public signals: the outputs prod and mix, then the public inputs a and b: this client's own
                assertEquals(List.of(BigInteger.valueOf(100 + i), BigInteger.valueOf(2 * (100 + i))),
                        pub.subList(2, 4), "client " + i + " got another client's proof");
                assertTrue(Verifier.verify(vk, pub, SnarkjsJson.readProof(st.get("proof").asText()
                        .getBytes(StandardCharsets.UTF_8), "proof.json", PairingCurve.BN254)), "client " + i);
                if (i < 2) {
                    assertTrue(snarkjsVerifies(bn, st, "client" + i), "snarkjs rejects client " + i + "'s proof");
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(4)
    void aSecondInputDoesNotAbortTheFirstAndCancelAbortsTheLatest() throws Exception {
        String blocker = blockTheProver();
        String input = Files.readString(bn.input());
        String first = JSON.readTree(send("POST", "/input/multiplier", input).body()).get("job_id").asText();
        String second = JSON.readTree(send("POST", "/input/multiplier", input).body()).get("job_id").asText();
        assertEquals("{\"status\":\"busy\"}", send("GET", "/status", null).body());

        HttpResponse<String> cancelled = send("POST", "/cancel", "");
        assertEquals(200, cancelled.statusCode());
        assertEquals("{\"status\":\"aborted\"}", cancelled.body());
        assertEquals("{\"status\":\"aborted\"}", send("GET", "/status", null).body());
        assertEquals("{\"status\":\"aborted\"}", send("GET", "/status/" + second, null).body());

        unblock(blocker);
        // rapidsnark's server would have aborted the first when the second arrived; here it runs to its end
        JsonNode st = JSON.readTree(send("GET", "/status/" + first + "?wait_ms=120000", null).body());
        assertEquals("success", st.get("status").asText(), st.toString());
        assertEquals(SnarkjsJson.readPublic(bn.publicJson()), signals(st));
        // a job that has ended is not cancelled: it keeps its proof
        assertEquals(st, JSON.readTree(send("POST", "/cancel/" + first, "").body()));
    }

    @Test
    @Order(5)
    void refusedInputsAreErrorsAndThenTheFailedStatus() throws Exception {
        HttpResponse<String> unknown = send("POST", "/input/no_such_circuit", Files.readString(bn.input()));
        assertEquals(404, unknown.statusCode(), unknown.body());
        assertTrue(JSON.readTree(unknown.body()).get("error").asText().contains("no_such_circuit"), unknown.body());
        JsonNode st = JSON.readTree(send("GET", "/status", null).body());
        assertEquals("failed", st.get("status").asText());
        assertEquals(JSON.readTree(unknown.body()).get("error"), st.get("error"));

        HttpResponse<String> badSignal = send("POST", "/input/multiplier", "{\"q\": \"1\"}");
        assertEquals(400, badSignal.statusCode(), badSignal.body());
        assertTrue(badSignal.body().contains("'q'"), badSignal.body());
        assertEquals("failed", JSON.readTree(send("GET", "/status", null).body()).get("status").asText());

        assertEquals(400, send("POST", "/input/multiplier", "{\"a\": ").statusCode());
        assertEquals(400, send("POST", "/input/multiplier", "").statusCode());
        assertEquals(404, send("GET", "/status/no-such-job", null).statusCode());
        assertEquals(404, send("POST", "/cancel/no-such-job", "").statusCode());
        assertEquals(404, send("GET", "/nothing", null).statusCode());
        assertEquals(405, send("GET", "/input/multiplier", null).statusCode());
        assertEquals(405, send("POST", "/status", "").statusCode());
        // rapidsnark's server accepts these and does nothing
        assertEquals(200, send("POST", "/start", "").statusCode());
        assertEquals(200, send("POST", "/stop", "").statusCode());
    }

    @Test
    void withATokenEveryRouteNeedsIt() {
        RapidsnarkRoutes routes = new RapidsnarkRoutes("s3cret", null);
        HttpRoutes.Answer a = routes.answer("GET", "/status", null);
        assertEquals(401, a.status());
        assertTrue(new String(a.body(), StandardCharsets.UTF_8).contains("Bearer"));
        assertEquals(401, routes.answer("GET", "/status", "Bearer wrong").status());
        assertNotEquals(401, new RapidsnarkRoutes("s3cret", null).answer("POST", "/start", "Bearer s3cret").status());
    }

    @Test
    void aNonLoopbackAddressNeedsAToken() {
        var e = assertThrows(DaemonConfig.ConfigException.class, () -> Daemon.start(DaemonConfig.parse("""
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                rapidsnark_listen = "0.0.0.0:0"
                """, "open.toml"), l -> { }));
        assertTrue(e.getMessage().contains("0.0.0.0:0"), e.getMessage());
    }

    @Test
    void anAddressInUseIsNamedWithItsKeyAndPort() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            List<String> listeners = List.of("grpc_listen", "http_listen", "rapidsnark_listen");
            for (String key : listeners) {
                StringBuilder toml = new StringBuilder("[server]\n");
                for (String k : listeners) {
                    toml.append(k).append(" = \"127.0.0.1:").append(k.equals(key) ? port : 0).append("\"\n");
                }
                toml.append("[store]\nkind = \"memory\"\n");
                var e = assertThrows(DaemonConfig.ConfigException.class, () -> Daemon.start(DaemonConfig.parse(
                        toml.toString(), "taken.toml"), l -> { }));
                assertTrue(e.getMessage().startsWith("server." + key + " = \"127.0.0.1:" + port + "\": cannot listen"
                        + " there: address already in use (another daemon on port " + port + "? --"
                        + key.replace('_', '-') + " picks another)"), e.getMessage());
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /** A job of many partitions at the highest priority on the daemon's JSON API: inputs queue behind it. */
    private String blockTheProver() throws Exception {
        ObjectNode job = JSON.createObjectNode().put("circuit", "multiplier").put("priority", "CRITICAL");
        String wtns = java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(bn.wtns()));
        for (int i = 0; i < 400; i++) {
            job.withArray("partitions").addObject().put("wtns", wtns);
        }
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + daemon.httpAddress()
                + "/v1/jobs")).POST(HttpRequest.BodyPublishers.ofString(job.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return JSON.readTree(r.body()).get("job_id").asText();
    }

    private void unblock(String id) throws Exception {
        http.send(HttpRequest.newBuilder(URI.create("http://" + daemon.httpAddress() + "/v1/jobs/" + id)).DELETE()
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Polls {@code GET /status} while it says busy, as rapidsnark's own client does. */
    private JsonNode pollLatest() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            HttpResponse<String> r = send("GET", "/status", null);
            assertEquals(200, r.statusCode(), r.body());
            JsonNode st = JSON.readTree(r.body());
            if (!st.get("status").asText().equals("busy") || System.nanoTime() > deadline) {
                return st;
            }
            Thread.sleep(20);
        }
    }

    private static List<BigInteger> signals(JsonNode st) throws Exception {
        List<BigInteger> out = new ArrayList<>();
        for (JsonNode n : JSON.readTree(st.get("pubData").asText())) {
            assertTrue(n.isTextual(), "pubData holds decimal strings: " + n);
            out.add(new BigInteger(n.asText()));
        }
        return out;
    }

    private static boolean snarkjsVerifies(CircomFixtures.Fixture f, JsonNode st, String name) throws Exception {
        Path proof = Files.writeString(tmp.resolve("proof-" + name + ".json"), st.get("proof").asText());
        Path pub = Files.writeString(tmp.resolve("public-" + name + ".json"), st.get("pubData").asText());
        return CircomFixtures.snarkjsVerifies(f.vk(), pub, proof);
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + daemon.rapidsnarkAddress() + path))
                .timeout(Duration.ofMinutes(3));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
