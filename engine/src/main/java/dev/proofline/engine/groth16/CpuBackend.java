package dev.proofline.engine.groth16;

import dev.proofline.engine.BufferPool;
import dev.proofline.engine.ProverBackend;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.Witness;

/**
 * The CPU backend ({@code cpu}): Groth16 in Java on all cores. {@code start} is {@link Prover#start}
 * (a, b, c from the key's coefficients, or already written by the PCE), computing in the partition's
 * pooled heap buffers when it has them; {@code finish} is {@link Prover#finish}, which verifies the
 * proof before returning it, as a {@link ProofResult}.
 *
 * <p>The prover runs its steps in order ({@link Prover#withStepsInOrder}), never a small proof's MSMs
 * beside its transforms: the pipeline already overlaps one partition's {@code finish} (B in G2,
 * verification) with the next one's {@code start}, and moving B into {@code start} would lengthen
 * the prover stage. On a stream of 2^15 proofs ({@code bench engine --backend cpu --constraints
 * 16384 --jobs 12 --partitions 5 --synthesis-threads 1}, 2 cores, three alternating runs each) the
 * MSMs beside the transforms gave 127.2-130.8 proofs a minute, the steps in order 124.5-134.4: no gain.
 */
public final class CpuBackend implements ProverBackend<CpuBackend.Synthesized, Prover.Started> {

    /**
     * What synthesis hands the prover: the key, the witness, the workspace (pooled, or null for fresh
     * vectors) and, when the PCE computed a, b, c there, their number of rows (-1 otherwise).
     */
    public record Synthesized(ProvingKey key, Witness witness, Prover.Workspace workspace, int rows)
            implements CircuitJob.Payload {
    }

    private final Prover prover;

    public CpuBackend(Prover prover) {
        this.prover = prover.withStepsInOrder();
    }

    public CpuBackend() {
        this(Prover.create());
    }

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public BufferPool.Memory bufferMemory() {
        return BufferPool.Memory.HEAP;
    }

    @Override
    public Prover.Started start(Synthesized s) {
        Prover.Workspace ws = s.workspace() != null ? s.workspace() : Prover.Workspace.allocate(s.key());
        return s.rows() < 0 ? prover.start(s.key(), s.witness(), ws) : prover.start(s.key(), s.witness(), ws, s.rows());
    }

    @Override
    public ProofResult finish(Prover.Started st) {
        return new ProofResult(prover.finish(st), st.witness().publicSignals(st.key().publicCount()));
    }

    /** Bytes of each of a partition's three pooled vectors (a, b, c on the key's domain). */
    public static long vectorBytes(ProvingKey key) {
        return Prover.Workspace.words(key) * 8;
    }

    /** Bytes a partition holds besides its a, b, c: the witness and its Montgomery copy, the NTT's scratch. */
    public static long extraBytes(ProvingKey key) {
        return 2 * 32L * key.variableCount() + 32L * key.domainSize();
    }

    /** The pooled vectors a partition's buffers hold, as the prover's workspace. */
    public static Prover.Workspace workspace(java.util.List<BufferPool.Buffer> buffers) {
        return new Prover.Workspace(buffers.get(0).longs(), buffers.get(1).longs(), buffers.get(2).longs());
    }
}
