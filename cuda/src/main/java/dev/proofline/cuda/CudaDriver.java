package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    private final MethodHandle cuGetErrorName;
    private final MethodHandle cuGetErrorString;
    private final MethodHandle cuInit;
    private final MethodHandle cuDriverGetVersion;
    private final MethodHandle cuDeviceGetCount;
    private final MethodHandle cuDeviceGet;
    private final MethodHandle cuDeviceGetName;
    private final MethodHandle cuDeviceTotalMem;
    private final MethodHandle cuDeviceGetAttribute;
    private final MethodHandle cuDevicePrimaryCtxRetain;
    private final MethodHandle cuDevicePrimaryCtxRelease;
    private final MethodHandle cuCtxSetCurrent;
    private final MethodHandle cuModuleLoadData;
    private final MethodHandle cuModuleLoadDataEx;
    private final MethodHandle cuModuleUnload;
    private final MethodHandle cuModuleGetFunction;
    private final MethodHandle cuLaunchKernel;
    private final MethodHandle cuStreamCreate;
    private final MethodHandle cuStreamDestroy;
    private final MethodHandle cuStreamSynchronize;
    private final MethodHandle cuStreamWaitEvent;
    private final MethodHandle cuEventCreate;
    private final MethodHandle cuEventRecord;
    private final MethodHandle cuEventSynchronize;
    private final MethodHandle cuEventElapsedTime;
    private final String cuEventElapsedTimeName;
    private final MethodHandle cuEventDestroy;
    private final MethodHandle cuMemAlloc;
    private final MethodHandle cuMemFree;
    private final MethodHandle cuMemcpyHtoD;
    private final MethodHandle cuMemcpyDtoH;
    private final MethodHandle cuMemcpyHtoDAsync;
    private final MethodHandle cuMemcpyDtoHAsync;
    private final MethodHandle cuMemHostAlloc;
    private final MethodHandle cuMemFreeHost;
    private final MethodHandle cuMemGetInfo;

    /** A symbol the library lacks. */
    private static final class MissingSymbol extends Exception {
        MissingSymbol(String name) {
            super(name, null, false, false);
        }
    }

    /** Binds symbols of one library. */
    private record Binder(SymbolLookup lookup, Linker linker) {

        MethodHandle bind(String name, MemoryLayout... args) throws MissingSymbol {
            return bindFirst(new String[] {name}, args).handle();
        }

        record Bound(String name, MethodHandle handle) {
        }

        /** The first of the names the library has (newer versions of a call first). */
        Bound bindFirst(String[] names, MemoryLayout... args) throws MissingSymbol {
            for (String name : names) {
                Optional<MemorySegment> symbol = lookup.find(name);
                if (symbol.isPresent()) {
                    return new Bound(name, linker.downcallHandle(symbol.get(), FunctionDescriptor.of(JAVA_INT, args)));
                }
            }
            throw new MissingSymbol(names[0]);
        }
    }

    private CudaDriver(String library, Binder b) throws MissingSymbol {
        this.library = library;
        cuGetErrorName = b.bind("cuGetErrorName", JAVA_INT, ADDRESS);
        cuGetErrorString = b.bind("cuGetErrorString", JAVA_INT, ADDRESS);
        cuInit = b.bind("cuInit", JAVA_INT);
        cuDriverGetVersion = b.bind("cuDriverGetVersion", ADDRESS);
        cuDeviceGetCount = b.bind("cuDeviceGetCount", ADDRESS);
        cuDeviceGet = b.bind("cuDeviceGet", ADDRESS, JAVA_INT);
        cuDeviceGetName = b.bind("cuDeviceGetName", ADDRESS, JAVA_INT, JAVA_INT);
        cuDeviceTotalMem = b.bind("cuDeviceTotalMem_v2", ADDRESS, JAVA_INT);
        cuDeviceGetAttribute = b.bind("cuDeviceGetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
        cuDevicePrimaryCtxRetain = b.bind("cuDevicePrimaryCtxRetain", ADDRESS, JAVA_INT);
        cuDevicePrimaryCtxRelease = b.bind("cuDevicePrimaryCtxRelease_v2", JAVA_INT);
        cuCtxSetCurrent = b.bind("cuCtxSetCurrent", ADDRESS);
        cuModuleLoadData = b.bind("cuModuleLoadData", ADDRESS, ADDRESS);
        cuModuleLoadDataEx = b.bind("cuModuleLoadDataEx", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        cuModuleUnload = b.bind("cuModuleUnload", ADDRESS);
        cuModuleGetFunction = b.bind("cuModuleGetFunction", ADDRESS, ADDRESS, ADDRESS);
        cuLaunchKernel = b.bind("cuLaunchKernel", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        cuStreamCreate = b.bind("cuStreamCreate", ADDRESS, JAVA_INT);
        cuStreamDestroy = b.bind("cuStreamDestroy_v2", ADDRESS);
        cuStreamSynchronize = b.bind("cuStreamSynchronize", ADDRESS);
        cuStreamWaitEvent = b.bind("cuStreamWaitEvent", ADDRESS, ADDRESS, JAVA_INT);
        cuEventCreate = b.bind("cuEventCreate", ADDRESS, JAVA_INT);
        cuEventRecord = b.bind("cuEventRecord", ADDRESS, ADDRESS);
        cuEventSynchronize = b.bind("cuEventSynchronize", ADDRESS);
        // cuda.h maps cuEventElapsedTime to the _v2 symbol (drivers from 12.8 on); older drivers have only the first
        Binder.Bound elapsed = b.bindFirst(new String[] {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
                ADDRESS, ADDRESS, ADDRESS);
        cuEventElapsedTime = elapsed.handle();
        cuEventElapsedTimeName = elapsed.name();
        cuEventDestroy = b.bind("cuEventDestroy_v2", ADDRESS);
        cuMemAlloc = b.bind("cuMemAlloc_v2", ADDRESS, JAVA_LONG);
        cuMemFree = b.bind("cuMemFree_v2", JAVA_LONG);
        cuMemcpyHtoD = b.bind("cuMemcpyHtoD_v2", JAVA_LONG, ADDRESS, JAVA_LONG);
        cuMemcpyDtoH = b.bind("cuMemcpyDtoH_v2", ADDRESS, JAVA_LONG, JAVA_LONG);
        cuMemcpyHtoDAsync = b.bind("cuMemcpyHtoDAsync_v2", JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);
        cuMemcpyDtoHAsync = b.bind("cuMemcpyDtoHAsync_v2", ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
        cuMemHostAlloc = b.bind("cuMemHostAlloc", ADDRESS, JAVA_LONG, JAVA_INT);
        cuMemFreeHost = b.bind("cuMemFreeHost", ADDRESS);
        cuMemGetInfo = b.bind("cuMemGetInfo_v2", ADDRESS, ADDRESS);
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
        SymbolLookup lookup;
        try {
            if (library.contains("/")) {
                Path path = Path.of(library);
                if (!Files.exists(path)) {
                    return new Unavailable(library + " not found");
                }
                if (!isSharedObject(path)) {
                    return new Unavailable(library + " could not be loaded: not an ELF shared object");
                }
                lookup = SymbolLookup.libraryLookup(path, Arena.global());
            } else {
                lookup = SymbolLookup.libraryLookup(library, Arena.global());
            }
        } catch (IllegalArgumentException e) {
            return new Unavailable(library.equals(DEFAULT_LIBRARY)
                    ? DEFAULT_LIBRARY + " not found: no NVIDIA driver on this machine"
                    : library + " could not be loaded: " + e.getMessage());
        }
        CudaDriver driver;
        try {
            driver = new CudaDriver(library, new Binder(lookup, Linker.nativeLinker()));
        } catch (MissingSymbol e) {
            return new Unavailable(library + " is not a usable CUDA driver: it has no " + e.getMessage());
        } catch (CudaException e) {
            return new Unavailable(e.getMessage());
        }
        try {
            if (driver.deviceCount() == 0) {
                return new Unavailable("no CUDA device (driver " + driver.versionString() + ")");
            }
        } catch (CudaException e) {
            return new Unavailable(e.getMessage());
        }
        return new Available(driver);
    }

    /**
     * Whether a file starts as an ELF object does, on Linux (elsewhere: whether it is readable). The
     * dynamic loader would refuse anything else too, but the JVM may print warnings on the way.
     */
    private static boolean isSharedObject(Path path) {
        try (var in = Files.newInputStream(path)) {
            byte[] magic = in.readNBytes(4);
            return !System.getProperty("os.name", "").startsWith("Linux")
                    || (magic.length == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F');
        } catch (java.io.IOException e) {
            return false;
        }
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

    /** Calls one bound function; what it throws other than runtime exceptions and errors cannot happen. */
    @FunctionalInterface
    private interface Call {
        int run() throws Throwable;
    }

    private static int call(Call c) {
        try {
            return c.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private void check(int result, String call) {
        if (result != SUCCESS) {
            throw failure(result, call, "");
        }
    }

    private CudaException failure(int result, String call, String detail) {
        String name = errorName(result).orElse("CUDA error " + result);
        String text = errorString(result).orElse("no description");
        return new CudaException(call, result, name, text, detail);
    }

    /** {@code cuGetErrorName}, empty for a code the driver does not know. */
    public Optional<String> errorName(int result) {
        return errorText(cuGetErrorName, result);
    }

    /** {@code cuGetErrorString}, empty for a code the driver does not know. */
    public Optional<String> errorString(int result) {
        return errorText(cuGetErrorString, result);
    }

    private static Optional<String> errorText(MethodHandle h, int result) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int r = call(() -> (int) h.invokeExact(result, out));
            MemorySegment s = out.get(ADDRESS, 0);
            if (r != SUCCESS || s.equals(MemorySegment.NULL)) {
                return Optional.empty();
            }
            return Optional.of(s.reinterpret(Long.MAX_VALUE).getString(0));
        }
    }

    // ---- initialization and devices ----

    private void init() {
        check(call(() -> (int) cuInit.invokeExact(0)), "cuInit");
    }

    private int driverVersion0() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            check(call(() -> (int) cuDriverGetVersion.invokeExact(out)), "cuDriverGetVersion");
            return out.get(JAVA_INT, 0);
        }
    }

    /** {@code cuDeviceGetCount}. */
    public int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            check(call(() -> (int) cuDeviceGetCount.invokeExact(out)), "cuDeviceGetCount");
            return out.get(JAVA_INT, 0);
        }
    }

    /** {@code cuDeviceGet}: the device handle of an ordinal. */
    public int device(int ordinal) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            check(call(() -> (int) cuDeviceGet.invokeExact(out, ordinal)), "cuDeviceGet(" + ordinal + ")");
            return out.get(JAVA_INT, 0);
        }
    }

    /** {@code cuDeviceGetName}. */
    public String deviceName(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(NAME_BYTES);
            check(call(() -> (int) cuDeviceGetName.invokeExact(out, NAME_BYTES, device)), "cuDeviceGetName(device " + device + ")");
            return out.getString(0, StandardCharsets.UTF_8);
        }
    }

    /** {@code cuDeviceTotalMem_v2}, in bytes. */
    public long deviceTotalMemory(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            check(call(() -> (int) cuDeviceTotalMem.invokeExact(out, device)), "cuDeviceTotalMem_v2(device " + device + ")");
            return out.get(JAVA_LONG, 0);
        }
    }

    /** {@code cuDeviceGetAttribute}; the {@code ATTRIBUTE_} constants name a few. */
    public int deviceAttribute(int attribute, int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            check(call(() -> (int) cuDeviceGetAttribute.invokeExact(out, attribute, device)),
                    "cuDeviceGetAttribute(attribute " + attribute + ", device " + device + ")");
            return out.get(JAVA_INT, 0);
        }
    }

    // ---- contexts ----

    /** {@code cuDevicePrimaryCtxRetain}. */
    public MemorySegment primaryContextRetain(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check(call(() -> (int) cuDevicePrimaryCtxRetain.invokeExact(out, device)),
                    "cuDevicePrimaryCtxRetain(device " + device + ")");
            return out.get(ADDRESS, 0);
        }
    }

    /** {@code cuDevicePrimaryCtxRelease_v2}. */
    public void primaryContextRelease(int device) {
        check(call(() -> (int) cuDevicePrimaryCtxRelease.invokeExact(device)), "cuDevicePrimaryCtxRelease_v2(device " + device + ")");
    }

    /** {@code cuCtxSetCurrent}: binds a context (or none, with {@link MemorySegment#NULL}) to the calling thread. */
    public void setCurrentContext(MemorySegment context) {
        check(call(() -> (int) cuCtxSetCurrent.invokeExact(context)), "cuCtxSetCurrent");
    }

    // ---- modules and launches ----

    /** {@code cuModuleLoadData}: a cubin, fatbin or NUL-terminated PTX image in native memory. */
    public MemorySegment moduleLoadData(MemorySegment image) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check(call(() -> (int) cuModuleLoadData.invokeExact(out, image)), "cuModuleLoadData(" + image.byteSize() + " bytes)");
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
            int r = call(() -> (int) cuModuleLoadDataEx.invokeExact(out, image, 2, options, values));
            if (r != SUCCESS) {
                throw failure(r, "cuModuleLoadDataEx(PTX, " + (image.byteSize() - 1) + " bytes)",
                        log.getString(0, StandardCharsets.UTF_8).strip());
            }
            return out.get(ADDRESS, 0);
        }
    }

    /** {@code cuModuleUnload}. */
    public void moduleUnload(MemorySegment module) {
        check(call(() -> (int) cuModuleUnload.invokeExact(module)), "cuModuleUnload");
    }

    /** {@code cuModuleGetFunction}. */
    public MemorySegment moduleGetFunction(MemorySegment module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cname = a.allocateFrom(name, StandardCharsets.UTF_8);
            MemorySegment out = a.allocate(ADDRESS);
            check(call(() -> (int) cuModuleGetFunction.invokeExact(out, module, cname)), "cuModuleGetFunction(" + name + ")");
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
        int r = call(() -> (int) cuLaunchKernel.invokeExact(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                sharedMemBytes, stream, params, MemorySegment.NULL));
        if (r != SUCCESS) {
            throw failure(r, "cuLaunchKernel(grid " + gridX + "x" + gridY + "x" + gridZ + ", block " + blockX + "x" + blockY
                    + "x" + blockZ + ", " + sharedMemBytes + " bytes shared)", "");
        }
    }

    // ---- streams and events ----

    /** {@code cuStreamCreate}. */
    public MemorySegment streamCreate(int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check(call(() -> (int) cuStreamCreate.invokeExact(out, flags)), "cuStreamCreate");
            return out.get(ADDRESS, 0);
        }
    }

    /** {@code cuStreamDestroy_v2}. */
    public void streamDestroy(MemorySegment stream) {
        check(call(() -> (int) cuStreamDestroy.invokeExact(stream)), "cuStreamDestroy_v2");
    }

    /** {@code cuStreamSynchronize}: waits for everything queued on the stream. */
    public void streamSynchronize(MemorySegment stream) {
        check(call(() -> (int) cuStreamSynchronize.invokeExact(stream)), "cuStreamSynchronize");
    }

    /** {@code cuStreamWaitEvent}: work queued on the stream after this waits for the event. */
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        check(call(() -> (int) cuStreamWaitEvent.invokeExact(stream, event, 0)), "cuStreamWaitEvent");
    }

    /** {@code cuEventCreate}. */
    public MemorySegment eventCreate(int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check(call(() -> (int) cuEventCreate.invokeExact(out, flags)), "cuEventCreate");
            return out.get(ADDRESS, 0);
        }
    }

    /** {@code cuEventRecord}. */
    public void eventRecord(MemorySegment event, MemorySegment stream) {
        check(call(() -> (int) cuEventRecord.invokeExact(event, stream)), "cuEventRecord");
    }

    /** {@code cuEventSynchronize}. */
    public void eventSynchronize(MemorySegment event) {
        check(call(() -> (int) cuEventSynchronize.invokeExact(event)), "cuEventSynchronize");
    }

    /** {@code cuEventElapsedTime}: milliseconds between two recorded events. */
    public float eventElapsedTime(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_FLOAT);
            check(call(() -> (int) cuEventElapsedTime.invokeExact(out, start, end)), cuEventElapsedTimeName);
            return out.get(JAVA_FLOAT, 0);
        }
    }

    /** {@code cuEventDestroy_v2}. */
    public void eventDestroy(MemorySegment event) {
        check(call(() -> (int) cuEventDestroy.invokeExact(event)), "cuEventDestroy_v2");
    }

    // ---- memory ----

    /** {@code cuMemAlloc_v2}: a device pointer. */
    public long memAlloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            check(call(() -> (int) cuMemAlloc.invokeExact(out, bytes)), "cuMemAlloc_v2(" + bytes + " bytes)");
            return out.get(JAVA_LONG, 0);
        }
    }

    /** {@code cuMemFree_v2}. */
    public void memFree(long devicePointer) {
        check(call(() -> (int) cuMemFree.invokeExact(devicePointer)), "cuMemFree_v2(0x" + Long.toHexString(devicePointer) + ")");
    }

    /** {@code cuMemcpyHtoD_v2}: all of {@code src} (native memory) to the device pointer. */
    public void memcpyHtoD(long dst, MemorySegment src) {
        long n = src.byteSize();
        check(call(() -> (int) cuMemcpyHtoD.invokeExact(dst, src, n)), "cuMemcpyHtoD_v2(" + n + " bytes)");
    }

    /** {@code cuMemcpyDtoH_v2}: fills {@code dst} (native memory) from the device pointer. */
    public void memcpyDtoH(MemorySegment dst, long src) {
        long n = dst.byteSize();
        check(call(() -> (int) cuMemcpyDtoH.invokeExact(dst, src, n)), "cuMemcpyDtoH_v2(" + n + " bytes)");
    }

    /** {@code cuMemcpyHtoDAsync_v2}; {@code src} must stay valid until the stream has done the copy. */
    public void memcpyHtoDAsync(long dst, MemorySegment src, MemorySegment stream) {
        long n = src.byteSize();
        check(call(() -> (int) cuMemcpyHtoDAsync.invokeExact(dst, src, n, stream)), "cuMemcpyHtoDAsync_v2(" + n + " bytes)");
    }

    /** {@code cuMemcpyDtoHAsync_v2}; {@code dst} must stay valid until the stream has done the copy. */
    public void memcpyDtoHAsync(MemorySegment dst, long src, MemorySegment stream) {
        long n = dst.byteSize();
        check(call(() -> (int) cuMemcpyDtoHAsync.invokeExact(dst, src, n, stream)), "cuMemcpyDtoHAsync_v2(" + n + " bytes)");
    }

    /** {@code cuMemHostAlloc}: page-locked host memory, as a segment of {@code bytes} (unbounded lifetime). */
    public MemorySegment memHostAlloc(long bytes, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check(call(() -> (int) cuMemHostAlloc.invokeExact(out, bytes, flags)), "cuMemHostAlloc(" + bytes + " bytes)");
            return out.get(ADDRESS, 0).reinterpret(bytes);
        }
    }

    /** {@code cuMemFreeHost}. */
    public void memFreeHost(MemorySegment pointer) {
        check(call(() -> (int) cuMemFreeHost.invokeExact(pointer)), "cuMemFreeHost");
    }

    /** {@code cuMemGetInfo_v2}. */
    public MemoryInfo memGetInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG);
            MemorySegment total = a.allocate(JAVA_LONG);
            check(call(() -> (int) cuMemGetInfo.invokeExact(free, total)), "cuMemGetInfo_v2");
            return new MemoryInfo(free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0));
        }
    }

    @Override
    public String toString() {
        return "CUDA driver " + versionString() + " (" + library + ")";
    }
}
