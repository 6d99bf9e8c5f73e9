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
                CudaMsm msm = new CudaMsm(context, module, MsmGroup.g2(curve))) {
            assertEquals(aw, msm.curve().affineWords(), "words of an affine G2 point");
            int n = 300;
            MsmHostEmulationTest.Case k = MsmHostEmulationTest.mixed("fake G2", g2, pool, n, 0, rnd);
            try (ResidentPoints points = msm.upload(k.points())) {
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
                try (ResidentPoints points = msm.upload(seg, 8L * 3 * aw, n)) {
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
    /**
     * A set uploaded without its points at infinity (runs of them at both ends and every third point in
     * between): only the others on the device, with their indices, and the MSM over all the set's scalars,
     * from the host or from the device, equal to the Java MSM over the whole set; an empty MSM and a set
     * of nothing but infinity give infinity, a set with none left out is a plain upload.
     */
    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aSetWithoutItsPointsAtInfinityGivesTheSameSums(PairingCurve curve) {
        Path lib = kernels();
        FakeCuda fake = FakeCuda.get();
        fake.reset();
        fake.loadKernels(lib);
        Random rnd = new Random(curve.ordinal() + 23);
        for (WeierstrassCurve group : new WeierstrassCurve[] {curve.g1(), curve.g2()}) {
            PointArithmetic pa = group.arithmetic();
            int aw = group.affineWidth();
            int n = 400;
            int from = 50;
            long[] pool = MsmHostEmulationTest.randomPoints(group, 64, rnd);
            MsmHostEmulationTest.Case k = MsmHostEmulationTest.mixed("fake", group, pool, n + from, 0, rnd);
            long[] pts = java.util.Arrays.copyOf(k.points(), n * aw);
            int kept = 0;
            for (int i = 0; i < n; i++) {
                if (i < 7 || i >= n - 5 || i % 3 == 0) {
                    java.util.Arrays.fill(pts, i * aw, (i + 1) * aw, 0L);
                }
                // (the mixed case has points at infinity of its own)
                kept += java.util.Arrays.stream(pts, i * aw, (i + 1) * aw).anyMatch(x -> x != 0) ? 1 : 0;
            }
            String what = curve + (group == curve.g1() ? " G1" : " G2");
            Msm java = Msm.on(group).withParallelism(2);
            long[] expected = java.multiplyAffine(pts, 0, k.scalars(), from, n);
            MsmGroup cc = group == curve.g1() ? MsmGroup.g1(curve) : MsmGroup.g2(curve);
            try (Context context = fake.driver().devices().getFirst().retainPrimaryContext();
                    Module module = context.loadModule("fake msm kernels".getBytes(StandardCharsets.US_ASCII));
                    CudaMsm msm = new CudaMsm(context, module, cc);
                    Arena arena = Arena.ofConfined()) {
                MemorySegment seg = arena.allocate(8L * pts.length, 8);
                MemorySegment.copy(pts, 0, seg, ValueLayout.JAVA_LONG, 0, pts.length);
                MemorySegment scalars = arena.allocate(8L * k.scalars().length, 8);
                MemorySegment.copy(k.scalars(), 0, scalars, ValueLayout.JAVA_LONG, 0, k.scalars().length);
                try (ResidentPoints points = msm.uploadWithoutInfinity(seg, 0, n);
                        DeviceBuffer onDevice = context.allocate(scalars.byteSize())) {
                    assertEquals(kept, points.count(), what + ": the points kept");
                    assertEquals(n, points.scalarCount(), what);
                    assertEquals(8L * aw * kept + 4L * kept, points.bytes(), what + ": points and indices");
                    onDevice.copyFromHost(scalars, 0);
                    long[] fromHost = new long[aw];
                    pa.toAffine(msm.multiply(points, k.scalars(), from, n), 0, fromHost, 0);
                    assertArrayEquals(expected, fromHost, what + ": scalars from the host");
                    long[] fromDevice = new long[aw];
                    pa.toAffine(msm.multiply(points, onDevice, from, n, null), 0, fromDevice, 0);
                    assertArrayEquals(expected, fromDevice, what + ": scalars gathered on the device");
                    assertTrue(pa.isInfinity(msm.multiply(points, k.scalars(), from, 0), 0), what + ": empty MSM");
                    assertThrows(IllegalArgumentException.class, () -> msm.multiply(points, k.scalars(), from, n - 1),
                            "a set without infinity is summed whole or not at all");
                }
                MemorySegment zeros = arena.allocate(8L * aw * 10, 8);
                try (ResidentPoints none = msm.uploadWithoutInfinity(zeros, 0, 10)) {
                    assertEquals(0, none.count());
                    assertEquals(0, none.bytes());
                    assertTrue(pa.isInfinity(msm.multiply(none, k.scalars(), 0, 10), 0), what + ": all at infinity");
                }
                int first = 7;
                while (pa.isInfinityAffine(pts, first * aw) || pa.isInfinityAffine(pts, (first + 1) * aw)) {
                    first++;
                }
                try (ResidentPoints all = msm.uploadWithoutInfinity(seg, 8L * aw * first, 2)) {
                    assertEquals(2, all.count(), what + ": none at infinity");
                    assertEquals(8L * aw * 2, all.bytes(), what + ": no indices");
                }
            }
        }
    }

    /**
     * An MSM queued on one instance ({@link CudaMsm#multiplyAsync}) while another instance runs its own:
     * each gives the Java MSM's sum, joining twice gives it again, and the queued instance takes no other
     * call until it is joined.
     */
    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aQueuedMsmRunsBesideAnotherInstancesAndJoinsToItsSum(PairingCurve curve) {
        Path lib = kernels();
        FakeCuda fake = FakeCuda.get();
        fake.reset();
        fake.loadKernels(lib);
        Random rnd = new Random(curve.ordinal() + 41);
        int n = 300;
        MsmHostEmulationTest.Case g1 = MsmHostEmulationTest.mixed("g1", curve.g1(),
                MsmHostEmulationTest.randomPoints(curve.g1(), 64, rnd), n, 0, rnd);
        MsmHostEmulationTest.Case g2 = MsmHostEmulationTest.mixed("g2", curve.g2(),
                MsmHostEmulationTest.randomPoints(curve.g2(), 64, rnd), n, 0, rnd);
        long[] expected1 = Msm.on(curve.g1()).withParallelism(2).multiplyAffine(g1.points(), 0, g1.scalars(), 0, n);
        long[] expected2 = Msm.on(curve.g2()).withParallelism(2).multiplyAffine(g2.points(), 0, g2.scalars(), 0, n);
        try (Context context = fake.driver().devices().getFirst().retainPrimaryContext();
                Module module = context.loadModule("fake msm kernels".getBytes(StandardCharsets.US_ASCII));
                CudaMsm msm1 = new CudaMsm(context, module, MsmGroup.g1(curve));
                CudaMsm msm2 = new CudaMsm(context, module, MsmGroup.g2(curve));
                ResidentPoints p1 = msm1.upload(g1.points());
                ResidentPoints p2 = msm2.upload(g2.points());
                DeviceBuffer s1 = GpuCheck.onDevice(context, g1.scalars());
                DeviceBuffer s2 = GpuCheck.onDevice(context, g2.scalars())) {
            CudaMsm.Pending queued = msm2.multiplyAsync(p2, s2, 0, n, null);
            assertThrows(IllegalStateException.class, () -> msm2.multiplyAsync(p2, s2, 0, n, null),
                    "one pending call an instance");
            assertThrows(IllegalStateException.class, () -> msm2.multiply(p2, g2.scalars(), 0, n));
            assertThrows(IllegalStateException.class, msm2::releaseScratch, "its scratch is in use");
            long[] sum1 = new long[curve.g1().affineWidth()];
            curve.g1().arithmetic().toAffine(msm1.multiply(p1, s1, 0, n, null), 0, sum1, 0);
            long[] sum2 = new long[curve.g2().affineWidth()];
            curve.g2().arithmetic().toAffine(queued.join(), 0, sum2, 0);
            assertArrayEquals(expected1, sum1, curve + " G1, run while the G2 MSM was queued");
            assertArrayEquals(expected2, sum2, curve + " G2, queued");
            long[] again = new long[curve.g2().affineWidth()];
            curve.g2().arithmetic().toAffine(queued.join(), 0, again, 0);
            assertArrayEquals(expected2, again, "joined twice: the same sum");
            long[] next = new long[curve.g2().affineWidth()];
            curve.g2().arithmetic().toAffine(msm2.multiply(p2, s2, 0, n, null), 0, next, 0);
            assertArrayEquals(expected2, next, "the instance takes calls again once joined");
        }
    }
}
