package dev.proofline.algebra.ntt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 8-lane kernel against the scalar one, word for word. Surefire runs the tests with the Vector
 * API module; on a machine without 512-bit vectors the comparisons are skipped (the transform then
 * uses the scalar kernel, which the other NTT tests cover).
 */
class VectorButterfliesTest {

    static List<PrimeField> fields() {
        return List.of(dev.proofline.algebra.bn254.Fr.INSTANCE, dev.proofline.algebra.bls12381.Fr.INSTANCE);
    }

    static Stream<Arguments> fieldsAndLogs() {
        return fields().stream().flatMap(f -> Stream.iterate(1, k -> k <= 14, k -> k + 1).map(k -> Arguments.of(f, k)));
    }

    static boolean vectorised(PrimeField f) {
        return Butterflies.vectorAllowed() && VectorButterflies.applies(f);
    }

    /** Random canonical elements, with 0, 1, q - 1 (raw words) and R mod q, R^-1 ... at fixed places. */
    static long[] sample(PrimeField f, int n, long seed) {
        Random rnd = new Random(seed);
        BigInteger q = f.modulus();
        long[] a = new long[4 * n];
        long[] qm1 = PrimeField.words(q.subtract(BigInteger.ONE), 4);
        for (int i = 0; i < n; i++) {
            long[] w = switch (rnd.nextInt(8)) {
                case 0 -> new long[4];                                          // 0
                case 1 -> qm1;                                                  // q - 1
                case 2 -> PrimeField.words(BigInteger.ONE, 4);                  // 1
                case 3 -> PrimeField.words(q.subtract(BigInteger.TWO.pow(rnd.nextInt(250))), 4);
                default -> PrimeField.words(new BigInteger(q.bitLength() + 8, rnd).mod(q), 4);
            };
            System.arraycopy(w, 0, a, 4 * i, 4);
        }
        return a;
    }

    static Ntt scalar(PrimeField f, int log, ForkJoinPool pool) {
        return new Ntt(f, log, pool, new Montgomery4Butterflies(f));
    }

    /** The vector kernel from its first call (the one of {@link Ntt#of} waits until it is compiled). */
    static Ntt vector(PrimeField f, int log, ForkJoinPool pool) {
        return new Ntt(f, log, pool, new VectorButterflies(f, true));
    }

    @Test
    void theTransformPicksTheVectorKernelWhenItCan() {
        for (PrimeField f : fields()) {
            assertEquals(vectorised(f) ? "VectorButterflies" : "Montgomery4Butterflies (by field)",
                    Ntt.of(f, 10).kernel());
            assertEquals(vectorised(f) ? "VectorButterflies" : "Montgomery4Butterflies",
                    Ntt.of(f, Butterflies.FUSED_FROM_LOG).kernel());
        }
    }

    /** The kernel of {@link Ntt#of} after the warm-up: the vector methods, compiled, in use. */
    @Test
    void afterTheWarmUpTheTransformsRunTheVectorCodeAndAgreeWithTheScalarOnes() {
        for (PrimeField f : fields()) {
            boolean warm = Ntt.warmUp(f);
            assertEquals(vectorised(f), warm);
            for (int log : new int[] {3, 9, 15}) {
                long[] x = sample(f, 1 << log, 11L * log);
                long[] y = x.clone();
                Ntt.of(f, log).forward(x);
                scalar(f, log, ForkJoinPool.commonPool()).forward(y);
                assertArrayEquals(y, x, "forward 2^" + log);
                long[] g = f.fromLong(9);
                Ntt.of(f, log).evaluationsOnCoset(x, g, 0);
                scalar(f, log, ForkJoinPool.commonPool()).evaluationsOnCoset(y, g, 0);
                assertArrayEquals(y, x, "evaluations on the coset 2^" + log);
            }
        }
    }

    @Test
    void theSystemPropertyForcesTheScalarKernel() {
        PrimeField f = fields().get(0);
        String before = System.getProperty("proofline.vector");
        System.setProperty("proofline.vector", "false");
        try {
            int log = Butterflies.FUSED_FROM_LOG;
            Ntt ntt = Ntt.of(f, log);
            assertEquals("Montgomery4Butterflies", ntt.kernel());
            long[] a = sample(f, 1 << log, 5);
            long[] b = a.clone();
            ntt.forward(a);
            scalar(f, log, ForkJoinPool.commonPool()).forward(b);
            assertArrayEquals(b, a);
            // smaller transforms run through the field's own methods, with the same results
            Ntt small = Ntt.of(f, log - 1);
            assertEquals("Montgomery4Butterflies (by field)", small.kernel());
            long[] c = sample(f, 1 << (log - 1), 6);
            long[] d = c.clone();
            small.forward(c);
            scalar(f, log - 1, ForkJoinPool.commonPool()).forward(d);
            assertArrayEquals(d, c);
        } finally {
            if (before == null) {
                System.clearProperty("proofline.vector");
            } else {
                System.setProperty("proofline.vector", before);
            }
        }
    }

    @ParameterizedTest(name = "{0} 2^{1}")
    @MethodSource("fieldsAndLogs")
    void everyTransformEqualsTheScalarOne(PrimeField f, int log) {
        assumeTrue(vectorised(f));
        Ntt v = vector(f, log, ForkJoinPool.commonPool());
        Ntt s = scalar(f, log, ForkJoinPool.commonPool());
        long[] g = f.fromLong(5);
        long[] in = sample(f, 1 << log, 31L * log + f.bits());

        long[] x = in.clone();
        long[] y = in.clone();
        v.forward(x);
        s.forward(y);
        assertArrayEquals(y, x, "forward");

        x = in.clone();
        y = in.clone();
        v.inverse(x);
        s.inverse(y);
        assertArrayEquals(y, x, "inverse");

        x = in.clone();
        y = in.clone();
        v.cosetForward(x, g, 0);
        s.cosetForward(y, g, 0);
        assertArrayEquals(y, x, "coset forward");

        x = in.clone();
        y = in.clone();
        v.cosetInverse(x, g, 0);
        s.cosetInverse(y, g, 0);
        assertArrayEquals(y, x, "coset inverse");

        x = in.clone();
        y = in.clone();
        v.evaluationsOnCoset(x, g, 0);
        s.evaluationsOnCoset(y, g, 0);
        assertArrayEquals(y, x, "evaluations on the coset");
    }

    /**
     * A pool of 2 workers splits the full passes at 2^16 into 12 pieces, not multiples of 8
     * butterflies: the ends of a piece go to the scalar kernel.
     */
    @Test
    void piecesThatDoNotFillALaneBlockEqualTheScalarTransform() {
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            for (PrimeField f : fields()) {
                assumeTrue(vectorised(f));
                Ntt v = vector(f, 16, pool);
                Ntt s = scalar(f, 16, pool);
                long[] x = sample(f, 1 << 16, 77);
                long[] y = x.clone();
                v.forward(x);
                s.forward(y);
                assertArrayEquals(y, x, "forward");
                long[] g = f.fromLong(3);
                v.evaluationsOnCoset(x, g, 0);
                s.evaluationsOnCoset(y, g, 0);
                assertArrayEquals(y, x, "evaluations on the coset");
            }
        } finally {
            pool.shutdown();
        }
    }

    /**
     * The quotient's pointwise step, both kernels, against BigInteger: a_i b_i - c_i of the Montgomery
     * values, canonical; the vector kernel equal to the scalar one word for word, on ranges that do and
     * do not fill 8 lanes (a pool of 2 cuts 2^16 into 12 pieces).
     */
    @Property(tries = 30)
    void mulSubToCanonicalIsABMinusCOutOfMontgomeryForm(@ForAll("field") PrimeField f,
            @ForAll @IntRange(min = 0, max = 11) int log, @ForAll long seed) {
        int n = 1 << log;
        long[] a = sample(f, n, seed);
        long[] b = sample(f, n, seed + 1);
        long[] c = sample(f, n, seed + 2);
        long[] x = a.clone();
        scalar(f, log, ForkJoinPool.commonPool()).mulSubToCanonical(x, b, c);
        BigInteger q = f.modulus();
        BigInteger rInv = BigInteger.ONE.shiftLeft(256).modInverse(q);
        for (int i = 0; i < n; i++) {
            BigInteger ai = value(a, i).multiply(rInv);
            BigInteger bi = value(b, i).multiply(rInv);
            BigInteger ci = value(c, i).multiply(rInv);
            assertEquals(ai.multiply(bi).subtract(ci).mod(q), value(x, i), "element " + i);
        }
        if (vectorised(f)) {
            long[] y = a.clone();
            vector(f, log, ForkJoinPool.commonPool()).mulSubToCanonical(y, b, c);
            assertArrayEquals(x, y);
        }
    }

    @Test
    void mulSubToCanonicalOnPiecesThatDoNotFillALaneBlockEqualsTheScalarOne() {
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            for (PrimeField f : fields()) {
                assumeTrue(vectorised(f));
                long[] a = sample(f, 1 << 16, 5);
                long[] b = sample(f, 1 << 16, 6);
                long[] c = sample(f, 1 << 16, 7);
                long[] x = a.clone();
                long[] y = a.clone();
                scalar(f, 16, pool).mulSubToCanonical(x, b, c);
                vector(f, 16, pool).mulSubToCanonical(y, b, c);
                assertArrayEquals(x, y);
            }
        } finally {
            pool.shutdown();
        }
    }

    private static BigInteger value(long[] a, int i) {
        BigInteger v = BigInteger.ZERO;
        for (int k = 3; k >= 0; k--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(a[4 * i + k])));
        }
        return v;
    }

    @Property(tries = 40)
    void transformsOfRandomVectorsEqualTheScalarOnes(@ForAll("field") PrimeField f,
            @ForAll @IntRange(min = 1, max = 12) int log, @ForAll long seed) {
        if (!vectorised(f)) {
            return;
        }
        long[] x = sample(f, 1 << log, seed);
        long[] y = x.clone();
        vector(f, log, ForkJoinPool.commonPool()).forward(x);
        scalar(f, log, ForkJoinPool.commonPool()).forward(y);
        assertArrayEquals(y, x);
        vector(f, log, ForkJoinPool.commonPool()).inverse(x);
        scalar(f, log, ForkJoinPool.commonPool()).inverse(y);
        assertArrayEquals(y, x);
    }

    @Provide
    Arbitrary<PrimeField> field() {
        return Arbitraries.of(fields());
    }

    @Test
    void limbsRoundTripInScalarCode() {
        Random rnd = new Random(3);
        for (PrimeField f : fields()) {
            BigInteger q = f.modulus();
            List<BigInteger> values = new java.util.ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE,
                    q.subtract(BigInteger.ONE), q, BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE)));
            for (int i = 0; i < 200; i++) {
                values.add(new BigInteger(256, rnd));
            }
            for (BigInteger x : values) {
                long[] l = VectorButterflies.limbs(PrimeField.words(x, 4), 0);
                BigInteger back = BigInteger.ZERO;
                for (int k = 8; k >= 0; k--) {
                    assertEquals(0, l[k] >>> 29, "limb below 2^29");
                    back = back.shiftLeft(29).add(BigInteger.valueOf(l[k]));
                }
                assertEquals(x, back);
                assertArrayEquals(PrimeField.words(x, 4), VectorButterflies.words(l));
            }
        }
    }

    @Test
    void limbsRoundTripInVectorCode() {
        assumeTrue(vectorised(fields().get(0)));
        Random rnd = new Random(4);
        BigInteger q = fields().get(0).modulus();
        for (int round = 0; round < 50; round++) {
            BigInteger[] xs = new BigInteger[8];
            long[] a = new long[40];      // 8 elements at offset 8
            for (int l = 0; l < 8; l++) {
                xs[l] = switch ((round + l) % 5) {
                    case 0 -> BigInteger.ZERO;
                    case 1 -> q.subtract(BigInteger.ONE);
                    case 2 -> BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);
                    default -> new BigInteger(256, rnd);
                };
                System.arraycopy(PrimeField.words(xs[l], 4), 0, a, 8 + 4 * l, 4);
            }
            long[] before = a.clone();
            long[] limbs = new long[72];
            VectorButterflies.roundTrip(a, 8, limbs);
            assertArrayEquals(before, a);
            for (int l = 0; l < 8; l++) {
                long[] expected = VectorButterflies.limbs(before, 8 + 4 * l);
                for (int k = 0; k < 9; k++) {
                    assertEquals(expected[k], limbs[8 * k + l], "element " + l + " limb " + k);
                }
            }
        }
    }
}
