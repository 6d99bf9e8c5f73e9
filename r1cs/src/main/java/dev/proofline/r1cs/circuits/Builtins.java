package dev.proofline.r1cs.circuits;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.cs.Circuit;
import java.util.Locale;

/** The built-in circuits known by name ({@code builtin:merkle-post}), for the command line and the daemon. */
public final class Builtins {

    private Builtins() {
    }

    /** A curve by the names snarkjs and Proofline use: bn254/bn128, bls12381/bls12-381. */
    public static PairingCurve curve(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "bn254", "bn128" -> PairingCurve.BN254;
            case "bls12381", "bls12-381" -> PairingCurve.BLS12_381;
            default -> throw new IllegalArgumentException("unknown curve '" + name + "' (bn254 or bls12381)");
        };
    }

    /** A circuit sized to at least {@code constraints} constraints, its instance from {@code seed}. */
    public static Circuit circuit(String name, PairingCurve curve, long constraints, int depth, boolean sha256Leaves,
            long seed) {
        return switch (name) {
            case "builtin:merkle-post" -> MerklePost.sized(curve, constraints, depth, sha256Leaves, seed);
            default -> throw new IllegalArgumentException("unknown circuit '" + name + "' (built in: builtin:merkle-post)");
        };
    }
}
