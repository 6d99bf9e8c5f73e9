package dev.proofline.algebra.bn254;

import dev.proofline.algebra.curve.EndomorphismSubgroupCheck;
import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.curve.SubgroupCheck;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;

/**
 * Subgroup membership for BN254.
 * <ul>
 *   <li>G1: #E(Fp) = r (cofactor 1), so every point on the curve is in G1.</li>
 *   <li>G2: {@link Bn254G2SubgroupCheck}, a relation between P and psi of [u] P, where psi is the
 *       untwist-Frobenius-twist endomorphism of the D-type twist E': y^2 = x^3 + 3/xi, xi = 9 + u. The
 *       untwisting map is (x, y) -> (x w^2, y w^3) with w^6 = xi, so
 *       psi(x, y) = (conj(x) xi^((p-1)/3), conj(y) xi^((p-1)/2)).
 *       On G2 psi acts as [p] = [6u^2] (p - r = 6u^2); the converse, that psi(P) == [6u^2] P holds only
 *       on G2, is shown for BN curves by El Housni, Guillevic and Piellard, "Co-factor clearing and
 *       subgroup membership testing on pairing-friendly curves" (AFRICACRYPT 2022, eprint 2022/352).
 *       {@link #psi()} tests that equation; the relation of {@link Bn254G2SubgroupCheck} costs about half
 *       of it. Tests check both against r P == O.</li>
 * </ul>
 */
public final class Bn254Subgroups {

    /** psi's eigenvalue on G2: 6u^2 = p - r (a 128-bit scalar instead of the 254-bit r). */
    public static final BigInteger PSI_EIGENVALUE = Bn254.U.pow(2).multiply(BigInteger.valueOf(6));

    private static final long[] PSI_X;
    private static final long[] PSI_Y;
    /** sigma(x, y) = (beta x, y) on G1, beta a primitive cube root of unity in Fp, and its eigenvalue. */
    private static final long[] BETA;
    private static final BigInteger SIGMA_EIGENVALUE;

    static {
        Field f2 = Bn254.FP2.forThread();
        long[] xi = Bn254.FP2.of(BigInteger.valueOf(9), BigInteger.ONE);
        BigInteger pm1 = Bn254.FP.modulus().subtract(BigInteger.ONE);
        int limbs = Bn254.FP.limbs();
        PSI_X = f2.newElement();
        f2.pow(xi, 0, PrimeField.words(pm1.divide(BigInteger.valueOf(3)), limbs), PSI_X, 0);
        PSI_Y = f2.newElement();
        f2.pow(xi, 0, PrimeField.words(pm1.shiftRight(1), limbs), PSI_Y, 0);

        // sigma: a cube root of unity in Fp and one mod r, paired by testing the generator
        BigInteger p = Bn254.FP.modulus();
        BigInteger r = Bn254.FR.modulus();
        BigInteger beta = cubeRootOfUnity(p);
        BigInteger lambda = cubeRootOfUnity(r);
        BETA = Bn254.FP.fromBigInteger(beta);
        long[] one = Bn254.FP.one();
        EndomorphismSubgroupCheck probe = new EndomorphismSubgroupCheck(Bn254.G1, BETA, one, false, lambda);
        if (!probe.isInSubgroupAffine(Bn254.G1.generator(), 0)) {
            lambda = lambda.multiply(lambda).mod(r);   // the other root
        }
        SIGMA_EIGENVALUE = lambda;
    }

    /** g^((m-1)/3) for the first g that gives one other than 1. */
    private static BigInteger cubeRootOfUnity(BigInteger m) {
        BigInteger third = m.subtract(BigInteger.ONE).divide(BigInteger.valueOf(3));
        BigInteger root = BigInteger.ONE;
        for (BigInteger g = BigInteger.TWO; root.equals(BigInteger.ONE); g = g.add(BigInteger.ONE)) {
            root = g.modPow(third, m);
        }
        return root;
    }

    private Bn254Subgroups() {
    }

    /** A G1 check for the calling thread (every curve point passes: cofactor 1). */
    public static SubgroupCheck g1() {
        return SubgroupCheck.cofactorOne(Bn254.G1);
    }

    /** A G2 check for the calling thread: the relation in u of {@link Bn254G2SubgroupCheck}. */
    public static SubgroupCheck g2() {
        return new Bn254G2SubgroupCheck(psi());
    }

    /** psi on G2 for the calling thread, as the check psi(P) == [6u^2] P. */
    public static EndomorphismSubgroupCheck psi() {
        return new EndomorphismSubgroupCheck(Bn254.G2, PSI_X, PSI_Y, true, PSI_EIGENVALUE);
    }

    /** Scalar multiplication on G1 by sigma (GLV), for the calling thread. */
    public static GlvMultiplier g1Multiplier() {
        return new GlvMultiplier(new EndomorphismSubgroupCheck(Bn254.G1, BETA, Bn254.FP.one(), false,
                SIGMA_EIGENVALUE), 1, SIGMA_EIGENVALUE);
    }

    /** Scalar multiplication on G2 by psi (GLV, eigenvalue 6u^2), for the calling thread. */
    public static GlvMultiplier g2Multiplier() {
        return new GlvMultiplier(psi(), 1, PSI_EIGENVALUE);
    }
}
