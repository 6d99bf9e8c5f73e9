package dev.proofline.engine.groth16;

import dev.proofline.groth16.ProvingKey;

/**
 * A backend that computes a proof's a, b, c itself from its proving key's coefficients and the witness
 * (a GPU backend with the key's coefficients resident on its devices). A circuit job on it leaves them
 * out of synthesis, even where the circuit has a PCE, which is then not loaded at all: synthesis
 * computes the witness only.
 */
public interface ComputesAbc {

    /** Whether it computes a, b, c for proofs with {@code key}. */
    boolean computesAbc(ProvingKey key);
}
