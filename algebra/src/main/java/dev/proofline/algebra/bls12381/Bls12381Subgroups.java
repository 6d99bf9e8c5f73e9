package dev.proofline.algebra.bls12381;

import dev.proofline.algebra.curve.EndomorphismSubgroupCheck;
import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.curve.SubgroupCheck;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;

/**
 * Subgroup membership for BLS12-381, after Scott, "A note on group membership tests for G1, G2 and GT
 * on BLS pairing-friendly curves" (eprint 2021/1130; proofs completed in eprint 2022/352), as also
 * done by zkcrypto/bls12_381 ({@code is_torsion_free}).
 * <ul>
 *   <li>G1: sigma(P) == [-x^2] P with sigma(x, y) = (beta x, y), beta a primitive cube root of unity
 *       in Fp. Of the two cube roots, the one used is the one for which sigma acts on G1 as [-x^2]
 *       (the other acts as [x^2 - 1]); it is chosen below by testing the generator.</li>
 *   <li>G2: psi(P) == [x] P with psi the untwist-Frobenius-twist map of the M-type twist
 *       E': y^2 = x^3 + 4 xi, xi = 1 + u. The untwisting map is (x, y) -> (x / w^2, y / w^3), w^6 = xi,
 *       so psi(x, y) = (conj(x) xi^(-(p-1)/3), conj(y) xi^(-(p-1)/2)). On G2, psi acts as [p] = [x]
 *       (p = x mod r).</li>
 * </ul>
 * Tests check both against r P == O on points in and out of the subgroups.
 */
public final class Bls12381Subgroups {

    /** sigma's eigenvalue on G1: -x^2 (128 bits), a root of l^2 + l + 1 = x^4 - x^2 + 1 = r. */
    public static final BigInteger SIGMA_EIGENVALUE = Bls12381.X.pow(2).negate();
    /** psi's eigenvalue on G2: x (64 bits, negative). */
    public static final BigInteger PSI_EIGENVALUE = Bls12381.X;

    private static final long[] BETA;
    private static final long[] ONE;
    private static final long[] PSI_X;
    private static final long[] PSI_Y;

    static {
        PrimeField fp = Bls12381.FP;
        BigInteger p = fp.modulus();
        BigInteger third = p.subtract(BigInteger.ONE).divide(BigInteger.valueOf(3));
        // a primitive cube root of unity: g^((p-1)/3) for the first g that is not a cube
        BigInteger beta = BigInteger.ONE;
        for (BigInteger g = BigInteger.TWO; beta.equals(BigInteger.ONE); g = g.add(BigInteger.ONE)) {
            beta = g.modPow(third, p);
        }
        ONE = fp.one();
        long[] candidate = fp.fromBigInteger(beta);
        EndomorphismSubgroupCheck probe = new EndomorphismSubgroupCheck(Bls12381.G1, candidate, ONE, false,
                SIGMA_EIGENVALUE);
        if (!probe.isInSubgroupAffine(Bls12381.G1.generator(), 0)) {
            candidate = fp.fromBigInteger(beta.multiply(beta).mod(p));  // the other root, beta^2
        }
        BETA = candidate;

        Field f2 = Bls12381.FP2.forThread();
        long[] xi = Bls12381.FP2.of(BigInteger.ONE, BigInteger.ONE);
        int limbs = fp.limbs();
        PSI_X = f2.newElement();
        f2.pow(xi, 0, PrimeField.words(third, limbs), PSI_X, 0);
        f2.inv(PSI_X, 0, PSI_X, 0);
        PSI_Y = f2.newElement();
        f2.pow(xi, 0, PrimeField.words(p.subtract(BigInteger.ONE).shiftRight(1), limbs), PSI_Y, 0);
        f2.inv(PSI_Y, 0, PSI_Y, 0);
    }

    private Bls12381Subgroups() {
    }

    /** The cube root of unity used by sigma, canonical value. */
    public static BigInteger beta() {
        return Bls12381.FP.toBigInteger(BETA, 0);
    }

    /** A G1 check for the calling thread: sigma(P) == [-x^2] P. */
    public static EndomorphismSubgroupCheck g1() {
        return new EndomorphismSubgroupCheck(Bls12381.G1, BETA, ONE, false, SIGMA_EIGENVALUE);
    }

    /** A G2 check for the calling thread: psi(P) == [x] P. */
    public static EndomorphismSubgroupCheck g2() {
        return new EndomorphismSubgroupCheck(Bls12381.G2, PSI_X, PSI_Y, true, PSI_EIGENVALUE);
    }

    /** Scalar multiplication on G1 by sigma (GLV, eigenvalue -x^2), for the calling thread. */
    public static GlvMultiplier g1Multiplier() {
        return new GlvMultiplier(g1(), 1, SIGMA_EIGENVALUE);
    }

    /** Scalar multiplication on G2 by psi applied twice (GLV, eigenvalue x^2), for the calling thread. */
    public static GlvMultiplier g2Multiplier() {
        return new GlvMultiplier(g2(), 2, PSI_EIGENVALUE.pow(2));
    }
}
