package dev.proofline.algebra.msm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.SubgroupCheck;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.testing.TestPoints;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Subgroup checks eight at a time against r P == O: points of the subgroup pass in the lanes; points
 * outside it (hashed to the curve, of the cofactor's order, a subgroup point plus such a part, negated)
 * never pass there, in every position of a group of eight and in partial groups.
 */
class LaneSubgroupCheckTest {

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void passingLanesAreExactlyThePointsOfTheSubgroup(CurveGroup g) {
        WeierstrassCurve c = g.curve();
        SubgroupCheck check = g.subgroupCheck();
        LaneSubgroupCheck lanes = LaneSubgroupCheck.of(check, true);
        if (c.cofactor().equals(BigInteger.ONE)) {
            assertNull(lanes, g + ": every point on the curve is in the subgroup, nothing to check");
            return;
        }
        assertNotNull(lanes, "the 8-lane kernels apply on this machine, as surefire runs the tests");
        PointArithmetic pa = c.arithmetic();
        int aw = c.affineWidth();
        List<long[]> points = new ArrayList<>();
        List<Boolean> inside = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            long[] q = TestPoints.hashToCurvePoint(c, "lanes-" + i);
            long[] kg = TestPoints.multipleOfGenerator(c, TestPoints.hash("lanes-k" + i).mod(c.order()));
            long[] rq = TestPoints.multiple(c, q, c.order());               // of the cofactor's order
            long[] hq = TestPoints.multiple(c, q, c.cofactor());            // cleared: in the subgroup
            long[] mixed = sum(pa, kg, rq);
            long[] negQ = new long[aw];
            pa.negAffine(q, 0, negQ, 0);
            for (long[] pt : List.of(q, kg, rq, hq, mixed, negQ)) {
                if (pa.isInfinityAffine(pt, 0)) {
                    continue;
                }
                points.add(pt);
                inside.add(pa.isInfinity(ref(pa, pt, c.order()), 0));
            }
        }
        int subgroup = 0;
        for (int start = 0; start < points.size(); start += 5) {     // groups of 8 and partial ones, shifting
            int count = Math.min(8, points.size() - start);
            long[] flat = new long[count * aw];
            int[] offsets = new int[count];
            long want = 0;
            for (int l = 0; l < count; l++) {
                System.arraycopy(points.get(start + l), 0, flat, l * aw, aw);
                offsets[l] = l * aw;
                if (inside.get(start + l)) {
                    want |= 1L << l;
                    subgroup++;
                }
            }
            assertEquals(Long.toBinaryString(want), Long.toBinaryString(lanes.passing(flat, offsets, count)),
                    g + ": lanes from point " + start);
        }
        assertEquals(true, subgroup > 8, "points of the subgroup were among them");
    }

    private static long[] sum(PointArithmetic pa, long[] a, long[] b) {
        int jw = pa.curve().jacobianWidth();
        long[] ja = new long[jw];
        long[] jb = new long[jw];
        pa.fromAffine(a, 0, ja, 0);
        pa.fromAffine(b, 0, jb, 0);
        pa.add(ja, 0, jb, 0, ja, 0);
        long[] r = new long[pa.curve().affineWidth()];
        pa.toAffine(ja, 0, r, 0);
        return r;
    }

    private static long[] ref(PointArithmetic pa, long[] affine, BigInteger k) {
        int jw = pa.curve().jacobianWidth();
        long[] acc = new long[jw];
        long[] p = new long[jw];
        pa.setInfinity(acc, 0);
        pa.fromAffine(affine, 0, p, 0);
        for (int i = k.bitLength() - 1; i >= 0; i--) {
            pa.dbl(acc, 0, acc, 0);
            if (k.testBit(i)) {
                pa.add(acc, 0, p, 0, acc, 0);
            }
        }
        return acc;
    }
}
