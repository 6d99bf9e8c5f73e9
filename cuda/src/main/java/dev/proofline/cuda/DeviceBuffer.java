package dev.proofline.cuda;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Device memory from {@code cuMemAlloc}; closing it frees it. Copies take native host segments (pinned
 * ones, from {@link PinnedBuffer}, for copies that overlap other work) and an offset into this buffer;
 * the async ones are queued on a stream, and their host memory must stay valid until the stream has
 * done them.
 */
public final class DeviceBuffer implements AutoCloseable {

    private final Context context;
    private final long address;
    private final long size;
    private final AtomicBoolean closed = new AtomicBoolean();

    DeviceBuffer(Context context, long address, long size) {
        this.context = context;
        this.address = address;
        this.size = size;
    }

    /** The {@code CUdeviceptr}. */
    public long address() {
        return address;
    }

    /** Bytes. */
    public long size() {
        return size;
    }

    /** {@code cuMemcpyHtoD}: all of {@code src} to this buffer at {@code offset}. */
    public void copyFromHost(MemorySegment src, long offset) {
        context.makeCurrent();
        context.driver().memcpyHtoD(at(offset, src), src);
    }

    /** {@code cuMemcpyDtoH}: fills {@code dst} from this buffer at {@code offset}. */
    public void copyToHost(MemorySegment dst, long offset) {
        context.makeCurrent();
        context.driver().memcpyDtoH(dst, at(offset, dst));
    }

    /** {@code cuMemcpyHtoDAsync} on {@code stream}. */
    public void copyFromHostAsync(MemorySegment src, long offset, Stream stream) {
        context.makeCurrent();
        context.driver().memcpyHtoDAsync(at(offset, src), src, stream.handle());
    }

    /** {@code cuMemcpyDtoHAsync} on {@code stream}. */
    public void copyToHostAsync(MemorySegment dst, long offset, Stream stream) {
        context.makeCurrent();
        context.driver().memcpyDtoHAsync(dst, at(offset, dst), stream.handle());
    }

    /** The device address for {@code host.byteSize()} bytes at {@code offset}, checked. */
    private long at(long offset, MemorySegment host) {
        Objects.requireNonNull(host, "host segment");
        if (closed.get()) {
            throw new IllegalStateException("device buffer is closed");
        }
        if (!host.isNative()) {
            throw new IllegalArgumentException("host memory for a CUDA copy must be native, not on the Java heap");
        }
        long n = host.byteSize();
        if (offset < 0 || n > size || offset > size - n) {
            throw new IndexOutOfBoundsException(n + " bytes at offset " + offset + " of a " + size + "-byte device buffer");
        }
        return address + offset;
    }

    /** Whether {@link #close()} has run. */
    public boolean isClosed() {
        return closed.get();
    }

    /** {@code cuMemFree}; once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            context.makeCurrent();
            context.driver().memFree(address);
        }
    }

    @Override
    public String toString() {
        return size + " bytes at 0x" + Long.toHexString(address) + " on " + context.device();
    }
}
