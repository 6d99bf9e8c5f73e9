package dev.proofline.algebra.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bls12381.Bls12381Subgroups;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.bn254.Bn254G2SubgroupCheck;
import dev.proofline.algebra.bn254.Bn254Subgroups;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.testing.TestPoints;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The per-curve subgroup checks against the definition r P == O (computed by PointArithmetic's
 * double-and-add), on points in the subgroup, points hashed onto the curve (outside it), points of
 * cofactor order and mixtures.
 */
class SubgroupCheckTest {

    private static final BigInteger THREE = BigInteger.valueOf(3);

    @Test
    void eigenvaluesAreThoseOfTheFrobeniusAndTheCubeRoot() {
        // BN254: p - r = 6u^2, so psi (which acts as [p] on G2) acts as [6u^2]
        BigInteger p = Bn254.FP.modulus(), r = Bn254.FR.modulus();
        assertEquals(p.subtract(r), Bn254Subgroups.PSI_EIGENVALUE);
        // ... and the G2 check's relation [u + 1] + l [u] + l^2 [u] - l^3 [2u] vanishes for l = 6u^2
        BigInteger u = Bn254.U, l6 = Bn254Subgroups.PSI_EIGENVALUE;
        assertEquals(BigInteger.ZERO, u.add(BigInteger.ONE).add(l6.multiply(u)).add(l6.pow(2).multiply(u))
                .subtract(l6.pow(3).multiply(u).shiftLeft(1)).mod(r));
        // BLS12-381: p = x mod r; -x^2 is a root of l^2 + l + 1 mod r (a non-trivial cube root of 1)
        BigInteger bp = Bls12381.FP.modulus(), br = Bls12381.FR.modulus();
        assertEquals(bp.mod(br), Bls12381Subgroups.PSI_EIGENVALUE.mod(br));
        BigInteger l = Bls12381Subgroups.SIGMA_EIGENVALUE;
        assertEquals(BigInteger.ZERO, l.multiply(l).add(l).add(BigInteger.ONE).mod(br));
        BigInteger beta = Bls12381Subgroups.beta();
        assertNotEquals(BigInteger.ONE, beta);
        assertEquals(BigInteger.ONE, beta.modPow(THREE, bp));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void endomorphismActsOnTheGeneratorAsItsEigenvalue(CurveGroup g) {
        SubgroupCheck check = g == CurveGroup.BN254_G2 ? Bn254Subgroups.psi() : g.subgroupCheck();
        if (!(check instanceof EndomorphismSubgroupCheck e)) {
            assertEquals(BigInteger.ONE, g.curve().cofactor());
            return;
        }
        PointArithmetic pa = e.arithmetic();
        long[] gj = new long[g.curve().jacobianWidth()];
        pa.fromAffine(g.curve().generator(), 0, gj, 0);
        long[] phi = new long[g.curve().jacobianWidth()];
        e.endomorphism(gj, 0, phi, 0);
        assertTrue(pa.isOnCurve(phi, 0), "phi maps the curve to itself");
        long[] want = new long[g.curve().jacobianWidth()];
        pa.mul(gj, 0, e.lambda().mod(g.curve().order()), want, 0);
        assertTrue(pa.equal(phi, 0, want, 0), "phi(G) = [lambda] G");
        // off the subgroup phi still maps into the curve
        long[] q = TestPoints.hashToCurvePoint(g.curve(), "phi-" + g);
        pa.fromAffine(q, 0, gj, 0);
        e.endomorphism(gj, 0, phi, 0);
        assertTrue(pa.isOnCurve(phi, 0));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void multiplesOfTheGeneratorAndInfinityAreInTheSubgroup(CurveGroup g) {
        SubgroupCheck check = g.subgroupCheck();
        for (String seed : List.of("a", "b", "c", "d")) {
            long[] p = TestPoints.multipleOfGenerator(g.curve(), TestPoints.hash(seed).mod(g.curve().order()));
            assertTrue(check.isInSubgroupAffine(p, 0), g + " " + seed);
        }
        assertTrue(check.isInSubgroupAffine(new long[g.curve().affineWidth()], 0), "infinity");
        assertTrue(SubgroupCheck.byOrder(g.curve()).isInSubgroupAffine(g.curve().generator(), 0));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void hashedCurvePointsAreOutsideTheSubgroupUnlessTheCofactorIsOne(CurveGroup g) {
        WeierstrassCurve c = g.curve();
        SubgroupCheck check = g.subgroupCheck();
        SubgroupCheck byOrder = SubgroupCheck.byOrder(c);
        PointArithmetic pa = c.arithmetic();
        for (int i = 0; i < 4; i++) {
            long[] q = TestPoints.hashToCurvePoint(c, "outside-" + i);
            assertTrue(pa.isOnCurveAffine(q, 0));
            boolean rqIsZero = pa.isInfinity(mulRef(pa, q, c.order()), 0);
            if (c.cofactor().equals(BigInteger.ONE)) {
                assertTrue(rqIsZero, "cofactor 1: every point has order r");
                assertTrue(check.isInSubgroupAffine(q, 0));
            } else {
                assertFalse(rqIsZero, "r Q != O");
                assertFalse(check.isInSubgroupAffine(q, 0), g + " fast check rejects Q");
                assertFalse(byOrder.isInSubgroupAffine(q, 0), g + " order check rejects Q");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void fastCheckAgreesWithROnMixturesAndCofactorOrderPoints(CurveGroup g) {
        WeierstrassCurve c = g.curve();
        SubgroupCheck check = g.subgroupCheck();
        PointArithmetic pa = c.arithmetic();
        int jw = c.jacobianWidth();
        List<long[]> cases = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long[] q = jac(pa, TestPoints.hashToCurvePoint(c, "mix-" + i));
            long[] kg = jac(pa, TestPoints.multipleOfGenerator(c, TestPoints.hash("k" + i).mod(c.order())));
            long[] rq = mulRef(pa, toAff(pa, q), c.order());           // order divides h: pure cofactor part
            long[] mixed = new long[jw];
            pa.add(kg, 0, rq, 0, mixed, 0);                             // subgroup point + cofactor part
            long[] negQ = new long[jw];
            pa.neg(q, 0, negQ, 0);
            long[] hq = mulRef(pa, toAff(pa, q), c.cofactor());         // cleared: in the subgroup
            cases.addAll(List.of(q, kg, rq, mixed, negQ, hq));
        }
        for (long[] p : cases) {
            boolean want = pa.isInfinity(mulRef(pa, toAff(pa, p), c.order()), 0);
            assertEquals(want, check.isInSubgroup(p, 0), g + ": fast check == (r P == O)");
            assertEquals(want, check.isInSubgroupAffine(toAff(pa, p), 0), g + ": from affine == (r P == O)");
            assertEquals(want, check.hasOrderDividingR(p, 0), g + ": wNAF r P agrees with double-and-add");
        }
    }

    @Test
    void bn254G2RelationAgreesWithPsiAndWithROnPointsInAndOutOfG2() {
        WeierstrassCurve c = Bn254.G2;
        PointArithmetic pa = c.arithmetic();
        SubgroupCheck relation = CurveGroup.BN254_G2.subgroupCheck();
        SubgroupCheck psi = Bn254Subgroups.psi();
        assertTrue(relation instanceof Bn254G2SubgroupCheck);
        int in = 0;
        for (int i = 0; i < 12; i++) {
            long[] q = TestPoints.hashToCurvePoint(c, "relation-" + i);   // before cofactor clearing
            long[] hq = new long[c.jacobianWidth()];
            relation.clearCofactorAffine(q, 0, hq, 0);
            for (long[] p : List.of(q, toAff(pa, hq))) {
                boolean want = pa.isInfinity(mulRef(pa, p, c.order()), 0);
                in += want ? 1 : 0;
                assertEquals(want, relation.isInSubgroupAffine(p, 0), "relation, affine");
                assertEquals(want, relation.isInSubgroup(jac(pa, p), 0), "relation, Jacobian");
                assertEquals(want, psi.isInSubgroupAffine(p, 0), "psi, affine");
                assertEquals(want, psi.isInSubgroup(jac(pa, p), 0), "psi, Jacobian");
            }
        }
        assertEquals(12, in, "the cleared points are in G2, the hashed ones are not");
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void clearingTheCofactorGivesSubgroupPoints(CurveGroup g) {
        WeierstrassCurve c = g.curve();
        SubgroupCheck check = g.subgroupCheck();
        PointArithmetic pa = c.arithmetic();
        for (int i = 0; i < 2; i++) {
            long[] q = TestPoints.hashToCurvePoint(c, "clear-" + i);
            long[] hq = new long[c.jacobianWidth()];
            check.clearCofactorAffine(q, 0, hq, 0);
            assertTrue(pa.isOnCurve(hq, 0));
            assertFalse(pa.isInfinity(hq, 0));
            assertTrue(pa.equal(hq, 0, mulRef(pa, q, c.cofactor()), 0), "[h] Q");
            assertTrue(pa.isInfinity(mulRef(pa, toAff(pa, hq), c.order()), 0), "r [h] Q = O");
            assertTrue(check.isInSubgroup(hq, 0));
        }
    }

    /** k P by PointArithmetic's double-and-add, the reference. */
    private static long[] mulRef(PointArithmetic pa, long[] affine, BigInteger k) {
        long[] r = new long[pa.curve().jacobianWidth()];
        pa.mulAffine(affine, 0, k, r, 0);
        return r;
    }

    private static long[] jac(PointArithmetic pa, long[] affine) {
        long[] j = new long[pa.curve().jacobianWidth()];
        pa.fromAffine(affine, 0, j, 0);
        return j;
    }

    private static long[] toAff(PointArithmetic pa, long[] jac) {
        long[] a = new long[pa.curve().affineWidth()];
        pa.toAffine(jac, 0, a, 0);
        return a;
    }
}
