package dev.proofline.algebra.msm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.ScalarMultiplier;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Batches of affine multiplications in lockstep against the plain windowed NAF (no endomorphism), on
 * the four groups: full and partial batches and groups, the awkward scalars of {@link LaneMultiplierTest}
 * (0, 1, 2, -1, lambda, roots of unity), points at infinity and repeated points among the lanes, results
 * beside and over their inputs; each point its own scalar, and one scalar for the batch.
 */
class AffineLaneMultiplierTest {

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void batchesAgreeWithTheWindowedNaf(CurveGroup g) {
        WeierstrassCurve c = g.curve();
        PointArithmetic pa = c.arithmetic();
        ScalarMultiplier sm = new ScalarMultiplier(pa);
        GlvMultiplier glv = LaneMultiplierTest.curve(g).multiplier(g.isG2());
        AffineLaneMultiplier batch = AffineLaneMultiplier.of(glv, true);
        assertNotNull(batch, "the 8-lane kernels apply on this machine, as surefire runs the tests");
        int jw = c.jacobianWidth();
        Random rnd = new Random(5);
        List<BigInteger> ks = LaneMultiplierTest.scalars(g, rnd);
        // points in the call, one at infinity (-1: none), one the same point as the one before (-1: none)
        int[][] shapes = {{batch.capacity(), 17, 40}, {batch.capacity() - 3, -1, -1},
            {9, 0, -1}, {1, -1, -1}, {1, 0, -1}, {70, 69, 5}};
        int done = 0;
        for (int[] shape : shapes) {
            int count = shape[0];
            long[] points = new long[count * jw];
            int[] offsets = new int[count];
            GlvMultiplier.Regular[] k = new GlvMultiplier.Regular[count];
            BigInteger[] plain = new BigInteger[count];
            for (int i = 0; i < count; i++) {
                offsets[i] = i * jw;
                if (i == shape[1]) {
                    pa.setInfinity(points, i * jw);
                } else if (i == shape[2]) {
                    System.arraycopy(points, (i - 1) * jw, points, i * jw, jw);
                } else {
                    sm.mulAffine(c.generator(), 0, new BigInteger(64, rnd).add(BigInteger.TWO), points, i * jw);
                }
                plain[i] = ks.get(done++ % ks.size());
                k[i] = glv.recodeRegular(plain[i]);
            }
            long[] want = new long[count * jw];
            for (int i = 0; i < count; i++) {
                sm.mul(points, i * jw, plain[i], want, i * jw);
            }
            long[] got = new long[count * jw];
            batch.mul(points, offsets, k, count, got, offsets);
            batch.mul(points, offsets, k, count, points, offsets);   // in place
            for (int i = 0; i < count; i++) {
                assertTrue(pa.equal(got, i * jw, want, i * jw), g + " point " + i + " of " + count + " k=" + plain[i]);
                assertTrue(pa.equal(points, i * jw, want, i * jw), g + " in place, point " + i + " of " + count);
            }
        }
        assertTrue(done >= ks.size(), "every scalar was tried");
        assertTrue(batch.fallbacks > 0, "the points at infinity went to the scalar code");
        assertTrue(batch.zeroDenominators > 0, "some scalars met equal or opposite points in an addition");
        // random scalars on points not at infinity run in the lanes, none in the scalar code
        long before = batch.fallbacks;
        int count = batch.capacity();
        long[] points = new long[count * jw];
        int[] offsets = new int[count];
        GlvMultiplier.Regular[] k = new GlvMultiplier.Regular[count];
        long[] want = new long[count * jw];
        for (int i = 0; i < count; i++) {
            offsets[i] = i * jw;
            sm.mulAffine(c.generator(), 0, new BigInteger(64, rnd).add(BigInteger.TWO), points, i * jw);
            BigInteger s = new BigInteger(c.order().bitLength(), rnd);
            k[i] = glv.recodeRegular(s);
            sm.mul(points, i * jw, s, want, i * jw);
        }
        batch.mul(points, offsets, k, count, points, offsets);
        for (int i = 0; i < count; i++) {
            assertTrue(pa.equal(points, i * jw, want, i * jw), g + " random, point " + i);
        }
        assertEquals(before, batch.fallbacks, "random scalars went to the scalar code");

        // one scalar for the batch, its digits shared by the lanes
        int[] counts = {batch.capacity(), 13, 1};
        int round = 0;
        for (BigInteger s : ks) {
            count = counts[round++ % counts.length];
            points = new long[count * jw];
            offsets = new int[count];
            for (int i = 0; i < count; i++) {
                offsets[i] = i * jw;
                if (i == 3) {
                    pa.setInfinity(points, i * jw);
                } else {
                    sm.mulAffine(c.generator(), 0, new BigInteger(64, rnd).add(BigInteger.TWO), points, i * jw);
                }
            }
            want = new long[count * jw];
            for (int i = 0; i < count; i++) {
                sm.mul(points, i * jw, s, want, i * jw);
            }
            batch.mulSame(points, offsets, glv.recode(s), s, count, points, offsets);
            for (int i = 0; i < count; i++) {
                assertTrue(pa.equal(points, i * jw, want, i * jw), g + " point " + i + " of " + count + " k=" + s);
            }
        }
    }
}
