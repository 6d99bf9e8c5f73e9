package dev.proofline.algebra.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.encoding.SnarkjsJsonCodec;
import dev.proofline.algebra.testing.Ffjs;
import dev.proofline.algebra.testing.TestPoints;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.BigRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The windowed-NAF multiplication against double-and-add and against ffjavascript's timesScalar. */
class ScalarMultiplierTest {

    @Property(tries = 500)
    void wnafDigitsAreOddBoundedSpacedAndSumToTheScalar(
            @ForAll @BigRange(min = "0", max = "4000000000000000000000000000000000000000000000000000000000000000000000000000000000") BigInteger k,
            @ForAll @IntRange(min = 2, max = 8) int w) {
        int[] naf = ScalarMultiplier.wnaf(k, w);
        BigInteger sum = BigInteger.ZERO;
        int lastNonZero = -w;
        for (int i = 0; i < naf.length; i++) {
            int d = naf[i];
            if (d != 0) {
                assertTrue((d & 1) == 1 || (d & 1) == -1, "digit odd");
                assertTrue(Math.abs(d) < (1 << (w - 1)), "digit below 2^(w-1)");
                assertTrue(i - lastNonZero >= w, "at least w-1 zeros between digits");
                lastNonZero = i;
            }
            sum = sum.add(BigInteger.valueOf(d).shiftLeft(i));
        }
        assertEquals(k, sum);
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void agreesWithDoubleAndAdd(CurveGroup g) {
        WeierstrassCurve c = g.curve();
        PointArithmetic pa = c.arithmetic();
        ScalarMultiplier sm = new ScalarMultiplier(pa);
        BigInteger r = c.order();
        List<BigInteger> ks = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO,
                BigInteger.valueOf(3), BigInteger.valueOf(7), BigInteger.valueOf(8), BigInteger.valueOf(15),
                BigInteger.valueOf(16), BigInteger.valueOf(17), BigInteger.valueOf(31), BigInteger.valueOf(33),
                r.subtract(BigInteger.ONE), r, r.add(BigInteger.ONE), BigInteger.ONE.shiftLeft(255).subtract(BigInteger.ONE),
                c.cofactor()));
        Random rnd = new Random(11);
        for (int i = 0; i < 6; i++) {
            ks.add(new BigInteger(64 + 40 * i, rnd));
        }
        // a point outside the subgroup too, so that reduction mod r cannot hide mistakes
        long[] q = TestPoints.hashToCurvePoint(c, "wnaf-" + g);
        for (long[] base : List.of(c.generator(), q)) {
            for (BigInteger k : ks) {
                long[] got = new long[c.jacobianWidth()];
                long[] want = new long[c.jacobianWidth()];
                sm.mulAffine(base, 0, k, got, 0);
                pa.mulAffine(base, 0, k, want, 0);
                assertTrue(pa.equal(got, 0, want, 0), g + " k=" + k);
                // negative scalars multiply -P
                sm.mulAffine(base, 0, k.negate(), got, 0);
                pa.neg(want, 0, want, 0);
                assertTrue(pa.equal(got, 0, want, 0), g + " k=-" + k);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void recodedScalarsAgreeWithDoubleAndAddFromAffineAndJacobianPoints(CurveGroup g) {
        WeierstrassCurve c = g.curve();
        PointArithmetic pa = c.arithmetic();
        ScalarMultiplier sm = new ScalarMultiplier(pa);
        // sparse (BLS12-381's x, w = 2 with mixed additions), dense (wider windows) and small scalars
        List<BigInteger> ks = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO,
                BigInteger.valueOf(3), BigInteger.valueOf(-5), new BigInteger("-d201000000010000", 16),
                new BigInteger("4965661367192848881"), c.order().subtract(BigInteger.ONE), c.cofactor()));
        Random rnd = new Random(12);
        for (int i = 0; i < 4; i++) {
            ks.add(new BigInteger(64 + 64 * i, rnd));
        }
        long[] q = TestPoints.hashToCurvePoint(c, "recoded-" + g);
        for (long[] base : List.of(c.generator(), q, new long[c.affineWidth()])) {
            long[] jac = new long[c.jacobianWidth()];
            pa.fromAffine(base, 0, jac, 0);
            for (BigInteger k : ks) {
                RecodedScalar rk = RecodedScalar.of(k);
                long[] want = new long[c.jacobianWidth()];
                pa.mulAffine(base, 0, k.abs(), want, 0);
                if (k.signum() < 0) {
                    pa.neg(want, 0, want, 0);
                }
                long[] got = new long[c.jacobianWidth()];
                sm.mulAffine(base, 0, rk, got, 0);
                assertTrue(pa.equal(got, 0, want, 0), g + " affine, w=" + rk.window() + ", k=" + k);
                sm.mul(jac, 0, rk, got, 0);
                assertTrue(pa.equal(got, 0, want, 0), g + " Jacobian, w=" + rk.window() + ", k=" + k);
            }
        }
    }

    @Test
    void sparseScalarsTakeThePlainNafAndDenseOnesAWindow() {
        assertEquals(2, RecodedScalar.of(new BigInteger("-d201000000010000", 16)).window());
        assertTrue(RecodedScalar.of(new BigInteger(254, new Random(3))).window() > 2);
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void agreesWithFfjavascriptTimesScalar(CurveGroup g) {
        String curve = g.name().startsWith("BN254") ? "bn128" : "bls12381";
        JsonNode v = Ffjs.vectors(curve, g.isG2() ? "g2mul" : "g1mul", 42, 10);
        SnarkjsJsonCodec json = SnarkjsJsonCodec.of(g);
        WeierstrassCurve c = g.curve();
        PointArithmetic pa = c.arithmetic();
        ScalarMultiplier sm = new ScalarMultiplier(pa);
        long[] gen = decode(json, v.get("generator"));
        assertTrue(pa.equal(jac(pa, gen), 0, jac(pa, c.generator()), 0), "ffjavascript's generator is ours");
        int checked = 0;
        for (JsonNode cs : v.get("cases")) {
            long[] got = new long[c.jacobianWidth()];
            sm.mulAffine(c.generator(), 0, new BigInteger(cs.get("k").asText()), got, 0);
            assertTrue(pa.equal(got, 0, jac(pa, decode(json, cs.get("point"))), 0), g + " k=" + cs.get("k"));
            checked++;
        }
        JsonNode base = v.get("base");
        long[] p = decode(json, base.get("P"));
        for (JsonNode cs : base.get("cases")) {
            long[] got = new long[c.jacobianWidth()];
            sm.mulAffine(p, 0, new BigInteger(cs.get("k").asText()), got, 0);
            assertTrue(pa.equal(got, 0, jac(pa, decode(json, cs.get("point"))), 0), g + " k*P, k=" + cs.get("k"));
            checked++;
        }
        assertEquals(15, checked);
    }

    private static long[] jac(PointArithmetic pa, long[] affine) {
        long[] j = new long[pa.curve().jacobianWidth()];
        pa.fromAffine(affine, 0, j, 0);
        return j;
    }

    /** vectors.cjs's {"x", "y"} (or null) rewritten in snarkjs's JSON point form and decoded by the codec. */
    static long[] decode(SnarkjsJsonCodec json, JsonNode point) {
        boolean g2 = json.group().isG2();
        if (g2) {
            List<List<String>> xyz = point == null || point.isNull()
                    ? List.of(List.of("0", "0"), List.of("1", "0"), List.of("0", "0"))
                    : List.of(pair(point.get("x")), pair(point.get("y")), List.of("1", "0"));
            return json.decodeG2(xyz);
        }
        List<String> xyz = point == null || point.isNull()
                ? List.of("0", "1", "0")
                : List.of(point.get("x").asText(), point.get("y").asText(), "1");
        return json.decodeG1(xyz);
    }

    private static List<String> pair(JsonNode n) {
        return List.of(n.get(0).asText(), n.get(1).asText());
    }
}
