package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionChunk;
import dev.proofline.api.v1.PartitionKind;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofChunk;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How much resident memory one large request adds to the daemon: a 60 MB witness (of the wrong size for
 * the circuit, so it is refused after it is read) sent in one message, as a stream and to the JSON API. Reports the rise
 * of the daemon process's peak RSS (the daemon runs in a process of its own); opt-in
 * ({@code -Dproofline.memory=true}):
 * {@code ./mvnw -B -o -pl daemon surefire:test -Dtest=LargeRequestMemoryTest -Dproofline.memory=true}.
 */
class LargeRequestMemoryTest {

    @TempDir
    Path tmp;

    @Test
    void aSixtyMegabyteRequestAddsLittleToThePeakRss() throws Exception {
        assumeTrue(Boolean.getBoolean("proofline.memory"), "opt-in: -Dproofline.memory=true");
        CircomFixtures.Fixture mul = CircomFixtures.build("bn128", "multiplier");
        Path keys = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), keys.resolve("circuit.zkey"));
        Path cfg = Files.writeString(tmp.resolve("mem.toml"), """
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                [store]
                directory = "%s"
                [keys]
                directory = "%s"
                preload = ["multiplier"]
                [engine]
                budget = "2GiB"
                request_memory = "1GiB"
                [http]
                max_job_bytes = "96MiB"
                """.formatted(tmp.resolve("store"), keys.getParent().toString()));
        byte[] small = wtns(1_000_000);
        byte[] large = wtns(60_000_000);
        // each in a fresh daemon, warmed up by a small request: the rise of the peak is what the large one
        // costs (a warm JVM keeps its grown heap, so a second large request would show less)
        long[] rise = new long[3];
        for (int mode = 0; mode < 3; mode++) {
            try (DaemonProcess d = new DaemonProcess(cfg, jvmOptions())) {
                ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext()
                        .maxInboundMessageSize(128 << 20).build();
                try {
                    var stub = ProvingEngineGrpc.newBlockingStub(ch).withDeadlineAfter(5, TimeUnit.MINUTES);
                    var async = ProvingEngineGrpc.newStub(ch).withDeadlineAfter(5, TimeUnit.MINUTES);
                    unary(stub, small);
                    streamed(async, small);
                    posted(d, small);
                    Thread.sleep(500);
                    long base = d.resetPeak();
                    if (mode == 0) {
                        unary(stub, large);
                    } else if (mode == 1) {
                        streamed(async, large);
                    } else {
                        posted(d, large);
                    }
                    rise[mode] = d.peakRss() - base;
                } finally {
                    ch.shutdownNow();
                }
            }
        }
        System.out.printf("one %d MB witness: the daemon's peak RSS +%d MiB in one message, +%d MiB streamed,"
                + " +%d MiB in an HTTP submission (%d MB of base64)%n", large.length / 1_000_000, rise[0] >> 20,
                rise[1] >> 20, rise[2] >> 20, submission(large).length / 1_000_000);
    }

    /** The daemon's JVM options: {@code -Dproofline.memory.jvm="-XX:MaxRAMPercentage=75"} runs it as the launcher does. */
    private static String[] jvmOptions() {
        return jvmOptions("");
    }

    /** {@code -Dproofline.memory.jvm}, else {@code byDefault}: the daemon's JVM options, split at spaces. */
    static String[] jvmOptions(String byDefault) {
        String o = System.getProperty("proofline.memory.jvm", byDefault).strip();
        return o.isEmpty() ? new String[0] : o.split("\\s+");
    }

    /** A .wtns file of about {@code bytes} bytes: valid, and far larger than the multiplier's witness. */
    static byte[] wtns(int bytes) {
        int values = bytes / 32;
        long[] words = new long[values * 4];
        for (int i = 0; i < values; i++) {
            words[i * 4] = i;
        }
        return WtnsFile.write(new Witness(PairingCurve.BN254, words));
    }

    /** The JSON API's submission of {@code wtns}, in base64. */
    static byte[] submission(byte[] wtns) {
        return ("{\"circuit\": \"multiplier\", \"partitions\": [{\"wtns\": \""
                + java.util.Base64.getEncoder().encodeToString(wtns) + "\"}]}").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static void posted(DaemonProcess d, byte[] wtns) throws Exception {
        var r = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + d.httpAddress() + "/v1/jobs"))
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(submission(wtns))).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(400, r.statusCode(), r.body());
    }

    private static void unary(ProvingEngineGrpc.ProvingEngineBlockingStub stub, byte[] wtns) {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> stub.submitProof(
                SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(Partition.newBuilder()
                        .setWtns(ByteString.copyFrom(wtns))).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getStatus().getDescription());
    }

    private static void streamed(ProvingEngineGrpc.ProvingEngineStub stub, byte[] wtns) throws Exception {
        CompletableFuture<SubmitProofResponse> f = new CompletableFuture<>();
        StreamObserver<SubmitProofChunk> up = stub.submitProofStream(OneAnswer.into(f));
        up.onNext(SubmitProofChunk.newBuilder().setHeader(SubmitProofRequest.newBuilder().setCircuitId("multiplier")
                .setStreamedPartitions(1).setStreamedKind(PartitionKind.WTNS)).build());
        for (int o = 0; o < wtns.length; o += 1 << 20) {
            up.onNext(SubmitProofChunk.newBuilder().setChunk(PartitionChunk.newBuilder().setPartition(0)
                    .setData(ByteString.copyFrom(wtns, o, Math.min(1 << 20, wtns.length - o)))).build());
        }
        up.onCompleted();
        var e = assertThrows(java.util.concurrent.ExecutionException.class, () -> f.get(5, TimeUnit.MINUTES));
        assertEquals(Status.Code.INVALID_ARGUMENT, ((StatusRuntimeException) e.getCause()).getStatus().getCode());
    }
}
