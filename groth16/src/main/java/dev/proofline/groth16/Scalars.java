package dev.proofline.groth16;

import dev.proofline.r1cs.Witness;
import java.util.Arrays;
import java.util.Objects;

/**
 * A vector of scalars (field elements of the curve's Fr, four {@code long} words each, least significant
 * first) with its form in its type, where vectors cross to a device: a, b, c are {@link Montgomery} (what
 * the field arithmetic and the NTTs compute on), the MSMs' scalars (the witness, h) are {@link Canonical}.
 */
public sealed interface Scalars permits Scalars.Montgomery, Scalars.Canonical {

    /** The words, not copied. */
    long[] words();

    /** Elements in Montgomery form (x R mod r): a, b, c of a proof. */
    record Montgomery(long[] words) implements Scalars {
        public Montgomery {
            Objects.requireNonNull(words, "words");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Montgomery other && Arrays.equals(words, other.words);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(words);
        }

        @Override
        public String toString() {
            return "Montgomery[" + words.length / 4 + " elements]";
        }
    }

    /** Elements in canonical form (their integer values below r): the MSMs' scalars. */
    record Canonical(long[] words) implements Scalars {
        public Canonical {
            Objects.requireNonNull(words, "words");
        }

        /** The witness's values, as the MSMs take them. */
        public static Canonical of(Witness w) {
            return new Canonical(w.words());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Canonical other && Arrays.equals(words, other.words);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(words);
        }

        @Override
        public String toString() {
            return "Canonical[" + words.length / 4 + " elements]";
        }
    }
}
