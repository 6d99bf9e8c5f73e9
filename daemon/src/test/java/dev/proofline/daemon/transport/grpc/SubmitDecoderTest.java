package dev.proofline.daemon.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.proofline.api.v1.CancelProofRequest;
import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.engine.groth16.SimulatedProofs;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Submissions decoded from mutated bytes of valid ones (a seeded, bounded run): each is accepted or
 * refused with a code that blames the request, never INTERNAL or UNKNOWN, and the daemon serves on.
 */
class SubmitDecoderTest {

    /** The codes a request's own faults may get. */
    private static final Set<Status.Code> CLIENT_FAULTS = Set.of(Status.Code.INVALID_ARGUMENT, Status.Code.NOT_FOUND,
            Status.Code.RESOURCE_EXHAUSTED);

    @TempDir
    Path tmp;

    @Test
    void mutatedSubmissionsAreAcceptedOrRefusedForTheirOwnFaults() throws Exception {
        CircomFixtures.Fixture mul = CircomFixtures.build("bn128", "multiplier");
        CircomFixtures.Fixture pos = CircomFixtures.build("bn128", "poseidon");
        Path keys = tmp.resolve("keys");
        Files.createDirectories(keys.resolve("mul"));
        Files.copy(mul.zkey(), keys.resolve("mul/circuit.zkey"));
        Files.createDirectories(keys.resolve("poseidon"));
        Files.copy(pos.zkey(), keys.resolve("poseidon/circuit.zkey"));
        Files.copy(pos.r1cs(), keys.resolve("poseidon/circuit.r1cs"));
        Files.copy(pos.wasm(), keys.resolve("poseidon/circuit.wasm"));
        DaemonConfig cfg = DaemonToml.inMemory(keys).set("engine.budget", "256MiB").set("limits.max_partitions", 4)
                .parse("t.toml");
        List<byte[]> seeds = List.of(
                SubmitProofRequest.newBuilder().setCircuitId("mul").setIdempotencyKey("k").setDeadlineMs(60_000)
                        .addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(mul.wtns()))))
                        .build().toByteArray(),
                SubmitProofRequest.newBuilder().setCircuitId("poseidon")
                        .addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(pos.wtns()))))
                        .addPartitions(Partition.newBuilder().setInputJson(Files.readString(pos.input())))
                        .build().toByteArray());
        // a prover that answers at once: the run is about decoding and checking, not proving
        try (Daemon d = Daemon.start(cfg, new SimulatedProofs(0, 0, p -> false), l -> { })) {
            ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
            try {
                var stub = ProvingEngineGrpc.newBlockingStub(ch);
                Random random = new Random(2026);
                List<String> wrong = new ArrayList<>();
                int parsed = 0;
                int accepted = 0;
                for (int i = 0; i < 600; i++) {
                    byte[] b = seeds.get(i % seeds.size()).clone();
                    for (int m = 0; m < 1 + random.nextInt(4); m++) {
                        b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                    }
                    SubmitProofRequest req;
                    try {
                        req = SubmitProofRequest.parseFrom(b);
                    } catch (InvalidProtocolBufferException e) {
                        continue; // not a message: the transport refuses it before the service sees it
                    }
                    parsed++;
                    try {
                        SubmitProofResponse r = stub.withDeadlineAfter(60, TimeUnit.SECONDS).submitProof(req);
                        accepted++;
                        stub.cancelProof(CancelProofRequest.newBuilder().setJobId(r.getJobId()).build());
                    } catch (StatusRuntimeException e) {
                        if (!CLIENT_FAULTS.contains(e.getStatus().getCode())) {
                            wrong.add(i + ": " + e.getStatus());
                        }
                    }
                }
                System.out.println("mutated submissions: " + parsed + " parsed, " + accepted + " accepted");
                assertTrue(wrong.isEmpty(), "refused for no fault of the request: " + wrong);
                assertTrue(parsed > 100, "most mutations still parse: " + parsed);
                assertEquals(2, stub.listCircuits(ListCircuitsRequest.getDefaultInstance()).getCircuitsCount());
            } finally {
                ch.shutdownNow();
            }
        }
    }
}
