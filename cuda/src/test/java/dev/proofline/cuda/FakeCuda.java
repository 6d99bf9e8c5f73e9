package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
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
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The fake driver of {@code src/test/c/fake_cuda.c}: compiled with gcc into {@code target/} once per
 * JVM, loaded as a CUDA driver through its path, and inspected and steered through its
 * {@code fake_*} functions. Tests that need it skip, with the reason printed, where gcc is missing.
 */
@SuppressWarnings("restricted") // binding native code is what this class is for
public final class FakeCuda {

    private static final List<Path> SOURCES = List.of(Path.of("src/test/c/fake_cuda.c"), Path.of("../cuda/src/test/c/fake_cuda.c"));
    private static FakeCuda instance;
    private static String unavailable;

    private final Path library;
    private final SymbolLookup lookup;

    private FakeCuda(Path library) {
        this.library = library;
        this.lookup = SymbolLookup.libraryLookup(library, Arena.global());
    }

    /** The fake, compiled on first use; skips the calling test (printing why) when it cannot be built. */
    public static synchronized FakeCuda get() {
        if (instance == null && unavailable == null) {
            try {
                instance = new FakeCuda(compile());
            } catch (IOException | IllegalStateException e) {
                unavailable = e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                unavailable = "interrupted while compiling the fake CUDA driver";
            }
        }
        if (instance == null) {
            System.out.println("SKIPPED (fake CUDA driver): " + unavailable);
            Assumptions.abort("fake CUDA driver unavailable: " + unavailable);
        }
        return instance;
    }

    private static Path compile() throws IOException, InterruptedException {
        Path source = SOURCES.stream().filter(Files::isRegularFile).findFirst()
                .orElseThrow(() -> new IllegalStateException("fake_cuda.c not found (looked at " + SOURCES + ")"));
        Path out = Path.of("target", "fake-cuda").toAbsolutePath();
        Files.createDirectories(out);
        Path lib = out.resolve("libfakecuda.so");
        Path log = out.resolve("gcc.log");
        Process gcc;
        try {
            gcc = new ProcessBuilder("gcc", "-std=gnu11", "-O1", "-Wall", "-shared", "-fPIC", "-o", lib.toString(),
                    source.toAbsolutePath().toString(), "-lpthread", "-ldl")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("gcc is not available to build the fake CUDA driver (" + e.getMessage() + ")");
        }
        if (!gcc.waitFor(120, TimeUnit.SECONDS)) {
            gcc.destroyForcibly();
            throw new IllegalStateException("gcc did not finish building the fake CUDA driver");
        }
        if (gcc.exitValue() != 0) {
            throw new IllegalStateException("gcc failed on " + source + ": " + Files.readString(log, StandardCharsets.UTF_8));
        }
        return lib;
    }

    /** The compiled library's path, for {@link CudaDriver#load(String)} or {@value CudaDriver#LIBRARY_PROPERTY}. */
    public Path library() {
        return library;
    }

    /** Loads the fake as the driver; fails the test if that does not work. */
    public CudaDriver driver() {
        return switch (CudaDriver.load(library.toString())) {
            case CudaDriver.Available(CudaDriver d) -> d;
            case CudaDriver.Unavailable(String reason) -> throw new AssertionError("fake driver unavailable: " + reason);
        };
    }

    /** Back to two devices (compute capability 9.0 and 8.6) and a working cuInit. */
    public void reset() {
        setInitResult(0);
        setDeviceCount(2);
        setComputeCapability(0, 9, 0);
        setComputeCapability(1, 8, 6);
    }

    /** The compute capability a device reports from now on. */
    public void setComputeCapability(int device, int major, int minor) {
        invoke("fake_set_compute_capability", null, List.of(JAVA_INT, JAVA_INT, JAVA_INT), device, major, minor);
    }

    /** Bytes of page-locked host memory allocated and not freed. */
    public long livePinnedBytes() {
        return (long) invoke("fake_live_pinned_bytes", JAVA_LONG, List.of());
    }

    /** Bytes of a device's memory allocated and not freed. */
    public long deviceUsed(int device) {
        return (long) invoke("fake_device_used", JAVA_LONG, List.of(JAVA_INT), device);
    }

    /** cuStreamWaitEvent calls on an event never recorded (no-ops in CUDA: a missing dependency). */
    public long waitsOnUnrecordedEvents() {
        return (long) invoke("fake_waits_on_unrecorded", JAVA_LONG, List.of());
    }

    /** Kernel launches that ran on a device so far. */
    public long deviceLaunches(int device) {
        return (long) invoke("fake_device_launches", JAVA_LONG, List.of(JAVA_INT), device);
    }

    /** The most kernels that ran on a device at the same time so far. */
    public int mostRunningOn(int device) {
        return (int) invoke("fake_most_running_on", JAVA_INT, List.of(JAVA_INT), device);
    }

    /** Operations queued on a stream and not yet done (the fake does them when the stream must have). */
    public long pendingOps(Stream stream) {
        return (long) invoke("fake_stream_pending", JAVA_LONG, List.of(ADDRESS), stream.handle());
    }

    private MethodHandle handle(String name, MemoryLayout result, MemoryLayout... args) {
        MemorySegment symbol = lookup.find(name).orElseThrow(() -> new IllegalStateException("fake driver lacks " + name));
        FunctionDescriptor fd = result == null ? FunctionDescriptor.ofVoid(args) : FunctionDescriptor.of(result, args);
        return Linker.nativeLinker().downcallHandle(symbol, fd);
    }

    private Object invoke(String name, MemoryLayout result, List<MemoryLayout> layouts, Object... args) {
        try {
            return handle(name, result, layouts.toArray(MemoryLayout[]::new)).invokeWithArguments(args);
        } catch (Throwable t) {
            throw new IllegalStateException(name, t);
        }
    }

    /**
     * Adds the kernels of a host library (functions {@code int fake_kernel_<name>(unsigned grid_x,
     * unsigned block_x, void **params)}), run when a kernel of that name is launched.
     */
    public void loadKernels(Path library) {
        try (Arena arena = Arena.ofConfined()) {
            int r = (int) invoke("fake_load_kernels", JAVA_INT, List.of(ADDRESS),
                    arena.allocateFrom(library.toAbsolutePath().toString()));
            if (r != 0) {
                throw new IllegalStateException("the fake driver could not load " + library);
            }
        }
    }

    /** Kernels looked up from now on are the fake's own {@code vec_add_u32} only (until the next {@link #loadKernels}). */
    public void unloadKernels() {
        invoke("fake_unload_kernels", null, List.of());
    }

    /**
     * The tests' MSM and NTT kernels for the fake ({@code libfakekernels.so}, built with the host test
     * programs), loaded; skips the calling test, printing why, when they were not built.
     */
    public void loadTestKernels() {
        Path p = HostProgram.directory().resolve("libfakekernels.so");
        if (!Files.isRegularFile(p)) {
            String why = "the fake driver's kernels " + p + " were not built: neither g++ nor nvcc was on the PATH"
                    + " when the module was built";
            System.out.println("SKIPPED (fake CUDA kernels): " + why);
            Assumptions.abort(why);
        }
        loadKernels(p);
    }

    /** What cuInit returns from now on (0: success). */
    public void setInitResult(int result) {
        invoke("fake_set_init_result", null, List.of(JAVA_INT), result);
    }

    /** How many devices cuDeviceGetCount reports (0 to 2). */
    public void setDeviceCount(int count) {
        invoke("fake_set_device_count", null, List.of(JAVA_INT), count);
    }

    public long liveDeviceAllocations() {
        return (long) invoke("fake_live_device_allocations", JAVA_LONG, List.of());
    }

    public long livePinnedAllocations() {
        return (long) invoke("fake_live_pinned_allocations", JAVA_LONG, List.of());
    }

    public long liveStreams() {
        return (long) invoke("fake_live_streams", JAVA_LONG, List.of());
    }

    public long liveEvents() {
        return (long) invoke("fake_live_events", JAVA_LONG, List.of());
    }

    public long liveModules() {
        return (long) invoke("fake_live_modules", JAVA_LONG, List.of());
    }

    /** Retains of a device's primary context not yet released. */
    public int primaryRefs(int device) {
        return (int) invoke("fake_primary_refs", JAVA_INT, List.of(JAVA_INT), device);
    }

    /** Operations (copies, records, waits, launches) queued on a stream so far. */
    public long streamOps(Stream stream) {
        return (long) invoke("fake_stream_ops", JAVA_LONG, List.of(ADDRESS), stream.handle());
    }

    /** The start of the last module image loaded (up to 255 bytes, to the first NUL). */
    public String lastImage() {
        return string("fake_last_image");
    }

    /** How many JIT options the last cuModuleLoadDataEx had. */
    public int lastJitOptions() {
        return (int) invoke("fake_last_jit_options", JAVA_INT, List.of());
    }

    /** Launches so far. */
    public int launchCount() {
        return (int) invoke("fake_launch_count", JAVA_INT, List.of());
    }

    public String lastLaunchFunction() {
        return string("fake_last_launch_function");
    }

    /** Grid x, y, z then block x, y, z of the last launch. */
    public int[] lastLaunchDims() {
        int[] d = new int[6];
        for (int i = 0; i < 6; i++) {
            d[i] = (int) invoke("fake_last_launch_dim", JAVA_INT, List.of(JAVA_INT), i);
        }
        return d;
    }

    public int lastLaunchShared() {
        return (int) invoke("fake_last_launch_shared", JAVA_INT, List.of());
    }

    public MemorySegment lastLaunchStream() {
        return (MemorySegment) invoke("fake_last_launch_stream", ADDRESS, List.of());
    }

    /** Parameter i of the last launch of vec_add_u32 as the fake read it: out, a, b, n, k. */
    public long lastLaunchParam(int i) {
        return (long) invoke("fake_last_launch_param", JAVA_LONG, List.of(JAVA_INT), i);
    }

    private String string(String function) {
        MemorySegment s = (MemorySegment) invoke(function, ADDRESS, List.of());
        return s.reinterpret(256).getString(0, StandardCharsets.UTF_8);
    }
}
