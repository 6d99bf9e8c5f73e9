package dev.proofline.api;

/**
 * A circuit the daemon serves: its id (what a submission names), its kind ({@code circom} or {@code java}),
 * whether it has a witness generator (then partitions may be circom inputs) and a constraint system, and
 * its curve where the daemon knows it ({@code bn128}, {@code bls12381}; empty before its key is read).
 */
public record CircuitInfo(String id, String kind, boolean hasWasm, boolean hasR1cs, String curve) {
}
