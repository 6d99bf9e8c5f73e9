package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.daemon.cluster.ClusterNodeProcess;
import dev.proofline.daemon.cluster.SingleNode;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.sqlite.SqliteStore;
import dev.proofline.engine.Priority;
import dev.proofline.engine.groth16.CpuBackend;
import dev.proofline.engine.groth16.SimulatedProofs;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single daemon on its durable store, in a process of its own, killed with SIGKILL while it proves:
 * after a restart on the same store every acknowledged job completes with a proof that verifies,
 * AwaitProof answers for jobs submitted before the kill, and idempotency keys still name their jobs.
 * {@code -Dproofline.durability.jobs=N} sets the number of jobs (50 by default),
 * {@code -Dproofline.durability.circuit=C} the circuit of {@code interop/groth16/circuits} (BN254;
 * {@code multiplier} by default).
 */
class DurableDaemonTest {

    private static final int JOBS = Integer.getInteger("proofline.durability.jobs", 50);
    private static final String CIRCUIT = System.getProperty("proofline.durability.circuit", "multiplier");

    @TempDir
    Path tmp;

    private final List<Process> processes = new ArrayList<>();
    private final List<ManagedChannel> channels = new ArrayList<>();
    private final List<String> log = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (ManagedChannel c : channels) {
            c.shutdownNow();
        }
        for (Process p : processes) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Starts the daemon process on the CPU backend and returns its gRPC address once it serves. */
    private String start(Path config, String name) throws Exception {
        return start(config, name, "cpu");
    }

    /** Starts the daemon process on {@code backend} ({@link ClusterNodeProcess}) and returns its gRPC address once it serves. */
    private String start(Path config, String name, String backend) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), ClusterNodeProcess.class.getName(), config.toString(), backend)
                .redirectErrorStream(true).start();
        processes.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("ready ")) {
            log.add(name + ": " + line);
        }
        assertNotNull(line, name + " started: " + log);
        Thread.ofPlatform().daemon().start(() -> out.lines().forEach(l -> log.add(name + ": " + l)));
        return line.substring("ready ".length());
    }

    private ProvingEngineGrpc.ProvingEngineBlockingStub client(String target) {
        ManagedChannel c = NettyChannelBuilder.forTarget(target).usePlaintext().build();
        channels.add(c);
        return ProvingEngineGrpc.newBlockingStub(c);
    }

    private CircomFixtures.Fixture fixture;
    private VerificationKey vk;

    /** The keys directory with the circuit, and the config of a daemon on {@code store}. */
    private Path config(Path store) throws Exception {
        fixture = CircomFixtures.build("bn128", CIRCUIT);
        Path keys = tmp.resolve("keys");
        if (!Files.exists(keys)) {
            Files.createDirectories(keys.resolve(CIRCUIT));
            Files.copy(fixture.zkey(), keys.resolve(CIRCUIT + "/circuit.zkey"));
        }
        try (var key = ZkeyFile.open(fixture.zkey())) {
            vk = key.verificationKey();
        }
        return Files.writeString(tmp.resolve("daemon.toml"), """
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                [keys]
                directory = "%s"
                [engine]
                budget = "1GiB"
                permits = 1
                synthesis_threads = 1
                finalizer_threads = 1
                [store]
                directory = "%s"
                """.formatted(keys, store));
    }

    private void assertVerifies(AwaitProofResponse r) {
        assertEquals(JobState.DONE, r.getState(), r.getJobId() + ": " + r.getError() + "\n" + String.join("\n", log));
        PartitionResult p = r.getPartitions(0);
        assertTrue(Verifier.verify(vk, p.getPublicSignalsList().stream().map(BigInteger::new).toList(),
                ProofBinary.decode(PairingCurve.BN254, p.getProofBinary().toByteArray())), r.getJobId());
    }

    @Test
    void everyAcknowledgedJobCompletesAfterTheDaemonIsKilledAndRestarted() throws Exception {
        Path store = tmp.resolve("store");
        Path config = config(store);
        Partition witness = Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(fixture.wtns()))).build();

        var first = client(start(config, "first"));
        // 8 clients submit at once, so that most jobs are still queued when the last is acknowledged
        List<java.util.concurrent.Future<String>> acks = new ArrayList<>();
        java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(8);
        for (int j = 0; j < JOBS; j++) {
            SubmitProofRequest req = SubmitProofRequest.newBuilder().setCircuitId(CIRCUIT)
                    .setIdempotencyKey("key-" + j).addPartitions(witness).build();
            acks.add(clients.submit(() -> first.submitProof(req).getJobId()));
        }
        List<String> ids = new ArrayList<>();
        for (var a : acks) {
            ids.add(a.get()); // acknowledged: it must survive what follows
        }
        clients.shutdown();
        // killed as soon as the last job is acknowledged: the daemon is proving the first ones
        Process daemon = processes.getFirst();
        daemon.destroyForcibly(); // SIGKILL
        assertTrue(daemon.waitFor(10, TimeUnit.SECONDS));

        Map<String, Long> left;
        try (ClusterStore s = SqliteStore.open(store)) {
            left = SqliteStore.partitionStates(s);
        }
        long unfinished = left.getOrDefault("QUEUED", 0L) + left.getOrDefault("CLAIMED", 0L);
        assertTrue(unfinished > 0, "jobs were in flight when the daemon was killed: " + left);
        log.add("test: killed with " + left);

        long restart = System.nanoTime();
        var second = client(start(config, "second"));
        for (int j = 0; j < JOBS; j++) {
            assertVerifies(second.withDeadlineAfter(3, TimeUnit.MINUTES).awaitProof(AwaitProofRequest.newBuilder()
                    .setJobId(ids.get(j)).setTimeoutMs(120_000).build()));
        }
        System.out.printf("durability: %d %s jobs acknowledged, killed with partitions %s, after the restart %d of %d"
                + " done and verified in %.1f s%n", JOBS, CIRCUIT, left, JOBS, JOBS, (System.nanoTime() - restart) / 1e9);
        SubmitProofResponse again = second.submitProof(SubmitProofRequest.newBuilder().setCircuitId(CIRCUIT)
                .setIdempotencyKey("key-7").addPartitions(witness).build());
        assertEquals(ids.get(7), again.getJobId(), "an idempotency key from before the kill names its job");
        assertTrue(again.getExisting());
        assertTrue(log.stream().anyMatch(l -> l.contains("requeued")) || left.getOrDefault("CLAIMED", 0L) == 0,
                "a partition being proved at the kill was requeued at the restart: " + log);
    }

    @Test
    void aValidJobSurvivesMoreKillsOfItsDaemonThanAPartitionHasAttemptsAndThenCompletes() throws Exception {
        Path store = tmp.resolve("kills");
        Path config = config(store);
        Partition witness = Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(fixture.wtns()))).build();
        String id = null;
        // a claim that ended with its daemon is not an attempt: more kills than attempts fail nothing
        int lives = SingleNode.MAX_ATTEMPTS + 2;
        for (int life = 1; life <= lives; life++) {
            // a prover that holds each partition for an hour: every life dies proving the job
            var daemon = client(start(config, "life " + life, "sim"));
            if (id == null) {
                id = daemon.submitProof(SubmitProofRequest.newBuilder().setCircuitId(CIRCUIT).addPartitions(witness)
                        .build()).getJobId();
            }
            awaitClaim(store, id, life);
            Process p = processes.getLast();
            p.destroyForcibly(); // SIGKILL
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        }
        var last = client(start(config, "last", "cpu"));
        assertVerifies(last.withDeadlineAfter(2, TimeUnit.MINUTES).awaitProof(AwaitProofRequest.newBuilder()
                .setJobId(id).setTimeoutMs(60_000).build()));
    }

    /** Waits until the job's partition has been claimed {@code claims} times; fails at once if the job ended. */
    private void awaitClaim(Path store, String id, int claims) throws Exception {
        org.sqlite.SQLiteConfig ro = new org.sqlite.SQLiteConfig();
        ro.setReadOnly(true);
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < giveUp) {
            try (var c = ro.createConnection("jdbc:sqlite:" + store.resolve("queue.db"));
                    var s = c.prepareStatement("SELECT j.state, j.error, p.state, p.claims FROM jobs j"
                            + " JOIN partitions p ON p.job_id = j.job_id WHERE j.job_id = ?")) {
                s.setString(1, id);
                try (var r = s.executeQuery()) {
                    assertTrue(r.next(), id + " is in the store");
                    assertEquals("RUNNING", r.getString(1), id + " after " + r.getInt(4) + " claims: " + r.getString(2));
                    if (r.getString(3).equals("CLAIMED") && r.getInt(4) == claims) {
                        return;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError(id + " was not claimed a " + claims + ". time: " + String.join("\n", log));
    }

    @Test
    void aClaimLeftByADeadDaemonIsProvedAtTheNextStart() throws Exception {
        Path store = tmp.resolve("left");
        DaemonConfig cfg = DaemonConfig.read(config(store));
        String id;
        // the store as a daemon killed while proving leaves it: the job's partition claimed without a lease, as
        // a single daemon claims, and another claimed under a lease that outlasts this test, as a daemon of an
        // earlier version claimed
        try (ClusterStore s = SqliteStore.open(store)) {
            String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                    Files.readAllBytes(fixture.zkey())));
            ClusterStore.NewPartition witness = new ClusterStore.NewPartition(ClusterStore.PartitionKind.WTNS,
                    Files.readAllBytes(fixture.wtns()));
            id = s.queue().submit(null, CIRCUIT, digest, ClusterStore.rank(Priority.NORMAL), null, SingleNode.NODE_ID,
                    List.of(witness, witness)).jobId();
            assertEquals(1, s.queue().claim(SingleNode.NODE_ID, 1, null, List.of(CIRCUIT), List.of(digest)).size());
            assertEquals(1, s.queue().claim(SingleNode.NODE_ID, 1, Duration.ofHours(1), List.of(CIRCUIT),
                    List.of(digest)).size());
        }
        try (Daemon d = Daemon.start(cfg, new CpuBackend(), line -> log.add("next: " + line))) {
            assertVerifies(client(d.grpcAddress()).withDeadlineAfter(3, TimeUnit.MINUTES).awaitProof(
                    AwaitProofRequest.newBuilder().setJobId(id).setTimeoutMs(120_000).build()));
        }
        assertTrue(log.stream().anyMatch(l -> l.contains("requeued 2 partition(s)")), "given back at the start: " + log);
    }

    @Test
    void aGracefulStopLeavesUnfinishedJobsQueuedForTheNextStart() throws Exception {
        Path store = tmp.resolve("graceful");
        DaemonConfig cfg = DaemonConfig.read(config(store));
        // a prover that holds each partition for an hour: the job is being proved when the daemon stops
        Daemon slow = Daemon.start(cfg, new SimulatedProofs(3_600_000, 0, p -> false), line -> log.add("slow: " + line));
        String id;
        try {
            id = submitAndAwaitHeld(slow);
        } finally {
            slow.shutdown(java.time.Duration.ZERO);
        }
        try (Daemon d = Daemon.start(cfg, new CpuBackend(), line -> log.add("again: " + line))) {
            assertVerifies(client(d.grpcAddress()).withDeadlineAfter(2, TimeUnit.MINUTES).awaitProof(
                    AwaitProofRequest.newBuilder().setJobId(id).setTimeoutMs(60_000).build()));
        }
    }

    @Test
    void aSingleDaemonClaimsWithoutALeaseAndShowsItselfWithoutARowInItsStore() throws Exception {
        Path store = tmp.resolve("single");
        DaemonConfig cfg = DaemonConfig.read(config(store));
        // a prover that holds each partition for an hour: the partition stays claimed while the test looks
        Daemon d = Daemon.start(cfg, new SimulatedProofs(3_600_000, 0, p -> false), line -> log.add("single: " + line));
        String id;
        try {
            var stub = client(d.grpcAddress());
            id = submitAndAwaitHeld(d);
            Thread.sleep(2 * SingleNode.UPKEEP_INTERVAL.toMillis()); // upkeep has run since the claim
            assertEquals(List.of("CLAIMED local no expiry"), partitions(store, id),
                    "claimed without a lease: nobody else can take it");
            assertEquals(0, nodeRows(store), "no heartbeat row: the daemon is no cluster member");
            // the status shows the daemon as its queue's one node, as it is now
            JsonNode nodes = new ObjectMapper().readTree(stub.getStatus(GetStatusRequest.getDefaultInstance())
                    .getClusterJson()).get("nodes");
            assertEquals(1, nodes.size(), nodes.toString());
            assertEquals(SingleNode.NODE_ID, nodes.get(0).get("id").asText());
            assertEquals(d.grpcAddress(), nodes.get(0).get("grpc").asText());
            assertEquals(1, nodes.get(0).get("holding").asInt(), nodes.toString());
            assertFalse(nodes.get(0).get("stopped").asBoolean());
        } finally {
            d.shutdown(Duration.ZERO);
        }
        assertEquals(List.of("QUEUED null no expiry"), partitions(store, id), "given back for the next start");
    }

    /** Submits a job of the fixture's one partition to {@code d}; returns its id once the daemon holds the partition. */
    private String submitAndAwaitHeld(Daemon d) throws Exception {
        String id = client(d.grpcAddress()).submitProof(SubmitProofRequest.newBuilder().setCircuitId(CIRCUIT)
                .addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(fixture.wtns()))))
                .build()).getJobId();
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (d.storeNode().holding() == 0 && System.nanoTime() < giveUp) {
            Thread.sleep(10);
        }
        assertEquals(1, d.storeNode().holding(), "the partition is being proved: " + log);
        return id;
    }

    /** Each partition of job {@code id} in the store's file: its state, owner and whether its claim can expire. */
    private static List<String> partitions(Path store, String id) throws Exception {
        org.sqlite.SQLiteConfig ro = new org.sqlite.SQLiteConfig();
        ro.setReadOnly(true);
        List<String> out = new ArrayList<>();
        try (var c = ro.createConnection("jdbc:sqlite:" + store.resolve("queue.db"));
                var s = c.prepareStatement("SELECT state, lease_owner, lease_expires FROM partitions WHERE job_id = ?"
                        + " ORDER BY idx")) {
            s.setString(1, id);
            try (var r = s.executeQuery()) {
                while (r.next()) {
                    out.add(r.getString(1) + " " + r.getString(2) + " "
                            + (r.getObject(3) == null ? "no expiry" : "expires"));
                }
            }
        }
        return out;
    }

    /** The rows of the store's table of nodes. */
    private static int nodeRows(Path store) throws Exception {
        org.sqlite.SQLiteConfig ro = new org.sqlite.SQLiteConfig();
        ro.setReadOnly(true);
        try (var c = ro.createConnection("jdbc:sqlite:" + store.resolve("queue.db"));
                var s = c.prepareStatement("SELECT count(*) FROM nodes"); var r = s.executeQuery()) {
            r.next();
            return r.getInt(1);
        }
    }
}
