package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.testing.TestPoints;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The MSM kernels' steps (msm.cuh) run on the CPU by the host emulation program
 * ({@code src/test/cuda/msm_host_test.cpp}, kernel after kernel, a loop over each kernel's threads),
 * against the Java {@link Msm}: results compared as affine points, for 1 to 4096 points with random
 * scalars and points, zero scalars, points at infinity, repeated and opposite points, scalars r - 1, r and
 * above, crowded buckets (skewed scalars; 2^15 points mostly with scalar 1), and forced window sizes 2 to
 * 16.
 */
class MsmHostEmulationTest {

    /** One MSM: its points (affine words), scalars (4 words each), the window size to force (0: auto). */
    record Case(String name, long[] points, long[] scalars, int c) {
        int n() {
            return scalars.length / 4;
        }
    }

    private static Path program() {
        Path p = HostProgram.directory().resolve("msm_host_test");
        assumeTrue(Files.isExecutable(p), "the MSM host program " + p + " was not built: neither g++ nor nvcc "
                + "was on the PATH when the module was built, so the MSM steps are not tested here");
        return p;
    }

    static MsmGroup cudaCurve(PairingCurve c) {
        return MsmGroup.g1(c);
    }

    /** Distinct random points k G (k random, 128 bits). */
    static long[] randomPoints(WeierstrassCurve c, int count, Random rnd) {
        int aw = c.affineWidth();
        long[] pts = new long[count * aw];
        for (int i = 0; i < count; i++) {
            long[] p = TestPoints.multipleOfGenerator(c, new BigInteger(128, rnd).add(BigInteger.TWO));
            System.arraycopy(p, 0, pts, i * aw, aw);
        }
        return pts;
    }

    static long[] words(BigInteger x) {
        long[] w = new long[4];
        for (int i = 0; i < 4; i++) {
            w[i] = x.shiftRight(64 * i).longValue();
        }
        return w;
    }

    static long[] randomScalars(BigInteger r, int count, Random rnd) {
        long[] s = new long[4 * count];
        for (int i = 0; i < count; i++) {
            System.arraycopy(words(new BigInteger(r.bitLength() + 16, rnd).mod(r)), 0, s, 4 * i, 4);
        }
        return s;
    }

    /**
     * n points and scalars with the edge cases mixed in: zero scalars, points at infinity, a point repeated
     * (with the same or another scalar), a point and its negation with the same scalar, scalars 1, 2, r - 1,
     * r, r + 1, 2^256 - 1, small ones, and ones whose digits all carry (2^(c-1) + 1 in every window).
     */
    static Case mixed(String name, WeierstrassCurve group, long[] pool, int n, int c, Random rnd) {
        int aw = group.affineWidth();
        PointArithmetic pa = group.arithmetic();
        BigInteger r = group.order();
        int poolSize = pool.length / aw;
        long[] pts = new long[n * aw];
        long[] sc = new long[4 * n];
        int cc = c == 0 ? CudaMsm.windowBits(n) : c;
        BigInteger carries = BigInteger.ZERO;
        for (int k = 0; k * cc < r.bitLength() - cc; k++) {
            carries = carries.add(BigInteger.ONE.shiftLeft(cc - 1).add(BigInteger.ONE).shiftLeft(k * cc));
        }
        BigInteger[] special = {BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, r.subtract(BigInteger.ONE), r,
            r.add(BigInteger.ONE), BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE), BigInteger.valueOf(7),
            carries.mod(r), r.subtract(carries.mod(r))};
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(10);
            if (i > 0 && kind == 0) {
                // infinity
                Arrays.fill(pts, i * aw, (i + 1) * aw, 0L);
            } else if (i > 0 && kind == 1) {
                // repeat of an earlier point
                System.arraycopy(pts, rnd.nextInt(i) * aw, pts, i * aw, aw);
            } else if (i > 0 && kind == 2) {
                // negation of the previous point, with the previous scalar below
                pa.negAffine(pts, (i - 1) * aw, pts, i * aw);
            } else {
                System.arraycopy(pool, rnd.nextInt(poolSize) * aw, pts, i * aw, aw);
            }
            BigInteger k;
            int sk = rnd.nextInt(4);
            if (i > 0 && kind == 2) {
                k = wordsToBig(sc, 4 * (i - 1));
            } else if (sk == 0) {
                k = special[rnd.nextInt(special.length)];
            } else {
                k = new BigInteger(r.bitLength() + 16, rnd).mod(r);
            }
            System.arraycopy(words(k), 0, sc, 4 * i, 4);
        }
        return new Case(name, pts, sc, c);
    }

    static BigInteger wordsToBig(long[] w, int off) {
        BigInteger x = BigInteger.ZERO;
        for (int i = 3; i >= 0; i--) {
            x = x.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(w[off + i])));
        }
        return x;
    }

    /** Scalars 1, 2, 3, 2^64 + 1 and r - 1 mostly, some random: a few buckets get most of the points. */
    static long[] skewedScalars(BigInteger r, int count, Random rnd) {
        BigInteger[] few = {BigInteger.ONE, BigInteger.TWO, BigInteger.valueOf(3),
            BigInteger.ONE.shiftLeft(64).add(BigInteger.ONE), r.subtract(BigInteger.ONE)};
        long[] s = new long[4 * count];
        for (int i = 0; i < count; i++) {
            BigInteger k = rnd.nextInt(8) == 0 ? new BigInteger(r.bitLength() + 16, rnd).mod(r) : few[rnd.nextInt(few.length)];
            System.arraycopy(words(k), 0, s, 4 * i, 4);
        }
        return s;
    }

    static List<Case> cases(PairingCurve curve) {
        WeierstrassCurve g1 = curve.g1();
        int aw = g1.affineWidth();
        BigInteger r = g1.order();
        Random rnd = new Random(curve.name().hashCode());
        int max = 1 << 12;
        long[] pool = randomPoints(g1, max, rnd);
        List<Case> cases = new ArrayList<>();
        for (int n : new int[] {1, 2, 3, 4, 7, 31, 64, 100, 255, 1000, 2048, max}) {
            cases.add(new Case("random n=" + n, Arrays.copyOf(pool, n * aw), randomScalars(r, n, rnd), 0));
        }
        for (int n : new int[] {1, 2, 5, 50, 500, 3000, max}) {
            cases.add(mixed("edge cases n=" + n, g1, pool, n, 0, rnd));
        }
        for (int c = 2; c <= 16; c++) {
            cases.add(mixed("edge cases n=300 c=" + c, g1, pool, 300, c, rnd));
        }
        // one point in every place, random scalars: every bucket's additions meet equal points
        long[] same = new long[1000 * aw];
        for (int i = 0; i < 1000; i++) {
            System.arraycopy(pool, 0, same, i * aw, aw);
        }
        cases.add(new Case("one point repeated n=1000", same, randomScalars(r, 1000, rnd), 0));
        // crowded buckets (many more points than a task takes): scalars from a few small values and r - 1
        cases.add(new Case("skewed scalars n=4096", Arrays.copyOf(pool, max * aw), skewedScalars(r, max, rnd), 0));
        // one bucket with more points than a group of tasks covers (128 tasks of 128 points): 2^15 points,
        // most with scalar 1
        int big = 1 << 15;
        long[] tiled = new long[big * aw];
        for (int i = 0; i < big; i++) {
            System.arraycopy(pool, (i % max) * aw, tiled, i * aw, aw);
        }
        long[] ones = randomScalars(r, big, rnd);
        for (int i = 0; i < big; i++) {
            if (rnd.nextInt(10) != 0) {
                System.arraycopy(words(BigInteger.ONE), 0, ones, 4 * i, 4);
            }
        }
        cases.add(new Case("crowded bucket n=32768", tiled, ones, 0));
        // (r - 1) P = -P
        cases.add(new Case("scalar r - 1", Arrays.copyOf(pool, aw), words(r.subtract(BigInteger.ONE)), 0));
        // results at infinity: all scalars zero, all points at infinity, P and -P with equal scalars
        cases.add(new Case("zero scalars", Arrays.copyOf(pool, 100 * aw), new long[4 * 100], 0));
        cases.add(new Case("points at infinity", new long[64 * aw], randomScalars(r, 64, rnd), 0));
        return cases;
    }

    /**
     * G2 (the same steps over Fp2): fewer cases than G1, each addition costing about three times as much;
     * random points and scalars, the edge cases at several sizes and window sizes, a repeated point, a
     * crowded bucket, and the results at infinity.
     */
    static List<Case> g2Cases(PairingCurve curve) {
        WeierstrassCurve g2 = curve.g2();
        int aw = g2.affineWidth();
        BigInteger r = g2.order();
        Random rnd = new Random(curve.name().hashCode() + 2);
        int max = 1 << 10;
        long[] pool = randomPoints(g2, max, rnd);
        List<Case> cases = new ArrayList<>();
        for (int n : new int[] {1, 2, 7, 100, max}) {
            cases.add(new Case("G2 random n=" + n, Arrays.copyOf(pool, n * aw), randomScalars(r, n, rnd), 0));
        }
        for (int n : new int[] {1, 5, 500}) {
            cases.add(mixed("G2 edge cases n=" + n, g2, pool, n, 0, rnd));
        }
        for (int c : new int[] {2, 5, 9, 13, 16}) {
            cases.add(mixed("G2 edge cases n=200 c=" + c, g2, pool, 200, c, rnd));
        }
        long[] same = new long[300 * aw];
        for (int i = 0; i < 300; i++) {
            System.arraycopy(pool, 0, same, i * aw, aw);
        }
        cases.add(new Case("G2 one point repeated n=300", same, randomScalars(r, 300, rnd), 0));
        cases.add(new Case("G2 skewed scalars n=1024", Arrays.copyOf(pool, max * aw), skewedScalars(r, max, rnd), 0));
        cases.add(new Case("G2 zero scalars", Arrays.copyOf(pool, 50 * aw), new long[4 * 50], 0));
        cases.add(new Case("G2 points at infinity", new long[30 * aw], randomScalars(r, 30, rnd), 0));
        return cases;
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void emulatedKernelsMatchTheJavaMsm(PairingCurve curve) throws Exception {
        check(curve.g1(), MsmGroup.g1(curve), cases(curve));
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void emulatedG2KernelsMatchTheJavaMsm(PairingCurve curve) throws Exception {
        check(curve.g2(), MsmGroup.g2(curve), g2Cases(curve));
    }

    private static void check(WeierstrassCurve group, MsmGroup cudaCurve, List<Case> cases) throws Exception {
        Path program = program();
        PointArithmetic pa = group.arithmetic();
        String name = cudaCurve.prefix();
        List<String> out = run(program, name, cases);
        assertEquals(cases.size(), out.size(), "one result a case");
        Msm msm = Msm.on(group).withParallelism(2);
        int nonTrivial = 0;
        for (int i = 0; i < cases.size(); i++) {
            Case k = cases.get(i);
            String[] tok = out.get(i).trim().split(" ");
            int c = Integer.parseInt(tok[0]);
            assertEquals(k.c() == 0 ? CudaMsm.windowBits(k.n()) : k.c(), c, k.name() + ": window size");
            long[] jac = new long[tok.length - 1];
            for (int j = 1; j < tok.length; j++) {
                jac[j - 1] = Long.parseUnsignedLong(tok[j], 16);
            }
            assertEquals(group.jacobianWidth(), jac.length, k.name() + ": result words");
            long[] expected = msm.multiplyAffine(k.points(), k.scalars());
            long[] actual = new long[group.affineWidth()];
            pa.toAffine(jac, 0, actual, 0);
            assertArrayEquals(expected, actual, () -> k.name() + " (" + name + ", c = " + c + "): emulated MSM "
                    + "differs from the Java MSM");
            if (!pa.isInfinityAffine(expected, 0)) {
                nonTrivial++;
            }
        }
        // the comparison means something: most results are not the point at infinity
        assertFalse(nonTrivial < cases.size() - 4, "only " + nonTrivial + " results are not infinity");
    }

    private static List<String> run(Path program, String curve, List<Case> cases)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("msm-host-test");
        try {
            Path in = dir.resolve("in.txt");
            Path out = dir.resolve("out.txt");
            Path err = dir.resolve("err.txt");
            int aw = cases.getFirst().points().length / Math.max(1, cases.getFirst().n());
            try (var wr = Files.newBufferedWriter(in, StandardCharsets.US_ASCII)) {
                for (Case k : cases) {
                    wr.write("msm " + curve + " " + k.n() + " " + k.c() + "\n");
                    for (int i = 0; i < k.n(); i++) {
                        StringBuilder sb = new StringBuilder();
                        for (int j = 0; j < aw; j++) {
                            sb.append(Long.toHexString(k.points()[i * aw + j])).append(' ');
                        }
                        for (int j = 0; j < 4; j++) {
                            sb.append(Long.toHexString(k.scalars()[4 * i + j])).append(j < 3 ? " " : "\n");
                        }
                        wr.write(sb.toString());
                    }
                }
            }
            Process p = new ProcessBuilder(program.toString()).redirectInput(in.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            // a guard against a hung program, not a measurement
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail(program + " did not finish");
            }
            assertEquals(0, p.exitValue(), program + " failed: " + Files.readString(err));
            return Files.readAllLines(out, StandardCharsets.US_ASCII);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }
}
