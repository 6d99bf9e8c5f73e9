package dev.proofline.engine.groth16;

import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.Priority;
import dev.proofline.engine.ProverBackend;
import dev.proofline.groth16.ProofWithSignals;
import dev.proofline.groth16.VerificationKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * The engine for the common case: started on a backend (the CPU by default), circuits registered by id,
 * jobs submitted as a circuit id and its partitions, proofs returned typed ({@link ProofWithSignals}) in
 * partition order. The whole {@link Engine} stays reachable through {@link #engine()}.
 *
 * <pre>{@code
 * try (CircuitProver prover = CircuitProver.start()) {
 *     prover.register(new Circuits.Circom("multiplier", Path.of("multiplier.zkey")));
 *     List<ProofWithSignals> proofs = prover.prove("multiplier",
 *             List.of(new CircuitJob.Wtns(Files.readAllBytes(Path.of("w.wtns")))), Duration.ofMinutes(1));
 * }
 * }</pre>
 */
public final class CircuitProver implements AutoCloseable {

    private final Engine<ProofResult> engine;

    private CircuitProver(Engine<ProofResult> engine) {
        this.engine = engine;
    }

    /** An engine with {@link EngineConfig#defaults()} on the CPU backend. */
    public static CircuitProver start() {
        return start(EngineConfig.defaults(), new CpuBackend());
    }

    public static CircuitProver start(EngineConfig config, ProverBackend<?, ?, ? extends ProofResult> backend) {
        return new CircuitProver(new Engine<>(config, backend));
    }

    /** Registers a circuit ({@link Circuits#register}): its id must be new, its files must exist. */
    public Circuits.Registered register(Circuits.Registered circuit) {
        return Circuits.of(engine).register(circuit);
    }

    /**
     * Submits a job of {@code partitions} on the registered circuit {@code circuitId}, at normal priority.
     *
     * @throws InterruptedException when interrupted while the circuit's key loads (the first job of a
     *     circuit loads it, waiting for room in the memory budget)
     */
    public ProofJob submit(String circuitId, List<? extends CircuitJob.Partition> partitions)
            throws InterruptedException {
        return submit(circuitId, partitions, Priority.NORMAL, null, null);
    }

    /**
     * As {@link #submit(String, List)}, with a priority, an idempotency key (null: none; a second submit
     * with the same key returns the first job) and a deadline (null: none; when it passes the job fails
     * with a {@link TimeoutException} cause).
     */
    public ProofJob submit(String circuitId, List<? extends CircuitJob.Partition> partitions, Priority priority,
            String idempotencyKey, Duration deadline) throws InterruptedException {
        CircuitJob spec = new CircuitJob(Circuits.of(engine), circuitId, partitions);
        return new ProofJob(engine.submit(spec, priority, idempotencyKey, deadline));
    }

    /**
     * Submits and waits: the proofs of {@code partitions}, each verified, in partition order. A job still
     * running after {@code timeout} is cancelled, then a {@link TimeoutException} is thrown.
     *
     * @throws ProofJob.FailedException when the job failed, with the failure as its cause
     */
    public List<ProofWithSignals> prove(String circuitId, List<? extends CircuitJob.Partition> partitions,
            Duration timeout) throws InterruptedException, TimeoutException {
        ProofJob job = submit(circuitId, partitions);
        try {
            return job.await(timeout);
        } catch (TimeoutException | InterruptedException e) {
            job.cancel();
            throw e;
        }
    }

    /** The verification key of a registered circuit (loading its proving key if it is not resident). */
    public VerificationKey verificationKey(String circuitId) throws InterruptedException {
        try (var key = Circuits.of(engine).key(circuitId)) {
            return key.value().verificationKey();
        }
    }

    /** The engine underneath: status, timeline, metrics, its jobs. */
    public Engine<ProofResult> engine() {
        return engine;
    }

    /**
     * Closes the engine ({@link Engine#close}): unfinished jobs fail, threads end, keys are unmapped. An
     * interrupt while it waits for running work is kept as the thread's interrupt status.
     */
    @Override
    public void close() {
        try {
            engine.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
