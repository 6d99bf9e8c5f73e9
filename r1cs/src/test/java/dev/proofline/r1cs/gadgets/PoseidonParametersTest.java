package dev.proofline.r1cs.gadgets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.Node;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Grain LFSR derivation of {@link PoseidonParameters}: equal to circomlib's constants on BN254,
 * to the reference implementation's published instances on both curves, with the reference's round
 * numbers and matrix checks.
 */
class PoseidonParametersTest {

    @Test
    void bn254DerivationEqualsCircomlibConstantsForEveryWidth() {
        JsonNode j = Node.scriptJson("gadgets/poseidon.cjs", "constants");
        assertEquals(16, j.get("C").size());
        for (int t = 2; t <= 17; t++) {
            PoseidonParameters p = PoseidonParameters.of(PairingCurve.BN254, t - 1);
            JsonNode c = j.get("C").get(t - 2);
            JsonNode m = j.get("M").get(t - 2);
            int rounds = p.fullRounds() + p.partialRounds();
            assertEquals(rounds * t, c.size(), "round constants for t = " + t);
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < t; i++) {
                    assertEquals(new BigInteger(c.get(r * t + i).asText()), p.roundConstant(r, i),
                            "t = " + t + ", round " + r + ", element " + i);
                }
            }
            assertEquals(t, m.size());
            for (int i = 0; i < t; i++) {
                for (int k = 0; k < t; k++) {
                    assertEquals(new BigInteger(m.get(i).get(k).asText()), p.mds(i, k), "t = " + t + ", M[" + i + "][" + k + "]");
                }
            }
        }
    }

    private static BigInteger[] permute(PoseidonParameters p, int... in) {
        PrimeField fr = p.field();
        long[] s = new long[4 * p.width()];
        for (int i = 0; i < in.length; i++) {
            fr.fromBigInteger(BigInteger.valueOf(in[i]), s, 4 * i);
        }
        Poseidon.permute(p, s);
        BigInteger[] out = new BigInteger[p.width()];
        for (int i = 0; i < out.length; i++) {
            out[i] = fr.toBigInteger(s, 4 * i);
        }
        return out;
    }

    private static BigInteger[] hex(String... h) {
        BigInteger[] out = new BigInteger[h.length];
        for (int i = 0; i < h.length; i++) {
            out[i] = new BigInteger(h[i], 16);
        }
        return out;
    }

    /**
     * The reference implementation's test vectors (test_vectors.txt: poseidonperm_x5_254_3,
     * _254_5, _255_3, _255_5, the permutation of [0, 1, .., t-1]).
     */
    @Test
    void permutationsMatchTheReferenceTestVectors() {
        assertArrayEquals(hex("115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a",
                "0fca49b798923ab0239de1c9e7a4a9a2210312b6a2f616d18b5a87f9b628ae29",
                "0e7ae82e40091e63cbd4f16a6d16310b3729d4b6e138fcf54110e2867045a30c"),
                permute(PoseidonParameters.of(PairingCurve.BN254, 2), 0, 1, 2));
        assertArrayEquals(hex("299c867db6c1fdd79dcefa40e4510b9837e60ebb1ce0663dbaa525df65250465",
                "1148aaef609aa338b27dafd89bb98862d8bb2b429aceac47d86206154ffe053d",
                "24febb87fed7462e23f6665ff9a0111f4044c38ee1672c1ac6b0637d34f24907",
                "0eb08f6d809668a981c186beaf6110060707059576406b248e5d9cf6e78b3d3e",
                "07748bc6877c9b82c8b98666ee9d0626ec7f5be4205f79ee8528ef1c4a376fc7"),
                permute(PoseidonParameters.of(PairingCurve.BN254, 4), 0, 1, 2, 3, 4));
        assertArrayEquals(hex("28ce19420fc246a05553ad1e8c98f5c9d67166be2c18e9e4cb4b4e317dd2a78a",
                "51f3e312c95343a896cfd8945ea82ba956c1118ce9b9859b6ea56637b4b1ddc4",
                "3b2b69139b235626a0bfb56c9527ae66a7bf486ad8c11c14d1da0c69bbe0f79a"),
                permute(PoseidonParameters.of(PairingCurve.BLS12_381, 2), 0, 1, 2));
        assertArrayEquals(hex("2a918b9c9f9bd7bb509331c81e297b5707f6fc7393dcee1b13901a0b22202e18",
                "65ebf8671739eeb11fb217f2d5c5bf4a0c3f210e3f3cd3b08b5db75675d797f7",
                "2cc176fc26bc70737a696a9dfd1b636ce360ee76926d182390cdb7459cf585ce",
                "4dc4e29d283afd2a491fe6aef122b9a968e74eff05341f3cc23fda1781dcb566",
                "03ff622da276830b9451b88b85e6184fd6ae15c8ab3ee25a5667be8592cce3b1"),
                permute(PoseidonParameters.of(PairingCurve.BLS12_381, 4), 0, 1, 2, 3, 4));
    }

    /**
     * The reference round-number calculation gives RF = 8 and RP = 56 (t <= 5) or 57 on both scalar
     * fields; raised to a multiple of t these are circomlib's partial rounds, used on both curves.
     */
    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void partialRoundsFollowTheSecurityFormulaRoundedToAMultipleOfT(PairingCurve curve) {
        BigInteger r = curve.fr().modulus();
        assertEquals(BigInteger.ONE, BigInteger.valueOf(5).gcd(r.subtract(BigInteger.ONE)), "x^5 is a permutation");
        for (int t = 2; t <= 17; t++) {
            int[] rounds = PoseidonReference.roundNumbers(r, t, 5, 128);
            assertEquals(8, rounds[0], "RF for t = " + t);
            assertEquals(t <= 5 ? 56 : 57, rounds[1], "RP for t = " + t);
            int multiple = (rounds[1] + t - 1) / t * t;
            assertEquals(multiple, PoseidonParameters.PARTIAL_ROUNDS[t - 2], "t = " + t);
            assertEquals(multiple, PoseidonParameters.of(curve, t - 1).partialRounds());
        }
    }

    /**
     * The reference draws a new Cauchy matrix while its subspace-trail checks reject one; they
     * accept the first draw for every width on both curves, so the derivation, which keeps the
     * first draw, gives the reference's matrices.
     */
    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void theReferenceMatrixChecksAcceptTheFirstDraw(PairingCurve curve) {
        BigInteger r = curve.fr().modulus();
        for (int t = 2; t <= 17; t++) {
            PoseidonParameters p = PoseidonParameters.of(curve, t - 1);
            BigInteger[][] m = new BigInteger[t][t];
            for (int i = 0; i < t; i++) {
                for (int k = 0; k < t; k++) {
                    m[i][k] = p.mds(i, k);
                }
            }
            assertTrue(PoseidonReference.mdsIsSecure(m, r), "t = " + t);
        }
    }

    /** The checks do reject matrices with invariant subspaces (so the test above can fail). */
    @Test
    void theMatrixChecksRejectWeakMatrices() {
        BigInteger r = PairingCurve.BN254.fr().modulus();
        PoseidonReference.Gf gf = new PoseidonReference.Gf(r);
        BigInteger[][] identity = new BigInteger[3][3];
        BigInteger[][] blockDiagonal = new BigInteger[4][4];
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 4; k++) {
                if (i < 3 && k < 3) {
                    identity[i][k] = i == k ? BigInteger.TWO : BigInteger.ZERO;
                }
                blockDiagonal[i][k] = (i < 2) == (k < 2) ? BigInteger.valueOf(1 + i + 2 * k) : BigInteger.ZERO;
            }
        }
        assertEquals(false, gf.algorithm1(identity));
        assertEquals(false, gf.algorithm2(blockDiagonal) && gf.algorithm1(blockDiagonal) && gf.algorithm3(blockDiagonal));
        // a matrix with an eigenvector inside {x_0 = 0}
        BigInteger[][] m = {
            {BigInteger.ONE, BigInteger.TWO, BigInteger.ZERO},
            {BigInteger.ZERO, BigInteger.valueOf(3), BigInteger.ZERO},
            {BigInteger.valueOf(5), BigInteger.valueOf(7), BigInteger.valueOf(11)},
        };
        assertEquals(false, gf.algorithm1(m));
        assertEquals(2, gf.roots(gf.charpoly(new BigInteger[][] {
            {BigInteger.TWO, BigInteger.ZERO}, {BigInteger.ZERO, BigInteger.valueOf(3)}})).size());
    }
}
