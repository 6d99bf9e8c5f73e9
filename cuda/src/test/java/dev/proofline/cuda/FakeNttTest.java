package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link CudaNtt} on the fake driver. Without kernels: the host side up to the first launch (the
 * twiddles uploaded, the buffers allocated, the vector copied through pinned memory, the first kernel
 * looked up by its entry-point name), that a failure there is reported, and that closing frees
 * everything. With the tests' fake kernels (the functions of {@code ntt.cuh} run on the host for every
 * thread of each launch): every transform and the quotient against the Java {@link Ntt}, and
 * {@link CudaNtt#quotientAsync} on vectors that another stream is still copying, which gives the right
 * h only because each vector's first launch waits for its event (the fake does a stream's copies only
 * when something must have them, so a launch that did not wait would read the old contents).
 */
class FakeNttTest {

    private static FakeCuda fake;

    @BeforeAll
    static void loadFake() {
        fake = FakeCuda.get();
    }

    @Test
    void withoutKernelsTheFirstLaunchLooksUpTheFieldsBitReversalAndClosingFreesEverything() {
        fake.reset();
        fake.unloadKernels();
        PrimeField f = PairingCurve.BLS12_381.fr();
        Device device = fake.driver().devices().getFirst();
        try (Context context = device.retainPrimaryContext();
                Module module = context.loadModule("fake cubin, version 1".getBytes(StandardCharsets.US_ASCII))) {
            long streams = fake.liveStreams();
            long allocations = fake.liveDeviceAllocations();
            long pinned = fake.livePinnedAllocations();
            CudaNtt ntt = new CudaNtt(context, module);
            assertEquals(streams + 1, fake.liveStreams());
            long[] a = f.newVector(1 << 4);
            CudaException e = assertThrows(CudaException.class, () -> ntt.forward(f, 4, a));
            assertTrue(e.getMessage().startsWith("cuModuleGetFunction(pl_bls12381_fr_ntt_bit_reverse): CUDA_ERROR_NOT_FOUND"),
                    e.getMessage());
            // the twiddles and the vector on the device, the staging memory pinned
            assertEquals(allocations + 2, fake.liveDeviceAllocations());
            assertEquals(pinned + 1, fake.livePinnedAllocations());
            assertThrows(IllegalArgumentException.class, () -> ntt.forward(PairingCurve.BN254.fp(), 4, a));
            assertThrows(IllegalArgumentException.class, () -> ntt.forward(f, 5, a));
            ntt.close();
            ntt.close();
            assertEquals(allocations, fake.liveDeviceAllocations());
            assertEquals(pinned, fake.livePinnedAllocations());
            assertEquals(streams, fake.liveStreams());
            assertThrows(IllegalStateException.class, () -> ntt.forward(f, 4, a));
        }
    }

    private static long[] random(PrimeField f, int n, Random rnd) {
        int w = f.width();
        long top = f.modulusWords()[w - 1];
        long[] v = new long[n * w];
        for (int i = 0; i < n * w; i++) {
            v[i] = (i % w == w - 1) ? Long.remainderUnsigned(rnd.nextLong(), top) : rnd.nextLong();
        }
        return v;
    }

    private static void check(String what, long[] expected, long[] actual) {
        assertTrue(Arrays.equals(expected, actual), () -> what + ": first difference at word "
                + Arrays.mismatch(expected, actual));
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void withTheFakeKernelsEveryTransformAndTheQuotientEqualJava(PairingCurve curve) {
        fake.reset();
        fake.loadTestKernels();
        PrimeField f = curve.fr();
        try (Context context = fake.driver().devices().getFirst().retainPrimaryContext();
                Module module = context.loadModule("fake ntt kernels".getBytes(StandardCharsets.US_ASCII));
                CudaNtt gpu = new CudaNtt(context, module)) {
            // 2^11: two launches of ntt_block a pass (groups of 2^10, then a strided one)
            for (int logN : new int[] {1, 2, 5, 10, 11}) {
                int n = 1 << logN;
                Ntt cpu = Ntt.of(f, logN);
                Random rnd = new Random(logN * 31L + curve.ordinal());
                long[] g = random(f, 1, rnd);
                long[] a = random(f, n, rnd);
                String at = curve + " 2^" + logN + ": ";
                long[] x = a.clone();
                long[] y = a.clone();
                cpu.forward(x);
                gpu.forward(f, logN, y);
                check(at + "forward", x, y);
                x = a.clone();
                y = a.clone();
                cpu.inverse(x);
                gpu.inverse(f, logN, y);
                check(at + "inverse", x, y);
                x = a.clone();
                y = a.clone();
                cpu.cosetForward(x, g, 0);
                gpu.cosetForward(f, logN, y, g, 0);
                check(at + "coset forward", x, y);
                x = a.clone();
                y = a.clone();
                cpu.cosetInverse(x, g, 0);
                gpu.cosetInverse(f, logN, y, g, 0);
                check(at + "coset inverse", x, y);
                long[] b = random(f, n, rnd);
                long[] c = random(f, n, rnd);
                long[] expected = HostNttTest.quotient(f, logN, a.clone(), b.clone(), c.clone());
                check(at + "quotient", expected, gpu.quotient(f, logN, a.clone(), b.clone(), c.clone()));
            }
        }
    }

    @Test
    void theAsyncQuotientWaitsForEachVectorsCopyOnAnotherStream() {
        fake.reset();
        fake.loadTestKernels();
        PrimeField f = PairingCurve.BN254.fr();
        int logN = 11;
        int n = 1 << logN;
        long bytes = n * 32L;
        Random rnd = new Random(3);
        long[] a = random(f, n, rnd);
        long[] b = random(f, n, rnd);
        long[] c = random(f, n, rnd);
        long[] expected = HostNttTest.quotient(f, logN, a.clone(), b.clone(), c.clone());
        try (Context context = fake.driver().devices().getFirst().retainPrimaryContext();
                Module module = context.loadModule("fake ntt kernels".getBytes(StandardCharsets.US_ASCII));
                CudaNtt gpu = new CudaNtt(context, module);
                Stream copies = context.createStream();
                PinnedBuffer host = context.allocatePinned(3 * bytes);
                PinnedBuffer out = context.allocatePinned(bytes);
                DeviceBuffer da = context.allocate(bytes);
                DeviceBuffer db = context.allocate(bytes);
                DeviceBuffer dc = context.allocate(bytes);
                Event ea = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
                Event eb = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
                Event ec = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
                Event done = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING)) {
            MemorySegment h = host.segment();
            long[][] vs = {a, b, c};
            DeviceBuffer[] ds = {da, db, dc};
            Event[] es = {ea, eb, ec};
            for (boolean wait : new boolean[] {true, false}) {
                // the device buffers hold zeros; the copies on the other stream bring the vectors
                for (DeviceBuffer d : ds) {
                    d.copyFromHost(zeros(bytes), 0);
                }
                for (int k = 0; k < 3; k++) {
                    MemorySegment.copy(vs[k], 0, h, JAVA_LONG, k * bytes, n * 4);
                    ds[k].copyFromHostAsync(h.asSlice(k * bytes, bytes), 0, copies);
                    copies.record(es[k]);
                }
                assertEquals(6, fake.pendingOps(copies), "the copies and recordings wait on their stream");
                if (wait) {
                    gpu.quotientAsync(f, logN, da, db, dc, ea, eb, ec, done);
                } else {
                    gpu.quotientAsync(f, logN, da, db, dc, null, null, null, done);
                }
                gpu.synchronize();
                da.copyToHost(out.segment(), 0);
                long[] result = out.segment().toArray(JAVA_LONG);
                if (wait) {
                    check("h after waiting for the copies", expected, result);
                    assertEquals(0, fake.pendingOps(copies), "the waits made the copies happen");
                } else {
                    assertFalse(Arrays.equals(expected, result), "without the waits the kernels read the old contents");
                    copies.synchronize();
                }
            }
        }
    }

    private static MemorySegment zeros(long bytes) {
        return java.lang.foreign.Arena.ofAuto().allocate(bytes, 8);
    }
}
