package dev.proofline.engine;

import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.Witness;

/**
 * The CPU backend ({@code cpu}): Groth16 in Java on all cores. {@code start} is {@link Prover#start}
 * (a, b, c from the key's coefficients, or given by the PCE), {@code finish} is {@link Prover#finish},
 * which verifies the proof before returning it.
 */
public final class CpuBackend implements ProverBackend {

    /** What synthesis hands the prover: the key, the witness, and a, b, c when the PCE computed them. */
    public record Synthesized(ProvingKey key, Witness witness, long[] a, long[] b, long[] c) {
        public static Synthesized of(ProvingKey key, Witness witness) {
            return new Synthesized(key, witness, null, null, null);
        }
    }

    private final Prover prover;

    public CpuBackend(Prover prover) {
        this.prover = prover;
    }

    public CpuBackend() {
        this(Prover.create());
    }

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public Object start(Object synthesized) {
        Synthesized s = (Synthesized) synthesized;
        return s.a() == null ? prover.start(s.key(), s.witness())
                : prover.start(s.key(), s.witness(), s.a(), s.b(), s.c());
    }

    @Override
    public Object finish(Object started) {
        return prover.finish((Prover.Started) started);
    }

    /** Bytes a partition of this key holds while it is proved: witness, a, b, c, the NTT's copies. */
    public static long workingSetBytes(ProvingKey key) {
        return 32L * key.variableCount() + 3 * 32L * key.domainSize() + 32L * key.domainSize();
    }
}
