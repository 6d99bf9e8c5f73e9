package dev.proofline.daemon.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The job store failing while the daemon runs, as SQLite reports it (the failures injected where the
 * store begins each transaction): a full disk refuses new jobs, says so in the status and in
 * {@code /healthz}, keeps the jobs it acknowledged and takes new ones again by itself once space is
 * free; a file found damaged takes no new jobs for good, says why in one log line and in the status,
 * and still answers for the jobs it holds.
 */
class StoreTroubleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private final List<String> log = new CopyOnWriteArrayList<>();
    private Daemon daemon;
    private ManagedChannel channel;
    private ProvingEngineGrpc.ProvingEngineBlockingStub stub;
    private CircomFixtures.Fixture mul;
    private VerificationKey vk;
    private SqliteFile file;

    @BeforeEach
    void start() throws Exception {
        mul = CircomFixtures.build("bn128", "multiplier");
        vk = SnarkjsJson.readVerificationKey(mul.vk());
        Path dir = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), dir.resolve("circuit.zkey"));
        daemon = Daemon.start(DaemonConfig.parse("""
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                [keys]
                directory = "%s"
                [engine]
                backend = "cpu"
                [store]
                directory = "%s"
                """.formatted(tmp.resolve("keys"), tmp.resolve("store")), "t.toml"), log::add);
        channel = NettyChannelBuilder.forTarget(daemon.grpcAddress()).usePlaintext().build();
        stub = ProvingEngineGrpc.newBlockingStub(channel);
        file = SqliteStore.file(daemon.storeNode().store());
    }

    @AfterEach
    void stop() throws Exception {
        file.injectFault(null, null);
        channel.shutdownNow();
        daemon.shutdown(Duration.ofSeconds(5));
    }

    private SubmitProofRequest job() throws Exception {
        return SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(Partition.newBuilder()
                .setWtns(ByteString.copyFrom(Files.readAllBytes(mul.wtns())))).build();
    }

    private String submit() throws Exception {
        return stub.withDeadlineAfter(30, TimeUnit.SECONDS).submitProof(job()).getJobId();
    }

    private void assertVerifiedProof(String id) {
        AwaitProofResponse r = stub.withDeadlineAfter(120, TimeUnit.SECONDS).awaitProof(AwaitProofRequest.newBuilder()
                .setJobId(id).setTimeoutMs(100_000).build());
        assertEquals(JobState.DONE, r.getState(), id + ": " + r.getError() + "\n" + String.join("\n", log));
        assertTrue(Verifier.verify(vk, r.getPartitions(0).getPublicSignalsList().stream().map(BigInteger::new).toList(),
                ProofBinary.decode(PairingCurve.BN254, r.getPartitions(0).getProofBinary().toByteArray())), id);
    }

    private HttpResponse<String> health() throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + daemon.httpAddress()
                + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode localStatus() throws Exception {
        return JSON.readTree(stub.getStatus(GetStatusRequest.getDefaultInstance()).getJson()).findValue("accepting_jobs");
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean() && System.nanoTime() < giveUp) {
            Thread.sleep(20);
        }
        assertTrue(done.getAsBoolean(), what);
    }

    private static boolean isRead(String what) {
        return what.startsWith("reading") || what.startsWith("checking") || what.startsWith("counting");
    }

    private long lines(String part) {
        return log.stream().filter(l -> l.contains(part)).count();
    }

    @Test
    void aFullDiskRefusesNewJobsKeepsAcceptedOnesAndResumesWhenSpaceIsFree() throws Exception {
        // the disk fills: every write but a submission's fails as SQLite says, nothing is free
        file.injectFault(what -> isRead(what) || what.startsWith("submitting") ? null
                : new SQLiteException("[SQLITE_FULL] database or disk is full", SQLiteErrorCode.SQLITE_FULL), () -> 0);
        String accepted = submit();
        await(() -> file.problem() != null, "a failed claim noted the full disk");
        // now submissions fail too (from here on, the log is counted: a submission that went through above
        // may have ended a first "full", which a later claim began again)
        java.util.concurrent.atomic.AtomicInteger failed = new java.util.concurrent.atomic.AtomicInteger();
        int logged = log.size();
        file.injectFault(what -> {
            if (isRead(what)) {
                return null;
            }
            failed.incrementAndGet();
            return new SQLiteException("[SQLITE_FULL] database or disk is full", SQLiteErrorCode.SQLITE_FULL);
        }, () -> 0);
        StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, this::submit);
        assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode());
        assertTrue(refused.getStatus().getDescription().contains("is full")
                && refused.getStatus().getDescription().contains("new jobs are refused"), refused.getStatus().toString());
        assertFalse(refused.getStatus().getDescription().contains(tmp.toString()), "no server path to a client");
        HttpResponse<String> h = health();
        assertEquals(503, h.statusCode());
        assertTrue(h.body().startsWith("not accepting jobs: the disk of job store"), h.body());
        assertFalse(localStatus().asBoolean(), "status: accepting_jobs");
        Thread.sleep(2500); // heartbeats and claims meet the full disk again
        assertTrue(failed.get() >= 3, failed.get() + " writes failed");
        List<String> since = List.copyOf(log.subList(logged, log.size()));
        assertTrue(since.stream().filter(l -> l.startsWith("the disk of job store")).count() <= 1,
                "one line for the full disk, not one per failed write: " + String.join("\n", since));
        // space is freed: the daemon takes jobs again by itself, and proves the one it acknowledged
        file.injectFault(null, null);
        await(() -> file.problem() == null, "the store takes jobs again once space is free");
        assertEquals(200, health().statusCode());
        assertTrue(localStatus().asBoolean(), "status: accepting_jobs");
        assertVerifiedProof(accepted);
        assertVerifiedProof(submit());
        assertEquals(1, log.subList(logged, log.size()).stream().filter(l -> l.contains("takes writes again")).count(),
                String.join("\n", log));
    }

    @Test
    void aStoreFoundDamagedWhileRunningTakesNoNewJobsAndSaysSoOnce() throws Exception {
        String before = submit();
        assertVerifiedProof(before);
        // every transaction meets the damage for a while (heartbeats, claims, upkeep, status reads)
        file.injectFault(what -> new SQLiteException("[SQLITE_CORRUPT] database disk image is malformed",
                SQLiteErrorCode.SQLITE_CORRUPT), null);
        await(() -> file.problem() != null, "damage noted");
        Thread.sleep(2500); // a heartbeat and a claim meet it again
        file.injectFault(null, null);
        StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, this::submit);
        assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode());
        assertTrue(refused.getStatus().getDescription().contains("is damaged")
                && refused.getStatus().getDescription().contains("--set-aside-damaged-store"), refused.getStatus().toString());
        HttpResponse<String> h = health();
        assertEquals(503, h.statusCode());
        assertTrue(h.body().contains("is damaged"), h.body());
        assertFalse(localStatus().asBoolean(), "status: accepting_jobs");
        // one line for the operator, naming the file and what to do; no line per failed call
        assertEquals(1, lines("is damaged"), String.join("\n", log));
        assertTrue(log.stream().anyMatch(l -> l.contains(tmp.resolve("store").resolve("queue.db").toString())
                && l.contains("restore the store directory")), String.join("\n", log));
        assertEquals(0, lines("SQLITE_CORRUPT") - 1, String.join("\n", log));
        // a job it acknowledged before still answers
        assertVerifiedProof(before);
    }
}
