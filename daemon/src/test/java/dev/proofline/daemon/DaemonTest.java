package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.CancelProofRequest;
import dev.proofline.api.v1.GetMetricsRequest;
import dev.proofline.api.v1.GetStatusRequest;
import dev.proofline.api.v1.GetStatusResponse;
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.KeyRequest;
import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionChunk;
import dev.proofline.api.v1.PartitionKind;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.Priority;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofChunk;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The daemon on loopback with real keys on both curves, driven by a gRPC client and an HTTP client. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DaemonTest {

    @TempDir
    static Path tmp;

    private Daemon daemon;
    private ManagedChannel channel;
    private ProvingEngineGrpc.ProvingEngineBlockingStub stub;
    private final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
    private CircomFixtures.Fixture bn;
    private CircomFixtures.Fixture bls;
    private CircomFixtures.Fixture mul;

    /** A keys directory: poseidon on both curves (with wasm and r1cs), the multiplier (key only). */
    private Path keys() throws Exception {
        Path dir = tmp.resolve("keys");
        bn = CircomFixtures.build("bn128", "poseidon");
        bls = CircomFixtures.build("bls12381", "poseidon");
        mul = CircomFixtures.build("bn128", "multiplier");
        copy(bn, dir.resolve("poseidon-bn128"), true);
        copy(bls, dir.resolve("poseidon-bls12381"), true);
        copy(mul, dir.resolve("multiplier"), false);
        Files.createDirectories(dir.resolve("no key here"));
        // a key cut in half: registered (its folder looks right), refused when it is loaded
        Path corrupt = Files.createDirectories(dir.resolve("corrupt"));
        byte[] key = Files.readAllBytes(mul.zkey());
        Files.write(corrupt.resolve("circuit.zkey"), java.util.Arrays.copyOf(key, key.length / 2));
        // a built-in Java circuit: its size in builtin.toml, a development key for that shape
        Path merkle = Files.createDirectories(dir.resolve("merkle"));
        Files.writeString(merkle.resolve("builtin.toml"), """
                circuit = "builtin:merkle-post"
                curve = "bls12381"
                constraints = 2000
                depth = 5
                """);
        dev.proofline.groth16.setup.DevSetup.run(dev.proofline.r1cs.cs.RecordingSystem.record(
                dev.proofline.algebra.PairingCurve.BLS12_381, dev.proofline.r1cs.circuits.Builtins.circuit(
                        "builtin:merkle-post", dev.proofline.algebra.PairingCurve.BLS12_381, 2000, 5, false, 1)),
                merkle.resolve("circuit.zkey"), new java.util.Random(3));
        return dir;
    }

    private static void copy(CircomFixtures.Fixture fx, Path to, boolean all) throws Exception {
        Files.createDirectories(to);
        Files.copy(fx.zkey(), to.resolve("circuit.zkey"));
        if (all) {
            Files.copy(fx.wasm(), to.resolve("circuit.wasm"));
            Files.copy(fx.r1cs(), to.resolve("circuit.r1cs"));
        }
    }

    @BeforeAll
    void start() throws Exception {
        DaemonConfig cfg = DaemonConfig.parse("""
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                [keys]
                directory = "%s"
                preload = ["poseidon-bn128"]
                [engine]
                budget = "4GiB"
                permits = 2
                result_retention = "1m"
                [limits]
                max_message_bytes = "1MiB"
                max_partitions = 8
                [store]
                directory = "%s"
                """.formatted(keys().toString().replace("\\", "\\\\"),
                tmp.resolve("store").toString().replace("\\", "\\\\")), "test.toml");
        daemon = Daemon.start(cfg, log::add);
        channel = NettyChannelBuilder.forTarget(daemon.grpcAddress()).usePlaintext().build();
        stub = ProvingEngineGrpc.newBlockingStub(channel).withDeadlineAfter(3, TimeUnit.MINUTES);
    }

    @AfterAll
    void stop() throws Exception {
        channel.shutdownNow();
        daemon.shutdown(Duration.ofSeconds(5));
    }

    private static Partition wtns(CircomFixtures.Fixture fx) throws Exception {
        return Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(fx.wtns()))).build();
    }

    private static Partition input(CircomFixtures.Fixture fx) throws Exception {
        return Partition.newBuilder().setInputJson(Files.readString(fx.input())).build();
    }

    private void assertSnarkjsAccepts(CircomFixtures.Fixture fx, PartitionResult r, String name) throws Exception {
        Path proof = tmp.resolve(name + "-proof.json");
        Path pub = tmp.resolve(name + "-public.json");
        Files.writeString(proof, r.getProofJson());
        Files.writeString(pub, new ObjectMapper().writeValueAsString(r.getPublicSignalsList()));
        assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), pub, proof), name + ": snarkjs rejects the proof");
    }

    @Test
    void circuitsComeFromTheKeysDirectory() {
        List<String> ids = stub.listCircuits(ListCircuitsRequest.getDefaultInstance()).getCircuitsList().stream()
                .map(c -> c.getId() + (c.getHasWasm() ? "+wasm" : "") + (c.getHasR1Cs() ? "+r1cs" : "")).toList();
        assertEquals(List.of("corrupt", "merkle+r1cs", "multiplier", "poseidon-bls12381+wasm+r1cs", "poseidon-bn128+wasm+r1cs"), ids);
        assertTrue(log.stream().anyMatch(l -> l.contains("no key here") && l.contains("skipped")), log.toString());
        assertTrue(log.stream().anyMatch(l -> l.contains("preloaded poseidon-bn128")), log.toString());
    }

    @Test
    void proveOnBothCurvesFromWitnessesAndInputsGivesProofsSnarkjsAccepts() throws Exception {
        for (var c : List.of(List.of("poseidon-bn128", bn), List.of("poseidon-bls12381", bls))) {
            String id = (String) c.get(0);
            CircomFixtures.Fixture fx = (CircomFixtures.Fixture) c.get(1);
            AwaitProofResponse r = stub.prove(SubmitProofRequest.newBuilder().setCircuitId(id)
                    .setPriority(Priority.HIGH).addPartitions(wtns(fx)).addPartitions(input(fx)).build());
            assertEquals(JobState.DONE, r.getState());
            assertEquals(2, r.getPartitionsCount());
            for (PartitionResult p : r.getPartitionsList()) {
                assertEquals("done", p.getState());
                assertTrue(p.getTimings().getProverMs() > 0);
                assertFalse(p.getProofBinary().isEmpty());
            }
            assertEquals(r.getPartitions(0).getPublicSignalsList(), r.getPartitions(1).getPublicSignalsList());
            assertSnarkjsAccepts(fx, r.getPartitions(1), id);
        }
    }

    @Test
    void aBuiltInCircuitProvesInstancesNamedBySeed() throws Exception {
        AwaitProofResponse r = stub.prove(SubmitProofRequest.newBuilder().setCircuitId("merkle")
                .addPartitions(Partition.newBuilder().setInputJson("{\"seed\": 3}"))
                .addPartitions(Partition.newBuilder().setInputJson("{\"seed\": 4}")).build());
        assertEquals(JobState.DONE, r.getState());
        dev.proofline.groth16.VerificationKey vk;
        try (var key = Circuits.of(daemon.engine()).key("merkle")) {
            vk = key.value().verificationKey();
        }
        for (PartitionResult p : r.getPartitionsList()) {
            assertTrue(dev.proofline.groth16.Verifier.verify(vk, p.getPublicSignalsList().stream()
                    .map(java.math.BigInteger::new).toList(), dev.proofline.groth16.io.ProofBinary.decode(
                            dev.proofline.algebra.PairingCurve.BLS12_381, p.getProofBinary().toByteArray())));
        }
        assertNotEquals(r.getPartitions(0).getPublicSignalsList(), r.getPartitions(1).getPublicSignalsList(),
                "two seeds, two instances");
        assertCode(Status.Code.INVALID_ARGUMENT, "{\"seed\": <integer>}", () -> stub.submitProof(
                SubmitProofRequest.newBuilder().setCircuitId("merkle")
                        .addPartitions(Partition.newBuilder().setInputJson("{\"leaf\": 1}")).build()));
    }

    @Test
    void aRepeatedIdempotencyKeyGetsTheSameJob() throws Exception {
        SubmitProofRequest req = SubmitProofRequest.newBuilder().setCircuitId("multiplier").setIdempotencyKey("k-1")
                .addPartitions(wtns(mul)).build();
        SubmitProofResponse first = stub.submitProof(req);
        SubmitProofResponse again = stub.submitProof(req);
        assertFalse(first.getExisting());
        assertTrue(again.getExisting());
        assertEquals(first.getJobId(), again.getJobId());
        AwaitProofResponse done = stub.awaitProof(AwaitProofRequest.newBuilder().setJobId(first.getJobId())
                .setTimeoutMs(120_000).build());
        assertEquals(JobState.DONE, done.getState());
    }

    @Test
    void badRequestsGetTheRightCodeAndOtherJobsComplete() throws Exception {
        SubmitProofResponse good = stub.submitProof(SubmitProofRequest.newBuilder().setCircuitId("poseidon-bn128")
                .addPartitions(wtns(bn)).addPartitions(wtns(bn)).build());
        assertCode(Status.Code.NOT_FOUND, "unknown circuit 'nope'", () -> stub.submitProof(
                SubmitProofRequest.newBuilder().setCircuitId("nope").addPartitions(wtns(bn)).build()));
        assertCode(Status.Code.INVALID_ARGUMENT, "invalid circuit id", () -> stub.submitProof(
                SubmitProofRequest.newBuilder().setCircuitId("../etc").addPartitions(wtns(bn)).build()));
        assertCode(Status.Code.INVALID_ARGUMENT, "partition 0 of circuit 'multiplier': the witness has", () -> stub.submitProof(
                SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(wtns(bn)).build()));
        assertCode(Status.Code.INVALID_ARGUMENT, "partition 1 of circuit 'multiplier'", () -> stub.submitProof(
                SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(wtns(mul))
                        .addPartitions(Partition.newBuilder().setWtns(ByteString.copyFromUtf8("not a witness"))).build()));
        assertCode(Status.Code.INVALID_ARGUMENT, "no witness generator", () -> stub.submitProof(
                SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(input(mul)).build()));
        assertCode(Status.Code.INVALID_ARGUMENT, "at least one partition", () -> stub.submitProof(
                SubmitProofRequest.newBuilder().setCircuitId("multiplier").build()));
        assertCode(Status.Code.RESOURCE_EXHAUSTED, "max_partitions", () -> {
            SubmitProofRequest.Builder b = SubmitProofRequest.newBuilder().setCircuitId("multiplier");
            for (int i = 0; i < 9; i++) {
                b.addPartitions(wtns(mul));
            }
            return stub.submitProof(b.build());
        });
        assertCode(Status.Code.RESOURCE_EXHAUSTED, "", () -> stub.submitProof(SubmitProofRequest.newBuilder()
                .setCircuitId("multiplier").addPartitions(Partition.newBuilder()
                        .setWtns(ByteString.copyFrom(new byte[2 << 20]))).build()));
        assertCode(Status.Code.NOT_FOUND, "no job 'job-999999'", () -> stub.awaitProof(
                AwaitProofRequest.newBuilder().setJobId("job-999999").build()));
        AwaitProofResponse r = stub.awaitProof(AwaitProofRequest.newBuilder().setJobId(good.getJobId())
                .setTimeoutMs(120_000).build());
        assertEquals(JobState.DONE, r.getState(), "the good job completes");
    }

    /** The witness file {@code fx} with one bit of its last value flipped: the right size, a wrong value. */
    private static Partition tampered(CircomFixtures.Fixture fx) throws Exception {
        byte[] w = Files.readAllBytes(fx.wtns());
        w[w.length - 32] ^= 1; // the low byte of the last (internal) signal
        return Partition.newBuilder().setWtns(ByteString.copyFrom(w)).build();
    }

    @Test
    void aWitnessThatDoesNotSatisfyTheCircuitIsRefusedAtSubmitWithoutAServerPath() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> stub.submitProof(
                SubmitProofRequest.newBuilder().setCircuitId("poseidon-bn128").addPartitions(wtns(bn))
                        .addPartitions(tampered(bn)).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        String d = e.getStatus().getDescription();
        assertTrue(d.contains("partition 1 of circuit 'poseidon-bn128': the witness does not satisfy the circuit"), d);
        assertFalse(d.contains(tmp.toString()), d);
    }

    @Test
    void aKeyOnlyCircuitRefusesABadWitnessAtAwaitNamingTheCircuitNotAPath() throws Exception {
        // a snarkjs key holds A and B but not C: the proof's own verification is the check
        SubmitProofResponse sub = stub.submitProof(SubmitProofRequest.newBuilder().setCircuitId("multiplier")
                .addPartitions(tampered(mul)).build());
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> stub.awaitProof(
                AwaitProofRequest.newBuilder().setJobId(sub.getJobId()).setTimeoutMs(120_000).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        String d = e.getStatus().getDescription();
        assertTrue(d.contains("circuit 'multiplier'") && d.contains("does not satisfy"), d);
        assertFalse(d.contains("/"), d);
    }

    @Test
    void aCorruptKeyIsAFailedPreconditionNamingTheCircuitNotAPath() {
        for (ThrowingCall call : List.<ThrowingCall>of(
                () -> stub.submitProof(SubmitProofRequest.newBuilder().setCircuitId("corrupt")
                        .addPartitions(wtns(mul)).build()),
                () -> stub.preloadKey(KeyRequest.newBuilder().setCircuitId("corrupt").build()))) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
            assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode(), e.getStatus().getDescription());
            String d = e.getStatus().getDescription();
            assertTrue(d.startsWith("circuit corrupt"), d);
            assertFalse(d.contains(tmp.toString()) || d.contains("/"), d);
        }
    }

    @Test
    void aCancelledJobAndAJobPastItsDeadlineAnswerWithTheirCodes() throws Exception {
        SubmitProofRequest.Builder many = SubmitProofRequest.newBuilder().setCircuitId("poseidon-bls12381");
        for (int i = 0; i < 8; i++) {
            many.addPartitions(wtns(bls));
        }
        SubmitProofResponse job = stub.submitProof(many.build());
        assertEquals(JobState.CANCELLED, stub.cancelProof(CancelProofRequest.newBuilder().setJobId(job.getJobId())
                .build()).getState());
        assertCode(Status.Code.CANCELLED, "cancelled", () -> stub.awaitProof(AwaitProofRequest.newBuilder()
                .setJobId(job.getJobId()).setTimeoutMs(10_000).build()));
        SubmitProofResponse late = stub.submitProof(many.setDeadlineMs(1).build());
        assertCode(Status.Code.DEADLINE_EXCEEDED, "deadline", () -> stub.awaitProof(AwaitProofRequest.newBuilder()
                .setJobId(late.getJobId()).setTimeoutMs(60_000).build()));
        // waiting with a short timeout on a running job is not an error: it says RUNNING
        SubmitProofResponse running = stub.submitProof(SubmitProofRequest.newBuilder().setCircuitId("poseidon-bn128")
                .addPartitions(wtns(bn)).addPartitions(wtns(bn)).addPartitions(wtns(bn)).build());
        assertEquals(JobState.RUNNING, stub.awaitProof(AwaitProofRequest.newBuilder().setJobId(running.getJobId())
                .setTimeoutMs(1).build()).getState());
        assertEquals(JobState.DONE, stub.awaitProof(AwaitProofRequest.newBuilder().setJobId(running.getJobId())
                .setTimeoutMs(120_000).build()).getState());
    }

    @Test
    void largeWitnessesGoAsAStreamOfChunks() throws Exception {
        byte[] w = Files.readAllBytes(bn.wtns());
        CompletableFuture<SubmitProofResponse> answer = new CompletableFuture<>();
        StreamObserver<SubmitProofChunk> up = ProvingEngineGrpc.newStub(channel)
                .submitProofStream(OneAnswer.into(answer));
        up.onNext(SubmitProofChunk.newBuilder().setHeader(SubmitProofRequest.newBuilder().setCircuitId("poseidon-bn128")
                .setStreamedPartitions(2).setStreamedKind(PartitionKind.WTNS)).build());
        for (int p = 0; p < 2; p++) {
            for (int off = 0; off < w.length; off += 1000) {
                up.onNext(SubmitProofChunk.newBuilder().setChunk(PartitionChunk.newBuilder().setPartition(p)
                        .setData(ByteString.copyFrom(w, off, Math.min(1000, w.length - off)))).build());
            }
        }
        up.onCompleted();
        String id = answer.get(60, TimeUnit.SECONDS).getJobId();
        AwaitProofResponse r = stub.awaitProof(AwaitProofRequest.newBuilder().setJobId(id).setTimeoutMs(120_000).build());
        assertEquals(JobState.DONE, r.getState());
        assertSnarkjsAccepts(bn, r.getPartitions(1), "streamed");
    }

    @Test
    void statusMetricsAndHealthOverHttpAndGrpc() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://" + daemon.httpAddress();
        HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
        JsonNode status = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/status"))
                .build(), HttpResponse.BodyHandlers.ofString()).body());
        assertEquals("cpu", status.get("backend").asText());
        // the engine's part of engine.budget (4 GiB): the requests being decoded take a quarter
        assertTrue(status.get("budget_total").asLong() == 3L << 30, status.toString());
        HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(metrics.body().contains("proofline_permits_max 2.0"), metrics.body());
        assertTrue(http.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
                HttpResponse.BodyHandlers.ofString()).body().contains("<title>Proofline</title>"));
        String job = stub.prove(SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(wtns(mul))
                .build()).getJobId();
        JsonNode events = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(
                URI.create(base + "/timeline?limit=30")).build(), HttpResponse.BodyHandlers.ofString()).body());
        assertTrue(events.size() <= 30 && events.size() >= 8, events.toString());
        List<String> kinds = new ArrayList<>();
        for (JsonNode e : events) {
            assertTrue(e.has("offset_ms") && e.has("partition"), e.toString());
            // the engine proves a stored job's partitions as jobs of their own, named job-N/p
            if (e.get("job").asText().equals(job) || e.get("job").asText().startsWith(job + "/")) {
                kinds.add(e.get("kind").asText());
            }
        }
        assertEquals(List.of("QUEUED", "SYNTH_START", "SYNTH_END", "PROVER_QUEUE", "PROVER_START", "PROVER_END",
                "FINALIZE_END", "JOB_DONE"), kinds);
        assertEquals(404, http.send(HttpRequest.newBuilder(URI.create(base + "/../etc/passwd")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        GetStatusResponse s = stub.getStatus(GetStatusRequest.getDefaultInstance());
        assertEquals(2, s.getPermitsMax());
        assertEquals(List.of(Runtime.getRuntime().availableProcessors() + " CPU cores"), s.getDevicesList());
        assertTrue(s.getKeysList().stream().anyMatch(k -> k.getCircuitId().equals("poseidon-bn128") && k.getResident()));
        assertTrue(stub.getMetrics(GetMetricsRequest.getDefaultInstance()).getPrometheusText()
                .contains("proofline_budget_reserved_bytes"));
        assertEquals("loaded", stub.preloadKey(KeyRequest.newBuilder().setCircuitId("multiplier").build()).getResult());
        assertNotEquals("", stub.evictKey(KeyRequest.newBuilder().setCircuitId("multiplier").build()).getResult());
    }

    private static void assertCode(Status.Code code, String inMessage, ThrowingCall call) {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
        assertEquals(code, e.getStatus().getCode(), String.valueOf(e.getStatus().getDescription()));
        String d = String.valueOf(e.getStatus().getDescription());
        assertTrue(d.contains(inMessage), "'" + d + "' should contain '" + inMessage + "'");
    }

    private interface ThrowingCall {
        Object run() throws Exception;
    }

    static Metadata bearer(String token) {
        Metadata m = new Metadata();
        m.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        return m;
    }

    @Test
    void aTokenProtectsBothServersAndExposureWithoutOneIsRefused() throws Exception {
        DaemonConfig.ConfigException refused = assertThrows(DaemonConfig.ConfigException.class,
                () -> Daemon.start(DaemonConfig.parse("[server]\ngrpc_listen = \"0.0.0.0:0\"\n", "x.toml"), l -> { }));
        assertTrue(refused.getMessage().contains("auth_token"), refused.getMessage());
        DaemonConfig cfg = DaemonToml.inMemory(tmp.resolve("empty")).set("server.auth_token", "s3cret").parse("t.toml");
        try (Daemon d = Daemon.start(cfg, l -> { })) {
            ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
            try {
                var plain = ProvingEngineGrpc.newBlockingStub(ch);
                assertCode(Status.Code.UNAUTHENTICATED, "Bearer", () -> plain.listCircuits(
                        ListCircuitsRequest.getDefaultInstance()));
                var authed = plain.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(bearer("s3cret")));
                assertEquals(0, authed.listCircuits(ListCircuitsRequest.getDefaultInstance()).getCircuitsCount());
            } finally {
                ch.shutdownNow();
            }
            HttpClient http = HttpClient.newHttpClient();
            URI status = URI.create("http://" + d.httpAddress() + "/status");
            assertEquals(401, http.send(HttpRequest.newBuilder(status).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode());
            assertEquals(200, http.send(HttpRequest.newBuilder(status).header("Authorization", "Bearer s3cret").build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode());
        }
    }

    @Test
    void submissionsDuringShutdownAreRefusedAndRunningJobsFinish() throws Exception {
        DaemonConfig cfg = DaemonToml.inMemory(tmp.resolve("keys")).parse("t.toml");
        Daemon d = Daemon.start(cfg, l -> { });
        ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
        try {
            var s = ProvingEngineGrpc.newBlockingStub(ch);
            SubmitProofResponse running = s.submitProof(SubmitProofRequest.newBuilder().setCircuitId("multiplier")
                    .addPartitions(wtns(mul)).build());
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> {
                try {
                    d.shutdown(Duration.ofSeconds(60));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            // the shutdown starts on another thread: submissions go on until it has (a loaded machine may take a while)
            List<Status.Code> codes = new ArrayList<>();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (codes.isEmpty() && System.nanoTime() < until) {
                try {
                    s.submitProof(SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(wtns(mul))
                            .build());
                    Thread.sleep(10);
                } catch (StatusRuntimeException e) {
                    codes.add(e.getStatus().getCode());
                }
            }
            assertEquals(List.of(Status.Code.UNAVAILABLE), codes, "refused while shutting down");
            stopping.get(90, TimeUnit.SECONDS);
            assertTrue(d.engine().job(running.getJobId()).orElseThrow().result().isDone());
            var result = d.engine().job(running.getJobId()).orElseThrow().result();
            assertFalse(result.isCompletedExceptionally(), () -> "the running job should finish within the grace"
                    + " period: " + result.exceptionNow());
        } finally {
            ch.shutdownNow();
        }
    }
}
