package dev.proofline.engine.groth16;

import dev.proofline.groth16.Proof;
import dev.proofline.groth16.ProofWithSignals;
import java.math.BigInteger;
import java.util.List;

/** What a real backend returns for one partition: the proof, verified, and its public signals (decimal). */
public record ProofResult(Proof proof, List<String> publicSignals) {
    public ProofResult {
        publicSignals = List.copyOf(publicSignals);
    }

    /** The public signals as numbers, as {@link dev.proofline.groth16.Verifier#check} takes them. */
    public List<BigInteger> publicSignalValues() {
        return publicSignals.stream().map(BigInteger::new).toList();
    }

    /** The same proof and signals as a {@link ProofWithSignals} (snarkjs's files, verification). */
    public ProofWithSignals toProofWithSignals() {
        return new ProofWithSignals(proof, publicSignalValues());
    }
}
