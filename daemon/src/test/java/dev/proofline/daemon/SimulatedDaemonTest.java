package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.engine.groth16.SimulatedProofs;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A daemon on the simulated prover ({@link SimulatedProofs}), as the daemon's tests and the lab start
 * one: its engine's results are {@code ProofResult}s, so what the prover made is answered as a proof
 * (its placeholder) whether the jobs are kept in memory or in the daemon's store.
 */
class SimulatedDaemonTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"memory", "store"})
    void theSimulatedProversResultIsAnsweredAsAProof(String where) throws Exception {
        CircomFixtures.Fixture fixture = CircomFixtures.build("bn128", "multiplier");
        Path keys = tmp.resolve("keys");
        Files.createDirectories(keys.resolve("multiplier"));
        Files.copy(fixture.zkey(), keys.resolve("multiplier/circuit.zkey"));
        DaemonToml toml = DaemonToml.inMemory(keys).set("engine.budget", "256MiB");
        if (where.equals("store")) {
            toml.set("store.kind", "sqlite").set("store.directory", tmp.resolve("store"));
        }
        DaemonConfig cfg = toml.parse(where + ".toml");
        try (Daemon d = Daemon.start(cfg, new SimulatedProofs(0, 0), l -> { })) {
            assertEquals(where.equals("store"), d.storeNode() != null, "jobs kept in " + where);
            ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
            try {
                var stub = ProvingEngineGrpc.newBlockingStub(ch).withDeadlineAfter(60, TimeUnit.SECONDS);
                String id = stub.submitProof(SubmitProofRequest.newBuilder().setCircuitId("multiplier")
                        .addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(
                                Files.readAllBytes(fixture.wtns())))).build()).getJobId();
                AwaitProofResponse r = stub.awaitProof(AwaitProofRequest.newBuilder().setJobId(id)
                        .setTimeoutMs(30_000).build());
                assertEquals(JobState.DONE, r.getState(), r.getError());
                PartitionResult p = r.getPartitions(0);
                assertEquals(ByteString.copyFrom(ProofBinary.encode(SimulatedProofs.PLACEHOLDER.proof())),
                        p.getProofBinary());
                assertEquals(SnarkjsJson.proofJson(SimulatedProofs.PLACEHOLDER.proof()), p.getProofJson());
                assertEquals(List.of(), p.getPublicSignalsList());
            } finally {
                ch.shutdownNow();
            }
        }
    }
}
