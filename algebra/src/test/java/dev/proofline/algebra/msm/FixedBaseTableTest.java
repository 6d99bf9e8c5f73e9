package dev.proofline.algebra.msm;

import static dev.proofline.algebra.msm.MsmTest.assertSamePoint;
import static dev.proofline.algebra.msm.MsmTest.generatorTimes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.msm.MsmTest.Input;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MSMs against precomputed multiples of fixed points: the same point as the sum of known discrete logs
 * and as the MSM without a table, at every window size, with the awkward terms (infinity, zero and one
 * scalars, repeated and opposite points, scalars at or above r), dense and bit-heavy, on any thread count.
 */
class FixedBaseTableTest {

    static java.util.stream.Stream<WeierstrassCurve> groups() {
        return MsmTest.groups();
    }

    @ParameterizedTest
    @MethodSource("groups")
    void theTableMsmOfAwkwardTermsIsTheNaiveSumAtEveryWindowSize(WeierstrassCurve curve) {
        Input in = MsmTest.input(curve, 300, 11);
        long[] expected = MsmTest.naiveSum(curve, in.points(), in.ks());
        for (int c : new int[] {2, 3, 5, 8, 12, 16}) {
            try (FixedBaseTable t = FixedBaseTable.build(curve, MemorySegment.ofArray(in.points()), 0, 300, c)) {
                for (int threads : new int[] {1, 2, 5}) {
                    assertSamePoint(curve, expected, Msm.on(curve).withParallelism(threads).multiply(t, in.scalars(), 0,
                            300), curve + " c=" + c + ", " + threads + " threads");
                }
            }
        }
    }

    /**
     * With 2 or 4 threads and enough terms, each thread's affine buckets are merged into the others' before
     * a range of them is reduced by each: with few buckets (c = 8, 10) every bucket is hit by every thread,
     * so the merge adds, doubles (a repeated point with the same scalar) and cancels (a point and its
     * negation) across threads; the top range is reduced from a bucket other than the first.
     */
    @ParameterizedTest
    @MethodSource("groups")
    void theBucketsOfSeveralThreadsMergedThenReducedByRangeGiveTheNaiveSum(WeierstrassCurve curve) {
        int n = 1200;
        Input in = MsmTest.input(curve, n, 23);
        long[] expected = MsmTest.naiveSum(curve, in.points(), in.ks());
        for (int c : new int[] {8, 10}) {
            try (FixedBaseTable t = FixedBaseTable.build(curve, MemorySegment.ofArray(in.points()), 0, n, c)) {
                for (int threads : new int[] {2, 4}) {
                    assertSamePoint(curve, expected, Msm.on(curve).withParallelism(threads).multiply(t, in.scalars(), 0,
                            n), curve + " c=" + c + ", " + threads + " threads");
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("groups")
    void denseAndBitHeavyScalarsGiveTheSumOfKnownDiscreteLogsAndTheMsmWithoutATable(WeierstrassCurve curve) {
        int n = 3000;
        for (int full : new int[] {0, 5, 100}) {
            Input in = MsmTest.bitHeavy(curve, n, 5 + full, full);
            long[] expected = generatorTimes(curve, in.expectedLog());
            // the chosen c, and c = 14, whose top window (a few buckets on either curve) is summed apart
            for (int c : new int[] {FixedBaseTable.windowBits(curve, n, 2, Long.MAX_VALUE), 14}) {
                try (FixedBaseTable t = FixedBaseTable.build(curve, MemorySegment.ofArray(in.points()), 0, n, c)) {
                    for (int threads : new int[] {1, 2, 3}) {
                        Msm msm = Msm.on(curve).withParallelism(threads);
                        assertSamePoint(curve, expected, msm.multiply(t, in.scalars(), 0, n),
                                curve + " " + full + "% full, c=" + c + ", " + threads + " threads");
                    }
                    assertSamePoint(curve, Msm.on(curve).multiply(in.points(), in.scalars()),
                            Msm.on(curve).multiply(t, in.scalars(), 0, n), curve + " against the MSM without a table");
                }
            }
        }
    }

    @Test
    void pointsAtInfinityAreLeftOutAndScalarsAreReadAtTheirOriginalIndex() {
        WeierstrassCurve curve = Bn254.G1;
        int n = 2000;
        int aw = curve.affineWidth();
        Input in = MsmTest.largeInput(curve, n, 99);
        Random rnd = new Random(3);
        int infinity = 0;
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(4) != 0) {
                java.util.Arrays.fill(in.points(), i * aw, (i + 1) * aw, 0L);
                in.logs()[i] = BigInteger.ZERO;
                infinity++;
            }
        }
        // a slice of a longer scalar vector: the table's scalars start at index 7
        long[] scalars = new long[4 * (n + 10)];
        System.arraycopy(in.scalars(), 0, scalars, 4 * 7, 4 * n);
        MemorySegment all = MemorySegment.ofArray(in.points());
        assertEquals(n - infinity, FixedBaseTable.finitePoints(curve, all, 0, n, n));
        assertEquals(n - infinity, FixedBaseTable.finitePoints(curve, all, 0, n, n - infinity), "as many as the most");
        assertEquals(101, FixedBaseTable.finitePoints(curve, all, 0, n, 100), "more than the most");
        int first = firstFinite(in.points(), aw);
        assertEquals(n - infinity, FixedBaseTable.finitePoints(curve, all, 8L * aw * first, n - first, n),
                "from the first finite point");
        assertEquals(n - infinity - 1, FixedBaseTable.finitePoints(curve, all, 8L * aw * (first + 1), n - first - 1, n),
                "after it");
        try (FixedBaseTable t = FixedBaseTable.build(curve, MemorySegment.ofArray(in.points()), 0, n, 9)) {
            assertEquals(n - infinity, t.kept());
            assertEquals(FixedBaseTable.bytes(curve, n - infinity, 9), t.bytes());
            assertSamePoint(curve, generatorTimes(curve, in.expectedLog()), Msm.on(curve).multiply(t, scalars, 7, n),
                    "infinity left out");
        }
    }

    /** The index of the first point not at (0, 0). */
    private static int firstFinite(long[] points, int aw) {
        for (int i = 0; ; i++) {
            for (int k = 0; k < aw; k++) {
                if (points[i * aw + k] != 0) {
                    return i;
                }
            }
        }
    }

    @Test
    void aTableSavesTimeOnADenseMsmAndAG2TableSavesMoreThanAG1TableOfAsManyPoints() {
        for (int log = 10; log <= 17; log++) {
            int n = 1 << log;
            int c = FixedBaseTable.windowBits(Bn254.G1, n, 2, Long.MAX_VALUE);
            double g1 = FixedBaseTable.saving(Bn254.G1, n, 2, c);
            int c2 = FixedBaseTable.windowBits(Bn254.G2, n, 2, Long.MAX_VALUE);
            double g2 = FixedBaseTable.saving(Bn254.G2, n, 2, c2);
            assertTrue(g1 > 0 && g2 > 2 * g1, "2^" + log + ": G1 " + g1 + ", G2 " + g2);
        }
        assertEquals(0, FixedBaseTable.saving(Bn254.G1, 0, 2, 10));
    }

    @Test
    void aTableIsForItsOwnCurveAndPointCount() {
        Input in = MsmTest.input(Bn254.G1, 10, 1);
        try (FixedBaseTable t = FixedBaseTable.build(Bn254.G1, MemorySegment.ofArray(in.points()), 0, 10, 4)) {
            assertThrows(IllegalArgumentException.class, () -> Msm.on(Bn254.G1).multiply(t, in.scalars(), 0, 9));
            assertThrows(IllegalArgumentException.class, () -> Msm.on(Bn254.G1).multiply(t, in.scalars(), 1, 10));
            assertThrows(IllegalArgumentException.class, () -> Msm.on(Bn254.G2).multiply(t, in.scalars(), 0, 10));
        }
        assertThrows(IllegalArgumentException.class,
                () -> FixedBaseTable.build(Bn254.G1, MemorySegment.ofArray(in.points()), 0, 11, 4));
    }

    @Test
    void theWindowSizeFitsTheMemoryGivenAndIsZeroWhenNoneDoes() {
        WeierstrassCurve curve = Bn254.G1;
        int n = 1 << 16;
        int free = FixedBaseTable.windowBits(curve, n, 2, Long.MAX_VALUE);
        assertTrue(free >= 10, "c = " + free);
        int most = FixedBaseTable.MAX_CHOSEN_BITS;
        assertTrue(free <= most, "c = " + free);
        long small = FixedBaseTable.bytes(curve, n, most);
        assertEquals(most, FixedBaseTable.windowBits(curve, n, 2, small));
        assertEquals(0, FixedBaseTable.windowBits(curve, n, 2, small - 1));
    }
}
