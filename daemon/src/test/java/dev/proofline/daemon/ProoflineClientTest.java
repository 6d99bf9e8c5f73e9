package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.api.CircuitInfo;
import dev.proofline.api.DaemonException;
import dev.proofline.api.DaemonStatus;
import dev.proofline.api.JobOptions;
import dev.proofline.api.JobReceipt;
import dev.proofline.api.JobResult;
import dev.proofline.api.JobState;
import dev.proofline.api.PartitionInput;
import dev.proofline.api.PartitionProof;
import dev.proofline.api.Priority;
import dev.proofline.api.ProoflineClient;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import io.grpc.Status;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProoflineClient}, the API module's client, against a daemon on loopback that wants a token:
 * its proofs verify, a cancelled job and an unknown circuit or job answer with their codes, the
 * daemon's state and circuits come back as records.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProoflineClientTest {

    private static final String TOKEN = "t0ken";

    @TempDir
    static Path tmp;

    private Daemon daemon;
    private ProoflineClient client;
    private CircomFixtures.Fixture mul;
    private CircomFixtures.Fixture bls;

    @BeforeAll
    void start() throws Exception {
        mul = CircomFixtures.build("bn128", "multiplier");
        bls = CircomFixtures.build("bls12381", "poseidon");
        Path multiplier = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), multiplier.resolve("circuit.zkey"));
        Files.copy(mul.wasm(), multiplier.resolve("circuit.wasm"));
        Path poseidon = Files.createDirectories(tmp.resolve("keys/poseidon-bls12381"));
        Files.copy(bls.zkey(), poseidon.resolve("circuit.zkey"));
        daemon = Daemon.start(DaemonToml.inMemory(tmp.resolve("keys")).set("server.auth_token", TOKEN)
                .set("engine.permits", 1).parse("client.toml"), l -> { });
        client = ProoflineClient.connect(daemon.grpcAddress()).token(TOKEN).build();
    }

    @AfterAll
    void stop() throws Exception {
        client.close();
        daemon.shutdown(Duration.ofSeconds(5));
    }

    private PartitionInput.Wtns witness() throws Exception {
        return new PartitionInput.Wtns(Files.readAllBytes(mul.wtns()));
    }

    /** Each partition's proof verifies with the circuit's key, for the fixture's public signals. */
    private void assertVerified(JobResult done, int partitions) throws Exception {
        assertEquals(JobState.DONE, done.state(), done.error());
        assertEquals(partitions, done.partitions().size());
        VerificationKey vk = SnarkjsJson.readVerificationKey(mul.vk());
        List<BigInteger> expected = SnarkjsJson.readPublic(mul.publicJson());
        for (PartitionProof p : done.partitions()) {
            List<BigInteger> signals = p.publicSignals().stream().map(BigInteger::new).toList();
            assertEquals(expected, signals, "partition " + p.partition());
            Verifier.Result check = Verifier.check(vk, signals, SnarkjsJson.readProof(
                    p.proofJson().getBytes(StandardCharsets.UTF_8), "partition " + p.partition(), PairingCurve.BN254));
            assertTrue(check.valid(), "partition " + p.partition() + ": " + check.reason());
            assertTrue(p.proofBinary().length > 0 && p.timings().totalMs() > 0, p.toString());
        }
    }

    @Test
    void aSubmittedJobIsAwaitedAndItsProofsVerify() throws Exception {
        JobReceipt job = client.submit("multiplier", List.of(witness(),
                new PartitionInput.CircomInput(Files.readString(mul.input()))),
                JobOptions.DEFAULT.withPriority(Priority.HIGH).withIdempotencyKey("client-1")
                        .withDeadline(Duration.ofMinutes(5)));
        assertFalse(job.existing());
        JobResult done = client.await(job.jobId(), Duration.ofMinutes(2));
        assertEquals(job.jobId(), done.jobId());
        assertVerified(done, 2);
        assertTrue(done.json().contains("\"state\": \"DONE\""), done.json());
        // the same idempotency key names the same job
        JobReceipt again = client.submit("multiplier", List.of(witness()),
                JobOptions.DEFAULT.withIdempotencyKey("client-1"));
        assertTrue(again.existing());
        assertEquals(job.jobId(), again.jobId());
    }

    @Test
    void proveSubmitsAndAwaitsInOneCall() throws Exception {
        assertVerified(client.prove("multiplier", List.of(witness()), JobOptions.DEFAULT, Duration.ofMinutes(2)), 1);
    }

    @Test
    void aStreamedSubmissionIsProved() throws Exception {
        JobReceipt job = client.submitStreamed("multiplier", List.of(mul.wtns(), mul.wtns()),
                PartitionInput.Kind.WTNS, 100, JobOptions.DEFAULT);
        assertVerified(client.await(job.jobId(), Duration.ofMinutes(2)), 2);
    }

    @Test
    void aCancelledJobSaysSoAndAwaitingItIsCancelled() throws Exception {
        PartitionInput w = new PartitionInput.Wtns(Files.readAllBytes(bls.wtns()));
        JobReceipt job = client.submit("poseidon-bls12381", Collections.nCopies(8, w));
        assertEquals(JobState.CANCELLED, client.cancel(job.jobId()));
        DaemonException e = assertThrows(DaemonException.class, () -> client.await(job.jobId(), Duration.ofSeconds(10)));
        assertEquals(Status.Code.CANCELLED, e.code(), e.getMessage());
    }

    @Test
    void anUnknownCircuitOrJobIsNotFound() throws Exception {
        List<PartitionInput> partitions = List.of(witness());
        DaemonException.NotFoundException circuit = assertThrows(DaemonException.NotFoundException.class,
                () -> client.submit("nope", partitions));
        assertEquals(Status.Code.NOT_FOUND, circuit.code());
        assertTrue(circuit.getMessage().startsWith(daemon.grpcAddress() + ": NOT_FOUND: unknown circuit 'nope'"),
                circuit.getMessage());
        DaemonException.NotFoundException job = assertThrows(DaemonException.NotFoundException.class,
                () -> client.await("job-12345", Duration.ZERO));
        assertTrue(job.description().contains("job-12345"), job.getMessage());
        assertThrows(DaemonException.NotFoundException.class, () -> client.cancel("job-12345"));
    }

    @Test
    void aBadWitnessIsAnInvalidArgument() {
        DaemonException e = assertThrows(DaemonException.class, () -> client.submit("multiplier",
                List.of(new PartitionInput.Wtns(new byte[] {1, 2, 3}))));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
        assertFalse(e instanceof DaemonException.NotFoundException);
    }

    @Test
    void withoutTheTokenEveryCallIsUnauthenticated() {
        try (ProoflineClient anonymous = ProoflineClient.connect(daemon.grpcAddress()).build()) {
            assertEquals(Status.Code.UNAUTHENTICATED, assertThrows(DaemonException.class, anonymous::status).code());
        }
    }

    @Test
    void theDaemonsStateAndCircuitsAreRecords() throws Exception {
        assertVerified(client.prove("multiplier", List.of(witness()), JobOptions.DEFAULT, Duration.ofMinutes(2)), 1);
        DaemonStatus s = client.status();
        assertEquals("cpu", s.backend());
        assertTrue(s.proofs() >= 1 && s.jobsSubmitted() >= 1, s.toString());
        assertEquals(1, s.permits().max(), s.toString());
        assertTrue(s.json().startsWith("{"), s.json());
        assertTrue(s.keys().stream().anyMatch(k -> k.circuitId().equals("multiplier") && k.resident()), s.keys().toString());
        List<CircuitInfo> circuits = client.circuits();
        assertEquals(List.of("multiplier", "poseidon-bls12381"), circuits.stream().map(CircuitInfo::id).sorted().toList());
        CircuitInfo m = circuits.stream().filter(c -> c.id().equals("multiplier")).findFirst().orElseThrow();
        assertTrue(m.hasWasm() && !m.hasR1cs() && m.kind().equals("circom"), m.toString());
    }
}
