package dev.proofline.cuda;

import dev.proofline.groth16.Proof;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.Scalars;
import dev.proofline.r1cs.Witness;

/** Proofs with one lane's accelerator doing what {@link CudaBackend} has it do, for the tests and the GPU check. */
final class AcceleratedProofs {

    private AcceleratedProofs() {
    }

    /** A proof from heap vectors: a, b, c on the CPU, H and the G1 sums on {@code gpu}, finish by {@code prover}. */
    static Proof fromHeap(GpuAccelerator gpu, Prover prover, ProvingKey key, Witness w) {
        Prover.Abc abc = prover.abc(key, w, Prover.Workspace.allocate(key), -1);
        Scalars.Canonical h = gpu.quotient(key, abc);
        return prover.finish(Prover.started(key, w, gpu.g1Sums(key, Scalars.Canonical.of(w), h), 0, 0));
    }

    /** The device half of a proof prepared in native vectors (a, b, c from them, or left to {@code gpu}). */
    static Prover.Started start(GpuAccelerator gpu, Prover.Prepared p) {
        long t0 = System.nanoTime();
        var sums = p.abcLeftToDevice() ? gpu.sumsFromWitness(p.key(), p.workspace()) : gpu.sums(p.key(), p.workspace());
        return Prover.started(p.key(), p.witness(), sums, 0, System.nanoTime() - t0);
    }
}
