package dev.proofline.algebra.msm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.ScalarMultiplier;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.RootsOfUnity;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Eight multiplications in lockstep against the plain windowed NAF (no endomorphism), on the four
 * groups: random and awkward scalars (0, 1, -1, lambda, roots of unity as a transform's twiddles),
 * partial groups, points at infinity among the lanes, and results written over their inputs.
 */
class LaneMultiplierTest {

    static PairingCurve curve(CurveGroup g) {
        return g.name().startsWith("BN254") ? PairingCurve.BN254 : PairingCurve.BLS12_381;
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void regularRecodingsGiveTheScalarBack(CurveGroup g) {
        GlvMultiplier glv = curve(g).multiplier(g.isG2());
        BigInteger r = g.curve().order();
        BigInteger lambda = lambda(glv, r);
        for (BigInteger k : scalars(g, new Random(3))) {
            GlvMultiplier.Regular s = glv.recodeRegular(k);
            assertEquals(glv.regularWindows(), s.digits1().length);
            assertEquals(glv.regularWindows(), s.digits2().length);
            BigInteger k1 = value(s.digits1(), s.negative1());
            BigInteger k2 = value(s.digits2(), s.negative2());
            assertEquals(k.mod(r), k1.add(k2.multiply(lambda)).mod(r), g + " k=" + k);
            for (byte[] digits : new byte[][] {s.digits1(), s.digits2()}) {
                for (byte d : digits) {
                    assertTrue((d & 1) == 1 && Math.abs(d) < 1 << GlvMultiplier.REGULAR_WINDOW, "digit " + d);
                }
                assertTrue(digits[digits.length - 1] > 0);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void eightAtOnceAgreeWithTheWindowedNaf(CurveGroup g) {
        WeierstrassCurve c = g.curve();
        PointArithmetic pa = c.arithmetic();
        ScalarMultiplier sm = new ScalarMultiplier(pa);
        GlvMultiplier glv = curve(g).multiplier(g.isG2());
        LaneMultiplier lanes = LaneMultiplier.of(glv, true);
        assertNotNull(lanes, "the 8-lane kernels apply on this machine, as surefire runs the tests");
        int jw = c.jacobianWidth();
        Random rnd = new Random(11);
        List<BigInteger> ks = scalars(g, rnd);
        int[][] shapes = {{8, -1}, {8, 3}, {5, -1}, {1, -1}, {3, 0}, {8, 7}};   // lanes, a lane at infinity
        int done = 0;
        for (int round = 0; round < 4; round++) {
            for (int[] shape : shapes) {
                int count = shape[0];
                long[] points = new long[count * jw];
                int[] offsets = new int[count];
                GlvMultiplier.Regular[] k = new GlvMultiplier.Regular[count];
                BigInteger[] plain = new BigInteger[count];
                for (int l = 0; l < count; l++) {
                    offsets[l] = l * jw;
                    if (l == shape[1]) {
                        pa.setInfinity(points, l * jw);
                    } else {
                        sm.mulAffine(c.generator(), 0, new BigInteger(64, rnd).add(BigInteger.TWO), points, l * jw);
                    }
                    plain[l] = ks.get(done++ % ks.size());
                    k[l] = glv.recodeRegular(plain[l]);
                }
                long[] want = new long[count * jw];
                for (int l = 0; l < count; l++) {
                    sm.mul(points, l * jw, plain[l], want, l * jw);
                }
                long[] got = new long[count * jw];
                lanes.mul(points, offsets, k, count, got, offsets);
                lanes.mul(points, offsets, k, count, points, offsets);   // in place
                for (int l = 0; l < count; l++) {
                    assertTrue(pa.equal(got, l * jw, want, l * jw), g + " lane " + l + " k=" + plain[l]);
                    assertTrue(pa.equal(points, l * jw, want, l * jw), g + " in place, lane " + l);
                }
            }
        }
        assertTrue(done >= ks.size(), "every scalar was tried");
        // random scalars on points not at infinity run in the lanes, none in the scalar code
        long before = lanes.fallbacks;
        long[] points = new long[8 * jw];
        int[] offsets = new int[8];
        GlvMultiplier.Regular[] k = new GlvMultiplier.Regular[8];
        long[] want = new long[8 * jw];
        for (int l = 0; l < 8; l++) {
            offsets[l] = l * jw;
            sm.mulAffine(c.generator(), 0, new BigInteger(64, rnd).add(BigInteger.TWO), points, l * jw);
            BigInteger s = new BigInteger(c.order().bitLength(), rnd);
            k[l] = glv.recodeRegular(s);
            sm.mul(points, l * jw, s, want, l * jw);
        }
        lanes.mul(points, offsets, k, 8, points, offsets);
        for (int l = 0; l < 8; l++) {
            assertTrue(pa.equal(points, l * jw, want, l * jw), g + " random, lane " + l);
        }
        assertEquals(before, lanes.fallbacks, "random scalars went to the scalar code");
        assertTrue(before > 0, "the lanes at infinity went to the scalar code");
    }

    /** The eigenvalue of the multiplier's phi (as many applications as it makes). */
    private static BigInteger lambda(GlvMultiplier glv, BigInteger r) {
        BigInteger k = BigInteger.valueOf(123456789);
        BigInteger[] parts = glv.decompose(k.shiftLeft(100));
        return k.shiftLeft(100).subtract(parts[0]).multiply(parts[1].modInverse(r)).mod(r);
    }

    private static BigInteger value(byte[] digits, boolean negative) {
        BigInteger v = BigInteger.ZERO;
        for (int i = digits.length - 1; i >= 0; i--) {
            v = v.shiftLeft(GlvMultiplier.REGULAR_WINDOW).add(BigInteger.valueOf(digits[i]));
        }
        return negative ? v.negate() : v;
    }

    static List<BigInteger> scalars(CurveGroup g, Random rnd) {
        BigInteger r = g.curve().order();
        PairingCurve pc = curve(g);
        GlvMultiplier glv = pc.multiplier(g.isG2());
        List<BigInteger> ks = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO,
                BigInteger.valueOf(15), BigInteger.valueOf(16), r.subtract(BigInteger.ONE),
                r.subtract(BigInteger.TWO), lambda(glv, r), r.subtract(lambda(glv, r)), r.shiftRight(1)));
        PrimeField fr = pc.fr();
        long[] w = RootsOfUnity.primitive(fr, 12);
        long[] t = fr.one();
        for (int i = 0; i < 12; i++) {
            ks.add(fr.toBigInteger(t, 0));
            fr.mul(t, 0, w, 0, t, 0);
            fr.mul(t, 0, t, 0, t, 0);
        }
        for (int i = 0; i < 30; i++) {
            ks.add(new BigInteger(r.bitLength() + 4, rnd));
        }
        return ks;
    }
}
