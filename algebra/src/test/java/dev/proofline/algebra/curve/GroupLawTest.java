package dev.proofline.algebra.curve;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Group-law identities on all four groups: generators on the curve, r*G = O, formulas agree. */
class GroupLawTest {

    static List<WeierstrassCurve> groups() {
        return List.of(Bn254.G1, Bn254.G2, Bls12381.G1, Bls12381.G2);
    }

    @ParameterizedTest
    @MethodSource("groups")
    void generatorIsOnTheCurveAndHasOrderR(WeierstrassCurve c) {
        PointArithmetic pa = c.arithmetic();
        long[] g = c.generator();
        assertTrue(pa.isOnCurveAffine(g, 0), "generator on curve");
        long[] r = new long[c.jacobianWidth()];
        pa.mulAffine(g, 0, c.order(), r, 0);
        assertTrue(pa.isInfinity(r, 0), "r * G = O");
        pa.mulAffine(g, 0, c.order().subtract(BigInteger.ONE), r, 0);
        assertFalse(pa.isInfinity(r, 0));
    }

    @ParameterizedTest
    @MethodSource("groups")
    void additionFormulasAgreeWithScalarMultiplication(WeierstrassCurve c) {
        PointArithmetic pa = c.arithmetic();
        Random rnd = new Random(7);
        int jw = c.jacobianWidth();
        int aw = c.affineWidth();
        for (int it = 0; it < 10; it++) {
            BigInteger a = new BigInteger(64, rnd);
            BigInteger b = new BigInteger(64, rnd);
            long[] pa_ = new long[jw], pb = new long[jw], sum = new long[jw], expect = new long[jw];
            pa.mulAffine(c.generator(), 0, a, pa_, 0);
            pa.mulAffine(c.generator(), 0, b, pb, 0);
            pa.add(pa_, 0, pb, 0, sum, 0);
            pa.mulAffine(c.generator(), 0, a.add(b), expect, 0);
            assertTrue(pa.equal(sum, 0, expect, 0), "add");
            assertTrue(pa.isOnCurve(sum, 0));
            long[] bAff = new long[aw];
            pa.toAffine(pb, 0, bAff, 0);
            assertTrue(pa.isOnCurveAffine(bAff, 0));
            pa.addMixed(pa_, 0, bAff, 0, sum, 0);
            assertTrue(pa.equal(sum, 0, expect, 0), "mixed add");
            // aliasing: result over the Jacobian input
            long[] alias = pa_.clone();
            pa.addMixed(alias, 0, bAff, 0, alias, 0);
            assertTrue(pa.equal(alias, 0, expect, 0), "mixed add in place");
            // p + p through add and addMixed equals dbl
            long[] d = new long[jw];
            pa.dbl(pb, 0, d, 0);
            pa.add(pb, 0, pb, 0, sum, 0);
            assertTrue(pa.equal(sum, 0, d, 0), "add(p, p) = dbl(p)");
            pa.addMixed(pb, 0, bAff, 0, sum, 0);
            assertTrue(pa.equal(sum, 0, d, 0), "addMixed(p, p) = dbl(p)");
            // p + (-p) = O
            long[] negAff = new long[aw];
            pa.negAffine(bAff, 0, negAff, 0);
            pa.addMixed(pb, 0, negAff, 0, sum, 0);
            assertTrue(pa.isInfinity(sum, 0), "p - p = O");
        }
    }
}
