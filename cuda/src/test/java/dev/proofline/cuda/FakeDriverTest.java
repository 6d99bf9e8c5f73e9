package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The driver contract on the fake driver, and what only the fake can show: exact device properties,
 * the arguments a launch passed, the JIT log of a failed PTX load, and that closing frees everything.
 */
class FakeDriverTest extends DriverContractTest {

    private static final long GIB = 1L << 30;
    private static FakeCuda fake;
    private static CudaDriver driver;

    @BeforeAll
    static void loadFake() {
        fake = FakeCuda.get();
        fake.reset();
        driver = fake.driver();
    }

    @Override
    CudaDriver driver() {
        return driver;
    }

    @Test
    void devicesAreTheFakesTwo() {
        assertEquals(13000, driver.version());
        assertEquals("13.0", driver.versionString());
        List<Device> d = driver.devices();
        assertEquals(2, d.size());
        assertEquals("Proofline Fake GPU A", d.get(0).name());
        assertEquals(8 * GIB, d.get(0).totalMemory());
        assertEquals("9.0", d.get(0).computeCapability());
        assertEquals(132, d.get(0).multiprocessors());
        assertEquals("Proofline Fake GPU B", d.get(1).name());
        assertEquals(4 * GIB, d.get(1).totalMemory());
        assertEquals("8.6", d.get(1).computeCapability());
        assertEquals(84, d.get(1).multiprocessors());
        assertEquals(1, d.get(1).handle());
        assertEquals(32, d.get(1).attribute(CudaDriver.ATTRIBUTE_WARP_SIZE));
    }

    @Test
    void anErrorNamesTheCallAndTheDriversNameAndTextForIt() {
        CudaException e = assertThrows(CudaException.class, () -> context.allocate(16 * GIB));
        assertEquals("cuMemAlloc_v2(17179869184 bytes): CUDA_ERROR_OUT_OF_MEMORY (out of memory)", e.getMessage());
        assertEquals("cuMemAlloc_v2(17179869184 bytes)", e.call());

        CudaException attr = assertThrows(CudaException.class, () -> device.attribute(9999));
        assertEquals("cuDeviceGetAttribute(attribute 9999, device 0): CUDA_ERROR_INVALID_VALUE (invalid argument)", attr.getMessage());

        CudaException ordinal = assertThrows(CudaException.class, () -> driver.device(5));
        assertEquals("cuDeviceGet(5): CUDA_ERROR_INVALID_DEVICE (invalid device ordinal)", ordinal.getMessage());
    }

    @Test
    void anUnknownCodeHasNoNameAndIsStillReported() {
        assertEquals("CUDA_ERROR_OUT_OF_MEMORY", driver.errorName(2).orElseThrow());
        assertEquals("out of memory", driver.errorString(2).orElseThrow());
        assertTrue(driver.errorName(12345).isEmpty());
        assertTrue(driver.errorString(12345).isEmpty());
    }

    @Test
    void memoryInfoCountsAllocations() {
        CudaDriver.MemoryInfo before = context.memoryInfo();
        assertEquals(8 * GIB, before.total());
        try (DeviceBuffer b = context.allocate(3 * MIB)) {
            assertEquals(before.free() - b.size(), context.memoryInfo().free());
        }
        assertEquals(before.free(), context.memoryInfo().free());
    }

    @Test
    void aLaunchPassesEachArgumentAsTheKernelReadsIt() {
        int n = 300;
        try (Arena arena = Arena.ofConfined();
                Module module = context.loadPtx(ptx());
                DeviceBuffer a = context.allocate(4L * n);
                DeviceBuffer b = context.allocate(4L * n);
                DeviceBuffer out = context.allocate(4L * n);
                Stream stream = context.createStream()) {
            a.copyFromHost(arena.allocate(JAVA_INT, n), 0);
            b.copyFromHost(arena.allocate(JAVA_INT, n), 0);
            int launches = fake.launchCount();
            KernelArgs args = new KernelArgs(arena).pointer(out).pointer(a.address()).pointer(b).i32(n).i64(0x1234_5678_9abcL);
            assertEquals(5, args.size());
            module.function("vec_add_u32").launch(new Dim3(3, 2, 1), new Dim3(128, 1, 1), 512, stream, args);

            assertEquals(launches + 1, fake.launchCount());
            assertEquals("vec_add_u32", fake.lastLaunchFunction());
            assertArrayEquals(new int[] {3, 2, 1, 128, 1, 1}, fake.lastLaunchDims());
            assertEquals(512, fake.lastLaunchShared());
            assertEquals(stream.handle(), fake.lastLaunchStream());
            assertEquals(out.address(), fake.lastLaunchParam(0));
            assertEquals(a.address(), fake.lastLaunchParam(1));
            assertEquals(b.address(), fake.lastLaunchParam(2));
            assertEquals(n, fake.lastLaunchParam(3));
            assertEquals(0x1234_5678_9abcL, fake.lastLaunchParam(4));
            assertEquals(1, fake.streamOps(stream));

            MemorySegment result = arena.allocate(JAVA_INT, n);
            out.copyToHost(result, 0);
            assertEquals(0x5678_9abc, result.getAtIndex(JAVA_INT, n - 1));
        }
    }

    @Test
    void aFailedPtxLoadCarriesTheCompilerLog() {
        CudaException e = assertThrows(CudaException.class, () -> context.loadPtx("// a module with a syntax error\n"));
        assertEquals(2, fake.lastJitOptions());
        assertEquals("cuModuleLoadDataEx(PTX, 32 bytes): CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed): "
                + "fake ptxas: line 1: syntax error in the module", e.getMessage());
    }

    @Test
    void aBinaryImageReachesTheDriverAsGiven() {
        try (Module m = context.loadModule("fake cubin, version 1".getBytes(StandardCharsets.US_ASCII))) {
            assertEquals("fake cubin, version 1", fake.lastImage());
            assertEquals("vec_add_u32", m.function("vec_add_u32").name());
        }
        CudaException e = assertThrows(CudaException.class, () -> context.loadModule(new byte[] {0x7f, 'E', 'L', 'F'}));
        assertEquals("cuModuleLoadData(5 bytes): CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid)", e.getMessage());
    }

    @Test
    void eventTimesComeFromTheDriver() {
        try (Stream s = context.createStream();
                Event start = context.createEvent();
                Event end = context.createEvent();
                Event untimed = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING)) {
            start.record(s);
            untimed.record(s);
            end.record(s);
            end.synchronize();
            assertEquals(3.0f, end.elapsedMillisSince(start)); // the fake: 1.5 ms per recording in between
            assertEquals(3, fake.streamOps(s));
            CudaException e = assertThrows(CudaException.class, () -> end.elapsedMillisSince(untimed));
            assertEquals("cuEventElapsedTime_v2: CUDA_ERROR_INVALID_HANDLE (invalid resource handle)", e.getMessage());
        }
    }

    @Test
    void closingFreesEverythingOnce() {
        long device0 = fake.liveDeviceAllocations();
        long pinned0 = fake.livePinnedAllocations();
        long streams0 = fake.liveStreams();
        long events0 = fake.liveEvents();
        long modules0 = fake.liveModules();
        int refs0 = fake.primaryRefs(1);
        Device second = driver.devices().get(1);
        Context ctx = second.retainPrimaryContext();
        assertEquals(refs0 + 1, fake.primaryRefs(1));
        DeviceBuffer d1 = ctx.allocate(MIB);
        DeviceBuffer d2 = ctx.allocate(2 * MIB);
        PinnedBuffer p = ctx.allocatePinned(MIB);
        Stream s = ctx.createStream();
        Event e = ctx.createEvent();
        Module m = ctx.loadPtx(ptx());
        assertEquals(device0 + 2, fake.liveDeviceAllocations());
        assertEquals(pinned0 + 1, fake.livePinnedAllocations());
        assertEquals(streams0 + 1, fake.liveStreams());
        assertEquals(events0 + 1, fake.liveEvents());
        assertEquals(modules0 + 1, fake.liveModules());
        assertEquals(4 * GIB - 3 * MIB, ctx.memoryInfo().free());
        for (AutoCloseable c : List.<AutoCloseable>of(d1, d2, p, s, e, m)) {
            try {
                c.close();
                c.close();
            } catch (Exception ex) {
                throw new AssertionError(ex);
            }
        }
        assertEquals(device0, fake.liveDeviceAllocations());
        assertEquals(pinned0, fake.livePinnedAllocations());
        assertEquals(streams0, fake.liveStreams());
        assertEquals(events0, fake.liveEvents());
        assertEquals(modules0, fake.liveModules());
        ctx.close();
        ctx.close();
        assertEquals(refs0, fake.primaryRefs(1));
        assertThrows(IllegalStateException.class, () -> ctx.allocate(1));
    }

    @Test
    void aContextWorksFromAnyThreadBecauseItMakesItselfCurrent() {
        // a thread with no current context cannot allocate through the raw call
        CudaException raw = assertThrows(CudaException.class,
                () -> rethrow(CompletableFuture.supplyAsync(() -> driver.memAlloc(16)).handle((v, t) -> t)));
        assertEquals("cuMemAlloc_v2(16 bytes): CUDA_ERROR_INVALID_CONTEXT (invalid device context)", raw.getMessage());
        DeviceBuffer b = CompletableFuture.supplyAsync(() -> context.allocate(16)).join();
        CompletableFuture.runAsync(b::close).join();
        assertTrue(b.isClosed());
    }

    private static void rethrow(CompletableFuture<Throwable> f) {
        Throwable t = f.join();
        while (t != null && t.getCause() != null && !(t instanceof CudaException)) {
            t = t.getCause();
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
    }
}
