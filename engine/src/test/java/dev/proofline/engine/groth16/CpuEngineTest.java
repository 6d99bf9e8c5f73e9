package dev.proofline.engine.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.Priority;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.wasm.CircomInput;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real proofs through the engine on the CPU backend, both curves, on registered circuits: each proof
 * verified, by our verifier and, for circom circuits, by snarkjs.
 */
class CpuEngineTest {

    @TempDir
    Path tmp;

    private static EngineConfig config() {
        return EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(1).finalizerThreads(2)
                .budgetBytes(1L << 32).timelineCapacity(10_000).build();
    }

    private static List<BigInteger> numbers(List<String> decimals) {
        return decimals.stream().map(BigInteger::new).toList();
    }

    /**
     * With key tables, a circuit's key is reserved with its planned tables, the tables are built in the
     * background and attached, and the proofs made with them verify (snarkjs too).
     */
    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void aResidentKeyGetsItsTablesReservedAndBuiltAndItsProofsVerify(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        VerificationKey vk = SnarkjsJson.readVerificationKey(fx.vk());
        long tables = 64L << 20;
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(1).finalizerThreads(2)
                .budgetBytes(1L << 32).timelineCapacity(10_000).keyTableBytes(tables).build();
        try (var e = new Engine<>(cfg, new CpuBackend())) {
            Circuits.of(e).register(new Circuits.Circom("poseidon", fx.zkey(), fx.wasm(), null));
            long planned;
            try (dev.proofline.groth16.ProvingKey k = dev.proofline.groth16.io.ZkeyFile.open(fx.zkey())) {
                planned = dev.proofline.groth16.KeyTables.plannedBytes(k, tables);
            }
            assertTrue(planned > 0 && planned <= tables, "planned " + planned);
            try (var lease = Circuits.of(e).key("poseidon")) {
                assertEquals(Files.size(fx.zkey()) + planned,
                        e.budget().reserved(dev.proofline.engine.MemoryBudget.Kind.KEY),
                        "the key reserved with its planned tables");
                long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
                while (lease.value().tables() == null && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                dev.proofline.groth16.KeyTables t = lease.value().tables();
                assertTrue(t != null && t.count() == 5 && t.bytes() <= planned, String.valueOf(t));
            }
            Engine.Job<ProofResult> job = e.submit(new CircuitJob(Circuits.of(e), "poseidon",
                    List.of(new CircuitJob.Wtns(Files.readAllBytes(fx.wtns())))), Priority.NORMAL);
            ProofResult r = job.await(Duration.ofMinutes(2)).get(0);
            assertTrue(Verifier.verify(vk, numbers(r.publicSignals()), r.proof()));
            Path proofJson = tmp.resolve("proof.json");
            Path publicJson = tmp.resolve("public.json");
            SnarkjsJson.write(proofJson, SnarkjsJson.proofJson(r.proof()));
            SnarkjsJson.write(publicJson, SnarkjsJson.publicJson(r.publicSignals()));
            assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), publicJson, proofJson), "snarkjs accepts it");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void circomPartitionsFromWitnessesAndFromInputsAreProvedAndSnarkjsAcceptsThem(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        VerificationKey vk = SnarkjsJson.readVerificationKey(fx.vk());
        try (var e = new Engine<>(config(), new CpuBackend())) {
            // once with the key's coefficients, once with the PCE from the circuit's r1cs
            Circuits.of(e).register(new Circuits.Circom("poseidon", fx.zkey(), fx.wasm(), null));
            Circuits.of(e).register(new Circuits.Circom("poseidon-pce", fx.zkey(), fx.wasm(), fx.r1cs()));
            for (String id : List.of("poseidon", "poseidon-pce")) {
                List<CircuitJob.Partition> parts = List.of(new CircuitJob.Wtns(Files.readAllBytes(fx.wtns())),
                        new CircuitJob.Inputs(CircomInput.read(fx.input())), new CircuitJob.Wtns(Files.readAllBytes(fx.wtns())));
                Engine.Job<ProofResult> job = e.submit(new CircuitJob(Circuits.of(e), id, parts), Priority.NORMAL);
                var proofs = job.await(Duration.ofMinutes(2));
                assertEquals(3, proofs.size());
                for (int p = 0; p < proofs.size(); p++) {
                    ProofResult r = proofs.get(p);
                    assertTrue(Verifier.verify(vk, numbers(r.publicSignals()), r.proof()), id + " partition " + p);
                    Engine.Timings t = job.timings(p);
                    assertTrue(t.synthesisMs() > 0 && t.proverMs() > 0 && t.finalizeMs() > 0, t.toString());
                    assertTrue(t.totalMs() >= t.synthesisMs() + t.proverMs() + t.finalizeMs(), t.toString());
                }
                ProofResult last = proofs.get(2);
                Path proofJson = tmp.resolve(id + "-proof.json");
                Path publicJson = tmp.resolve(id + "-public.json");
                SnarkjsJson.write(proofJson, SnarkjsJson.proofJson(last.proof()));
                SnarkjsJson.write(publicJson, SnarkjsJson.publicJson(last.publicSignals()));
                assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), publicJson, proofJson), id + ": snarkjs rejects it");
            }
            assertEquals(2, Circuits.of(e).keys().loads(), "each circuit's key loaded once for all its partitions");
            assertEquals(0, Circuits.of(e).keys().references(), "key references left");
            assertEquals(0, Circuits.of(e).pces().references(), "PCE references left");
            assertEquals(e.permits().max(), e.permits().available());
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void javaCircuitPartitionsGoThroughThePceAndVerify(PairingCurve curve) throws Exception {
        // partitions of one circuit shape (same depth and challenge count), different instances
        List<MerklePost> instances = List.of(MerklePost.instance(curve, 3, 6, 1), MerklePost.instance(curve, 3, 6, 2));
        R1cs r1cs = RecordingSystem.record(curve, instances.get(0));
        Path zkey = tmp.resolve("mp.zkey");
        DevSetup.run(r1cs, zkey, new Random(5));
        try (var e = new Engine<>(config(), new CpuBackend())) {
            Circuits.of(e).register(new Circuits.Java("merkle", zkey, curve, instances.get(0)));
            List<CircuitJob.Partition> parts = new ArrayList<>();
            for (MerklePost m : instances) {
                parts.add(new CircuitJob.Instance(m));
            }
            VerificationKey vk;
            try (var key = Circuits.of(e).key("merkle")) {
                vk = key.value().verificationKey();
            }
            var proofs = e.submit(new CircuitJob(Circuits.of(e), "merkle", parts), Priority.HIGH)
                    .await(Duration.ofMinutes(2));
            for (int p = 0; p < proofs.size(); p++) {
                ProofResult r = proofs.get(p);
                assertTrue(Verifier.verify(vk, numbers(r.publicSignals()), r.proof()), "partition " + p);
                assertEquals(instances.get(p).root(), new BigInteger(r.publicSignals().get(0)),
                        "partition " + p + " proves its own root");
            }
            assertEquals(1, Circuits.of(e).pces().loads(), "the PCE is extracted once for both partitions");
            assertEquals(4L * instances.size(), e.pool().stats().checkouts(), "a, b, c and the Montgomery witness from"
                    + " the pool");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128"})
    void aWitnessOfTheWrongSizeFailsItsJobWithAClearCauseAndTheEngineGoesOn(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "multiplier");
        CircomFixtures.Fixture other = CircomFixtures.build(curve, "poseidon");
        try (var e = new Engine<>(config(), new CpuBackend())) {
            Circuits.of(e).register(new Circuits.Circom("mul", fx.zkey()));
            Engine.Job<ProofResult> bad = e.submit(new CircuitJob(Circuits.of(e), "mul",
                    List.of(new CircuitJob.Wtns(Files.readAllBytes(other.wtns())))), Priority.NORMAL);
            ExecutionException ex = assertThrows(ExecutionException.class, () -> bad.await(Duration.ofMinutes(1)));
            assertInstanceOf(IllegalArgumentException.class, ex.getCause());
            assertTrue(ex.getCause().getMessage().contains("partition 0 of mul"), ex.getCause().getMessage());
            Engine.Job<ProofResult> noWasm = e.submit(new CircuitJob(Circuits.of(e), "mul",
                    List.of(new CircuitJob.Inputs(CircomInput.read(fx.input())))), Priority.NORMAL);
            ex = assertThrows(ExecutionException.class, () -> noWasm.await(Duration.ofMinutes(1)));
            assertTrue(ex.getCause().getMessage().contains("no witness generator"), ex.getCause().getMessage());
            // the engine still proves
            var ok = e.submit(new CircuitJob(Circuits.of(e), "mul",
                    List.of(new CircuitJob.Wtns(Files.readAllBytes(fx.wtns())))), Priority.NORMAL)
                    .await(Duration.ofMinutes(1));
            assertInstanceOf(ProofResult.class, ok.get(0));
            assertEquals(0, Circuits.of(e).keys().references());
            assertThrows(IllegalArgumentException.class, () -> new CircuitJob(Circuits.of(e), "unknown", List.of(
                    new CircuitJob.Wtns(new byte[0]))));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128"})
    void proofsGoOnWhileEveryCommonPoolWorkerIsBlockedByTheApplication(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        int workers = java.util.concurrent.ForkJoinPool.getCommonPoolParallelism();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch blocked = new java.util.concurrent.CountDownLatch(workers);
        List<java.util.concurrent.CompletableFuture<Void>> blockers = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            blockers.add(java.util.concurrent.CompletableFuture.runAsync(() -> {
                blocked.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        try (var e = new Engine<>(config(), new CpuBackend())) {
            assertTrue(blocked.await(30, java.util.concurrent.TimeUnit.SECONDS), "the common pool is busy");
            Circuits.of(e).register(new Circuits.Circom("p", fx.zkey()));
            var proofs = e.submit(new CircuitJob(Circuits.of(e), "p",
                    List.of(new CircuitJob.Wtns(Files.readAllBytes(fx.wtns())))), Priority.NORMAL)
                    .await(Duration.ofMinutes(2));
            assertInstanceOf(ProofResult.class, proofs.get(0));
        } finally {
            release.countDown();
        }
        for (var b : blockers) {
            b.get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
