package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.GetStatusRequest;
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.KeyStatus;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.engine.EngineStatus;
import dev.proofline.engine.MemoryBudget;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many clients at once on a daemon with a small budget: every proof verifies, memory stays within the
 * budget, nothing is held afterwards; a restarted daemon has its preloaded keys resident at once.
 */
class DaemonLoadTest {

    @TempDir
    Path tmp;

    private record Circuit(String id, CircomFixtures.Fixture fx, VerificationKey vk, PairingCurve curve) {
    }

    @Test
    void twoHundredConcurrentSubmissionsFromSeveralClientsAllVerifyWithinTheBudget() throws Exception {
        List<Circuit> circuits = new ArrayList<>();
        Path keys = tmp.resolve("keys");
        for (String[] c : new String[][] {{"mul-bn128", "bn128", "multiplier"}, {"mul-bls12381", "bls12381", "multiplier"},
            {"poseidon-bn128", "bn128", "poseidon"}}) {
            CircomFixtures.Fixture fx = CircomFixtures.build(c[1], c[2]);
            Path dir = Files.createDirectories(keys.resolve(c[0]));
            Files.copy(fx.zkey(), dir.resolve("circuit.zkey"));
            circuits.add(new Circuit(c[0], fx, SnarkjsJson.readVerificationKey(fx.vk()),
                    c[1].equals("bn128") ? PairingCurve.BN254 : PairingCurve.BLS12_381));
        }
        DaemonConfig cfg = DaemonToml.inMemory(keys).set("keys.preload", List.of("mul-bn128"))
                .set("engine.budget", "256MiB").set("engine.permits", 3).parse("load.toml");
        Daemon d = Daemon.start(cfg, l -> { });
        int clients = 8;
        int perClient = 25;
        List<ManagedChannel> channels = new ArrayList<>();
        try {
            List<CompletableFuture<AwaitProofResponse>> answers = new ArrayList<>();
            List<Circuit> asked = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
                channels.add(ch);
                ProvingEngineGrpc.ProvingEngineStub stub = ProvingEngineGrpc.newStub(ch);
                for (int i = 0; i < perClient; i++) {
                    Circuit circuit = circuits.get((c + i) % circuits.size());
                    SubmitProofRequest req = SubmitProofRequest.newBuilder().setCircuitId(circuit.id())
                            .addPartitions(Partition.newBuilder().setWtns(ByteString.copyFrom(
                                    Files.readAllBytes(circuit.fx().wtns())))).setAwaitTimeoutMs(600_000).build();
                    CompletableFuture<AwaitProofResponse> f = new CompletableFuture<>();
                    stub.withDeadlineAfter(10, TimeUnit.MINUTES).prove(req, OneAnswer.into(f));
                    answers.add(f);
                    asked.add(circuit);
                }
            }
            for (int i = 0; i < answers.size(); i++) {
                AwaitProofResponse r = answers.get(i).get(10, TimeUnit.MINUTES);
                assertEquals(JobState.DONE, r.getState());
                Circuit c = asked.get(i);
                PartitionResult p = r.getPartitions(0);
                List<BigInteger> pub = p.getPublicSignalsList().stream().map(BigInteger::new).toList();
                assertTrue(Verifier.verify(c.vk(), pub, ProofBinary.decode(c.curve(), p.getProofBinary().toByteArray())),
                        "request " + i + " on " + c.id());
            }
            EngineStatus s = d.engine().status();
            assertEquals(clients * perClient, s.proofs());
            assertTrue(s.budgetPeak() <= s.budgetTotal(), s.budgetPeak() + " > " + s.budgetTotal());
            assertEquals(0L, s.budgetByKind().get(MemoryBudget.Kind.PARTITION), "no partition holds memory");
            assertEquals(s.permitsMax(), s.permitsMax() - s.permitsInUse(), "every permit back");
            long keyBytes = s.keys().stream().mapToLong(k -> k.bytes()).sum();
            assertEquals(keyBytes, (long) s.budgetByKind().get(MemoryBudget.Kind.KEY), "only resident keys");
        } finally {
            channels.forEach(ManagedChannel::shutdownNow);
            d.shutdown(Duration.ofSeconds(10));
        }
        // a restart with the same configuration: the preloaded key is resident before any job
        Daemon again = Daemon.start(cfg, l -> { });
        ManagedChannel ch = NettyChannelBuilder.forTarget(again.grpcAddress()).usePlaintext().build();
        try {
            Map<String, Boolean> resident = new java.util.TreeMap<>();
            for (KeyStatus k : ProvingEngineGrpc.newBlockingStub(ch).getStatus(GetStatusRequest.getDefaultInstance())
                    .getKeysList()) {
                resident.put(k.getCircuitId(), k.getResident());
            }
            assertEquals(Map.of("mul-bls12381", false, "mul-bn128", true, "poseidon-bn128", false), resident);
        } finally {
            ch.shutdownNow();
            again.shutdown(Duration.ofSeconds(10));
        }
    }
}
