package dev.proofline.daemon.jobs;

import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.pce.Pce;
import java.math.BigInteger;

/**
 * Whether a witness satisfies a circuit's constraints, A·w ∘ B·w = C·w row by row, by the circuit's PCE:
 * one sparse product per matrix, cheap next to a proof (no NTT, no MSM). The daemon runs it when a
 * witness is submitted, so that the client learns at once rather than when the proof fails its own
 * verification. A circuit with only a key cannot be checked this way: a snarkjs key holds A and B but
 * not C.
 */
public final class SatisfactionCheck {

    private final Pce pce;
    /** a, b, c of one witness, reused for each partition of a request. */
    private final long[] a;
    private final long[] b;
    private final long[] c;

    /** A check on {@code pce}'s constraints; its vectors (3 × 32 bytes per constraint) serve every call. */
    public SatisfactionCheck(Pce pce) {
        this.pce = pce;
        int words = pce.r1cs().constraintCount() * 4;
        this.a = new long[words];
        this.b = new long[words];
        this.c = new long[words];
    }

    /**
     * Nothing when {@code w} satisfies the constraints; otherwise an {@link IllegalArgumentException} that
     * starts with {@code name} and names the first failing constraint.
     */
    public void check(String name, Witness w) {
        if (w.size() > 0 && !w.value(0).equals(BigInteger.ONE)) {
            throw new IllegalArgumentException(name + ": the witness's first value (the constant 1) is not 1");
        }
        pce.evaluate(w, a, b, c);
        PrimeField fr = pce.r1cs().curve().fr();
        long[] ab = new long[4];
        int rows = pce.r1cs().constraintCount();
        for (int r = 0; r < rows; r++) {
            // a, b, c are in Montgomery form: the Montgomery product of a and b is a·b in Montgomery form too
            fr.mul(a, r * 4, b, r * 4, ab, 0);
            if (!fr.eq(ab, 0, c, r * 4)) {
                throw new IllegalArgumentException(name + ": the witness does not satisfy the circuit (constraint "
                        + r + " of " + rows + " fails)");
            }
        }
    }
}
