package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.testing.TestPoints;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CudaMsm} on the machine's GPU against the Java {@link Msm}, 2^10 to 2^20 points on both curves
 * (random points and scalars with zero scalars, points at infinity and repeated points mixed in; then
 * skewed scalars, which crowd a few buckets), results compared as affine points. Every test skips, with the reason printed once, where there is no usable
 * driver or device or the module was built without nvcc.
 */
class GpuMsmTest {

    private static Context context;
    private static Module module;
    private static String unavailable;

    @BeforeAll
    static void load() {
        switch (CudaDriver.load()) {
            case CudaDriver.Available(CudaDriver d) -> {
                Optional<byte[]> image = KernelImage.load();
                if (image.isEmpty()) {
                    unavailable = "the module was built without kernels (no GPU driver or no nvcc then)";
                } else {
                    Device device = d.devices().getFirst();
                    System.out.println("GPU MSM tests on " + device);
                    context = device.retainPrimaryContext();
                    module = context.loadModule(image.get());
                }
            }
            case CudaDriver.Unavailable(String reason) -> unavailable = reason;
        }
        if (unavailable != null) {
            System.out.println("SKIPPED (GPU MSM tests): " + unavailable);
        }
    }

    @AfterAll
    static void close() {
        if (module != null) {
            module.close();
        }
        if (context != null) {
            context.close();
        }
    }

    static Stream<Arguments> sizes() {
        List<Arguments> a = new ArrayList<>();
        for (PairingCurve c : PairingCurve.values()) {
            for (int lg = 10; lg <= 20; lg += 2) {
                a.add(Arguments.of(c, lg));
            }
        }
        return a.stream();
    }

    /**
     * n distinct points: chunks of consecutive multiples s_j + i Q of random points s_j and a random step Q,
     * made affine; about one in 64 replaced by the point at infinity and one in 64 by an earlier point.
     */
    static long[] points(WeierstrassCurve c, int n, Random rnd) {
        int aw = c.affineWidth();
        int jw = c.jacobianWidth();
        PointArithmetic pa = c.arithmetic();
        long[] step = TestPoints.multipleOfGenerator(c, new BigInteger(128, rnd).add(BigInteger.TWO));
        int chunk = 1 << 12;
        int chunks = (n + chunk - 1) / chunk;
        long[][] starts = new long[chunks][];
        for (int j = 0; j < chunks; j++) {
            starts[j] = TestPoints.multipleOfGenerator(c, new BigInteger(128, rnd).add(BigInteger.TWO));
        }
        long[] pts = new long[n * aw];
        IntStream.range(0, chunks).parallel().forEach(j -> {
            long[] acc = new long[jw];
            long[] start = new long[jw];
            pa.setInfinity(acc, 0);
            pa.addMixed(acc, 0, starts[j], 0, start, 0);
            System.arraycopy(start, 0, acc, 0, jw);
            for (int i = j * chunk; i < Math.min(n, (j + 1) * chunk); i++) {
                pa.toAffine(acc, 0, pts, i * aw);
                pa.addMixed(acc, 0, step, 0, acc, 0);
            }
        });
        for (int i = 1; i < n; i++) {
            int kind = rnd.nextInt(64);
            if (kind == 0) {
                Arrays.fill(pts, i * aw, (i + 1) * aw, 0L);
            } else if (kind == 1) {
                System.arraycopy(pts, rnd.nextInt(i) * aw, pts, i * aw, aw);
            }
        }
        return pts;
    }

    @ParameterizedTest(name = "{0} 2^{1}")
    @MethodSource("sizes")
    void cudaMsmMatchesTheJavaMsm(PairingCurve curve, int lg) {
        if (context == null) {
            Assumptions.abort("no usable CUDA device: " + unavailable);
        }
        WeierstrassCurve g1 = curve.g1();
        PointArithmetic pa = g1.arithmetic();
        int n = 1 << lg;
        Random rnd = new Random(31L * lg + curve.ordinal());
        long[] pts = points(g1, n, rnd);
        long[] scalars = MsmHostEmulationTest.randomScalars(g1.order(), n, rnd);
        for (int i = 0; i < n; i += 1 + rnd.nextInt(50)) {
            Arrays.fill(scalars, 4 * i, 4 * i + 4, 0L);
        }
        System.arraycopy(MsmHostEmulationTest.words(g1.order().subtract(BigInteger.ONE)), 0, scalars, 4, 4);
        long[] expected = Msm.on(g1).multiplyAffine(pts, scalars);
        assertFalse(pa.isInfinityAffine(expected, 0), "a random MSM at infinity");
        try (CudaMsm msm = new CudaMsm(context, module, MsmHostEmulationTest.cudaCurve(curve));
                ResidentPoints resident = msm.upload(pts)) {
            // twice on the same resident points: the second call reuses nothing but the points
            for (int run = 0; run < 2; run++) {
                long[] jac = msm.multiply(resident, scalars, 0, n);
                long[] actual = new long[g1.affineWidth()];
                pa.toAffine(jac, 0, actual, 0);
                assertArrayEquals(expected, actual, curve + " 2^" + lg + " run " + run + ": GPU MSM differs from Java");
            }
            // a prefix of the resident points, another window size
            int m = n / 2 + 3;
            long[] prefix = Msm.on(g1).multiplyAffine(pts, 0, scalars, 0, m);
            long[] jac = msm.multiply(resident, scalars, 0, m, 7);
            long[] actual = new long[g1.affineWidth()];
            pa.toAffine(jac, 0, actual, 0);
            assertArrayEquals(prefix, actual, curve + " first " + m + " of 2^" + lg + " points, c = 7");
            // skewed scalars: a few values for most points, so a few buckets hold most of them
            long[] skewed = MsmHostEmulationTest.skewedScalars(g1.order(), n, rnd);
            long[] crowded = Msm.on(g1).multiplyAffine(pts, skewed);
            pa.toAffine(msm.multiply(resident, skewed, 0, n), 0, actual, 0);
            assertArrayEquals(crowded, actual, curve + " 2^" + lg + " points, skewed scalars");
        }
    }
}
