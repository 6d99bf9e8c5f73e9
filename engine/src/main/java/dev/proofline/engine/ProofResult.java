package dev.proofline.engine;

import dev.proofline.groth16.Proof;
import java.util.List;

/** What a real backend returns for one partition: the proof, verified, and its public signals (decimal). */
public record ProofResult(Proof proof, List<String> publicSignals) {
    public ProofResult {
        publicSignals = List.copyOf(publicSignals);
    }
}
