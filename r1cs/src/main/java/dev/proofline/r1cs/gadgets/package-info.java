/**
 * Gadgets for circuits written against {@link dev.proofline.r1cs.cs.ConstraintSystem}: bits and
 * 32-bit words ({@link dev.proofline.r1cs.gadgets.Bit}, {@link dev.proofline.r1cs.gadgets.UInt32}),
 * field elements with their bit decompositions ({@link dev.proofline.r1cs.gadgets.Num}), SHA-256
 * ({@link dev.proofline.r1cs.gadgets.Sha256}), circomlib's Poseidon
 * ({@link dev.proofline.r1cs.gadgets.Poseidon}, {@link dev.proofline.r1cs.gadgets.PoseidonParameters})
 * and Merkle paths ({@link dev.proofline.r1cs.gadgets.MerklePath}). Every gadget works on the three
 * systems (proving, recording, witness-only): values are computed only when the system asks for
 * them. See docs/circuits.md for costs.
 */
package dev.proofline.r1cs.gadgets;
