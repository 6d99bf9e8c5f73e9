package dev.proofline.cuda;

import static dev.proofline.cuda.DriverErrors.call;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The CUDA driver API ({@code libcuda.so.1}) bound through the FFM API.
 *
 * <p>{@link #load()} opens the library (or the one named by the system property
 * {@value #LIBRARY_PROPERTY}), binds the calls, runs {@code cuInit} and counts the devices; it returns
 * either a usable driver or the reason there is none. The methods here are the driver calls one for
 * one, with handles as {@link MemorySegment} addresses and device pointers as {@code long}; every
 * result is checked and an error throws {@link CudaException}. {@link Device}, {@link Context} and the
 * classes they hand out are the typed, closeable layer over them.
 *
 * <p>Calls that work in a context ({@code cuMemAlloc}, {@code cuModuleLoadData}, ...) use the calling
 * thread's current one; the typed layer makes its context current before each of them.
 *
 * <p>{@link DriverLoader} opens the library, {@link DriverBindings} holds the bound calls and
 * {@link DriverErrors} checks their results; this class makes the calls.
 */
@SuppressWarnings("restricted") // binding native code is what this class is for
public final class CudaDriver {

    /** System property naming the driver library to load instead of {@value #DEFAULT_LIBRARY}. */
    public static final String LIBRARY_PROPERTY = "proofline.cuda.library";
    /** The driver library's name, as the dynamic loader finds it. */
    public static final String DEFAULT_LIBRARY = "libcuda.so.1";

    /** {@code CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK}. */
    public static final int ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
    /** {@code CU_DEVICE_ATTRIBUTE_WARP_SIZE}. */
    public static final int ATTRIBUTE_WARP_SIZE = 10;
    /** {@code CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT}. */
    public static final int ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
    /** {@code CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR}. */
    public static final int ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
    /** {@code CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR}. */
    public static final int ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;

    /** {@code CU_STREAM_DEFAULT}. */
    public static final int STREAM_DEFAULT = 0;
    /** {@code CU_STREAM_NON_BLOCKING}: no implicit synchronization with the NULL stream. */
    public static final int STREAM_NON_BLOCKING = 1;
    /** {@code CU_EVENT_DEFAULT}. */
    public static final int EVENT_DEFAULT = 0;
    /** {@code CU_EVENT_BLOCKING_SYNC}. */
    public static final int EVENT_BLOCKING_SYNC = 1;
    /** {@code CU_EVENT_DISABLE_TIMING}. */
    public static final int EVENT_DISABLE_TIMING = 2;
    /** {@code CU_MEMHOSTALLOC_PORTABLE}: pinned for every context, not only the current one. */
    public static final int MEMHOSTALLOC_PORTABLE = 1;
    /** {@code CU_MEMHOSTALLOC_DEVICEMAP}. */
    public static final int MEMHOSTALLOC_DEVICEMAP = 2;
    /** {@code CU_MEMHOSTALLOC_WRITECOMBINED}. */
    public static final int MEMHOSTALLOC_WRITECOMBINED = 4;

    /** {@code CUDA_SUCCESS}. */
    static final int SUCCESS = 0;
    /** {@code CU_JIT_ERROR_LOG_BUFFER} and {@code CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES}. */
    private static final int JIT_ERROR_LOG_BUFFER = 5;
    private static final int JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
    private static final int JIT_LOG_BYTES = 16 * 1024;
    private static final int NAME_BYTES = 256;

    /** Whether the driver could be loaded: {@link Available} with it, or {@link Unavailable} with why not. */
    public sealed interface Availability permits Available, Unavailable {
    }

    /** A loaded, initialized driver that sees at least one device. */
    public record Available(CudaDriver driver) implements Availability {
    }

    /** No usable driver, and the reason (one line). */
    public record Unavailable(String reason) implements Availability {
    }

    /** Free and total memory of the current context's device, in bytes. */
    public record MemoryInfo(long free, long total) {
    }

    private final String library;
    private final int version;

    /** The bound calls, and the checks of their results. */
    private final DriverBindings h;
    private final DriverErrors errors;

    /** A driver over calls bound from {@code library}: runs {@code cuInit} and reads the version. */
    CudaDriver(String library, DriverBindings h) {
        this.library = library;
        this.h = h;
        this.errors = new DriverErrors(h.cuGetErrorName, h.cuGetErrorString);
        init();
        version = driverVersion0();
    }

    // ---- loading ----

    /** Loads the driver named by {@value #LIBRARY_PROPERTY}, or {@value #DEFAULT_LIBRARY} when it is unset. */
    public static Availability load() {
        String library = System.getProperty(LIBRARY_PROPERTY);
        return load(library == null || library.isBlank() ? DEFAULT_LIBRARY : library.strip());
    }

    /**
     * Loads a driver library: a bare name is looked up by the dynamic loader, anything with a
     * {@code /} is a file path. Never throws for a missing or broken driver; that is an
     * {@link Unavailable} with the reason.
     */
    public static Availability load(String library) {
        return DriverLoader.load(library);
    }

    /** The library this driver was loaded from, as it was named. */
    public String library() {
        return library;
    }

    /** {@code cuDriverGetVersion}: 1000 * major + 10 * minor, e.g. 13000 for 13.0. */
    public int version() {
        return version;
    }

    /** The driver version as {@code major.minor}. */
    public String versionString() {
        return version / 1000 + "." + version % 1000 / 10;
    }

    /** Every device, in ordinal order, with its properties read. */
    public List<Device> devices() {
        int n = deviceCount();
        List<Device> devices = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            devices.add(Device.open(this, i));
        }
        return List.copyOf(devices);
    }

    // ---- errors ----

    /** {@code cuGetErrorName}, empty for a code the driver does not know. */
    public Optional<String> errorName(int result) {
        return errors.errorName(result);
    }

    /** {@code cuGetErrorString}, empty for a code the driver does not know. */
    public Optional<String> errorString(int result) {
        return errors.errorString(result);
    }

    // ---- initialization and devices ----

    private void init() {
        errors.check(call(() -> (int) h.cuInit.invokeExact(0)), "cuInit");
    }

    private int driverVersion0() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            errors.check(call(() -> (int) h.cuDriverGetVersion.invokeExact(out)), "cuDriverGetVersion");
            return out.get(JAVA_INT, 0);
        }
    }

    /** {@code cuDeviceGetCount}. */
    public int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            errors.check(call(() -> (int) h.cuDeviceGetCount.invokeExact(out)), "cuDeviceGetCount");
            return out.get(JAVA_INT, 0);
        }
    }

    /** {@code cuDeviceGet}: the device handle of an ordinal. */
    public int device(int ordinal) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            errors.check(call(() -> (int) h.cuDeviceGet.invokeExact(out, ordinal)), "cuDeviceGet(" + ordinal + ")");
            return out.get(JAVA_INT, 0);
        }
    }

    /** {@code cuDeviceGetName}. */
    public String deviceName(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(NAME_BYTES);
            errors.check(call(() -> (int) h.cuDeviceGetName.invokeExact(out, NAME_BYTES, device)),
                    "cuDeviceGetName(device " + device + ")");
            return out.getString(0, StandardCharsets.UTF_8);
        }
    }

    /** {@code cuDeviceTotalMem_v2}, in bytes. */
    public long deviceTotalMemory(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            errors.check(call(() -> (int) h.cuDeviceTotalMem.invokeExact(out, device)),
                    "cuDeviceTotalMem_v2(device " + device + ")");
            return out.get(JAVA_LONG, 0);
        }
    }

    /** {@code cuDeviceGetAttribute}; the {@code ATTRIBUTE_} constants name a few. */
    public int deviceAttribute(int attribute, int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            errors.check(call(() -> (int) h.cuDeviceGetAttribute.invokeExact(out, attribute, device)),
                    "cuDeviceGetAttribute(attribute " + attribute + ", device " + device + ")");
            return out.get(JAVA_INT, 0);
        }
    }

    // ---- contexts ----

    /** {@code cuDevicePrimaryCtxRetain}. */
    public MemorySegment primaryContextRetain(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            errors.check(call(() -> (int) h.cuDevicePrimaryCtxRetain.invokeExact(out, device)),
                    "cuDevicePrimaryCtxRetain(device " + device + ")");
            return out.get(ADDRESS, 0);
        }
    }

    /** {@code cuDevicePrimaryCtxRelease_v2}. */
    public void primaryContextRelease(int device) {
        errors.check(call(() -> (int) h.cuDevicePrimaryCtxRelease.invokeExact(device)),
                "cuDevicePrimaryCtxRelease_v2(device " + device + ")");
    }

    /** {@code cuCtxSetCurrent}: binds a context (or none, with {@link MemorySegment#NULL}) to the calling thread. */
    public void setCurrentContext(MemorySegment context) {
        errors.check(call(() -> (int) h.cuCtxSetCurrent.invokeExact(context)), "cuCtxSetCurrent");
    }

    // ---- modules and launches ----

    /** {@code cuModuleLoadData}: a cubin, fatbin or NUL-terminated PTX image in native memory. */
    public MemorySegment moduleLoadData(MemorySegment image) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            errors.check(call(() -> (int) h.cuModuleLoadData.invokeExact(out, image)),
                    "cuModuleLoadData(" + image.byteSize() + " bytes)");
            return out.get(ADDRESS, 0);
        }
    }

    /**
     * {@code cuModuleLoadDataEx} for PTX text, compiled by the driver's JIT; a failure's message ends
     * with the compiler's error log.
     */
    public MemorySegment moduleLoadPtx(String ptx) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment image = a.allocateFrom(ptx, StandardCharsets.UTF_8);
            MemorySegment log = a.allocate(JIT_LOG_BYTES);
            MemorySegment options = a.allocate(JAVA_INT, 2);
            options.setAtIndex(JAVA_INT, 0, JIT_ERROR_LOG_BUFFER);
            options.setAtIndex(JAVA_INT, 1, JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
            MemorySegment values = a.allocate(ADDRESS, 2);
            values.setAtIndex(ADDRESS, 0, log);
            values.setAtIndex(ADDRESS, 1, MemorySegment.ofAddress(JIT_LOG_BYTES));
            MemorySegment out = a.allocate(ADDRESS);
            int r = call(() -> (int) h.cuModuleLoadDataEx.invokeExact(out, image, 2, options, values));
            if (r != SUCCESS) {
                throw errors.failure(r, "cuModuleLoadDataEx(PTX, " + (image.byteSize() - 1) + " bytes)",
                        log.getString(0, StandardCharsets.UTF_8).strip());
            }
            return out.get(ADDRESS, 0);
        }
    }

    /** {@code cuModuleUnload}. */
    public void moduleUnload(MemorySegment module) {
        errors.check(call(() -> (int) h.cuModuleUnload.invokeExact(module)), "cuModuleUnload");
    }

    /** {@code cuModuleGetFunction}. */
    public MemorySegment moduleGetFunction(MemorySegment module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cname = a.allocateFrom(name, StandardCharsets.UTF_8);
            MemorySegment out = a.allocate(ADDRESS);
            errors.check(call(() -> (int) h.cuModuleGetFunction.invokeExact(out, module, cname)),
                    "cuModuleGetFunction(" + name + ")");
            return out.get(ADDRESS, 0);
        }
    }

    /**
     * {@code cuLaunchKernel} with {@code kernelParams} and no {@code extra}: {@code params} is an
     * array of pointers, one per kernel parameter, each to that parameter's value ({@link KernelArgs}
     * builds one).
     */
    public void launchKernel(MemorySegment function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
            int sharedMemBytes, MemorySegment stream, MemorySegment params) {
        int r = call(() -> (int) h.cuLaunchKernel.invokeExact(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                sharedMemBytes, stream, params, MemorySegment.NULL));
        if (r != SUCCESS) {
            throw errors.failure(r, "cuLaunchKernel(grid " + gridX + "x" + gridY + "x" + gridZ + ", block " + blockX
                    + "x" + blockY + "x" + blockZ + ", " + sharedMemBytes + " bytes shared)", "");
        }
    }

    // ---- streams and events ----

    /** {@code cuStreamCreate}. */
    public MemorySegment streamCreate(int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            errors.check(call(() -> (int) h.cuStreamCreate.invokeExact(out, flags)), "cuStreamCreate");
            return out.get(ADDRESS, 0);
        }
    }

    /** {@code cuStreamDestroy_v2}. */
    public void streamDestroy(MemorySegment stream) {
        errors.check(call(() -> (int) h.cuStreamDestroy.invokeExact(stream)), "cuStreamDestroy_v2");
    }

    /** {@code cuStreamSynchronize}: waits for everything queued on the stream. */
    public void streamSynchronize(MemorySegment stream) {
        errors.check(call(() -> (int) h.cuStreamSynchronize.invokeExact(stream)), "cuStreamSynchronize");
    }

    /** {@code cuStreamWaitEvent}: work queued on the stream after this waits for the event. */
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        errors.check(call(() -> (int) h.cuStreamWaitEvent.invokeExact(stream, event, 0)), "cuStreamWaitEvent");
    }

    /** {@code cuEventCreate}. */
    public MemorySegment eventCreate(int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            errors.check(call(() -> (int) h.cuEventCreate.invokeExact(out, flags)), "cuEventCreate");
            return out.get(ADDRESS, 0);
        }
    }

    /** {@code cuEventRecord}. */
    public void eventRecord(MemorySegment event, MemorySegment stream) {
        errors.check(call(() -> (int) h.cuEventRecord.invokeExact(event, stream)), "cuEventRecord");
    }

    /** {@code cuEventSynchronize}. */
    public void eventSynchronize(MemorySegment event) {
        errors.check(call(() -> (int) h.cuEventSynchronize.invokeExact(event)), "cuEventSynchronize");
    }

    /** {@code cuEventElapsedTime}: milliseconds between two recorded events. */
    public float eventElapsedTime(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_FLOAT);
            errors.check(call(() -> (int) h.cuEventElapsedTime.invokeExact(out, start, end)), h.cuEventElapsedTimeName);
            return out.get(JAVA_FLOAT, 0);
        }
    }

    /** {@code cuEventDestroy_v2}. */
    public void eventDestroy(MemorySegment event) {
        errors.check(call(() -> (int) h.cuEventDestroy.invokeExact(event)), "cuEventDestroy_v2");
    }

    // ---- memory ----

    /** {@code cuMemAlloc_v2}: a device pointer. */
    public long memAlloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            errors.check(call(() -> (int) h.cuMemAlloc.invokeExact(out, bytes)), "cuMemAlloc_v2(" + bytes + " bytes)");
            return out.get(JAVA_LONG, 0);
        }
    }

    /** {@code cuMemFree_v2}. */
    public void memFree(long devicePointer) {
        errors.check(call(() -> (int) h.cuMemFree.invokeExact(devicePointer)),
                "cuMemFree_v2(0x" + Long.toHexString(devicePointer) + ")");
    }

    /** {@code cuMemcpyHtoD_v2}: all of {@code src} (native memory) to the device pointer. */
    public void memcpyHtoD(long dst, MemorySegment src) {
        long n = src.byteSize();
        errors.check(call(() -> (int) h.cuMemcpyHtoD.invokeExact(dst, src, n)), "cuMemcpyHtoD_v2(" + n + " bytes)");
    }

    /** {@code cuMemcpyDtoH_v2}: fills {@code dst} (native memory) from the device pointer. */
    public void memcpyDtoH(MemorySegment dst, long src) {
        long n = dst.byteSize();
        errors.check(call(() -> (int) h.cuMemcpyDtoH.invokeExact(dst, src, n)), "cuMemcpyDtoH_v2(" + n + " bytes)");
    }

    /** {@code cuMemcpyHtoDAsync_v2}; {@code src} must stay valid until the stream has done the copy. */
    public void memcpyHtoDAsync(long dst, MemorySegment src, MemorySegment stream) {
        long n = src.byteSize();
        errors.check(call(() -> (int) h.cuMemcpyHtoDAsync.invokeExact(dst, src, n, stream)),
                "cuMemcpyHtoDAsync_v2(" + n + " bytes)");
    }

    /** {@code cuMemcpyDtoHAsync_v2}; {@code dst} must stay valid until the stream has done the copy. */
    public void memcpyDtoHAsync(MemorySegment dst, long src, MemorySegment stream) {
        long n = dst.byteSize();
        errors.check(call(() -> (int) h.cuMemcpyDtoHAsync.invokeExact(dst, src, n, stream)),
                "cuMemcpyDtoHAsync_v2(" + n + " bytes)");
    }

    /** {@code cuMemHostAlloc}: page-locked host memory, as a segment of {@code bytes} (unbounded lifetime). */
    public MemorySegment memHostAlloc(long bytes, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            errors.check(call(() -> (int) h.cuMemHostAlloc.invokeExact(out, bytes, flags)),
                    "cuMemHostAlloc(" + bytes + " bytes)");
            return out.get(ADDRESS, 0).reinterpret(bytes);
        }
    }

    /** {@code cuMemFreeHost}. */
    public void memFreeHost(MemorySegment pointer) {
        errors.check(call(() -> (int) h.cuMemFreeHost.invokeExact(pointer)), "cuMemFreeHost");
    }

    /** {@code cuMemGetInfo_v2}. */
    public MemoryInfo memGetInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG);
            MemorySegment total = a.allocate(JAVA_LONG);
            errors.check(call(() -> (int) h.cuMemGetInfo.invokeExact(free, total)), "cuMemGetInfo_v2");
            return new MemoryInfo(free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0));
        }
    }

    @Override
    public String toString() {
        return "CUDA driver " + versionString() + " (" + library + ")";
    }
}
