package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.io.SnarkjsJson;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A Groth16 proof with the public signals it proves, what snarkjs's {@code groth16.fullProve} returns
 * as {@code {proof, publicSignals}}. The signals are numbers, so {@link Verifier#check} takes them as
 * they are; {@link #write} gives snarkjs's {@code proof.json} and {@code public.json}.
 */
public record ProofWithSignals(Proof proof, List<BigInteger> publicSignals) {

    public ProofWithSignals {
        Objects.requireNonNull(proof, "proof");
        publicSignals = List.copyOf(publicSignals);
    }

    /** From signals as decimal strings (public.json, {@code Witness.publicSignals}). */
    public static ProofWithSignals ofDecimal(Proof proof, List<String> publicSignals) {
        return new ProofWithSignals(proof, publicSignals.stream().map(BigInteger::new).toList());
    }

    /**
     * Reads snarkjs's {@code proof.json} and {@code public.json}; the proof must be on {@code curve}
     * (null: whichever its {@code curve} field names).
     */
    public static ProofWithSignals read(Path proofJson, Path publicJson, PairingCurve curve) {
        return new ProofWithSignals(SnarkjsJson.readProof(proofJson, curve), SnarkjsJson.readPublic(publicJson));
    }

    /** The signals as decimal strings, as public.json holds them. */
    public List<String> publicSignalsDecimal() {
        return publicSignals.stream().map(BigInteger::toString).toList();
    }

    /** snarkjs's proof.json, byte for byte. */
    public String proofJson() {
        return SnarkjsJson.proofJson(proof);
    }

    /** snarkjs's public.json, byte for byte. */
    public String publicJson() {
        return SnarkjsJson.publicJson(publicSignalsDecimal());
    }

    /** Writes proof.json and public.json as snarkjs writes them ({@code snarkjs groth16 verify} reads both). */
    public void write(Path proofJson, Path publicJson) throws IOException {
        SnarkjsJson.write(proofJson, proofJson());
        SnarkjsJson.write(publicJson, publicJson());
    }

    /** {@link Verifier#check} of this proof and these signals against {@code vk}: valid, or the reason not. */
    public Verifier.Result verify(VerificationKey vk) {
        return Verifier.check(vk, publicSignals, proof);
    }
}
