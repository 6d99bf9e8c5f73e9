package dev.proofline.groth16;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * The blinding scalars r and s of a Groth16 proof. Proofs use fresh values from {@link SecureRandom};
 * fixed values exist so that tests can compare two provers' outputs exactly.
 */
public abstract sealed class ProofRandomness {

    /** The pair (r, s), both in [0, order). */
    public record Pair(BigInteger r, BigInteger s) {
    }

    private ProofRandomness() {
    }

    /** Fresh r and s for every proof, uniform mod the group order (512 random bits reduced). */
    public static ProofRandomness secure() {
        return new Secure();
    }

    /**
     * The same r and s for every proof. Only for tests: a proof whose randomness is known reveals the
     * witness to anyone who has it.
     */
    public static ProofRandomness fixedForTesting(BigInteger r, BigInteger s) {
        return new Fixed(r, s);
    }

    public abstract Pair draw(BigInteger order);

    private static final class Secure extends ProofRandomness {
        private final SecureRandom random = new SecureRandom();

        @Override
        public Pair draw(BigInteger order) {
            return new Pair(new BigInteger(512, random).mod(order), new BigInteger(512, random).mod(order));
        }
    }

    private static final class Fixed extends ProofRandomness {
        private final BigInteger r;
        private final BigInteger s;

        Fixed(BigInteger r, BigInteger s) {
            this.r = r;
            this.s = s;
        }

        @Override
        public Pair draw(BigInteger order) {
            return new Pair(r.mod(order), s.mod(order));
        }
    }
}
