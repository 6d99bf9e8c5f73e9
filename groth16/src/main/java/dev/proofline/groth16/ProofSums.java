package dev.proofline.groth16;

import java.util.Arrays;
import java.util.Objects;

/**
 * What the heavy half of a proof computes, and all that {@link Prover#finish} needs of it besides the key
 * and the witness: the four G1 sums and, where the backend computed it too, B in G2.
 * <ul>
 *   <li>{@code a} = sum w_i A_i, {@code b1} = sum w_i B1_i (all variables),
 *   <li>{@code c} = sum w_i C_i over the private variables (after the constant and the public signals),
 *   <li>{@code h} = sum h_i H_i over the domain,
 *   <li>{@code b2} = sum w_i B2_i in G2, or null: {@code finish} computes it on the CPU.
 * </ul>
 * Each point is Jacobian, its coordinates in the curve's Montgomery form, as the curve's group
 * arithmetic lays them out ({@code long[]} words).
 */
public record ProofSums(G1 a, G1 b1, G1 c, G1 h, G2 b2) {

    public ProofSums {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b1, "b1");
        Objects.requireNonNull(c, "c");
        Objects.requireNonNull(h, "h");
    }

    /** The four G1 sums, B in G2 left to {@link Prover#finish}. */
    public static ProofSums of(long[] a, long[] b1, long[] c, long[] h) {
        return of(a, b1, c, h, null);
    }

    /** The four G1 sums and B in G2 (null: left to {@link Prover#finish}). */
    public static ProofSums of(long[] a, long[] b1, long[] c, long[] h, long[] b2) {
        return new ProofSums(new G1(a), new G1(b1), new G1(c), new G1(h), b2 == null ? null : new G2(b2));
    }

    /** Whether B in G2 was computed with the G1 sums. */
    public boolean hasB2() {
        return b2 != null;
    }

    /** These sums with B in G2 left to {@link Prover#finish}. */
    public ProofSums withoutB2() {
        return new ProofSums(a, b1, c, h, null);
    }

    /** A point of G1, Jacobian: x, y, z in Montgomery form. Equal when the words are. */
    public record G1(long[] jacobian) {
        public G1 {
            Objects.requireNonNull(jacobian, "jacobian");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof G1 other && Arrays.equals(jacobian, other.jacobian);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(jacobian);
        }

        @Override
        public String toString() {
            return "G1" + Arrays.toString(jacobian);
        }
    }

    /** A point of G2, Jacobian over Fp2: x, y, z in Montgomery form. Equal when the words are. */
    public record G2(long[] jacobian) {
        public G2 {
            Objects.requireNonNull(jacobian, "jacobian");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof G2 other && Arrays.equals(jacobian, other.jacobian);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(jacobian);
        }

        @Override
        public String toString() {
            return "G2" + Arrays.toString(jacobian);
        }
    }
}
