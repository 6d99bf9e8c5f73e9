package dev.proofline.engine.groth16;

import dev.proofline.groth16.ProofSums;
import dev.proofline.groth16.Prover;

/**
 * The CPU's side of the {@code cpu} backend: Groth16 in Java on all cores. It stages nothing (all of a
 * proof's heavy half runs under the device's lock, so that proofs do not compete for the cores);
 * {@code sums} is {@link Prover#start} (a, b, c from the key's coefficients, or already written by the
 * PCE), computing in the partition's pooled heap buffers when it has them, or on native vectors copied
 * to the heap.
 *
 * <p>The prover runs its steps in order ({@link Prover#withStepsInOrder}), never a small proof's MSMs
 * beside its transforms: the pipeline already overlaps one partition's {@code finish} (B in G2,
 * verification) with the next one's {@code start}, and moving B into {@code start} would lengthen
 * the prover stage. On a stream of 2^15 proofs the MSMs beside the transforms gave no gain
 * (BENCHMARKS.md, "Circom circuits", the MSMs beside the transforms).
 */
public final class CpuDevice implements DeviceBackend<CircuitJob.Payload> {

    @Override
    public String name() {
        return "cpu";
    }

    /** The payload as it is: the CPU has nothing to stage. */
    @Override
    public CircuitJob.Payload stage(DeviceContext context, CircuitJob.Payload partition) {
        return partition;
    }

    @Override
    public ProofSums sums(DeviceContext context, CircuitJob.Payload partition) {
        Prover prover = context.prover().withStepsInOrder();
        Prover.Started started = switch (partition) {
            case CircuitJob.HeapSynthesized s -> {
                Prover.Workspace ws = s.workspace() != null ? s.workspace() : Prover.Workspace.allocate(s.key());
                yield s.rows() < 0 ? prover.start(s.key(), s.witness(), ws)
                        : prover.start(s.key(), s.witness(), ws, s.rows());
            }
            case CircuitJob.NativeSynthesized s ->
                    prover.start(prover.prepare(s.key(), s.witness(), s.workspace(), s.rows(), false));
        };
        return started.sums();
    }
}
