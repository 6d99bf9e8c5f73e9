package dev.proofline.algebra.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.Ffjs;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The constants typed into the code, derived independently: moduli and cofactors from each family's
 * polynomials in the curve parameter, generators from ffjavascript (snarkjs's library).
 */
class CurveConstantsTest {

    private static BigInteger poly(BigInteger x, long... coefficientsHighFirst) {
        BigInteger acc = BigInteger.ZERO;
        for (long c : coefficientsHighFirst) {
            acc = acc.multiply(x).add(BigInteger.valueOf(c));
        }
        return acc;
    }

    @Test
    void bn254ModuliFollowFromTheCurveParameter() {
        BigInteger u = Bn254.U;
        assertEquals(poly(u, 36, 36, 24, 6, 1), Bn254.FP.modulus(), "p = 36u^4 + 36u^3 + 24u^2 + 6u + 1");
        assertEquals(poly(u, 36, 36, 18, 6, 1), Bn254.FR.modulus(), "r = 36u^4 + 36u^3 + 18u^2 + 6u + 1");
        assertTrue(Bn254.FP.modulus().isProbablePrime(64));
        assertTrue(Bn254.FR.modulus().isProbablePrime(64));
        // trace t = 6u^2 + 1: #E(Fp) = p + 1 - t = r (cofactor 1), and the twist has order
        // #E'(Fp2) = (p + 1 - t)(p - 1 + t) = r (2p - r), so its cofactor is p - 1 + t
        BigInteger p = Bn254.FP.modulus();
        BigInteger t = poly(u, 6, 0, 1);
        assertEquals(p.add(BigInteger.ONE).subtract(t), Bn254.FR.modulus(), "r = p + 1 - t");
        assertEquals(p.subtract(BigInteger.ONE).add(t), Bn254.G2.cofactor(), "h2 = p - 1 + t");
        assertEquals(BigInteger.ONE, Bn254.G1.cofactor());
    }

    @Test
    void bls12381ModuliAndCofactorsFollowFromTheCurveParameter() {
        BigInteger x = Bls12381.X;
        BigInteger r = poly(x, 1, 0, -1, 0, 1);
        assertEquals(r, Bls12381.FR.modulus(), "r = x^4 - x^2 + 1");
        BigInteger xm1 = x.subtract(BigInteger.ONE);
        assertEquals(xm1.pow(2).multiply(r).divide(BigInteger.valueOf(3)).add(x), Bls12381.FP.modulus(),
                "p = (x - 1)^2 r / 3 + x");
        assertEquals(xm1.pow(2).divide(BigInteger.valueOf(3)), Bls12381.G1.cofactor(), "h1 = (x - 1)^2 / 3");
        assertEquals(poly(x, 1, -4, 5, 0, -4, 6, -4, -4, 13).divide(BigInteger.valueOf(9)), Bls12381.G2.cofactor(),
                "h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9");
    }

    @Test
    void generatorsEqualSnarkjsGenerators() {
        checkGenerators("bn128", Bn254.G1, Bn254.G2);
        checkGenerators("bls12381", Bls12381.G1, Bls12381.G2);
    }

    private static void checkGenerators(String curve, WeierstrassCurve g1, WeierstrassCurve g2) {
        JsonNode c = Ffjs.vectors(curve, "constants", 1, null);
        PrimeField fp = (PrimeField) g1.field();
        assertEquals(new BigInteger(c.get("p").asText()), fp.modulus(), curve + " p");
        assertEquals(new BigInteger(c.get("r").asText()), g1.order(), curve + " r");
        long[] gen1 = g1.generator();
        assertEquals(c.get("g1").get("x").asText(), fp.toDecimal(gen1, 0));
        assertEquals(c.get("g1").get("y").asText(), fp.toDecimal(gen1, fp.width()));
        long[] gen2 = g2.generator();
        int w = fp.width();
        for (int coord = 0; coord < 2; coord++) {
            JsonNode xy = c.get("g2").get(coord == 0 ? "x" : "y");
            for (int k = 0; k < 2; k++) {
                assertEquals(xy.get(k).asText(), fp.toDecimal(gen2, coord * 2 * w + k * w), curve + " G2 coordinate");
            }
        }
    }

    /** A random point of E(F): the full group order r * h kills it, so the cofactor is right. */
    @Test
    void cofactorTimesOrderKillsRandomCurvePoints() {
        for (WeierstrassCurve c : new WeierstrassCurve[] {Bn254.G1, Bn254.G2, Bls12381.G1, Bls12381.G2}) {
            PointArithmetic pa = c.arithmetic();
            Field f = pa.field();
            Random rnd = new Random(11);
            long[] p = new long[c.affineWidth()];
            int w = f.width();
            long[] rhs = f.newElement();
            do {
                for (int i = 0; i < w; i++) {
                    p[i] = rnd.nextLong() >>> 8; // small enough to be canonical, already "Montgomery"
                }
                f.sqr(p, 0, rhs, 0);
                f.mul(rhs, 0, p, 0, rhs, 0);
                f.add(rhs, 0, c.b(), 0, rhs, 0);
            } while (!(f instanceof Fp2 f2 ? f2.sqrt(rhs, 0, p, w) : ((PrimeField) f).sqrt(rhs, 0, p, w)));
            assertTrue(pa.isOnCurveAffine(p, 0));
            long[] r = new long[c.jacobianWidth()];
            pa.mulAffine(p, 0, c.order().multiply(c.cofactor()), r, 0);
            assertTrue(pa.isInfinity(r, 0), c + ": (r h) P = O");
            if (!c.cofactor().equals(BigInteger.ONE)) {
                pa.mulAffine(p, 0, c.order(), r, 0);
                assertTrue(!pa.isInfinity(r, 0), c + ": a random point is (almost surely) outside the subgroup");
            }
        }
    }
}
