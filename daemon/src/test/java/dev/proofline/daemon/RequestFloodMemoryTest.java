package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many concurrent submissions of about 60 MB on each port, at a daemon in a process of its own: its peak
 * RSS stays within its configured memory ({@code engine.budget}, of which {@code engine.request_memory}
 * is the requests') plus 256 MiB; the submissions that do not fit are refused (RESOURCE_EXHAUSTED, 503)
 * and the others are read whole and answered (their witnesses are far too large for the circuit: 400,
 * INVALID_ARGUMENT); a valid job is proved afterwards. Opt-in:
 * {@code ./mvnw -B -o -pl daemon -am test -Dtest=RequestFloodMemoryTest -Dproofline.memory=true -Dfuzz.skip
 * -Dsurefire.failIfNoSpecifiedTests=false}; {@code -Dproofline.flood.count=N} submissions a port (100).
 */
class RequestFloodMemoryTest {

    private static final long BUDGET = 1536L << 20;
    private static final long SLACK = 256L << 20;

    @TempDir
    Path tmp;

    @Test
    void concurrentLargeSubmissionsOnBothPortsStayWithinTheBudget() throws Exception {
        assumeTrue(Boolean.getBoolean("proofline.memory"), "opt-in: -Dproofline.memory=true");
        int count = Integer.getInteger("proofline.flood.count", 100);
        CircomFixtures.Fixture mul = CircomFixtures.build("bn128", "multiplier");
        Path keys = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), keys.resolve("circuit.zkey"));
        Path cfg = Files.writeString(tmp.resolve("flood.toml"), """
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                [store]
                directory = "%s"
                [keys]
                directory = "%s"
                preload = ["multiplier"]
                [engine]
                budget = "%dMiB"
                request_memory = "1GiB"
                [http]
                max_job_bytes = "64MiB"
                # a hundred bodies of 60 MB at once take minutes to arrive here (and some connections wait
                # that long for their client to send a first byte), not the defaults' 10 s and 60 s
                header_timeout = "5m"
                idle_timeout = "5m"
                """.formatted(tmp.resolve("store"), keys.getParent().toString(), BUDGET >> 20));
        // 60 MB in one gRPC message; 60 MB of base64 (a 45 MB witness) in an HTTP submission
        SubmitProofRequest message = SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(
                Partition.newBuilder().setWtns(ByteString.copyFrom(LargeRequestMemoryTest.wtns(60_000_000)))).build();
        byte[] body = LargeRequestMemoryTest.submission(LargeRequestMemoryTest.wtns(45_000_000));
        byte[] valid = Files.readAllBytes(mul.wtns());
        try (DaemonProcess d = new DaemonProcess(cfg, jvmOptions())) {
            List<ManagedChannel> channels = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                channels.add(NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext()
                        .maxInboundMessageSize(1 << 20).build());
            }
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            try {
                long idle = d.rss();
                // gRPC: count unary submissions at once, over ten connections
                Map<String, Integer> grpc = new ConcurrentHashMap<>();
                long t0 = System.nanoTime();
                List<CompletableFuture<Void>> calls = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    var stub = ProvingEngineGrpc.newFutureStub(channels.get(i % channels.size()))
                            .withDeadlineAfter(10, TimeUnit.MINUTES);
                    var f = stub.submitProof(message);
                    CompletableFuture<Void> done = new CompletableFuture<>();
                    f.addListener(() -> {
                        try {
                            f.get();
                            grpc.merge("OK", 1, Integer::sum);
                        } catch (Exception e) {
                            Throwable c = e.getCause() == null ? e : e.getCause();
                            grpc.merge(c instanceof StatusRuntimeException s ? s.getStatus().getCode().name()
                                    : c.toString(), 1, Integer::sum);
                        }
                        done.complete(null);
                    }, Runnable::run);
                    calls.add(done);
                }
                CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
                double grpcSeconds = (System.nanoTime() - t0) / 1e9;
                long grpcPeak = d.peakRss();
                Thread.sleep(1_000);
                d.resetPeak();
                // HTTP: count POST /v1/jobs at once, a connection each
                Map<String, Integer> posted = new ConcurrentHashMap<>();
                t0 = System.nanoTime();
                List<CompletableFuture<Void>> posts = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    posts.add(http.sendAsync(HttpRequest.newBuilder(URI.create("http://" + d.httpAddress() + "/v1/jobs"))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                            HttpResponse.BodyHandlers.ofString()).handle((r, e) -> {
                                posted.merge(e == null ? String.valueOf(r.statusCode()) : e.toString(), 1, Integer::sum);
                                return null;
                            }));
                }
                CompletableFuture.allOf(posts.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
                double httpSeconds = (System.nanoTime() - t0) / 1e9;
                long httpPeak = d.peakRss();
                // the daemon still proves a valid job
                var stub = ProvingEngineGrpc.newBlockingStub(channels.get(0)).withDeadlineAfter(2, TimeUnit.MINUTES);
                String job = stub.submitProof(SubmitProofRequest.newBuilder().setCircuitId("multiplier")
                        .addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(valid))).build()).getJobId();
                var proved = stub.awaitProof(AwaitProofRequest.newBuilder().setJobId(job).setTimeoutMs(60_000).build());
                System.out.printf("flood of %d (daemon JVM options %s): daemon RSS idle %d MiB; gRPC (60 MB messages, %.1f s) %s, peak %d MiB;"
                        + " HTTP (60 MB bodies, %.1f s) %s, peak %d MiB; budget %d MiB (requests' 1024), goal <= %d MiB%n",
                        count, String.join(" ", jvmOptions()), idle >> 20, grpcSeconds, new TreeMap<>(grpc), grpcPeak >> 20, httpSeconds,
                        new TreeMap<>(posted), httpPeak >> 20, BUDGET >> 20, (BUDGET + SLACK) >> 20);
                assertEquals(JobState.DONE, proved.getState(), proved.toString());
                assertEquals(count, grpc.getOrDefault("RESOURCE_EXHAUSTED", 0) + grpc.getOrDefault("INVALID_ARGUMENT", 0),
                        "gRPC: refused for room, or read whole and refused as too large a witness: " + grpc);
                assertTrue(grpc.getOrDefault("INVALID_ARGUMENT", 0) >= 1, "gRPC: none served " + grpc);
                assertEquals(count, posted.getOrDefault("503", 0) + posted.getOrDefault("400", 0),
                        "HTTP: refused for room, or read whole and refused as too large a witness: " + posted);
                assertTrue(posted.getOrDefault("400", 0) >= 1, "HTTP: none served " + posted);
                assertTrue(grpcPeak <= BUDGET + SLACK, "gRPC: peak RSS " + (grpcPeak >> 20) + " MiB");
                assertTrue(httpPeak <= BUDGET + SLACK, "HTTP: peak RSS " + (httpPeak >> 20) + " MiB");
            } finally {
                channels.forEach(ManagedChannel::shutdownNow);
                http.shutdownNow();
            }
        }
    }

    /**
     * The daemon's JVM options: by default a heap limit of the budget (without one, the collector lets the
     * heap grow past what is live); {@code -Dproofline.memory.jvm=...} replaces them, e.g. with
     * {@code -XX:MaxRAMPercentage=75} as the launcher runs it.
     */
    private static String[] jvmOptions() {
        return LargeRequestMemoryTest.jvmOptions("-Xmx" + (BUDGET >> 20) + "m");
    }
}
