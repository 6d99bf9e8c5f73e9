package dev.proofline.daemon.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionChunk;
import dev.proofline.api.v1.PartitionKind;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofChunk;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.daemon.OneAnswer;
import dev.proofline.daemon.transport.RequestBudget;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gRPC request's bytes are counted against the budget HTTP submissions use, as they arrive, at what
 * they cost while they are decoded: a message larger than what is left is refused with RESOURCE_EXHAUSTED before it is read whole, a stream being
 * received holds its chunks there (an HTTP submission then finds no room), and every byte is given back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcRequestBudgetTest {

    @TempDir
    static Path tmp;

    private Daemon daemon;
    private ManagedChannel channel;
    private CircomFixtures.Fixture mul;

    @BeforeAll
    void start() throws Exception {
        mul = CircomFixtures.build("bn128", "multiplier");
        Path dir = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), dir.resolve("circuit.zkey"));
        // 8 MiB for the requests being decoded, on both ports
        daemon = Daemon.start(DaemonToml.inMemory(tmp.resolve("keys")).set("engine.budget", "256MiB")
                .set("engine.request_memory", "8MiB").set("limits.max_message_bytes", "16MiB")
                .set("http.max_job_bytes", "4MiB").parse("t.toml"), l -> { });
        channel = NettyChannelBuilder.forTarget(daemon.grpcAddress()).usePlaintext().build();
    }

    @AfterAll
    void stop() throws Exception {
        channel.shutdownNow();
        daemon.shutdown(Duration.ofSeconds(5));
    }

    private void awaitHeld(LongPredicate ok, String what) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ok.test(daemon.requestBytes().held()) && System.nanoTime() < giveUp) {
            Thread.sleep(5);
        }
        assertTrue(ok.test(daemon.requestBytes().held()), what + ": " + daemon.requestBytes().held() + " bytes held");
    }

    @Test
    void aMessageLargerThanTheBudgetLeftIsRefusedAsItArrives() throws Exception {
        // 3 MiB in one message, under max_message_bytes and under the 8 MiB themselves, but not at what they
        // cost while they are decoded (five times as much): counted by their bytes alone, or not at all, it
        // would be read whole and then refused as a bad witness (INVALID_ARGUMENT)
        SubmitProofRequest big = SubmitProofRequest.newBuilder().setCircuitId("multiplier")
                .addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(new byte[3 << 20]))).build();
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ProvingEngineGrpc
                .newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS).submitProof(big));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), e.toString());
        assertTrue(e.getStatus().getDescription().contains("engine.request_memory"), e.getStatus().getDescription());
        awaitHeld(n -> n == 0, "after the refusal");
        // the connection and the budget still serve a valid submission
        SubmitProofResponse ok = ProvingEngineGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS)
                .submitProof(SubmitProofRequest.newBuilder().setCircuitId("multiplier").addPartitions(
                        Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(mul.wtns())))).build());
        assertTrue(ok.getJobId().startsWith("job-"), ok.toString());
        awaitHeld(n -> n == 0, "after a submission");
    }

    @Test
    void aStreamBeingReceivedHoldsItsChunksInTheBudgetHttpSubmissionsShare() throws Exception {
        CompletableFuture<SubmitProofResponse> answer = new CompletableFuture<>();
        StreamObserver<SubmitProofChunk> up = ProvingEngineGrpc.newStub(channel).submitProofStream(OneAnswer.into(answer));
        up.onNext(SubmitProofChunk.newBuilder().setHeader(SubmitProofRequest.newBuilder().setCircuitId("multiplier")
                .setStreamedPartitions(1).setStreamedKind(PartitionKind.WTNS)).build());
        for (int i = 0; i < 3; i++) {
            up.onNext(SubmitProofChunk.newBuilder().setChunk(PartitionChunk.newBuilder().setPartition(0)
                    .setData(ByteString.copyFrom(new byte[512 << 10]))).build());
        }
        try {
            awaitHeld(n -> n >= 3 * (512 << 10) * RequestBudget.STREAMED_COPIES,
                    "three chunks of 512 KiB received, the stream not ended, each byte at its cost");
            // 4.5 MiB of 8 MiB held: a 900 KB HTTP submission (7.2 MB at its cost) finds no room, though no
            // HTTP request holds any
            String body = "{\"circuit\": \"multiplier\", \"partitions\": [{\"wtns\": \"" + "A".repeat(900_000) + "\"}]}";
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://" + daemon.httpAddress() + "/v1/jobs")).POST(HttpRequest.BodyPublishers
                    .ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(r.body().contains("both ports"), r.body());
        } finally {
            up.onError(Status.CANCELLED.withDescription("the test gives up").asRuntimeException());
        }
        awaitHeld(n -> n == 0, "once the stream was cancelled");
    }
}
