package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.msm.Msm;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link CudaMsm} end to end through the driver API without a GPU: the tests' fake driver runs the MSM
 * kernels' bodies (msm_kernels.cuh) on the CPU for every thread of each launch, so the buffers, the
 * copies, the launch order and every kernel argument CudaMsm passes are checked, the result compared with
 * the Java {@link Msm}.
 */
class FakeDriverMsmTest {

    private static Path kernels() {
        Path p = HostProgram.directory().resolve("libfakekernels.so");
        assumeTrue(Files.isRegularFile(p), "the fake driver's MSM kernels " + p + " were not built: neither g++ "
                + "nor nvcc was on the PATH when the module was built");
        return p;
    }

    /** G2: the same class on the G2 kernels (Fp2 coordinates, four words a coordinate pair). */
    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void g2MsmOnTheFakeDriverMatchesTheJavaMsm(PairingCurve curve) {
        Path lib = kernels();
        FakeCuda fake = FakeCuda.get();
        fake.reset();
        fake.loadKernels(lib);
        WeierstrassCurve g2 = curve.g2();
        PointArithmetic pa = g2.arithmetic();
        int aw = g2.affineWidth();
        Random rnd = new Random(curve.ordinal() + 11);
        long[] pool = MsmHostEmulationTest.randomPoints(g2, 64, rnd);
        Msm java = Msm.on(g2).withParallelism(2);
        try (Context context = fake.driver().devices().getFirst().retainPrimaryContext();
                Module module = context.loadModule("fake msm kernels".getBytes(StandardCharsets.US_ASCII));
                CudaMsm msm = new CudaMsm(context, module, CudaMsm.Curve.g2(curve))) {
            assertEquals(aw, msm.curve().affineWords(), "words of an affine G2 point");
            int n = 300;
            MsmHostEmulationTest.Case k = MsmHostEmulationTest.mixed("fake G2", g2, pool, n, 0, rnd);
            try (CudaMsm.Points points = msm.upload(k.points())) {
                for (int count : new int[] {n, 1, 41}) {
                    for (int c : new int[] {0, 5}) {
                        long[] actual = new long[aw];
                        pa.toAffine(msm.multiply(points, k.scalars(), 0, count, c), 0, actual, 0);
                        final int cc = c;
                        assertArrayEquals(java.multiplyAffine(k.points(), 0, k.scalars(), 0, count), actual,
                                () -> curve + " G2: " + count + " points, c = " + cc);
                    }
                }
                assertTrue(pa.isInfinity(msm.multiply(points, k.scalars(), 0, 0), 0), "empty G2 MSM");
                // step timings: one profile a timed call, its steps in order, the events freed after
                long events = fake.liveEvents();
                msm.profile(true);
                long[] timed = msm.multiply(points, k.scalars(), 0, n);
                assertTrue(pa.equal(msm.multiply(points, k.scalars(), 0, n), 0, timed, 0), "timing changes nothing");
                assertEquals(2, msm.profiles().size(), "a profile a timed call");
                var steps = msm.profiles().getFirst();
                assertEquals(List.of("scalars: host copy", "scalars: copy to the device (or wait)",
                        "clear counts, recode digits", "sort by bucket (scan, scatter)", "tasks (counts, scan)",
                        "accumulate buckets", "group counts, merge groups", "merge", "reduce segments",
                        "window sums (scale segments, sum runs)", "window sums' copy"),
                        List.copyOf(steps.keySet()));
                assertTrue(steps.values().stream().allMatch(ms -> ms >= 0), "times " + steps);
                assertEquals(events, fake.liveEvents(), "the timing events destroyed after each call");
                msm.profile(false);
                assertTrue(msm.profiles().isEmpty(), "switched off: the timed calls forgotten");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void cudaMsmOnTheFakeDriverMatchesTheJavaMsm(PairingCurve curve) {
        Path lib = kernels();
        FakeCuda fake = FakeCuda.get();
        fake.reset();
        fake.loadKernels(lib);
        WeierstrassCurve g1 = curve.g1();
        PointArithmetic pa = g1.arithmetic();
        int aw = g1.affineWidth();
        Random rnd = new Random(curve.ordinal() + 7);
        long[] pool = MsmHostEmulationTest.randomPoints(g1, 256, rnd);
        Msm java = Msm.on(g1).withParallelism(2);
        CudaDriver driver = fake.driver();
        long allocations = fake.liveDeviceAllocations();
        long pinned = fake.livePinnedAllocations();
        try (Context context = driver.devices().getFirst().retainPrimaryContext();
                Module module = context.loadModule("fake msm kernels".getBytes(StandardCharsets.US_ASCII));
                CudaMsm msm = new CudaMsm(context, module, MsmHostEmulationTest.cudaCurve(curve))) {
            int n = 1500;
            MsmHostEmulationTest.Case k = MsmHostEmulationTest.mixed("fake", g1, pool, n, 0, rnd);
            // the points from native memory at an offset, as from a mapped zkey
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment seg = arena.allocate(8L * (n + 3) * aw, 8);
                MemorySegment.copy(k.points(), 0, seg, ValueLayout.JAVA_LONG, 8L * 3 * aw, n * aw);
                try (CudaMsm.Points points = msm.upload(seg, 8L * 3 * aw, n)) {
                    for (int count : new int[] {n, 1, 2, 37, 700}) {
                        for (int c : new int[] {0, 2, 9}) {
                            long[] expected = java.multiplyAffine(k.points(), 0, k.scalars(), 0, count);
                            long[] jac = msm.multiply(points, k.scalars(), 0, count, c);
                            long[] actual = new long[aw];
                            pa.toAffine(jac, 0, actual, 0);
                            final int cc = c;
                            assertArrayEquals(expected, actual, () -> curve + ": " + count + " points, c = " + cc);
                        }
                    }
                    // crowded buckets: many tasks a bucket
                    long[] skewed = MsmHostEmulationTest.skewedScalars(g1.order(), n, rnd);
                    long[] crowded = new long[aw];
                    pa.toAffine(msm.multiply(points, skewed, 0, n), 0, crowded, 0);
                    assertArrayEquals(java.multiplyAffine(k.points(), 0, skewed, 0, n), crowded, curve + ": skewed scalars");
                    // scalars from an offset
                    long[] expected = java.multiplyAffine(k.points(), 0, k.scalars(), 100, 200);
                    long[] actual = new long[aw];
                    pa.toAffine(msm.multiply(points, k.scalars(), 100, 200), 0, actual, 0);
                    assertArrayEquals(expected, actual, curve + ": scalars from index 100");
                    // none: infinity
                    assertEquals(true, pa.isInfinity(msm.multiply(points, k.scalars(), 0, 0), 0), "empty MSM");
                    assertThrows(IllegalArgumentException.class, () -> msm.multiply(points, k.scalars(), 0, n + 1));
                    // scratch buffers are kept between calls (16 on the device, 2 pinned), then released:
                    // only the resident points remain
                    assertEquals(allocations + 1 + 16, fake.liveDeviceAllocations(), "live device allocations");
                    assertEquals(pinned + 2, fake.livePinnedAllocations(), "live pinned allocations");
                    msm.releaseScratch();
                    assertEquals(allocations + 1, fake.liveDeviceAllocations(), "device allocations after release");
                    assertEquals(pinned, fake.livePinnedAllocations(), "pinned allocations after release");
                    // and allocated again by the next call
                    long[] again = new long[aw];
                    pa.toAffine(msm.multiply(points, k.scalars(), 0, n), 0, again, 0);
                    assertArrayEquals(java.multiplyAffine(k.points(), 0, k.scalars(), 0, n), again, curve + ": after release");
                }
            }
        }
        assertEquals(allocations, fake.liveDeviceAllocations(), "device allocations after closing");
        assertEquals(pinned, fake.livePinnedAllocations(), "pinned allocations after closing");
    }
}
