package dev.proofline.algebra.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.encoding.SnarkjsJsonCodec;
import dev.proofline.algebra.testing.Ffjs;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Multiplication by an endomorphism (GLV) on the four groups, against ffjavascript and the windowed NAF. */
class GlvMultiplierTest {

    private static GlvMultiplier multiplier(CurveGroup g) {
        PairingCurve curve = g.name().startsWith("BN254") ? PairingCurve.BN254 : PairingCurve.BLS12_381;
        return curve.multiplier(g.isG2());
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void halvesAreShortAndShareOneEigenvalue(CurveGroup g) {
        GlvMultiplier glv = multiplier(g);
        BigInteger r = g.curve().order();
        Random rnd = new Random(5);
        BigInteger lambda = null;
        for (int i = 0; i < 200; i++) {
            BigInteger k = new BigInteger(r.bitLength() + 8, rnd);
            BigInteger[] parts = glv.decompose(k);
            int half = (r.bitLength() + 1) / 2 + 2;
            assertTrue(parts[0].bitLength() <= half && parts[1].bitLength() <= half,
                    g + ": halves of " + parts[0].bitLength() + " and " + parts[1].bitLength() + " bits");
            if (parts[1].signum() != 0) {
                // k = k1 + k2 lambda (mod r) for one lambda, whatever k
                BigInteger l = k.subtract(parts[0]).multiply(parts[1].modInverse(r)).mod(r);
                assertTrue(lambda == null || lambda.equals(l), g + ": the split of k=" + k + " uses another eigenvalue");
                lambda = l;
            }
        }
        assertTrue(lambda != null && lambda.bitLength() > 1);
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void agreesWithTheWindowedNaf(CurveGroup g) {
        WeierstrassCurve c = g.curve();
        PointArithmetic pa = c.arithmetic();
        ScalarMultiplier sm = new ScalarMultiplier(pa);
        GlvMultiplier glv = multiplier(g);
        BigInteger r = c.order();
        List<BigInteger> ks = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO,
                BigInteger.valueOf(31), r.subtract(BigInteger.ONE), r, r.add(BigInteger.ONE)));
        Random rnd = new Random(17);
        for (int i = 0; i < 12; i++) {
            ks.add(new BigInteger(r.bitLength(), rnd).mod(r));
        }
        long[] base = new long[c.jacobianWidth()];
        sm.mulAffine(c.generator(), 0, new BigInteger(100, rnd), base, 0);   // a point other than G
        for (BigInteger k : ks) {
            long[] got = new long[c.jacobianWidth()];
            long[] want = new long[c.jacobianWidth()];
            glv.mul(base, 0, k, got, 0);
            sm.mul(base, 0, k, want, 0);
            assertTrue(pa.equal(got, 0, want, 0), g + " k=" + k);
        }
        long[] inf = new long[c.jacobianWidth()];
        pa.setInfinity(inf, 0);
        long[] got = new long[c.jacobianWidth()];
        glv.mul(inf, 0, BigInteger.TEN, got, 0);
        assertTrue(pa.isInfinity(got, 0), "k O = O");
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void agreesWithFfjavascriptTimesScalar(CurveGroup g) {
        String curve = g.name().startsWith("BN254") ? "bn128" : "bls12381";
        JsonNode v = Ffjs.vectors(curve, g.isG2() ? "g2mul" : "g1mul", 42, 10);
        SnarkjsJsonCodec json = SnarkjsJsonCodec.of(g);
        WeierstrassCurve c = g.curve();
        PointArithmetic pa = c.arithmetic();
        GlvMultiplier glv = multiplier(g);
        int checked = 0;
        for (JsonNode cs : v.get("cases")) {
            long[] got = new long[c.jacobianWidth()];
            glv.mul(jac(pa, c.generator()), 0, new BigInteger(cs.get("k").asText()), got, 0);
            long[] want = ScalarMultiplierTest.decode(json, cs.get("point"));
            assertTrue(pa.equal(got, 0, jac(pa, want), 0), g + " k=" + cs.get("k"));
            checked++;
        }
        JsonNode base = v.get("base");
        long[] p = jac(pa, ScalarMultiplierTest.decode(json, base.get("P")));
        for (JsonNode cs : base.get("cases")) {
            long[] got = new long[c.jacobianWidth()];
            glv.mul(p, 0, glv.recode(new BigInteger(cs.get("k").asText())), got, 0);
            long[] want = ScalarMultiplierTest.decode(json, cs.get("point"));
            assertTrue(pa.equal(got, 0, jac(pa, want), 0), g + " k*P, k=" + cs.get("k"));
            checked++;
        }
        assertEquals(15, checked);
    }

    private static long[] jac(PointArithmetic pa, long[] affine) {
        long[] j = new long[pa.curve().jacobianWidth()];
        pa.fromAffine(affine, 0, j, 0);
        return j;
    }
}
