package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.algebra.PairingCurve;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 20,000 connections held on each port in turn (two processes of 10,000, reopening what the daemon
 * closes; preface-only on the gRPC port, silent on the HTTP port) against a daemon with its default
 * connection limits, while {@code /healthz} (a new connection every 250 ms) and a valid gRPC submit
 * (every second, on a connection opened before) must each answer within 1 s, and every job verify.
 * Opt-in (it needs a file-descriptor limit of at least 10,100 a process and about two minutes):
 * {@code ./mvnw -B -o -pl daemon -am surefire:test -Dtest=ConnectionFloodTest -Dproofline.flood=true}.
 * Prints the slowest answers of each phase (docs/reliability.md).
 */
class ConnectionFloodTest {

    private static final int PER_PROCESS = 10_000;
    private static final int SECONDS = 30;

    @TempDir
    Path tmp;

    @Test
    void healthAndAValidSubmitAnswerWithinASecondWhile20000ConnectionsAreHeldOnEitherPort() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("proofline.flood"), "opt-in: -Dproofline.flood=true");
        CircomFixtures.Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        Path keys = tmp.resolve("keys");
        Files.copy(fx.zkey(), Files.createDirectories(keys.resolve("mul")).resolve("circuit.zkey"));
        VerificationKey vk = SnarkjsJson.readVerificationKey(fx.vk());
        byte[] wtns = Files.readAllBytes(fx.wtns());
        Path cfg = DaemonToml.inMemory(keys).write(tmp.resolve("flood.toml"));
        try (DaemonProcess d = new DaemonProcess(cfg)) {
            ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            try {
                var stub = ProvingEngineGrpc.newBlockingStub(ch);
                prove(stub, vk, wtns);   // the key loaded, the paths warm
                List<String> outcomes = new ArrayList<>();
                long slowest = 0;
                for (String port : List.of("grpc", "http")) {
                    String address = port.equals("grpc") ? d.grpcAddress() : d.httpAddress();
                    List<Process> flooders = new ArrayList<>();
                    CountDownLatch full = new CountDownLatch(2);
                    List<String> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
                    for (int i = 0; i < 2; i++) {
                        Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp",
                                System.getProperty("java.class.path"), ConnectionFlooder.class.getName(),
                                address.substring(0, address.lastIndexOf(':')),
                                address.substring(address.lastIndexOf(':') + 1), port, String.valueOf(PER_PROCESS),
                                String.valueOf(SECONDS)).redirectErrorStream(true).start();
                        flooders.add(p);
                        Thread.ofPlatform().daemon().start(() -> {
                            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
                                for (String line; (line = r.readLine()) != null; ) {
                                    if (line.equals("full")) {
                                        full.countDown();
                                    } else {
                                        reports.add(line);
                                    }
                                }
                            } catch (java.io.IOException e) {
                                reports.add(e.toString());
                            }
                        });
                    }
                    assertTrue(full.await(SECONDS, TimeUnit.SECONDS), port + ": the flooders did not reach "
                            + 2 * PER_PROCESS + " connections: " + reports);
                    List<Long> health = new ArrayList<>();
                    List<Long> submits = new ArrayList<>();
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS / 2);
                    for (int i = 0; System.nanoTime() < until; i++) {
                        long t0 = System.nanoTime();
                        HttpResponse<String> h = http.send(HttpRequest.newBuilder(URI.create("http://"
                                + d.httpAddress() + "/healthz")).timeout(Duration.ofSeconds(10)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        health.add((System.nanoTime() - t0) / 1_000_000);
                        assertEquals(200, h.statusCode(), h.body());
                        if (i % 4 == 0) {
                            submits.add(prove(stub, vk, wtns) / 1_000_000);
                        }
                        Thread.sleep(250);
                    }
                    for (Process p : flooders) {
                        assertTrue(p.waitFor(SECONDS + 60, TimeUnit.SECONDS));
                    }
                    String line = String.format("flood on the %s port: %d connections held by two processes (%s);"
                            + " /healthz %s ms; submit %s ms", port, 2 * PER_PROCESS, reports, spread(health),
                            spread(submits));
                    System.out.println(line);
                    outcomes.add(line);
                    slowest = Math.max(slowest, java.util.Collections.max(health));
                    slowest = Math.max(slowest, java.util.Collections.max(submits));
                }
                assertTrue(slowest < 1000, "an answer took " + slowest + " ms: " + outcomes);
                assertTrue(d.log.stream().noneMatch(l -> l.contains("Too many open files")), d.log::toString);
            } finally {
                ch.shutdownNow();
            }
        }
    }

    /** Median, 95th percentile and slowest of the times, and how many. */
    private static String spread(List<Long> ms) {
        List<Long> s = ms.stream().sorted().toList();
        return "median " + s.get(s.size() / 2) + ", p95 " + s.get(Math.min(s.size() - 1, s.size() * 95 / 100))
                + ", slowest " + s.getLast() + " of " + s.size();
    }

    /** Submits one proof and checks it; returns the submit's time (not the proving). */
    private static long prove(ProvingEngineGrpc.ProvingEngineBlockingStub stub, VerificationKey vk, byte[] wtns) {
        long t0 = System.nanoTime();
        String job = stub.withDeadlineAfter(30, TimeUnit.SECONDS).submitProof(SubmitProofRequest.newBuilder()
                .setCircuitId("mul").addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(wtns))).build())
                .getJobId();
        long took = System.nanoTime() - t0;
        AwaitProofResponse r = stub.withDeadlineAfter(60, TimeUnit.SECONDS).awaitProof(AwaitProofRequest.newBuilder()
                .setJobId(job).setTimeoutMs(60_000).build());
        assertEquals(JobState.DONE, r.getState(), r.toString());
        List<BigInteger> pub = r.getPartitions(0).getPublicSignalsList().stream().map(BigInteger::new).toList();
        assertTrue(Verifier.verify(vk, pub, ProofBinary.decode(PairingCurve.BN254,
                r.getPartitions(0).getProofBinary().toByteArray())), "the proof verifies");
        return took;
    }
}
