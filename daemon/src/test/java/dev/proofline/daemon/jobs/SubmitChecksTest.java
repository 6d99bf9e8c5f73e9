package dev.proofline.daemon.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.daemon.OneAnswer;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.transport.http.JsonApi;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a submission is checked for before it is acknowledged, over gRPC and the JSON API alike: circom
 * inputs against the circuit's witness generator, fields out of range (priority, deadline, idempotency
 * key), a JSON body read strictly (duplicate keys, trailing content) but with strings as long as the
 * body may be; and the bearer token's scheme in any case.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubmitChecksTest {

    private static final String TOKEN = "s3cret";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    private Daemon daemon;
    private ManagedChannel channel;
    private ProvingEngineGrpc.ProvingEngineBlockingStub grpc;
    private CircomFixtures.Fixture mul;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    void start() throws Exception {
        mul = CircomFixtures.build("bn128", "multiplier");
        Path dir = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), dir.resolve("circuit.zkey"));
        Files.copy(mul.wasm(), dir.resolve("circuit.wasm"));
        CircomFixtures.Fixture checks = CircomFixtures.build("bn128", "checks");
        Path checked = Files.createDirectories(tmp.resolve("keys/checks"));
        Files.copy(checks.zkey(), checked.resolve("circuit.zkey"));
        Files.copy(checks.wasm(), checked.resolve("circuit.wasm"));
        daemon = Daemon.start(DaemonConfig.parse("""
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                auth_token = "%s"
                [keys]
                directory = "%s"
                [engine]
                permits = 1
                [store]
                directory = "%s"
                """.formatted(TOKEN, tmp.resolve("keys"), tmp.resolve("store")), "checks.toml"), l -> { });
        channel = NettyChannelBuilder.forTarget(daemon.grpcAddress()).usePlaintext().build();
        grpc = withAuthorization("Bearer " + TOKEN);
    }

    @AfterAll
    void stop() throws Exception {
        channel.shutdownNow();
        daemon.shutdown(Duration.ZERO);
    }

    private ProvingEngineGrpc.ProvingEngineBlockingStub withAuthorization(String header) {
        Metadata m = new Metadata();
        m.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), header);
        return ProvingEngineGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(m))
                .withDeadlineAfter(1, java.util.concurrent.TimeUnit.MINUTES);
    }

    private HttpResponse<String> post(String body, String authorization) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + daemon.httpAddress() + "/v1/jobs"))
                .header("Authorization", authorization).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofMinutes(1)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void assertRefused(HttpResponse<String> r, String inMessage) throws Exception {
        assertEquals(400, r.statusCode(), r.body());
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals("INVALID_ARGUMENT", e.get("code").asText(), r.body());
        assertTrue(e.get("message").asText().contains(inMessage), r.body());
    }

    private static void assertInvalid(String inMessage, org.junit.jupiter.api.function.Executable call) {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getStatus().toString());
        assertTrue(e.getStatus().getDescription().contains(inMessage), e.getStatus().getDescription());
    }

    private SubmitProofRequest.Builder valid() throws Exception {
        return SubmitProofRequest.newBuilder().setCircuitId("multiplier")
                .addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(mul.wtns()))));
    }

    @Test
    void circomInputThatDoesNotFitTheCircuitIsRefusedAtSubmission() throws Exception {
        String auth = "Bearer " + TOKEN;
        assertRefused(post("""
                {"circuit": "multiplier", "partitions": [{"input": {"a": "3", "b": "11", "x": "5", "y": "7"}}]}""", auth),
                "partition 0 of circuit 'multiplier': Not all inputs have been set");
        assertRefused(post("""
                {"circuit": "multiplier", "partitions": [{"input": {"a": "3", "b": "11", "x": "5", "y": "7", "z": "1",
                 "w": "2"}}]}""", auth), "circuit has no input signal 'w'");
        assertRefused(post("""
                {"circuit": "multiplier", "partitions": [{"input": {"a": ["3", "4"], "b": "11", "x": "5", "y": "7",
                 "z": "1"}}]}""", auth), "input signal 'a' has 1 value, the input gives 2");
        HttpResponse<String> fits = post("{\"circuit\": \"multiplier\", \"partitions\": [{\"input\": "
                + Files.readString(mul.input()) + "}]}", auth);
        assertEquals(201, fits.statusCode(), fits.body());
    }

    @Test
    void circomInputTheCircuitRejectsAsItsWitnessIsComputedIsInvalidArgumentNotInternal() throws Exception {
        String auth = "Bearer " + TOKEN;
        // every signal named and sized right, so acknowledged; x = 0 fails the circuit's assert later
        HttpResponse<String> submitted = post("""
                {"circuit": "checks", "partitions": [{"input": {"x": "0", "y": "4"}}]}""", auth);
        assertEquals(201, submitted.statusCode(), submitted.body());
        String job = JSON.readTree(submitted.body()).get("job_id").asText();
        HttpResponse<String> state = http.send(HttpRequest.newBuilder(URI.create("http://" + daemon.httpAddress()
                + "/v1/jobs/" + job + "?wait_ms=60000")).header("Authorization", auth).timeout(Duration.ofMinutes(2))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertRefused(state, "partition 0 on local: circuit 'checks': bad circom input: the circuit rejected the"
                + " input: Assert Failed. Error in template Checks_0 line: 10");
        var await = assertThrows(StatusRuntimeException.class, () -> grpc.awaitProof(
                dev.proofline.api.v1.AwaitProofRequest.newBuilder().setJobId(job).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, await.getStatus().getCode(), await.getStatus().toString());
    }

    @Test
    void withoutADurableStoreTheCircuitsRefusalIsInvalidArgumentToo() throws Exception {
        try (Daemon memory = Daemon.start(DaemonToml.inMemory(tmp.resolve("keys")).parse("memory.toml"), l -> { })) {
            URI jobs = URI.create("http://" + memory.httpAddress() + "/v1/jobs");
            HttpResponse<String> submitted = http.send(HttpRequest.newBuilder(jobs).POST(HttpRequest.BodyPublishers
                    .ofString("{\"circuit\": \"checks\", \"partitions\": [{\"input\": {\"x\": \"0\", \"y\": \"4\"}}]}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, submitted.statusCode(), submitted.body());
            String job = JSON.readTree(submitted.body()).get("job_id").asText();
            HttpResponse<String> state = http.send(HttpRequest.newBuilder(URI.create(jobs + "/" + job + "?wait_ms=60000"))
                    .timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
            assertRefused(state, "the circuit rejected the input: Assert Failed. Error in template Checks_0 line: 10");
        }
    }

    @Test
    void fieldsOutOfRangeAreRefusedRatherThanWrappedOrDefaulted() throws Exception {
        assertInvalid("priority 99 is not one of", () -> grpc.submitProof(valid().setPriorityValue(99).build()));
        // uint64 2^64 - 1: negative as a Java long, it ended the job at once
        assertInvalid("deadline_ms 18446744073709551615 is more than a year",
                () -> grpc.submitProof(valid().setDeadlineMs(-1).build()));
        assertInvalid("deadline_ms 9223372036854775807 is more than a year",
                () -> grpc.submitProof(valid().setDeadlineMs(Long.MAX_VALUE).build()));
        assertInvalid("idempotency_key has 40000 characters, at most 256",
                () -> grpc.submitProof(valid().setIdempotencyKey("k".repeat(40_000)).build()));
        assertRefused(post("{\"circuit\": \"multiplier\", \"idempotency_key\": \"" + "k".repeat(40_000)
                + "\", \"partitions\": [{\"wtns\": \"" + Base64.getEncoder().encodeToString(Files.readAllBytes(mul.wtns()))
                + "\"}]}", "Bearer " + TOKEN), "at most 256");
        // a path for a circuit id: said so, not reported under its last part ("'other'" before)
        StatusRuntimeException path = assertThrows(StatusRuntimeException.class,
                () -> grpc.submitProof(valid().setCircuitId("/srv/keys/other").build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, path.getStatus().getCode());
        assertTrue(path.getStatus().getDescription().startsWith("invalid circuit id (a path)")
                && !path.getStatus().getDescription().contains("other"), path.getStatus().getDescription());
        // in range: accepted
        assertTrue(grpc.submitProof(valid().setDeadlineMs(SubmitChecks.MAX_DEADLINE.toMillis())
                .setIdempotencyKey("k".repeat(256)).build()).getJobId().startsWith("job-"));
    }

    @Test
    void aStreamAnnouncingTwoToThe32MinusOnePartitionsIsRefusedWithThatCount() throws Exception {
        Metadata m = new Metadata();
        m.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + TOKEN);
        java.util.concurrent.CompletableFuture<dev.proofline.api.v1.SubmitProofResponse> answer =
                new java.util.concurrent.CompletableFuture<>();
        var up = ProvingEngineGrpc.newStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(m))
                .submitProofStream(OneAnswer.into(answer));
        // uint32 2^32 - 1: -1 as a Java int, it passed the partition limit and was answered "announced 0"
        up.onNext(dev.proofline.api.v1.SubmitProofChunk.newBuilder().setHeader(valid().clearPartitions()
                .setStreamedPartitions(-1).setStreamedKind(dev.proofline.api.v1.PartitionKind.WTNS)).build());
        up.onNext(dev.proofline.api.v1.SubmitProofChunk.newBuilder().setChunk(dev.proofline.api.v1.PartitionChunk
                .newBuilder().setPartition(0).setData(com.google.protobuf.ByteString.copyFrom(new byte[16]))).build());
        up.onCompleted();
        var e = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> answer.get(1, java.util.concurrent.TimeUnit.MINUTES));
        Status s = Status.fromThrowable(e.getCause());
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, s.getCode(), s.toString());
        assertTrue(s.getDescription().startsWith("4294967295 partitions; at most"), s.getDescription());
    }

    @Test
    void theJsonApiRefusesDuplicateKeysAndContentAfterTheObject() {
        var duplicate = assertThrows(StatusRuntimeException.class, () -> JsonApi.submitRequest("""
                {"circuit": "multiplier", "circuit": "other", "partitions": [{"wtns": "AAAA"}]}"""
                .getBytes(StandardCharsets.UTF_8)));
        assertEquals(Status.Code.INVALID_ARGUMENT, duplicate.getStatus().getCode());
        assertTrue(duplicate.getStatus().getDescription().contains("Duplicate field 'circuit'"),
                duplicate.getStatus().getDescription());
        var trailing = assertThrows(StatusRuntimeException.class, () -> JsonApi.submitRequest("""
                {"circuit": "multiplier", "partitions": [{"wtns": "AAAA"}]} {"circuit": "x"}"""
                .getBytes(StandardCharsets.UTF_8)));
        assertEquals(Status.Code.INVALID_ARGUMENT, trailing.getStatus().getCode());
        assertTrue(trailing.getStatus().getDescription().contains("Trailing token"), trailing.getStatus().getDescription());
    }

    @Test
    void aWitnessLargerThanJacksonsDefaultStringLimitIsRead() {
        // 16 MiB in base64 is 22.4 million characters; Jackson's default limit is 20 million
        byte[] witness = new byte[16 << 20];
        new java.util.Random(7).nextBytes(witness);
        String body = "{\"circuit\": \"multiplier\", \"partitions\": [{\"wtns\": \""
                + Base64.getEncoder().encodeToString(witness) + "\"}]}";
        SubmitProofRequest r = JsonApi.submitRequest(body.getBytes(StandardCharsets.US_ASCII));
        assertEquals(witness.length, r.getPartitions(0).getWtns().size());
        assertTrue(java.util.Arrays.equals(witness, r.getPartitions(0).getWtns().toByteArray()), "the witness's bytes");
    }

    @Test
    void aWitnessIsDecodedWhateverTheJsonEscapesAndPaddingOfItsBase64() {
        byte[] witness = new byte[100_003];
        new java.util.Random(11).nextBytes(witness);
        String b64 = Base64.getEncoder().encodeToString(witness);
        // JSON writers may escape '/' (and any character as \\uXXXX); the padding may be left out
        for (String text : List.of(b64, b64.replace("/", "\\/"), b64.replace("A", "\\u0041"), b64.replace("=", ""))) {
            String body = "{\"partitions\": [{\"input\": {\"a\": 3}}, {\"wtns\": \"" + text
                    + "\"}], \"circuit\": \"multiplier\", \"priority\": \"high\"}";
            SubmitProofRequest r = JsonApi.submitRequest(body.getBytes(StandardCharsets.US_ASCII));
            assertEquals("multiplier", r.getCircuitId());
            assertEquals(dev.proofline.api.v1.Priority.HIGH, r.getPriority());
            assertEquals("{\"a\":3}", r.getPartitions(0).getInputJson());
            assertTrue(java.util.Arrays.equals(witness, r.getPartitions(1).getWtns().toByteArray()), text.substring(0, 20));
        }
        var bad = assertThrows(StatusRuntimeException.class, () -> JsonApi.submitRequest(
                "{\"circuit\": \"m\", \"partitions\": [{\"wtns\": \"AAAA\"}, {\"wtns\": \"AA*A\"}]}"
                        .getBytes(StandardCharsets.US_ASCII)));
        assertTrue(bad.getStatus().getDescription().startsWith("partitions[1].wtns is not base64"),
                bad.getStatus().getDescription());
    }

    @Test
    void theBearerSchemeIsTakenInAnyCase() throws Exception {
        HttpResponse<String> lower = http.send(HttpRequest.newBuilder(URI.create("http://" + daemon.httpAddress()
                + "/v1/circuits")).header("Authorization", "bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, lower.statusCode(), lower.body());
        assertEquals(2, withAuthorization("bearer " + TOKEN).listCircuits(ListCircuitsRequest.getDefaultInstance())
                .getCircuitsCount());
        assertEquals(2, withAuthorization("BEARER  " + TOKEN).listCircuits(ListCircuitsRequest.getDefaultInstance())
                .getCircuitsCount());
        var wrong = assertThrows(StatusRuntimeException.class, () -> withAuthorization("bearer wrong")
                .listCircuits(ListCircuitsRequest.getDefaultInstance()));
        assertEquals(Status.Code.UNAUTHENTICATED, wrong.getStatus().getCode());
        assertEquals(401, post("{}", "Basic " + TOKEN).statusCode());
    }
}
