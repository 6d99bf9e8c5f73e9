package dev.proofline.algebra.msm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Field;
import java.math.BigInteger;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The 8-lane batch-affine additions against the scalar code, word for word: single batches with the
 * awkward cases (doublings, cancellations, partial groups), and whole MSMs of 1 to 2^14 points on both
 * curves (9 limbs of 29 bits for BN254's Fp, 14 for BLS12-381's), on G1 and on G2 (Fp2).
 */
class VectorBatchAffineTest {

    static final Function<Field, BatchAdder> EAGER = f -> BatchAdder.of(f, true);
    static final Function<Field, BatchAdder> SCALAR = f -> null;

    @Test
    void theKernelIsThereForG1() {
        // surefire adds the module and this machine has 512-bit vectors: the tests below use the kernel
        assertTrue(BatchAdder.of(Bn254.G1.arithmetic().field(), true) instanceof VectorBatchAffine4);
        assertTrue(BatchAdder.of(Bls12381.G1.arithmetic().field(), true) instanceof VectorBatchAffine6);
        assertTrue(BatchAdder.of(Bn254.G2.arithmetic().field(), true) instanceof VectorBatchAffine2);
        assertTrue(BatchAdder.of(Bls12381.G2.arithmetic().field(), true) instanceof VectorBatchAffine2);
    }

    /**
     * Creating the kernel, as every MSM does, does not start its warm-up (a one-off proof would pay
     * for it); 2^24 additions done by the scalar code in its place do. BLS12-381's Fp: nothing else in
     * these tests warms the 6-word kernel or comes near that many additions.
     */
    @Test
    void theWarmUpStartsOnlyAfterEnoughScalarWork() {
        Field f = Bls12381.G1.arithmetic().field();
        BatchAdder a = BatchAdder.of(f, false);
        assertFalse(VectorWarmUp.started(6));
        a.scalarWork(1024);
        assertFalse(VectorWarmUp.started(6));
        a.scalarWork((int) VectorWarmUp.WARM_UP_AFTER);
        assertTrue(VectorWarmUp.started(6));
    }

    @Test
    void noKernelWithTheVectorPropertyOff() {
        String old = System.getProperty("proofline.vector");
        System.setProperty("proofline.vector", "false");
        try {
            assertNull(BatchAdder.of(Bn254.G1.arithmetic().field(), true));
        } finally {
            if (old == null) {
                System.clearProperty("proofline.vector");
            } else {
                System.setProperty("proofline.vector", old);
            }
        }
    }

    /** Random points k G; some destinations get their own point (doubling) or its negation (cancelling). */
    @ParameterizedTest
    @ValueSource(ints = {1, 7, 8, 9, 15, 16, 17, 64, 100, 1023, 1024})
    void aBatchEqualsTheScalarCodeOnBn254(int m) {
        aBatchEqualsTheScalarCode(Bn254.G1, m);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8, 9, 17, 100, 1024})
    void aBatchEqualsTheScalarCodeOnBls12381(int m) {
        aBatchEqualsTheScalarCode(Bls12381.G1, m);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 8, 9, 17, 100, 1024})
    void aBatchEqualsTheScalarCodeOnBn254G2(int m) {
        aBatchEqualsTheScalarCode(Bn254.G2, m);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 9, 100, 1024})
    void aBatchEqualsTheScalarCodeOnBls12381G2(int m) {
        aBatchEqualsTheScalarCode(Bls12381.G2, m);
    }

    static void aBatchEqualsTheScalarCode(WeierstrassCurve curve, int m) {
        PointArithmetic pa = curve.arithmetic();
        Field f = pa.field();
        int aw = curve.affineWidth();
        Random rnd = new Random(m);
        long[] dst = new long[m * aw];
        long[] src = new long[m * aw];
        long[] jac = new long[curve.jacobianWidth()];
        int[] eDst = new int[m];
        int[] eSrc = new int[m];
        boolean[] eNeg = new boolean[m];
        for (int j = 0; j < m; j++) {
            pa.mulAffine(curve.generator(), 0, new BigInteger(200, rnd), jac, 0);
            pa.toAffine(jac, 0, dst, j * aw);
            int kind = rnd.nextInt(8);
            eNeg[j] = rnd.nextBoolean();
            if (kind == 0) {
                // S = D (or -S = D when negated): a doubling
                if (eNeg[j]) {
                    pa.negAffine(dst, j * aw, src, j * aw);
                } else {
                    System.arraycopy(dst, j * aw, src, j * aw, aw);
                }
            } else if (kind == 1) {
                // S = -D (or S = D negated): a cancellation
                if (eNeg[j]) {
                    System.arraycopy(dst, j * aw, src, j * aw, aw);
                } else {
                    pa.negAffine(dst, j * aw, src, j * aw);
                }
            } else {
                pa.mulAffine(curve.generator(), 0, new BigInteger(200, rnd), jac, 0);
                pa.toAffine(jac, 0, src, j * aw);
            }
            eDst[j] = (j * 7 + 3) % m;  // a permutation when m is not a multiple of 7
            if (m % 7 == 0) {
                eDst[j] = m - 1 - j;
            }
            eSrc[j] = j * aw;
        }
        long[] dstScalar = dst.clone();
        boolean[] setScalar = new boolean[m];
        java.util.Arrays.fill(setScalar, true);
        boolean[] setVector = setScalar.clone();
        long[] dstVector = dst.clone();
        // the scalar code: one point at a time, as the scalar batch does it
        for (int j = 0; j < m; j++) {
            long[] s = java.util.Arrays.copyOfRange(src, eSrc[j], eSrc[j] + aw);
            if (eNeg[j]) {
                pa.negAffine(s, 0, s, 0);
            }
            long[] r = new long[curve.jacobianWidth()];
            pa.fromAffine(dstScalar, eDst[j] * aw, r, 0);
            pa.addMixed(r, 0, s, 0, r, 0);
            if (pa.isInfinity(r, 0)) {
                setScalar[eDst[j]] = false;
            } else {
                pa.toAffine(r, 0, dstScalar, eDst[j] * aw);
            }
        }
        BatchAdder v = BatchAdder.of(f, true);
        v.completeBatch(dstVector, setVector, src, eDst, eSrc, eNeg, m, aw);
        assertArrayEquals(setScalar, setVector);
        for (int b = 0; b < m; b++) {
            if (setScalar[b]) {
                assertArrayEquals(java.util.Arrays.copyOfRange(dstScalar, b * aw, b * aw + aw),
                        java.util.Arrays.copyOfRange(dstVector, b * aw, b * aw + aw), "bucket " + b);
            }
        }
    }

    static void sameMsm(WeierstrassCurve curve, int n, long seed, int c) {
        MsmTest.Input in = MsmTest.input(curve, n, seed);
        Msm base = Msm.on(curve).withAccumulation(Msm.Accumulation.BATCH_AFFINE).withWindowBits(c);
        long[] scalar = base.withAdders(SCALAR).multiply(in.points(), in.scalars());
        long[] vector = base.withAdders(EAGER).multiply(in.points(), in.scalars());
        assertArrayEquals(scalar, vector, curve + " n=" + n + " c=" + c);
        MsmTest.assertSamePoint(curve, MsmTest.generatorTimes(curve, in.expectedLog()), vector, curve + " n=" + n);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8, 9, 31, 64, 100, 257, 1000, 1024, 4096, 16384})
    void msmEqualsTheScalarMsmOnBn254(int n) {
        sameMsm(Bn254.G1, n, 77 + n, 0);
        if (n >= 64) {
            sameMsm(Bn254.G1, n, 78 + n, 4);   // small windows: many points to a bucket, many queued
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 9, 100, 1024, 16384})
    void msmEqualsTheScalarMsmOnBls12381(int n) {
        sameMsm(Bls12381.G1, n, 99 + n, 0);
        if (n >= 64) {
            sameMsm(Bls12381.G1, n, 98 + n, 5);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 9, 100, 1024, 4096})
    void g2MsmEqualsTheScalarMsm(int n) {
        sameMsm(Bn254.G2, n, 55 + n, 0);
        sameMsm(Bls12381.G2, n, 56 + n, 0);
        if (n >= 64) {
            sameMsm(Bn254.G2, n, 57 + n, 4);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void zeroScalarsAndInfinityGiveInfinity(boolean bn) {
        WeierstrassCurve curve = bn ? Bn254.G1 : Bls12381.G1;
        int n = 300;
        MsmTest.Input in = MsmTest.input(curve, n, 5);
        long[] zeros = new long[4 * n];
        long[] got = Msm.on(curve).withAdders(EAGER).multiply(in.points(), zeros);
        assertTrue(curve.arithmetic().isInfinity(got, 0));
        long[] inf = new long[n * curve.affineWidth()];
        got = Msm.on(curve).withAdders(EAGER).multiply(inf, in.scalars());
        assertTrue(curve.arithmetic().isInfinity(got, 0));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void duplicatePointsEqualTheScalarMsm(boolean bn) {
        WeierstrassCurve curve = bn ? Bn254.G1 : Bls12381.G1;
        int n = 2048;
        int aw = curve.affineWidth();
        MsmTest.Input in = MsmTest.input(curve, n, 11);
        long[] points = in.points().clone();
        long[] scalars = in.scalars().clone();
        for (int i = 1; i < n; i++) {           // every point the first one, every scalar the same
            System.arraycopy(points, 0, points, i * aw, aw);
            System.arraycopy(scalars, 0, scalars, 4 * i, 4);
        }
        Msm base = Msm.on(curve).withAccumulation(Msm.Accumulation.BATCH_AFFINE);
        assertArrayEquals(base.withAdders(SCALAR).multiply(points, scalars),
                base.withAdders(EAGER).multiply(points, scalars));
    }
}
