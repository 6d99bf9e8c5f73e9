package dev.proofline.daemon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.GetStatusRequest;
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.HeadlessChromium;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.config.DatabaseUrl;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.postgres.LocalPostgres;
import dev.proofline.daemon.store.postgres.PostgresStore;
import dev.proofline.engine.groth16.SimulatedProofs;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cluster mode against a real PostgreSQL server (a private one, started here from the machine's
 * PostgreSQL programs; skipped, saying why, where there are none): several daemons on loopback
 * sharing one database, each test on a database of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterTest {

    @TempDir
    static Path tmp;

    private LocalPostgres pg;
    private CircomFixtures.Fixture mul;
    private Path keys;
    private VerificationKey vk;
    private byte[] wtns;
    private final List<Daemon> daemons = new ArrayList<>();
    private final List<ManagedChannel> channels = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
    private int databases;

    @BeforeAll
    void startPostgres() throws Exception {
        List<String> why = new ArrayList<>();
        var bin = LocalPostgres.programs(why);
        if (bin.isEmpty()) {
            System.out.println("SKIPPED (cluster tests): " + why.getFirst());
        }
        assumeTrue(bin.isPresent(), () -> why.getFirst());
        pg = LocalPostgres.start(bin.get());
        mul = CircomFixtures.build("bn128", "multiplier");
        keys = tmp.resolve("keys");
        Files.createDirectories(keys.resolve("multiplier"));
        Files.copy(mul.zkey(), keys.resolve("multiplier/circuit.zkey"));
        wtns = Files.readAllBytes(mul.wtns());
        try (var key = ZkeyFile.open(mul.zkey())) {
            vk = key.verificationKey();
        }
    }

    @AfterEach
    void stopNodes() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        processes.clear();
        for (ManagedChannel c : channels) {
            c.shutdownNow();
        }
        channels.clear();
        for (Daemon d : daemons) {
            d.shutdown(java.time.Duration.ofSeconds(5));
        }
        for (Daemon d : daemons) {
            if (d.storeNode() != null) {
                assertEquals(0, d.storeNode().doubleReleases(), "claims ended twice on a node");
            }
        }
        daemons.clear();
    }

    @AfterAll
    void stopPostgres() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    private String newDatabase() throws Exception {
        return pg.createDatabase("cluster_" + (++databases));
    }

    private String config(String database, String node, Path keyDir, int permits, String lease) {
        return """
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                [keys]
                directory = "%s"
                [engine]
                budget = "2GiB"
                permits = %d
                synthesis_threads = 1
                finalizer_threads = 1
                [cluster]
                database = "%s"
                node_id = "%s"
                lease_timeout = "%s"
                heartbeat_interval = "300ms"
                fallback_poll = "2s"
                connect_timeout = "1s"
                """.formatted(keyDir.toString().replace("\\", "\\\\"), permits, database, node, lease);
    }

    private Daemon node(String database, String id, Path keyDir, int permits, String lease) throws Exception {
        Daemon d = Daemon.start(DaemonConfig.parse(config(database, id, keyDir, permits, lease), id + ".toml"),
                new dev.proofline.engine.groth16.CpuBackend(), line -> log.add(id + ": " + line));
        daemons.add(d);
        return d;
    }

    private ProvingEngineGrpc.ProvingEngineBlockingStub client(Daemon d) {
        ManagedChannel c = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
        channels.add(c);
        return ProvingEngineGrpc.newBlockingStub(c);
    }

    private SubmitProofRequest job(int partitions) {
        SubmitProofRequest.Builder b = SubmitProofRequest.newBuilder().setCircuitId("multiplier");
        for (int p = 0; p < partitions; p++) {
            b.addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(wtns)));
        }
        return b.build();
    }

    /** AwaitProof, retried on UNAVAILABLE (as clients do) while the database comes back after an outage. */
    private AwaitProofResponse await(ProvingEngineGrpc.ProvingEngineBlockingStub stub, String job, long ms) {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return stub.withDeadlineAfter(ms + 10_000, TimeUnit.MILLISECONDS).awaitProof(
                        AwaitProofRequest.newBuilder().setJobId(job).setTimeoutMs(ms).build());
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() != Status.Code.UNAVAILABLE || System.nanoTime() > giveUp) {
                    throw e;
                }
                log.add("client: " + e.getStatus().getDescription() + "; retrying");
            }
        }
    }

    private void assertVerifies(PartitionResult p) {
        assertTrue(Verifier.verify(vk, p.getPublicSignalsList().stream().map(BigInteger::new).toList(),
                ProofBinary.decode(PairingCurve.BN254, p.getProofBinary().toByteArray())), "proof of partition "
                        + p.getPartition() + " by " + p.getNode());
    }

    /** node → partitions it proved, and how many partitions were claimed more than once, from the database. */
    private static Map<String, Long> provedBy(String database) throws Exception {
        try (ClusterStore s = PostgresStore.open(database, 2, java.time.Duration.ofSeconds(5))) {
            return s.views().provedBy();
        }
    }

    private static long count(String database, String sql) throws Exception {
        java.util.Properties props = new java.util.Properties();
        try (Connection c = DriverManager.getConnection(DatabaseUrl.jdbcUrl(database, props), props);
                ResultSet r = c.createStatement().executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    @Test
    void threeDaemonsProveEveryPartitionOfAHundredJobsExactlyOnce() throws Exception {
        String db = newDatabase();
        List<Daemon> nodes = List.of(node(db, "a", keys, 2, "10s"), node(db, "b", keys, 2, "10s"),
                node(db, "c", keys, 2, "10s"));
        List<ProvingEngineGrpc.ProvingEngineBlockingStub> stubs = nodes.stream().map(this::client).toList();
        Random rnd = new Random(7);
        List<String> jobs = new ArrayList<>();
        for (int j = 0; j < 100; j++) {
            jobs.add(stubs.get(rnd.nextInt(3)).submitProof(job(4)).getJobId());
        }
        assertEquals(100, jobs.stream().distinct().count(), "job ids are unique across the cluster");
        Map<String, Integer> byNode = new HashMap<>();
        List<PartitionResult> all = new ArrayList<>();
        for (String id : jobs) {
            AwaitProofResponse r = await(stubs.get(rnd.nextInt(3)), id, 120_000);
            assertEquals(JobState.DONE, r.getState(), id + ": " + r.getError());
            assertEquals(4, r.getPartitionsCount());
            for (PartitionResult p : r.getPartitionsList()) {
                assertVerifies(p);
                byNode.merge(p.getNode(), 1, Integer::sum);
                all.add(p);
            }
        }
        // a sample also verifies with snarkjs
        PartitionResult sample = all.get(rnd.nextInt(all.size()));
        Path proof = Files.writeString(tmp.resolve("proof.json"), sample.getProofJson());
        Path pub = Files.writeString(tmp.resolve("public.json"), "[" + String.join(",", sample.getPublicSignalsList()
                .stream().map(s -> "\"" + s + "\"").toList()) + "]");
        assertTrue(CircomFixtures.snarkjsVerifies(mul.vk(), pub, proof), "snarkjs accepts a proof from the cluster");

        Map<String, Long> stored = provedBy(db);
        assertEquals(400L, stored.values().stream().mapToLong(Long::longValue).sum(), "stored proofs: " + stored);
        assertEquals(Map.of("a", (long) byNode.getOrDefault("a", 0), "b", (long) byNode.getOrDefault("b", 0),
                "c", (long) byNode.getOrDefault("c", 0)), stored, "proved-by counts add up");
        long engineProofs = nodes.stream().mapToLong(d -> d.engine().stats().proofs()).sum();
        assertEquals(400, engineProofs, "no partition was proved twice: the engines made 400 proofs in all");
        for (String n : List.of("a", "b", "c")) {
            assertTrue(stored.getOrDefault(n, 0L) > 0, "node " + n + " proved some partitions: " + stored);
        }
        assertEquals(0, count(db, "SELECT count(*) FROM partitions WHERE claims <> 1"), "each partition claimed once");
        // any node answers for any job, and the status shows the cluster
        var st = stubs.get(0).getStatus(GetStatusRequest.getDefaultInstance());
        assertEquals("a", st.getNodeId());
        var cluster = new com.fasterxml.jackson.databind.ObjectMapper().readTree(st.getClusterJson());
        assertEquals(3, cluster.get("nodes").size(), st.getClusterJson());
        assertEquals(400, cluster.get("partitions").get("DONE").asInt());
        // so does GET /status, for the dashboard
        String http = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://" + nodes.get(1).httpAddress() + "/status")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        var status = new com.fasterxml.jackson.databind.ObjectMapper().readTree(http);
        assertEquals("b", status.get("node").get("node_id").asText());
        assertEquals("ok", status.get("node").get("database").asText());
        assertEquals(3, status.get("cluster").get("nodes").size());
        assertEquals(30, status.get("cluster").get("recent").size(), "the 30 most recent jobs");
        String metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://" + nodes.get(2).httpAddress() + "/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("proofline_cluster_database_up 1.0"), metrics);
        assertTrue(metrics.contains("proofline_cluster_results_stored_total " + stored.get("c") + ".0"), metrics);
    }

    @Test
    void partitionsOfAKilledDaemonAreProvedByTheOthers() throws Exception {
        String db = newDatabase();
        // the victim proves with a prover that never finishes: it dies holding its leases
        Path cfg = Files.writeString(tmp.resolve("victim.toml"), config(db, "victim", keys, 4, "3s"));
        String java = ProcessHandle.current().info().command().orElse("java");
        Process victim = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), ClusterNodeProcess.class.getName(), cfg.toString(), "sim")
                .redirectErrorStream(true).start();
        processes.add(victim);
        var out = new java.io.BufferedReader(new java.io.InputStreamReader(victim.getInputStream()));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("ready")) {
            log.add("victim: " + line);
        }
        assertNotNull(line, "the victim process started: " + log);
        Thread.ofPlatform().daemon().start(() -> out.lines().forEach(l -> log.add("victim: " + l)));

        ProvingEngineGrpc.ProvingEngineBlockingStub stub = client(node(db, "a", keys, 2, "3s"));
        List<String> jobs = new ArrayList<>();
        for (int j = 0; j < 6; j++) {
            jobs.add(stub.submitProof(job(4)).getJobId());
        }
        waitFor(30, () -> "the victim claimed partitions: " + log,
                () -> countQuietly(db, "SELECT count(*) FROM partitions WHERE lease_owner = 'victim'") > 0);
        node(db, "b", keys, 2, "3s");
        long held = count(db, "SELECT count(*) FROM partitions WHERE lease_owner = 'victim'");
        victim.destroyForcibly(); // SIGKILL
        assertTrue(victim.waitFor(10, TimeUnit.SECONDS));

        for (String id : jobs) {
            AwaitProofResponse r = await(stub, id, 60_000);
            assertEquals(JobState.DONE, r.getState(), id + ": " + r.getError() + "\n" + String.join("\n", log));
            for (PartitionResult p : r.getPartitionsList()) {
                assertVerifies(p);
                assertTrue(p.getNode().equals("a") || p.getNode().equals("b"), p.getNode());
            }
        }
        Map<String, Long> stored = provedBy(db);
        assertEquals(24L, stored.values().stream().mapToLong(Long::longValue).sum(), stored.toString());
        assertFalse(stored.containsKey("victim"));
        assertTrue(held > 0);
        assertTrue(count(db, "SELECT count(*) FROM partitions WHERE claims > 1") >= held,
                "the victim's partitions were claimed again after its leases expired");
        long engineProofs = daemons.stream().mapToLong(d -> d.engine().stats().proofs()).sum();
        assertEquals(24, engineProofs, "nothing proved twice by the survivors");
    }

    @Test
    void aDatabaseOutageFailsNewSubmissionsAndLosesNoResult() throws Exception {
        String db = newDatabase();
        List<Daemon> nodes = List.of(node(db, "a", keys, 2, "30s"), node(db, "b", keys, 2, "30s"));
        ProvingEngineGrpc.ProvingEngineBlockingStub stub = client(nodes.get(0));
        List<String> jobs = new ArrayList<>();
        for (int j = 0; j < 30; j++) {
            jobs.add(stub.submitProof(job(4)).getJobId());
        }
        pg.stop();
        try {
            StatusRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                    () -> stub.withDeadlineAfter(30, TimeUnit.SECONDS).submitProof(job(1)));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.getStatus().toString());
            assertTrue(e.getStatus().getDescription().contains("cluster database is unavailable"),
                    e.getStatus().getDescription());
            // the engines keep proving what they claimed before the outage
            Thread.sleep(3000);
        } finally {
            pg.start();
        }
        for (String id : jobs) {
            AwaitProofResponse r = await(stub, id, 120_000);
            assertEquals(JobState.DONE, r.getState(), id + ": " + r.getError());
            r.getPartitionsList().forEach(this::assertVerifies);
        }
        Map<String, Long> stored = provedBy(db);
        assertEquals(120L, stored.values().stream().mapToLong(Long::longValue).sum(), stored.toString());
        assertTrue(log.stream().anyMatch(l -> l.contains("reachable again")), "the nodes saw the database return");
        // and it takes new work again
        AwaitProofResponse again = stub.prove(job(2));
        assertEquals(JobState.DONE, again.getState());
    }

    @Test
    void aNodeWithADifferentKeyRefusesAndTheOthersProve() throws Exception {
        String db = newDatabase();
        // "odd" has another key under the same circuit id
        Path oddKeys = tmp.resolve("odd-keys");
        Files.createDirectories(oddKeys.resolve("multiplier"));
        Files.copy(CircomFixtures.build("bn128", "poseidon").zkey(), oddKeys.resolve("multiplier/circuit.zkey"));
        Daemon odd = node(db, "odd", oddKeys, 2, "10s");
        String digest = KeyDigests.digest(mul.zkey());
        String job;
        try (ClusterStore s = PostgresStore.open(db, 2, java.time.Duration.ofSeconds(5))) {
            job = s.queue().submit(null, "multiplier", digest, 1, null, "test",
                    List.of(new ClusterStore.NewPartition(ClusterStore.PartitionKind.WTNS, wtns), new ClusterStore.NewPartition(ClusterStore.PartitionKind.WTNS, wtns)))
                    .jobId();
        }
        waitFor(20, () -> "the odd node recorded its refusal: " + log,
                () -> countQuietly(db, "SELECT count(*) FROM refusals WHERE node_id = 'odd'") > 0);
        assertEquals(2, count(db, "SELECT count(*) FROM partitions WHERE state = 'QUEUED'"), "the odd node claims nothing");
        node(db, "good", keys, 2, "10s");
        AwaitProofResponse r = await(client(odd), job, 60_000);
        assertEquals(JobState.DONE, r.getState(), r.getError());
        for (PartitionResult p : r.getPartitionsList()) {
            assertEquals("good", p.getNode());
            assertVerifies(p);
        }
        assertEquals(1, r.getRefusalsCount(), r.getRefusalsList().toString());
        assertTrue(r.getRefusals(0).startsWith("odd: refused: its key for multiplier has digest "), r.getRefusals(0));
        assertTrue(r.getRefusals(0).endsWith("the job was submitted against " + digest), r.getRefusals(0));
    }

    private Daemon simNode(String database, String id, String lease) throws Exception {
        // a prover that holds each partition for an hour
        Daemon d = Daemon.start(DaemonConfig.parse(config(database, id, keys, 2, lease), id + ".toml"),
                new SimulatedProofs(3_600_000, 0, p -> false), line -> log.add(id + ": " + line));
        daemons.add(d);
        return d;
    }

    private static void waitFor(String what, java.util.function.BooleanSupplier condition) throws Exception {
        waitFor(30, () -> what, condition);
    }

    /** Polls {@code condition} every 20 ms for at most {@code seconds}; fails with {@code what} after that. */
    private static void waitFor(int seconds, java.util.function.Supplier<String> what,
            java.util.function.BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(20);
        }
    }

    private static long countQuietly(String db, String sql) {
        try {
            return count(db, sql);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theJsonApiSubmitsOnOneNodeAndAnswersWithTheProofsOnAnother() throws Exception {
        String db = newDatabase();
        Daemon a = node(db, "a", keys, 2, "5s");
        Daemon b = node(db, "b", keys, 2, "5s");
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var body = json.createObjectNode().put("circuit", "multiplier").put("idempotency_key", "http-1");
        for (int p = 0; p < 3; p++) {
            body.withArray("partitions").addObject().put("wtns", java.util.Base64.getEncoder().encodeToString(wtns));
        }
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.util.function.BiFunction<Daemon, String, java.net.http.HttpRequest.Builder> at = (d, path) ->
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + d.httpAddress() + path))
                        .timeout(java.time.Duration.ofMinutes(2));
        var submitted = http.send(at.apply(a, "/v1/jobs").POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                body.toString())).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(201, submitted.statusCode(), submitted.body());
        String id = json.readTree(submitted.body()).get("job_id").asText();
        // the same key on the other node: the same job
        var again = http.send(at.apply(b, "/v1/jobs").POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                body.toString())).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, again.statusCode(), again.body());
        assertEquals(id, json.readTree(again.body()).get("job_id").asText());
        com.fasterxml.jackson.databind.JsonNode done = null;
        for (int i = 0; i < 12 && (done == null || !done.get("state").asText().equals("DONE")); i++) {
            var r = http.send(at.apply(b, "/v1/jobs/" + id + "?wait_ms=10000").build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            done = json.readTree(r.body());
        }
        assertEquals("DONE", done.get("state").asText(), done.toString());
        assertEquals(3, done.get("partitions").size());
        for (var p : done.get("partitions")) {
            assertTrue(Set.of("a", "b").contains(p.get("node").asText()), p.toString());
            List<BigInteger> signals = new ArrayList<>();
            p.get("public_signals").forEach(n -> signals.add(new BigInteger(n.asText())));
            assertTrue(Verifier.verify(vk, signals, dev.proofline.groth16.io.SnarkjsJson.readProof(
                    p.get("proof").toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), "proof.json",
                    PairingCurve.BN254)), p.toString());
        }
        var unknown = http.send(at.apply(a, "/v1/jobs/job-999999").DELETE().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(404, unknown.statusCode(), unknown.body());
        assertEquals("NOT_FOUND", json.readTree(unknown.body()).get("error").get("code").asText());
    }

    @Test
    void cancelDeadlinesAndIdempotencyKeysWorkAcrossNodes() throws Exception {
        String db = newDatabase();
        // two nodes whose provers never finish: every outcome below is the cluster's doing, not a race
        Daemon slow = simNode(db, "slow", "10s");
        Daemon otherNode = simNode(db, "other", "10s");
        ProvingEngineGrpc.ProvingEngineBlockingStub other = client(otherNode);
        ProvingEngineGrpc.ProvingEngineBlockingStub viaSlow = client(slow);
        // a job held by the slow node, cancelled through the other one
        String held = viaSlow.submitProof(job(1).toBuilder().setPriority(dev.proofline.api.v1.Priority.HIGH).build())
                .getJobId();
        waitFor("some partition is claimed", () -> countQuietly(db, "SELECT count(*) FROM partitions WHERE job_id = '"
                + held + "' AND state = 'CLAIMED'") > 0);
        assertEquals(JobState.CANCELLED, other.cancelProof(dev.proofline.api.v1.CancelProofRequest.newBuilder()
                .setJobId(held).build()).getState());
        StatusRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                () -> await(viaSlow, held, 5_000));
        assertEquals(Status.Code.CANCELLED, e.getStatus().getCode());
        assertEquals(0, count(db, "SELECT count(*) FROM partitions WHERE job_id = '" + held
                + "' AND state NOT IN ('CANCELLED', 'DONE')"));
        waitFor("the nodes let go of the cancelled job's partition: " + log,
                () -> slow.storeNode().holding() + otherNode.storeNode().holding() == 0);
        // a deadline that passes while the slow node holds the partitions
        SubmitProofRequest late = job(4).toBuilder().setDeadlineMs(1000).build();
        String lateId = viaSlow.submitProof(late).getJobId();
        StatusRuntimeException d = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                () -> await(other, lateId, 20_000));
        assertEquals(Status.Code.DEADLINE_EXCEEDED, d.getStatus().getCode(), d.getStatus().toString());
        // one idempotency key, two nodes: one job
        SubmitProofRequest keyed = job(1).toBuilder().setIdempotencyKey("same-key").build();
        var first = other.submitProof(keyed);
        var second = viaSlow.submitProof(keyed);
        assertEquals(first.getJobId(), second.getJobId());
        assertFalse(first.getExisting());
        assertTrue(second.getExisting());
        // unknown jobs are NOT_FOUND on any node
        StatusRuntimeException nf = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                () -> await(other, "job-999999", 0));
        assertEquals(Status.Code.NOT_FOUND, nf.getStatus().getCode());
    }

    @Test
    void aStoppingNodeHandsItsPartitionsBackAtOnce() throws Exception {
        String db = newDatabase();
        Daemon slow = simNode(db, "slow", "60s");
        ProvingEngineGrpc.ProvingEngineBlockingStub stub = client(slow);
        String id = stub.submitProof(job(2)).getJobId();
        waitFor("the slow node claims both partitions", () -> countQuietly(db,
                "SELECT count(*) FROM partitions WHERE lease_owner = 'slow'") == 2);
        Daemon fast = node(db, "fast", keys, 2, "60s");
        slow.shutdown(java.time.Duration.ZERO);
        daemons.remove(slow);
        // far sooner than the 60 s lease: the stopping node gave its leases back
        AwaitProofResponse r = await(client(fast), id, 20_000);
        assertEquals(JobState.DONE, r.getState(), String.join("\n", log));
        r.getPartitionsList().forEach(p -> assertEquals("fast", p.getNode()));
        assertEquals(1, count(db, "SELECT count(*) FROM nodes WHERE node_id = 'slow' AND stopped_at IS NOT NULL"));
    }

    @Test
    void aResultFromAnExpiredLeaseIsDiscarded() throws Exception {
        String db = newDatabase();
        String digest = KeyDigests.digest(mul.zkey());
        try (ClusterStore s = PostgresStore.open(db, 2, java.time.Duration.ofSeconds(5))) {
            String job = s.queue().submit(null, "multiplier", digest, 1, null, "test",
                    List.of(new ClusterStore.NewPartition(ClusterStore.PartitionKind.WTNS, wtns))).jobId();
            List<String> circuit = List.of("multiplier");
            List<String> digests = List.of(digest);
            ClusterStore.Claim first = s.queue().claim("n1", 5, java.time.Duration.ofMillis(100), circuit, digests).getFirst();
            assertTrue(s.queue().claim("n2", 5, java.time.Duration.ofSeconds(10), circuit, digests).isEmpty(),
                    "a claimed partition is not claimed again while its lease holds");
            Thread.sleep(300);
            assertEquals(1, s.upkeep().run(java.time.Duration.ofHours(1), java.time.Duration.ofMinutes(1)),
                    "the expired lease goes back to the queue");
            assertFalse(s.membership().heartbeat(new ClusterStore.NodeInfo("n1", "-", "-", "cpu", java.time.Instant.now(), 1, 0, 0, 0,
                    0, ""), java.time.Duration.ofSeconds(10)).contains(first.token()), "n1's heartbeat finds it lost");
            ClusterStore.Claim second = s.queue().claim("n2", 5, java.time.Duration.ofSeconds(10), circuit, digests).getFirst();
            assertEquals(2, second.claims());
            assertFalse(s.queue().complete(first, "n1", "{}", new byte[0], List.of(), new double[6]),
                    "the late result of n1 is discarded");
            assertFalse(s.queue().fail(first, "n1", "late failure"), "so is a late failure");
            assertTrue(s.queue().complete(second, "n2", "{}", new byte[0], List.of("1"), new double[6]));
            assertFalse(s.queue().complete(second, "n2", "{}", new byte[0], List.of("1"), new double[6]), "stored once");
            ClusterStore.JobView v = s.views().job(job, false);
            assertEquals(ClusterStore.JobState.DONE, v.state());
            assertEquals("n2", v.parts().getFirst().node());
            assertEquals(Map.of("n2", 1L), s.views().provedBy());
        }
    }

    @Test
    void theDashboardShowsTheNodesAndWhereEachPartitionRan() throws Exception {
        assumeTrue(HeadlessChromium.installed(), HeadlessChromium.missing());
        String db = newDatabase();
        Daemon a = node(db, "a", keys, 2, "10s");
        node(db, "b", keys, 2, "10s");
        ProvingEngineGrpc.ProvingEngineBlockingStub stub = client(a);
        for (int j = 0; j < 3; j++) {
            assertEquals(JobState.DONE, stub.prove(job(3)).getState());
        }
        org.openqa.selenium.WebDriver browser = HeadlessChromium.start();
        try {
            browser.get("http://" + a.httpAddress() + "/");
            var wait = new org.openqa.selenium.support.ui.WebDriverWait(browser, java.time.Duration.ofSeconds(20));
            wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
            wait.until(d -> d.findElements(org.openqa.selenium.By.cssSelector("#node-rows tr[data-node]")).size() == 2);
            assertTrue(browser.findElement(org.openqa.selenium.By.id("cluster-panel")).isDisplayed());
            // read in one go: the page redraws the node rows and cells every second (heartbeat ages move)
            @SuppressWarnings("unchecked")
            List<List<String>> cells = (List<List<String>>) wait.until(d -> ((org.openqa.selenium.JavascriptExecutor) d)
                    .executeScript("return [...document.querySelectorAll('#cluster-jobs .cell')].map(c =>"
                            + " [c.dataset.state, c.title, c.querySelector('.node').textContent])"));
            assertEquals("true", wait.until(d -> d.findElement(org.openqa.selenium.By.cssSelector(
                    "#node-rows tr[data-node='a']")).getDomAttribute("data-self")), "this node is marked");
            assertEquals(9, cells.size(), "three jobs of three partitions");
            for (List<String> cell : cells) {
                assertEquals("DONE", cell.get(0));
                String title = cell.get(1);
                assertTrue(title.endsWith(" on node a") || title.endsWith(" on node b"), title);
                // the cell names its node by its number in the node table, whole (not a name's last letters)
                assertEquals(title.endsWith(" on node a") ? "1" : "2", cell.get(2), title);
            }
            assertFalse(browser.findElement(org.openqa.selenium.By.id("error")).isDisplayed(), "the page is live");
            // the engine's own panels still draw (a script error in the cluster panel would stop them)
            String proofs = browser.findElement(org.openqa.selenium.By.id("proofs")).getText();
            assertTrue(proofs.matches("\\d+"), "the tiles are filled: " + proofs);
        } finally {
            browser.quit();
        }
    }
}
