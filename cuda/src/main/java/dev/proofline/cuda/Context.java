package dev.proofline.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A retained primary context of one device. Everything it creates is made in it: each method makes it
 * the calling thread's current context first, so a context may be used from any thread. Closing it
 * releases the retain; what it created should be closed before.
 */
public final class Context implements AutoCloseable {

    private final Device device;
    private final CudaDriver driver;
    private final MemorySegment handle;
    private final AtomicBoolean closed = new AtomicBoolean();

    Context(Device device, MemorySegment handle) {
        this.device = device;
        this.driver = device.driver();
        this.handle = handle;
    }

    public Device device() {
        return device;
    }

    public CudaDriver driver() {
        return driver;
    }

    /** The {@code CUcontext}. */
    public MemorySegment handle() {
        return handle;
    }

    /** {@code cuCtxSetCurrent}: makes this the calling thread's context. */
    public void makeCurrent() {
        if (closed.get()) {
            throw new IllegalStateException("context of " + device + " is closed");
        }
        driver.setCurrentContext(handle);
    }

    /** {@code cuMemGetInfo}: free and total memory of the device. */
    public CudaDriver.MemoryInfo memoryInfo() {
        makeCurrent();
        return driver.memGetInfo();
    }

    /** {@code cuMemAlloc}: device memory, freed when the buffer is closed. */
    public DeviceBuffer allocate(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("device buffer of " + bytes + " bytes");
        }
        makeCurrent();
        return new DeviceBuffer(this, driver.memAlloc(bytes), bytes);
    }

    /** {@code cuMemHostAlloc} (portable): page-locked host memory, freed when the buffer is closed. */
    public PinnedBuffer allocatePinned(long bytes) {
        return allocatePinned(bytes, CudaDriver.MEMHOSTALLOC_PORTABLE);
    }

    /** {@code cuMemHostAlloc} with the given {@code MEMHOSTALLOC_} flags. */
    public PinnedBuffer allocatePinned(long bytes, int flags) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("pinned buffer of " + bytes + " bytes");
        }
        makeCurrent();
        return new PinnedBuffer(this, driver.memHostAlloc(bytes, flags));
    }

    /** A stream that does not synchronize with the NULL stream. */
    public Stream createStream() {
        return createStream(CudaDriver.STREAM_NON_BLOCKING);
    }

    /** {@code cuStreamCreate} with the given {@code STREAM_} flags. */
    public Stream createStream(int flags) {
        makeCurrent();
        return new Stream(this, driver.streamCreate(flags));
    }

    /** An event that records timing. */
    public Event createEvent() {
        return createEvent(CudaDriver.EVENT_DEFAULT);
    }

    /** {@code cuEventCreate} with the given {@code EVENT_} flags. */
    public Event createEvent(int flags) {
        makeCurrent();
        return new Event(this, driver.eventCreate(flags));
    }

    /** {@code cuModuleLoadData}: a cubin or fatbin image (or PTX text with a terminating NUL). */
    public Module loadModule(byte[] image) {
        makeCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment copy = a.allocate(image.length + 1L, 16);
            MemorySegment.copy(image, 0, copy, ValueLayout.JAVA_BYTE, 0, image.length);
            return new Module(this, driver.moduleLoadData(copy));
        }
    }

    /** {@code cuModuleLoadDataEx}: PTX text, compiled by the driver for this device. */
    public Module loadPtx(String ptx) {
        makeCurrent();
        return new Module(this, driver.moduleLoadPtx(ptx));
    }

    /** Whether {@link #close()} has run. */
    public boolean isClosed() {
        return closed.get();
    }

    /** {@code cuDevicePrimaryCtxRelease}; once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            driver.primaryContextRelease(device.handle());
        }
    }

    @Override
    public String toString() {
        return "primary context of " + device;
    }
}
