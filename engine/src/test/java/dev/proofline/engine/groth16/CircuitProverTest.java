package dev.proofline.engine.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.engine.EngineConfig;
import dev.proofline.groth16.ProofWithSignals;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The engine's typed face: proofs as ProofWithSignals, failures with their cause, cancellation as such. */
class CircuitProverTest {

    private static EngineConfig config() {
        return EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(1).finalizerThreads(2)
                .budgetBytes(1L << 32).timelineCapacity(10_000).build();
    }

    @Test
    void proofsComeTypedInPartitionOrderAndAFailedJobThrowsItsCause() throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        CircomFixtures.Fixture other = CircomFixtures.build(CircomFixtures.BN128, "nopublic");
        VerificationKey snarkjsVk = SnarkjsJson.readVerificationKey(fx.vk());
        try (CircuitProver prover = CircuitProver.start(config(), new CpuBackend())) {
            prover.register(new Circuits.Circom("mul", fx.zkey()));
            CircuitJob.Wtns wtns = new CircuitJob.Wtns(Files.readAllBytes(fx.wtns()));

            ProofJob job = prover.submit("mul", List.of(wtns, wtns));
            List<ProofWithSignals> viaFuture = job.result().get(2, TimeUnit.MINUTES);
            assertEquals(viaFuture, job.await(Duration.ZERO), "the same proofs either way");
            assertEquals(2, viaFuture.size());
            for (ProofWithSignals p : viaFuture) {
                assertEquals(SnarkjsJson.readPublic(fx.publicJson()), p.publicSignals());
                assertTrue(p.verify(snarkjsVk).valid());
            }

            ProofJob bad = prover.submit("mul", List.of(new CircuitJob.Wtns(Files.readAllBytes(other.wtns()))));
            ProofJob.FailedException failed = assertThrows(ProofJob.FailedException.class,
                    () -> bad.await(Duration.ofMinutes(2)));
            assertInstanceOf(IllegalArgumentException.class, failed.getCause());
            assertTrue(failed.getMessage().startsWith(bad.id() + " failed: ")
                    && failed.getMessage().contains("partition 0 of mul"), failed.getMessage());
            ExecutionException viaResult = assertThrows(ExecutionException.class, () -> bad.result().get());
            assertInstanceOf(ProofJob.FailedException.class, viaResult.getCause());

            // the engine goes on
            assertEquals(1, prover.prove("mul", List.of(wtns), Duration.ofMinutes(2)).size());
        }
    }

    @Test
    void aCancelledJobAwaitsAsCancelled() throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        try (CircuitProver prover = CircuitProver.start(config(), new CpuBackend())) {
            prover.register(new Circuits.Circom("mul", fx.zkey()));
            // 200 partitions: far more than proved in the moment between submit and cancel
            ProofJob job = prover.submit("mul",
                    Collections.nCopies(200, new CircuitJob.Wtns(Files.readAllBytes(fx.wtns()))));
            job.cancel();
            assertThrows(CancellationException.class, () -> job.await(Duration.ofMinutes(1)));
            assertTrue(job.engineJob().isCancelled());
        }
    }
}
