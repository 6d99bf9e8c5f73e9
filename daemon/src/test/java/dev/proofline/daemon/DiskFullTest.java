package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
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
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk under the job store: a 16 MiB tmpfs, filled by another file while the daemon takes
 * jobs. New jobs are refused with UNAVAILABLE once SQLite cannot write, {@code /healthz} says so, the
 * jobs acknowledged before are kept, and once the file is removed the daemon takes jobs again by
 * itself and proves every acknowledged one. Mounting needs root, so the test is opt-in:
 * {@code ./mvnw -B -o -pl daemon surefire:test -Dtest=DiskFullTest -Dproofline.diskfull=true}.
 */
class DiskFullTest {

    @TempDir
    Path tmp;

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }

    @Test
    void aFullDiskRefusesNewJobsKeepsTheAcceptedOnesAndTakesJobsAgainOnceSpaceIsFree() throws Exception {
        assumeTrue(Boolean.getBoolean("proofline.diskfull"), "opt-in: -Dproofline.diskfull=true (mounts a tmpfs)");
        Path disk = Files.createDirectories(tmp.resolve("disk"));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", disk.toString()), "cannot mount a tmpfs here");
        try {
            CircomFixtures.Fixture mul = CircomFixtures.build("bn128", "multiplier");
            VerificationKey vk = SnarkjsJson.readVerificationKey(mul.vk());
            Path keys = Files.createDirectories(tmp.resolve("keys/multiplier"));
            Files.copy(mul.zkey(), keys.resolve("circuit.zkey"));
            List<String> log = new CopyOnWriteArrayList<>();
            try (Daemon d = Daemon.start(DaemonConfig.parse("""
                    [server]
                    grpc_listen = "127.0.0.1:0"
                    http_listen = "127.0.0.1:0"
                    [keys]
                    directory = "%s"
                    [engine]
                    backend = "cpu"
                    permits = 1
                    [store]
                    directory = "%s"
                    """.formatted(tmp.resolve("keys"), disk.resolve("store")), "t.toml"), log::add)) {
                ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
                try {
                    var stub = ProvingEngineGrpc.newBlockingStub(ch);
                    SubmitProofRequest job = SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(
                            Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(mul.wtns())))).build();
                    List<String> accepted = new ArrayList<>();
                    accepted.add(stub.withDeadlineAfter(30, TimeUnit.SECONDS).submitProof(job).getJobId());
                    // another file takes every byte left
                    Path filler = disk.resolve("filler");
                    try (OutputStream out = Files.newOutputStream(filler)) {
                        byte[] block = new byte[4096];
                        while (true) {
                            out.write(block);
                        }
                    } catch (IOException e) {
                        // the disk is full
                    }
                    // jobs are taken as long as SQLite finds room in what it holds; then refused
                    StatusRuntimeException refused = null;
                    long t0 = System.nanoTime();
                    for (int i = 0; i < 5000 && refused == null; i++) {
                        try {
                            accepted.add(stub.withDeadlineAfter(30, TimeUnit.SECONDS).submitProof(job).getJobId());
                        } catch (StatusRuntimeException e) {
                            refused = e;
                        }
                    }
                    assertTrue(refused != null, accepted.size() + " jobs taken on a full disk, none refused");
                    assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode(), refused.toString());
                    assertTrue(refused.getStatus().getDescription().contains("is full"), refused.toString());
                    HttpClient http = HttpClient.newHttpClient();
                    URI health = URI.create("http://" + d.httpAddress() + "/healthz");
                    HttpResponse<String> h = http.send(HttpRequest.newBuilder(health).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(503, h.statusCode(), h.body());
                    System.out.printf("disk full: %d jobs acknowledged, then refused after %.1f s: %s; /healthz %d %s",
                            accepted.size(), (System.nanoTime() - t0) / 1e9, refused.getStatus().getDescription(),
                            h.statusCode(), h.body());
                    // space returns: the daemon takes jobs again by itself
                    Files.delete(filler);
                    long t1 = System.nanoTime();
                    while (http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
                            .statusCode() != 200 && System.nanoTime() - t1 < TimeUnit.SECONDS.toNanos(30)) {
                        Thread.sleep(50);
                    }
                    double resumed = (System.nanoTime() - t1) / 1e9;
                    assertEquals(200, http.send(HttpRequest.newBuilder(health).build(),
                            HttpResponse.BodyHandlers.ofString()).statusCode(), String.join("\n", log));
                    accepted.add(stub.withDeadlineAfter(30, TimeUnit.SECONDS).submitProof(job).getJobId());
                    // every job acknowledged, before and on the full disk and after, is proved
                    long t2 = System.nanoTime();
                    for (String id : accepted) {
                        AwaitProofResponse r = stub.withDeadlineAfter(10, TimeUnit.MINUTES).awaitProof(
                                AwaitProofRequest.newBuilder().setJobId(id).setTimeoutMs(300_000).build());
                        assertEquals(JobState.DONE, r.getState(), id + ": " + r.getError());
                        assertTrue(Verifier.verify(vk, r.getPartitions(0).getPublicSignalsList().stream()
                                .map(BigInteger::new).toList(), ProofBinary.decode(PairingCurve.BN254,
                                r.getPartitions(0).getProofBinary().toByteArray())), id);
                    }
                    System.out.printf("; new jobs taken again %.1f s after the file was removed; all %d acknowledged"
                            + " jobs proved and verified in %.1f s%n", resumed, accepted.size(),
                            (System.nanoTime() - t2) / 1e9);
                } finally {
                    ch.shutdownNow();
                }
                d.shutdown(Duration.ofSeconds(5));
            }
        } finally {
            run("umount", "-l", disk.toString());
        }
    }
}
