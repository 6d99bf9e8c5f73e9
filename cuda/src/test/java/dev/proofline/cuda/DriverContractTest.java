package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What any driver must do through these bindings: the fake one ({@link FakeDriverTest}) and a real
 * one on a machine with a GPU ({@link GpuDriverTest}).
 */
abstract class DriverContractTest {

    static final int MIB = 1 << 20;

    /** The driver under test; the subclass skips the tests when it has none. */
    abstract CudaDriver driver();

    Device device;
    Context context;

    @BeforeEach
    void openContext() {
        device = driver().devices().getFirst();
        context = device.retainPrimaryContext();
    }

    @AfterEach
    void closeContext() {
        if (context != null) {
            context.close();
        }
    }

    static byte[] resource(String name) {
        try (InputStream in = DriverContractTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String ptx() {
        return new String(resource("vec_add_u32.ptx"), StandardCharsets.UTF_8);
    }

    @Test
    void devicesHaveNamesMemoryComputeCapabilityAndMultiprocessors() {
        List<Device> devices = driver().devices();
        assertEquals(driver().deviceCount(), devices.size());
        assertFalse(devices.isEmpty());
        for (int i = 0; i < devices.size(); i++) {
            Device d = devices.get(i);
            assertEquals(i, d.ordinal());
            assertFalse(d.name().isBlank(), d.toString());
            assertTrue(d.totalMemory() > 0, d.toString());
            assertTrue(d.computeMajor() >= 3, d.computeCapability());
            assertTrue(d.multiprocessors() > 0, d.toString());
            assertEquals(d.multiprocessors(), d.attribute(CudaDriver.ATTRIBUTE_MULTIPROCESSOR_COUNT));
        }
        assertTrue(driver().version() >= 1000, driver().versionString());
    }

    @Test
    void memoryInfoIsWithinTheDevice() {
        CudaDriver.MemoryInfo info = context.memoryInfo();
        assertTrue(info.total() > 0 && info.free() <= info.total(), info.toString());
    }

    @Test
    void severalMegabytesRoundTripThroughPinnedMemoryOnAStream() {
        int n = 4 * MIB + 12;
        byte[] data = new byte[n];
        new Random(7).nextBytes(data);
        try (PinnedBuffer src = context.allocatePinned(n);
                PinnedBuffer dst = context.allocatePinned(n);
                DeviceBuffer dev = context.allocate(n);
                Stream stream = context.createStream()) {
            MemorySegment.copy(data, 0, src.segment(), JAVA_BYTE, 0, n);
            dev.copyFromHostAsync(src.segment(), 0, stream);
            dev.copyToHostAsync(dst.segment(), 0, stream);
            stream.synchronize();
            assertEquals(-1, src.segment().mismatch(dst.segment()));

            // offsets: the second half back over the first, then read from an offset
            int half = n / 2;
            dev.copyFromHostAsync(src.segment().asSlice(half, half), 0, stream);
            dev.copyToHostAsync(dst.segment().asSlice(0, 100), half - 50, stream);
            stream.synchronize();
            assertEquals(-1, dst.segment().asSlice(0, 50).mismatch(src.segment().asSlice(2 * half - 50, 50)));
            assertEquals(-1, dst.segment().asSlice(50, 50).mismatch(src.segment().asSlice(half, 50)));
        }
    }

    @Test
    void synchronousCopiesFromAndToArenaMemory() {
        try (Arena arena = Arena.ofConfined(); DeviceBuffer dev = context.allocate(MIB)) {
            MemorySegment in = arena.allocate(MIB);
            for (int i = 0; i < MIB / 4; i++) {
                in.setAtIndex(JAVA_INT, i, i * 31 + 5);
            }
            MemorySegment out = arena.allocate(MIB);
            dev.copyFromHost(in, 0);
            dev.copyToHost(out, 0);
            assertEquals(-1, in.mismatch(out));
            assertThrows(IndexOutOfBoundsException.class, () -> dev.copyToHost(out, 1));
            assertThrows(IllegalArgumentException.class, () -> dev.copyFromHost(MemorySegment.ofArray(new byte[4]), 0));
        }
    }

    @Test
    void aPtxKernelAddsVectorsWithEveryKindOfArgument() {
        int n = 1000;
        int block = 256;
        try (Arena arena = Arena.ofConfined();
                Module module = context.loadPtx(ptx());
                DeviceBuffer a = context.allocate(4L * n);
                DeviceBuffer b = context.allocate(4L * n);
                DeviceBuffer out = context.allocate(4L * n);
                Stream stream = context.createStream()) {
            runVecAdd(arena, module, a, b, out, stream, n, block);
        }
    }

    /** Launches vec_add_u32 with k = 2^32 + 7 (the kernel keeps the low 32 bits) and checks out. */
    static void runVecAdd(Arena arena, Module module, DeviceBuffer a, DeviceBuffer b, DeviceBuffer out, Stream stream, int n,
            int block) {
        MemorySegment ha = arena.allocate(JAVA_INT, n);
        MemorySegment hb = arena.allocate(JAVA_INT, n);
        for (int i = 0; i < n; i++) {
            ha.setAtIndex(JAVA_INT, i, i);
            hb.setAtIndex(JAVA_INT, i, 3 * i);
        }
        a.copyFromHost(ha, 0);
        b.copyFromHost(hb, 0);
        Function f = module.function("vec_add_u32");
        KernelArgs args = new KernelArgs(arena).pointer(out).pointer(a).pointer(b).i32(n).i64((1L << 32) + 7);
        f.launch(Dim3.of((n + block - 1) / block), Dim3.of(block), 0, stream, args);
        stream.synchronize();
        MemorySegment result = arena.allocate(JAVA_INT, n);
        out.copyToHost(result, 0);
        for (int i = 0; i < n; i++) {
            assertEquals(4 * i + 7, result.getAtIndex(JAVA_INT, i), "out[" + i + "]");
        }
    }

    @Test
    void anUnknownKernelIsNotFound() {
        try (Module module = context.loadPtx(ptx())) {
            CudaException e = assertThrows(CudaException.class, () -> module.function("no_such_kernel"));
            assertEquals("CUDA_ERROR_NOT_FOUND", e.errorName());
            assertTrue(e.getMessage().startsWith("cuModuleGetFunction(no_such_kernel): CUDA_ERROR_NOT_FOUND ("), e.getMessage());
        }
    }

    @Test
    void allocatingMoreThanTheDeviceHasIsOutOfMemory() {
        long bytes = device.totalMemory() * 2;
        CudaException e = assertThrows(CudaException.class, () -> context.allocate(bytes));
        assertEquals(2, e.code());
        assertTrue(e.getMessage().startsWith("cuMemAlloc_v2(" + bytes + " bytes): CUDA_ERROR_OUT_OF_MEMORY ("), e.getMessage());
    }

    @Test
    void eventsOrderStreamsAndMeasureTheWorkBetweenThem() {
        try (PinnedBuffer host = context.allocatePinned(MIB);
                DeviceBuffer dev = context.allocate(MIB);
                Stream first = context.createStream();
                Stream second = context.createStream();
                Event start = context.createEvent();
                Event end = context.createEvent()) {
            host.segment().fill((byte) 0x5a);
            start.record(first);
            dev.copyFromHostAsync(host.segment(), 0, first);
            end.record(first);
            second.waitFor(end);
            end.synchronize();
            host.segment().fill((byte) 0); // the upload has been done: end came after it
            dev.copyToHostAsync(host.segment(), 0, second);
            second.synchronize();
            assertEquals(0x5a, host.segment().get(JAVA_BYTE, MIB - 1));
            float ms = end.elapsedMillisSince(start);
            assertTrue(ms >= 0 && !Float.isNaN(ms), "elapsed " + ms);
        }
    }

    @Test
    void closedBuffersRefuseUse() {
        PinnedBuffer pinned = context.allocatePinned(64);
        MemorySegment segment = pinned.segment();
        DeviceBuffer dev = context.allocate(64);
        pinned.close();
        pinned.close();
        dev.close();
        dev.close();
        assertThrows(IllegalStateException.class, () -> segment.get(JAVA_BYTE, 0));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(64);
            assertThrows(IllegalStateException.class, () -> dev.copyToHost(host, 0));
        }
    }
}
