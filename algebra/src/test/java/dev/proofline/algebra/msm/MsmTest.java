package dev.proofline.algebra.msm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.msm.Msm.Accumulation;
import dev.proofline.algebra.testing.Ffjs;
import com.fasterxml.jackson.databind.JsonNode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MSM on the four groups (BN254 and BLS12-381, G1 and G2), each checked the same way: against the naive
 * sum of scalar multiplications, against ffjavascript, and against a sum computed from known discrete
 * logarithms with BigInteger.
 */
class MsmTest {

    static final List<WeierstrassCurve> GROUPS = List.of(Bn254.G1, Bn254.G2, Bls12381.G1, Bls12381.G2);

    static Stream<WeierstrassCurve> groups() {
        return GROUPS.stream();
    }

    // ------------------------------------------------------------------ inputs

    /** Points and their scalars; the discrete log of every point to the generator is known. */
    record Input(WeierstrassCurve curve, long[] points, long[] scalars, BigInteger[] logs, BigInteger[] ks) {
        int n() {
            return ks.length;
        }

        /** sum k_i log_i mod r: the discrete log of the expected result. */
        BigInteger expectedLog() {
            BigInteger s = BigInteger.ZERO;
            for (int i = 0; i < ks.length; i++) {
                s = s.add(ks[i].multiply(logs[i]));
            }
            return s.mod(curve.order());
        }
    }

    /**
     * n points with the awkward cases mixed in (infinity, repeated points, P next to -P, the
     * generator) and scalars with 0, 1, r - 1, small values and values at or above r.
     */
    static Input input(WeierstrassCurve curve, int n, long seed) {
        Random rnd = new Random(seed);
        BigInteger r = curve.order();
        PointArithmetic pa = curve.arithmetic();
        int aw = curve.affineWidth();
        long[] points = new long[n * aw];
        long[] scalars = new long[n * 4];
        BigInteger[] logs = new BigInteger[n];
        BigInteger[] ks = new BigInteger[n];
        long[] jac = new long[curve.jacobianWidth()];
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(10);
            int sameScalarAs = -1;
            if (kind == 0) {
                logs[i] = BigInteger.ZERO;                                  // infinity (0, 0)
            } else if (kind == 1 && i > 0) {
                int j = rnd.nextInt(i);                                     // repeated point
                logs[i] = logs[j];
                System.arraycopy(points, j * aw, points, i * aw, aw);
                sameScalarAs = rnd.nextBoolean() ? j : -1;
            } else if (kind == 2 && i > 0) {
                int j = rnd.nextInt(i);                                     // the negation of a point
                logs[i] = r.subtract(logs[j]).mod(r);
                pa.negAffine(points, j * aw, points, i * aw);
                sameScalarAs = rnd.nextBoolean() ? j : -1;
            } else if (kind == 3) {
                logs[i] = BigInteger.ONE;
                System.arraycopy(curve.generator(), 0, points, i * aw, aw);
            } else {
                logs[i] = new BigInteger(128, rnd).mod(r);
                pa.mulAffine(curve.generator(), 0, logs[i], jac, 0);
                pa.toAffine(jac, 0, points, i * aw);
            }
            ks[i] = switch (rnd.nextInt(12)) {
                case 0 -> BigInteger.ZERO;
                case 1 -> BigInteger.ONE;
                case 2 -> r.subtract(BigInteger.ONE);
                case 3 -> BigInteger.valueOf(rnd.nextInt(1000));
                case 4 -> r.add(new BigInteger(64, rnd));                  // at or above r
                case 5 -> BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);
                default -> new BigInteger(r.bitLength() + 8, rnd).mod(r);
            };
            // the same scalar on a repeated point puts the same point twice into one bucket (a
            // doubling), on a negated point puts P and -P into one bucket (a cancellation)
            if (sameScalarAs >= 0) {
                ks[i] = ks[sameScalarAs];
            }
            putScalar(scalars, i, ks[i]);
        }
        return new Input(curve, points, scalars, logs, ks);
    }

    static void putScalar(long[] scalars, int i, BigInteger k) {
        for (int w = 0; w < 4; w++) {
            scalars[4 * i + w] = k.shiftRight(64 * w).longValue();
        }
    }

    /** sum_i k_i P_i by one double-and-add scalar multiplication per point. */
    static long[] naiveSum(WeierstrassCurve curve, long[] points, BigInteger[] ks) {
        PointArithmetic pa = curve.arithmetic();
        int jw = curve.jacobianWidth();
        long[] acc = new long[jw];
        long[] term = new long[jw];
        pa.setInfinity(acc, 0);
        for (int i = 0; i < ks.length; i++) {
            pa.mulAffine(points, i * curve.affineWidth(), ks[i], term, 0);
            pa.add(acc, 0, term, 0, acc, 0);
        }
        return acc;
    }

    static long[] generatorTimes(WeierstrassCurve curve, BigInteger k) {
        long[] r = new long[curve.jacobianWidth()];
        curve.arithmetic().mulAffine(curve.generator(), 0, k, r, 0);
        return r;
    }

    static void assertSamePoint(WeierstrassCurve curve, long[] expected, long[] actual, String what) {
        PointArithmetic pa = curve.arithmetic();
        assertTrue(pa.isOnCurve(actual, 0), what + ": result on the curve");
        assertTrue(pa.equal(expected, 0, actual, 0), what);
    }

    // ------------------------------------------------------------------ small sizes: naive sum

    @Provide
    Arbitrary<WeierstrassCurve> anyGroup() {
        return Arbitraries.of(GROUPS);
    }

    @Provide
    Arbitrary<Accumulation> anyAccumulation() {
        return Arbitraries.of(Accumulation.values());
    }

    @Property(tries = 120)
    void msmEqualsTheNaiveSumOfScalarMultiplications(@ForAll("anyGroup") WeierstrassCurve curve,
            @ForAll @IntRange(min = 0, max = 64) int n, @ForAll long seed,
            @ForAll @IntRange(min = 0, max = 12) int windowBits, @ForAll("anyAccumulation") Accumulation acc,
            @ForAll @IntRange(min = 1, max = 3) int threads) {
        Input in = input(curve, n, seed);
        Msm msm = Msm.on(curve).withWindowBits(windowBits == 1 ? 0 : windowBits).withAccumulation(acc)
                .withParallelism(threads).withBatchSize(1 + (int) Math.floorMod(seed, 40));
        long[] got = msm.multiply(in.points(), in.scalars());
        assertSamePoint(curve, naiveSum(curve, in.points(), in.ks()), got, "MSM vs naive sum");
    }

    @ParameterizedTest
    @MethodSource("groups")
    void equalAndOppositePointsInOneBucketDoubleAndCancel(WeierstrassCurve curve) {
        // P, P, P, -P, Q, -Q, Q, O, G with one scalar: every window puts them all into one bucket, so
        // a batch meets D + D (doubling), D + (-D) (cancellation) and an empty bucket refilled
        PointArithmetic pa = curve.arithmetic();
        int aw = curve.affineWidth();
        BigInteger r = curve.order();
        BigInteger a = new BigInteger("1234567890123456789"), b = new BigInteger("987654321987654321");
        BigInteger[] logs = {a, a, a, r.subtract(a), b, r.subtract(b), b, BigInteger.ZERO, BigInteger.ONE};
        long[] points = new long[logs.length * aw];
        long[] jac = new long[curve.jacobianWidth()];
        for (int i = 0; i < logs.length; i++) {
            if (logs[i].signum() != 0) {
                pa.mulAffine(curve.generator(), 0, logs[i], jac, 0);
                pa.toAffine(jac, 0, points, i * aw);
            }
        }
        for (BigInteger k : List.of(BigInteger.ONE, BigInteger.valueOf(0x7fff), r.subtract(BigInteger.ONE),
                new BigInteger("5555555555555555555555555555555555555555555555555555555555555555", 16).mod(r))) {
            long[] scalars = new long[4 * logs.length];
            BigInteger expected = BigInteger.ZERO;
            for (int i = 0; i < logs.length; i++) {
                putScalar(scalars, i, k);
                expected = expected.add(k.multiply(logs[i]));
            }
            for (int c : new int[] {2, 5, 11, 16}) {
                for (Accumulation acc : List.of(Accumulation.JACOBIAN, Accumulation.BATCH_AFFINE)) {
                    long[] got = Msm.on(curve).withWindowBits(c).withAccumulation(acc).multiply(points, scalars);
                    assertSamePoint(curve, generatorTimes(curve, expected.mod(r)), got, "k=" + k + " c=" + c + " " + acc);
                }
            }
        }
    }

    // ------------------------------------------------------------------ ffjavascript

    static Stream<Arguments> fixtures() {
        return Stream.of(
                Arguments.of("bn128", "msm-g1", Bn254.G1), Arguments.of("bn128", "msm-g2", Bn254.G2),
                Arguments.of("bls12381", "msm-g1", Bls12381.G1), Arguments.of("bls12381", "msm-g2", Bls12381.G2));
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void msmMatchesFfjavascript(String curveName, String kind, WeierstrassCurve curve) {
        for (int n : new int[] {40, 300}) {
            JsonNode v = Ffjs.vectors(curveName, kind, 11 + n, n);
            int aw = curve.affineWidth();
            JsonNode pts = v.get("points");
            JsonNode scs = v.get("scalars");
            assertEquals(n, pts.size());
            long[] points = new long[n * aw];
            long[] scalars = new long[n * 4];
            for (int i = 0; i < n; i++) {
                readPoint(curve, pts.get(i), points, i * aw);
                putScalar(scalars, i, new BigInteger(scs.get(i).asText()));
            }
            long[] expected = new long[aw];
            readPoint(curve, v.get("result"), expected, 0);
            for (Msm msm : List.of(Msm.on(curve),
                    Msm.on(curve).withAccumulation(Accumulation.BATCH_AFFINE).withWindowBits(6),
                    Msm.on(curve).withAccumulation(Accumulation.JACOBIAN).withWindowBits(13))) {
                assertArrayEquals(expected, msm.multiplyAffine(points, scalars), curveName + " " + kind + " n=" + n);
            }
        }
    }

    /** A point from ffjavascript's JSON: {"x","y"} (G1), {"x":[c0,c1],"y":[c0,c1]} (G2), null = infinity. */
    static void readPoint(WeierstrassCurve curve, JsonNode p, long[] out, int off) {
        int fw = curve.coordinateWidth();
        if (p == null || p.isNull()) {
            java.util.Arrays.fill(out, off, off + 2 * fw, 0L);
            return;
        }
        readCoordinate(curve.field(), p.get("x"), out, off);
        readCoordinate(curve.field(), p.get("y"), out, off + fw);
    }

    static void readCoordinate(Field f, JsonNode c, long[] out, int off) {
        if (f instanceof Fp2 fp2) {
            PrimeField base = fp2.base();
            base.fromBigInteger(new BigInteger(c.get(0).asText()), out, off);
            base.fromBigInteger(new BigInteger(c.get(1).asText()), out, off + base.width());
        } else {
            ((PrimeField) f).fromBigInteger(new BigInteger(c.asText()), out, off);
        }
    }

    // ------------------------------------------------------------------ larger sizes: known discrete logs

    /**
     * n points P_i = a_i G with a_i known, built by adding one of 16 random multiples of G to the
     * previous point (cheap, yet the a_i look random); scalars uniform below r with a few edge values.
     */
    static Input largeInput(WeierstrassCurve curve, int n, long seed) {
        Random rnd = new Random(seed);
        BigInteger r = curve.order();
        PointArithmetic pa = curve.arithmetic();
        int jw = curve.jacobianWidth();
        long[] steps = new long[16 * jw];
        BigInteger[] stepLogs = new BigInteger[16];
        for (int j = 0; j < 16; j++) {
            stepLogs[j] = new BigInteger(r.bitLength() + 8, rnd).mod(r);
            pa.mulAffine(curve.generator(), 0, stepLogs[j], steps, j * jw);
        }
        long[] jac = new long[n * jw];
        BigInteger[] logs = new BigInteger[n];
        BigInteger[] ks = new BigInteger[n];
        long[] scalars = new long[4 * n];
        long[] acc = new long[jw];
        pa.setInfinity(acc, 0);
        BigInteger a = BigInteger.ZERO;
        for (int i = 0; i < n; i++) {
            int j = rnd.nextInt(16);
            pa.add(acc, 0, steps, j * jw, acc, 0);
            a = a.add(stepLogs[j]).mod(r);
            System.arraycopy(acc, 0, jac, i * jw, jw);
            logs[i] = a;
            ks[i] = switch (i % 97) {
                case 0 -> BigInteger.ZERO;
                case 1 -> r.subtract(BigInteger.ONE);
                default -> new BigInteger(r.bitLength() + 8, rnd).mod(r);
            };
            putScalar(scalars, i, ks[i]);
        }
        long[] points = new long[n * curve.affineWidth()];
        pa.batchToAffine(jac, 0, points, 0, n);
        return new Input(curve, points, scalars, logs, ks);
    }

    static Stream<Arguments> largeCases() {
        List<Arguments> cases = new ArrayList<>();
        for (WeierstrassCurve g : GROUPS) {
            cases.add(Arguments.of(g, 0, Accumulation.AUTO));
            cases.add(Arguments.of(g, 5, Accumulation.JACOBIAN));
            cases.add(Arguments.of(g, 8, Accumulation.BATCH_AFFINE));
            cases.add(Arguments.of(g, 11, Accumulation.JACOBIAN));
            cases.add(Arguments.of(g, 13, Accumulation.BATCH_AFFINE));
            cases.add(Arguments.of(g, 16, Accumulation.BATCH_AFFINE));
        }
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("largeCases")
    void msmOf4096PointsEqualsTheSumOfKnownDiscreteLogs(WeierstrassCurve curve, int c, Accumulation acc) {
        Input in = largeInput(curve, 1 << 12, 4096 + c);
        long[] got = Msm.on(curve).withWindowBits(c).withAccumulation(acc).multiply(in.points(), in.scalars());
        assertSamePoint(curve, generatorTimes(curve, in.expectedLog()), got, curve + " c=" + c + " " + acc);
    }

    @ParameterizedTest
    @MethodSource("groups")
    void everyWindowSizeGivesTheSameResult(WeierstrassCurve curve) {
        Input in = input(curve, 150, 99);
        long[] expected = generatorTimes(curve, in.expectedLog());
        for (int c = 2; c <= 16; c++) {
            for (Accumulation acc : List.of(Accumulation.JACOBIAN, Accumulation.BATCH_AFFINE)) {
                long[] got = Msm.on(curve).withWindowBits(c).withAccumulation(acc).multiply(in.points(), in.scalars());
                assertSamePoint(curve, expected, got, curve + " c=" + c + " " + acc);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("groups")
    void splittingPointsIntoChunksAcrossManyThreadsGivesTheSameResult(WeierstrassCurve curve) {
        Input in = largeInput(curve, 5000, 5);
        long[] expected = generatorTimes(curve, in.expectedLog());
        for (int threads : new int[] {1, 2, 64}) {
            long[] got = Msm.on(curve).withParallelism(threads).multiply(in.points(), in.scalars());
            assertSamePoint(curve, expected, got, threads + " threads");
        }
    }

    /**
     * Windows that do not divide evenly among the threads: the plan may cut the leftover ones into
     * chunks (when the cost model says the threads then finish sooner). Every window's points are
     * covered exactly once by its tasks, some of these plans do cut, and every sum is unchanged.
     */
    @ParameterizedTest
    @MethodSource("groups")
    void leftoverWindowsCutIntoChunksCoverEveryPointOnceAndLeaveTheSumUnchanged(WeierstrassCurve curve) {
        int n = 5000;
        Input in = largeInput(curve, n, 11);
        long[] expected = generatorTimes(curve, in.expectedLog());
        int cut = 0;
        for (int threads : new int[] {2, 3, 5}) {
            for (int c : new int[] {9, 10, 11, 12}) {
                Msm msm = Msm.on(curve).withParallelism(threads).withWindowBits(c);
                MsmPlan plan = msm.plan(n);
                int[][] tasks = plan.tasks(n);
                for (int w = 0; w < plan.windows(); w++) {
                    int w0 = w;
                    List<int[]> mine = new ArrayList<>(Stream.of(tasks).filter(t -> t[0] == w0).toList());
                    mine.sort((a, b) -> Integer.compare(a[1], b[1]));
                    int next = 0;
                    for (int[] t : mine) {
                        assertEquals(next, t[1], "window " + w + ": tasks contiguous from point 0");
                        assertTrue(t[2] > t[1], "window " + w + ": no empty task");
                        next = t[2];
                    }
                    assertEquals(n, next, "window " + w + ": tasks end at the last point");
                    assertEquals(plan.chunksOf(w), mine.size(), "window " + w + ": one task a chunk");
                }
                if (plan.splitWindows() > 0) {
                    cut++;
                    assertEquals(plan.windows() % threads, plan.splitWindows(), "the leftover windows are the cut ones");
                }
                assertSamePoint(curve, expected, msm.multiply(in.points(), in.scalars()),
                        curve + " " + threads + " threads, c=" + c);
            }
        }
        assertTrue(cut > 0, "some of these plans cut their leftover windows");
    }

    /**
     * Terms that add nothing dropped before the buckets (a key's A, B1 and B2 sections are mostly points
     * at infinity): mostly infinity points and zero scalars, at several sizes, down to one term left and
     * none, both accumulations, from a heap array and from unaligned memory.
     */
    @ParameterizedTest
    @MethodSource("groups")
    void mostlyInfinityPointsAndZeroScalarsAreDroppedAndTheSumIsUnchanged(WeierstrassCurve curve) {
        int aw = curve.affineWidth();
        Random rnd = new Random(curve.hashCode());
        for (int n : new int[] {1, 2, 9, 200, 3000}) {
            for (int keep : new int[] {0, 1, n / 5 + 1}) {
                Input in = input(curve, n, 31L * n + keep);
                // all but about `keep` terms: the point at infinity, or a zero scalar
                for (int i = 0; i < n; i++) {
                    if (rnd.nextInt(n) < n - keep) {
                        if (rnd.nextBoolean()) {
                            java.util.Arrays.fill(in.points(), i * aw, (i + 1) * aw, 0L);
                            in.logs()[i] = BigInteger.ZERO;
                        } else {
                            in.ks()[i] = BigInteger.ZERO;
                            putScalar(in.scalars(), i, BigInteger.ZERO);
                        }
                    }
                }
                long[] expected = generatorTimes(curve, in.expectedLog());
                MemorySegment mem = Arena.ofAuto().allocate(5 + 8L * in.points().length);
                ValueLayout.OfLong le = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < in.points().length; i++) {
                    mem.set(le, 5 + 8L * i, in.points()[i]);
                }
                for (Accumulation acc : List.of(Accumulation.JACOBIAN, Accumulation.BATCH_AFFINE)) {
                    Msm msm = Msm.on(curve).withAccumulation(acc);
                    String what = curve + " n=" + n + " keep~" + keep + " " + acc;
                    assertSamePoint(curve, expected, msm.multiply(in.points(), in.scalars()), what);
                    assertSamePoint(curve, expected, msm.multiply(mem, 5, in.scalars(), 0, n), what + ", from memory");
                }
            }
        }
    }

    // ------------------------------------------------------------------ bit-heavy scalars: groups by width

    /**
     * The scalars of a bit-heavy witness (hashes, comparators): mostly 1 and 0, some words of 16 to 64
     * bits, a few full field elements; repeated points and points next to their negation with the scalar
     * 1, so that the direct sum of the ones doubles and cancels along the way.
     */
    static Input bitHeavy(WeierstrassCurve curve, int n, long seed, int fullPercent) {
        Input in = largeInput(curve, n, seed);
        Random rnd = new Random(seed);
        BigInteger r = curve.order();
        PointArithmetic pa = curve.arithmetic();
        int aw = curve.affineWidth();
        for (int i = 0; i < n; i++) {
            int roll = rnd.nextInt(100);
            BigInteger k = roll < fullPercent ? new BigInteger(r.bitLength() + 8, rnd).mod(r)
                    : roll < fullPercent + 4 ? new BigInteger(16, rnd)
                    : roll < fullPercent + 8 ? new BigInteger(32, rnd).setBit(31)
                    : roll < fullPercent + 11 ? new BigInteger(64, rnd)
                    : roll < fullPercent + 25 ? BigInteger.ZERO
                    : BigInteger.ONE;
            if (i > 0 && k.equals(BigInteger.ONE) && rnd.nextInt(20) == 0) {
                int j = rnd.nextInt(i);
                if (rnd.nextBoolean()) {
                    System.arraycopy(in.points(), j * aw, in.points(), i * aw, aw);  // a repeated point
                    in.logs()[i] = in.logs()[j];
                } else {
                    pa.negAffine(in.points(), j * aw, in.points(), i * aw);         // its negation
                    in.logs()[i] = r.subtract(in.logs()[j]).mod(r);
                }
            }
            in.ks()[i] = k;
            putScalar(in.scalars(), i, k);
        }
        return in;
    }

    @ParameterizedTest
    @MethodSource("groups")
    void bitHeavyScalarsGroupedByWidthGiveTheSumOfKnownDiscreteLogsAndTheFullWidthResult(WeierstrassCurve curve) {
        for (int full : new int[] {0, 5, 60}) {
            Input in = bitHeavy(curve, 6000, 77 + full, full);
            long[] expected = generatorTimes(curve, in.expectedLog());
            for (int threads : new int[] {1, 2, 3}) {
                for (Accumulation acc : List.of(Accumulation.AUTO, Accumulation.JACOBIAN)) {
                    Msm msm = Msm.on(curve).withParallelism(threads).withAccumulation(acc);
                    assertSamePoint(curve, expected, msm.multiply(in.points(), in.scalars()),
                            curve + " " + full + "% full, " + threads + " threads, " + acc);
                }
            }
            // every scalar read at the full width (no groups): the same point
            Msm fullWidth = Msm.on(curve).withWidthGroups(false);
            assertSamePoint(curve, fullWidth.multiply(in.points(), in.scalars()),
                    Msm.on(curve).multiply(in.points(), in.scalars()), curve + " " + full + "% full, against full width");
        }
    }

    @ParameterizedTest
    @MethodSource("groups")
    void aDirectSumOfOnesDoublesAndCancelsAsTheNaiveSum(WeierstrassCurve curve) {
        // 3000 terms of scalar 1 on 40 distinct points and their negations: every round of the tree sum
        // meets equal points (doublings) and opposite ones (cancellations)
        int n = 3000;
        Input base = largeInput(curve, 40, 5);
        PointArithmetic pa = curve.arithmetic();
        int aw = curve.affineWidth();
        Random rnd = new Random(6);
        long[] points = new long[n * aw];
        long[] scalars = new long[4 * n];
        BigInteger[] ks = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            int j = rnd.nextInt(40);
            if (rnd.nextInt(3) == 0) {
                pa.negAffine(base.points(), j * aw, points, i * aw);
            } else {
                System.arraycopy(base.points(), j * aw, points, i * aw, aw);
            }
            ks[i] = BigInteger.ONE;
            putScalar(scalars, i, BigInteger.ONE);
        }
        long[] expected = new long[curve.jacobianWidth()];
        pa.setInfinity(expected, 0);
        for (int i = 0; i < n; i++) {
            pa.addMixed(expected, 0, points, i * aw, expected, 0);
        }
        for (int threads : new int[] {1, 2}) {
            assertSamePoint(curve, expected, Msm.on(curve).withParallelism(threads).multiply(points, scalars),
                    curve + " ones, " + threads + " threads");
        }
        // with the 8-lane additions where the runtime has them (the batches of the sum are theirs then)
        assertSamePoint(curve, expected, Msm.on(curve).withAdders(VectorBatchAffineTest.EAGER).multiply(points, scalars),
                curve + " ones, 8-lane additions");
        // P + (-P) for every pair: the sum is the point at infinity
        for (int i = 0; i < n; i += 2) {
            pa.negAffine(points, i * aw, points, (i + 1) * aw);
        }
        assertTrue(pa.isInfinity(Msm.on(curve).multiply(points, scalars), 0), "pairs that cancel sum to infinity");
    }

    @ParameterizedTest
    @MethodSource("groups")
    void widthGroupsKeepTheOnesApartAndCoverEveryKeptTermOnce(WeierstrassCurve curve) {
        Input in = bitHeavy(curve, 5000, 3, 10);
        MemorySegment pts = MemorySegment.ofArray(in.points());
        int aw = curve.affineWidth();
        int full = curve.order().bitLength();
        Msm msm = Msm.on(curve);
        WidthGroups g = WidthGroups.classify(pts, 0, aw, in.scalars(), 0, 5000, full, true,
                (n, bits) -> n == 0 ? 0 : msm.plan(n, bits).cost());
        long ones = Stream.of(in.ks()).filter(BigInteger.ONE::equals).count();
        long zeros = Stream.of(in.ks()).filter(BigInteger.ZERO::equals).count();
        assertEquals(1, g.bits(0), "the ones come first, in a group of their own");
        assertEquals(ones, g.count(0));
        assertEquals(5000 - ones - zeros, g.terms() - ones, "every term with a non-zero scalar kept once");
        assertTrue(g.groups() >= 2 && g.bits(g.groups() - 1) == full, "the widest group is the full width");
        int[] index = new int[g.terms()];
        g.pack(index);
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int k = 0; k < g.groups(); k++) {
            for (int i = g.from(k); i < g.from(k) + g.count(k); i++) {
                BigInteger s = PrimeField.wordsToBigInteger(in.scalars(), 4 * index[i], 4);
                assertTrue(s.bitLength() <= g.bits(k) && s.signum() > 0, "group " + k + " holds its widths only");
                assertEquals(in.ks()[index[i]], s, "term " + index[i] + " is the input's term");
                assertTrue(seen.add(index[i]), "term " + index[i] + " listed once");
            }
        }
        // uniform scalars: one full-width group, in place
        Input dense = largeInput(curve, 2000, 4);
        WidthGroups d = WidthGroups.classify(MemorySegment.ofArray(dense.points()), 0, aw, dense.scalars(), 0, 2000,
                full, true, (n, bits) -> n == 0 ? 0 : msm.plan(n, bits).cost());
        assertTrue(d.inPlace() && d.groups() == 1 && d.bits(0) == full, "dense scalars: one group in place");
    }

    // ------------------------------------------------------------------ slices, scalars

    @ParameterizedTest
    @MethodSource("groups")
    void aSliceOfPointsAndScalarsIsTheMsmOfThatSlice(WeierstrassCurve curve) {
        Input in = input(curve, 60, 3);
        int aw = curve.affineWidth();
        // points 7..40 paired with scalars 12..45
        int pFrom = 7, sFrom = 12, count = 34;
        BigInteger[] ks = new BigInteger[count];
        long[] pts = new long[count * aw];
        System.arraycopy(in.points(), pFrom * aw, pts, 0, count * aw);
        for (int i = 0; i < count; i++) {
            ks[i] = in.ks()[sFrom + i];
        }
        long[] got = Msm.on(curve).multiply(in.points(), pFrom, in.scalars(), sFrom, count);
        assertSamePoint(curve, naiveSum(curve, pts, ks), got, "slice");
        long[] empty = Msm.on(curve).multiply(in.points(), 60, in.scalars(), 60, 0);
        assertTrue(curve.arithmetic().isInfinity(empty, 0), "empty MSM is the point at infinity");
    }

    @ParameterizedTest
    @MethodSource("groups")
    void pointsReadFromUnalignedLittleEndianMemoryGiveTheSameSum(WeierstrassCurve curve) {
        Input in = input(curve, 300, 17);
        int aw = curve.affineWidth();
        // the layout of a snarkjs key section: little-endian words, at an odd byte offset
        MemorySegment mem = Arena.ofAuto().allocate(3 + 8L * in.points().length);
        ValueLayout.OfLong le = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < in.points().length; i++) {
            mem.set(le, 3 + 8L * i, in.points()[i]);
        }
        long[] expected = generatorTimes(curve, in.expectedLog());
        for (Accumulation acc : List.of(Accumulation.JACOBIAN, Accumulation.BATCH_AFFINE)) {
            long[] got = Msm.on(curve).withAccumulation(acc).multiply(mem, 3, in.scalars(), 0, 300);
            assertSamePoint(curve, expected, got, "from memory, " + acc);
        }
        assertThrows(IllegalArgumentException.class,
                () -> Msm.on(curve).multiply(mem, 3 + 8L * aw, in.scalars(), 0, 300), "past the end");
    }

    @ParameterizedTest
    @MethodSource("groups")
    void scalarsAtOrAboveROrNearTwoTo256AreTakenModR(WeierstrassCurve curve) {
        BigInteger r = curve.order();
        BigInteger[] ks = {r, r.add(BigInteger.TWO), BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE),
                r.multiply(BigInteger.TWO).add(BigInteger.valueOf(5))};
        Input in = input(curve, ks.length, 8);
        long[] scalars = new long[4 * ks.length];
        BigInteger log = BigInteger.ZERO;
        for (int i = 0; i < ks.length; i++) {
            putScalar(scalars, i, ks[i]);
            log = log.add(ks[i].multiply(in.logs()[i]));
        }
        for (Accumulation acc : List.of(Accumulation.JACOBIAN, Accumulation.BATCH_AFFINE)) {
            long[] got = Msm.on(curve).withAccumulation(acc).withWindowBits(10).multiply(in.points(), scalars);
            assertSamePoint(curve, generatorTimes(curve, log.mod(r)), got, acc.toString());
        }
    }

    @Property(tries = 50)
    void canonicalScalarsAreTheIntegerValuesOfMontgomeryElements(@ForAll @IntRange(min = 0, max = 40000) int n,
            @ForAll long seed, @ForAll boolean bls) {
        PrimeField fr = bls ? Bls12381.FR : Bn254.FR;
        Random rnd = new Random(seed);
        BigInteger[] v = new BigInteger[n];
        long[] mont = new long[4 * n];
        for (int i = 0; i < n; i++) {
            v[i] = new BigInteger(fr.bits() + 8, rnd).mod(fr.modulus());
            fr.fromBigInteger(v[i], mont, 4 * i);
        }
        long[] canonical = Msm.canonicalScalars(fr, mont);
        IntStream.range(0, n).forEach(i ->
                assertEquals(v[i], PrimeField.wordsToBigInteger(canonical, 4 * i, 4), "element " + i));
        if (n >= 10) {
            long[] part = Msm.canonicalScalars(fr, mont, 3, 5);
            for (int i = 0; i < 5; i++) {
                assertEquals(v[3 + i], PrimeField.wordsToBigInteger(part, 4 * i, 4));
            }
        }
    }
}
