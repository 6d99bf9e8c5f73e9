package dev.proofline.algebra.pairing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.Ffjs;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pairing's defining properties on both curves (bilinearity, non-degeneracy, order r, the
 * multi-pairing check), its final exponent against the integer formula, and its values against
 * ffjavascript.
 */
class PairingTest {

    /** A curve under test, with the hard-part multiplier m derived here from the curve parameter. */
    record Curve(String ffjsName, Pairing pairing, BigInteger p, BigInteger r, BigInteger m) {
        @Override
        public String toString() {
            return ffjsName;
        }
    }

    static List<Curve> curves() {
        BigInteger u = Bn254.U;
        // BN: p = 36u^4 + 36u^3 + 24u^2 + 6u + 1, r = 36u^4 + 36u^3 + 18u^2 + 6u + 1; the
        // Fuentes-Castañeda et al. chain raises to m (p^4 - p^2 + 1)/r with m = 2u(6u^2 + 3u + 1)
        BigInteger bnP = poly(u, 1, 6, 24, 36, 36);
        BigInteger bnR = poly(u, 1, 6, 18, 36, 36);
        BigInteger bnM = u.shiftLeft(1).multiply(poly(u, 1, 3, 6));
        // BLS12: r = x^4 - x^2 + 1, p = (x - 1)^2 r / 3 + x; the zcash chain raises to 3 (p^4 - p^2 + 1)/r
        BigInteger x = Bls12381.X;
        BigInteger blsR = poly(x, 1, 0, -1, 0, 1);
        BigInteger blsP = x.subtract(BigInteger.ONE).pow(2).multiply(blsR).divide(BigInteger.valueOf(3)).add(x);
        return List.of(
                new Curve("bn128", Pairing.bn254(), bnP, bnR, bnM),
                new Curve("bls12381", Pairing.bls12381(), blsP, blsR, BigInteger.valueOf(3)));
    }

    /** Σ c_i z^i. */
    static BigInteger poly(BigInteger z, long... c) {
        BigInteger acc = BigInteger.ZERO;
        for (int i = c.length - 1; i >= 0; i--) {
            acc = acc.multiply(z).add(BigInteger.valueOf(c[i]));
        }
        return acc;
    }

    static long[] words(BigInteger e) {
        return PrimeField.words(e, Math.max(1, (e.bitLength() + 63) / 64));
    }

    static long[] mulG(WeierstrassCurve g, long[] point, BigInteger k) {
        PointArithmetic pa = g.arithmetic();
        long[] jac = new long[g.jacobianWidth()];
        pa.mulAffine(point, 0, k, jac, 0);
        long[] aff = new long[g.affineWidth()];
        pa.toAffine(jac, 0, aff, 0);
        return aff;
    }

    static long[] neg(WeierstrassCurve g, long[] point) {
        long[] r = new long[g.affineWidth()];
        g.arithmetic().negAffine(point, 0, r, 0);
        return r;
    }

    static long[] pow(Fp12 f12, long[] a, BigInteger e) {
        long[] r = f12.newElement();
        f12.pow(a, 0, words(e), r, 0);
        return r;
    }

    @ParameterizedTest
    @MethodSource("curves")
    void curveParametersGiveTheFieldAndGroupOrders(Curve c) {
        assertEquals(c.pairing().g1().field() instanceof PrimeField f ? f.modulus() : null, c.p());
        assertEquals(c.pairing().g1().order(), c.r());
        assertEquals(BigInteger.ONE, c.m().gcd(c.r()), "m is invertible mod r: the power is a bijection of GT");
    }

    @ParameterizedTest
    @MethodSource("curves")
    void pairingOfTheGeneratorsIsNotOne(Curve c) {
        Pairing e = c.pairing();
        long[] v = e.pair(e.g1().generator(), e.g2().generator());
        assertFalse(e.fp12().isOne(v, 0));
    }

    @ParameterizedTest
    @MethodSource("curves")
    void pairingValuesHaveOrderR(Curve c) {
        Pairing e = c.pairing();
        Fp12 f12 = e.fp12();
        long[] v = e.pair(e.g1().generator(), e.g2().generator());
        assertTrue(f12.isOne(pow(f12, v, c.r()), 0), "e^r = 1");
    }

    @ParameterizedTest
    @MethodSource("curves")
    void pairingIsBilinear(Curve c) {
        Pairing e = c.pairing();
        Fp12 f12 = e.fp12();
        Random rnd = new Random(20240601L + c.ffjsName().hashCode());
        long[] base = e.pair(e.g1().generator(), e.g2().generator());
        for (int it = 0; it < 2; it++) {
            BigInteger a = new BigInteger(c.r().bitLength() + 32, rnd).mod(c.r());
            BigInteger b = new BigInteger(c.r().bitLength() + 32, rnd).mod(c.r());
            long[] aP = mulG(e.g1(), e.g1().generator(), a);
            long[] bQ = mulG(e.g2(), e.g2().generator(), b);
            long[] expected = pow(f12, base, a.multiply(b).mod(c.r()));
            assertArrayEquals(expected, e.pair(aP, bQ), "e(aP, bQ) = e(P, Q)^(ab)");
            // linear in each argument separately: e(aP, Q) = e(P, aQ)
            assertArrayEquals(e.pair(aP, e.g2().generator()),
                    e.pair(e.g1().generator(), mulG(e.g2(), e.g2().generator(), a)));
        }
    }

    @ParameterizedTest
    @MethodSource("curves")
    void pairingWithANegatedPointIsTheInverse(Curve c) {
        Pairing e = c.pairing();
        Fp12 f12 = e.fp12();
        long[] p = mulG(e.g1(), e.g1().generator(), BigInteger.valueOf(12345));
        long[] q = mulG(e.g2(), e.g2().generator(), BigInteger.valueOf(678910));
        long[] prod = f12.newElement();
        f12.mul(e.pair(p, q), 0, e.pair(p, neg(e.g2(), q)), 0, prod, 0);
        assertTrue(f12.isOne(prod, 0), "e(P, Q) e(P, -Q) = 1");
        f12.mul(e.pair(p, q), 0, e.pair(neg(e.g1(), p), q), 0, prod, 0);
        assertTrue(f12.isOne(prod, 0), "e(P, Q) e(-P, Q) = 1");
    }

    @ParameterizedTest
    @MethodSource("curves")
    void pairingWithThePointAtInfinityIsOne(Curve c) {
        Pairing e = c.pairing();
        Fp12 f12 = e.fp12();
        long[] o1 = new long[e.g1().affineWidth()];
        long[] o2 = new long[e.g2().affineWidth()];
        assertTrue(f12.isOne(e.pair(o1, e.g2().generator()), 0));
        assertTrue(f12.isOne(e.pair(e.g1().generator(), o2), 0));
        assertTrue(f12.isOne(e.pair(o1, o2), 0));
        assertTrue(e.pairingProductIsOne(new long[0][], new long[0][]));
    }

    @ParameterizedTest
    @MethodSource("curves")
    void productCheckAcceptsAValidEquationAndRejectsATamperedOne(Curve c) {
        Pairing e = c.pairing();
        Random rnd = new Random(99 + c.ffjsName().hashCode());
        BigInteger a = new BigInteger(c.r().bitLength() - 1, rnd);
        BigInteger b = new BigInteger(c.r().bitLength() - 1, rnd);
        BigInteger d = new BigInteger(c.r().bitLength() - 1, rnd);
        long[] g1 = e.g1().generator();
        long[] g2 = e.g2().generator();
        // e(aG1, bG2) e(dG1, G2) e(-(ab + d) G1, G2) e(O, G2) = 1, the Groth16 shape plus an inert pair
        BigInteger abd = a.multiply(b).add(d).mod(c.r());
        long[][] g1s = {mulG(e.g1(), g1, a), mulG(e.g1(), g1, d), neg(e.g1(), mulG(e.g1(), g1, abd)),
                new long[e.g1().affineWidth()]};
        long[][] g2s = {mulG(e.g2(), g2, b), g2, g2, g2};
        assertTrue(e.pairingProductIsOne(g1s, g2s));
        // one coefficient off by one: the product is e(G1, G2)^-1
        g1s[2] = neg(e.g1(), mulG(e.g1(), g1, abd.add(BigInteger.ONE)));
        assertFalse(e.pairingProductIsOne(g1s, g2s));
        // swapping which G2 point goes with which G1 point breaks it too
        g1s[2] = neg(e.g1(), mulG(e.g1(), g1, abd));
        long[][] swapped = {g2, g2s[1], g2s[2], g2s[0]};
        assertFalse(e.pairingProductIsOne(g1s, swapped));
        assertThrows(IllegalArgumentException.class, () -> e.pairingProductIsOne(g1s, new long[][] {g2}));
    }

    @ParameterizedTest
    @MethodSource("curves")
    void preparedPointsGiveTheSameChecksAsComputedOnes(Curve c) {
        Pairing e = c.pairing();
        Random rnd = new Random(7 + c.ffjsName().hashCode());
        BigInteger[] k = new BigInteger[7];
        for (int i = 0; i < k.length; i++) {
            k[i] = new BigInteger(c.r().bitLength() - 1, rnd);
        }
        long[] g1 = e.g1().generator();
        long[] g2 = e.g2().generator();
        // the Groth16 shape: e(-A, B) e(alpha, beta) e(x, gamma) e(C, delta) = 1 with
        // A = k0 G1, B = k1 G2, alpha = k2 G1, beta = k3 G2, gamma = k4 G2, delta = k5 G2, x = k6 G1,
        // C = (k0 k1 - k2 k3 - k6 k4) / k5 G1
        BigInteger r = c.r();
        BigInteger cs = k[0].multiply(k[1]).subtract(k[2].multiply(k[3])).subtract(k[6].multiply(k[4]))
                .multiply(k[5].modInverse(r)).mod(r);
        long[] negA = neg(e.g1(), mulG(e.g1(), g1, k[0]));
        long[] b = mulG(e.g2(), g2, k[1]);
        long[] alpha = mulG(e.g1(), g1, k[2]);
        long[] beta = mulG(e.g2(), g2, k[3]);
        long[] gamma = mulG(e.g2(), g2, k[4]);
        long[] delta = mulG(e.g2(), g2, k[5]);
        long[] x = mulG(e.g1(), g1, k[6]);
        long[] cPoint = mulG(e.g1(), g1, cs);
        assertTrue(e.pairingProductIsOne(new long[][] {negA, alpha, x, cPoint}, new long[][] {b, beta, gamma, delta}));
        Pairing.PreparedG2[] prepared = {e.prepare(gamma), e.prepare(delta)};
        long[] alphaBeta = e.millerLoop(new long[][] {alpha}, new long[][] {beta});
        assertTrue(e.pairingProductIsOne(new long[][] {negA}, new long[][] {b}, new long[][] {x, cPoint}, prepared,
                alphaBeta));
        // all of it prepared, or none of it (the prepared pairs alone, on one thread)
        assertTrue(e.pairingProductIsOne(new long[0][], new long[0][], new long[][] {negA, x, cPoint},
                new Pairing.PreparedG2[] {e.prepare(b), prepared[0], prepared[1]}, alphaBeta));
        assertTrue(e.pairingProductIsOne(new long[][] {negA, alpha, x, cPoint}, new long[][] {b, beta, gamma, delta},
                new long[0][], new Pairing.PreparedG2[0], null));
        // each prepared point's lines belong to it: swapped, or a G1 point off by one, the check fails
        assertFalse(e.pairingProductIsOne(new long[][] {negA}, new long[][] {b}, new long[][] {x, cPoint},
                new Pairing.PreparedG2[] {prepared[1], prepared[0]}, alphaBeta));
        long[] cOff = mulG(e.g1(), g1, cs.add(BigInteger.ONE));
        assertFalse(e.pairingProductIsOne(new long[][] {negA}, new long[][] {b}, new long[][] {x, cOff}, prepared,
                alphaBeta));
        assertFalse(e.pairingProductIsOne(new long[][] {negA}, new long[][] {b}, new long[][] {x, cPoint}, prepared,
                null));
        // the Miller loop value of a prepared pair is the computed one's, to the word
        assertArrayEquals(e.millerLoop(new long[][] {x}, new long[][] {gamma}),
                e.millerLoop(new long[0][], new long[0][], new long[][] {x}, new Pairing.PreparedG2[] {prepared[0]}));
        assertArrayEquals(e.millerLoop(new long[][] {negA, x, cPoint}, new long[][] {b, gamma, delta}),
                e.millerLoop(new long[][] {negA}, new long[][] {b}, new long[][] {x, cPoint}, prepared));
        // a prepared point at infinity, or a G1 point at infinity, contributes 1
        Pairing.PreparedG2 infinity = e.prepare(new long[e.g2().affineWidth()]);
        assertTrue(e.pairingProductIsOne(new long[][] {negA}, new long[][] {b},
                new long[][] {x, cPoint, g1, new long[e.g1().affineWidth()]},
                new Pairing.PreparedG2[] {prepared[0], prepared[1], infinity, prepared[0]}, alphaBeta));
        Pairing other = c.ffjsName().equals("bn128") ? Pairing.bls12381() : Pairing.bn254();
        Pairing.PreparedG2 foreign = other.prepare(other.g2().generator());
        assertThrows(IllegalArgumentException.class, () -> e.pairingProductIsOne(new long[0][], new long[0][],
                new long[][] {g1}, new Pairing.PreparedG2[] {foreign}, null));
        assertThrows(IllegalArgumentException.class, () -> e.millerLoop(new long[0][], new long[0][],
                new long[][] {g1}, new Pairing.PreparedG2[] {foreign}));
        assertThrows(IllegalArgumentException.class, () -> e.millerLoop(new long[0][], new long[0][],
                new long[][] {g1, x}, new Pairing.PreparedG2[] {prepared[0]}));
    }

    @ParameterizedTest
    @MethodSource("curves")
    void finalExponentiationRaisesToMTimesTheReducedExponent(Curve c) {
        Pairing e = c.pairing();
        Fp12 f12 = e.fp12();
        PrimeField fp = f12.base();
        Random rnd = new Random(5);
        long[] f = f12.newElement();
        for (int i = 0; i < 12; i++) {
            fp.fromBigInteger(new BigInteger(fp.bits() + 32, rnd), f, i * fp.width());
        }
        BigInteger exponent = c.p().pow(12).subtract(BigInteger.ONE).divide(c.r()).multiply(c.m());
        assertArrayEquals(pow(f12, f, exponent), e.finalExponentiation(f));
    }

    @ParameterizedTest
    @MethodSource("curves")
    void pairingMatchesFfjavascript(Curve c) {
        Pairing e = c.pairing();
        Fp12 f12 = e.fp12();
        JsonNode v = Ffjs.vectors(c.ffjsName(), "pairing", 11, null);
        BigInteger a = new BigInteger(v.get("a").asText());
        BigInteger b = new BigInteger(v.get("b").asText());
        long[] eG = e.pair(e.g1().generator(), e.g2().generator());
        assertArrayEquals(strings(v.get("e_g1_g2")), f12.toDecimalStrings(eG, 0), "e(G1, G2)");
        long[] eAB = e.pair(mulG(e.g1(), e.g1().generator(), a), mulG(e.g2(), e.g2().generator(), b));
        assertArrayEquals(strings(v.get("e_aG1_bG2")), f12.toDecimalStrings(eAB, 0), "e(aG1, bG2)");
        assertArrayEquals(f12.fromDecimalStrings(strings(v.get("e_g1_g2_pow_ab"))), eAB);
    }

    @ParameterizedTest
    @MethodSource("curves")
    void concurrentCallsAgree(Curve c) throws InterruptedException, ExecutionException {
        Pairing e = c.pairing();
        long[] p = mulG(e.g1(), e.g1().generator(), BigInteger.valueOf(7));
        long[] q = mulG(e.g2(), e.g2().generator(), BigInteger.valueOf(11));
        long[] expected = e.pair(p, q);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<long[]>> results = pool.invokeAll(List.of(
                    () -> e.pair(p, q), () -> e.pair(p, q), () -> e.pair(p, q), () -> e.pair(p, q)));
            for (Future<long[]> r : results) {
                assertArrayEquals(expected, r.get());
            }
        } finally {
            pool.shutdown();
        }
    }

    static String[] strings(JsonNode arr) {
        String[] s = new String[arr.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = arr.get(i).asText();
        }
        return s;
    }
}
