package dev.proofline.engine.groth16;

import dev.proofline.engine.BufferPool;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import java.util.List;

/**
 * The CPU backend ({@code cpu}) as the engine takes it: the {@link CpuDevice} through the adapter every
 * backend goes through ({@link DeviceBackendAdapter}), whose {@code finish} verifies each proof before
 * returning it as a {@link ProofResult}.
 */
public final class CpuBackend extends DeviceBackendAdapter<CircuitJob.Payload> {

    /** The CPU backend with {@code prover}'s randomness and listener. */
    public CpuBackend(Prover prover) {
        super(new CpuDevice(), prover);
    }

    public CpuBackend() {
        this(Prover.create());
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
    public static Prover.Workspace workspace(List<BufferPool.Buffer> buffers) {
        return new Prover.Workspace(buffers.get(0).longs(), buffers.get(1).longs(), buffers.get(2).longs());
    }
}
