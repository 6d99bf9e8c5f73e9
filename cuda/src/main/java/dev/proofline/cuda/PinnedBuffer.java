package dev.proofline.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Page-locked host memory from {@code cuMemHostAlloc}, as a segment. Closing the buffer ends the
 * segment's scope (later accesses throw instead of touching freed memory) and frees the memory.
 */
@SuppressWarnings("restricted") // gives the driver's allocation its size and this buffer's scope
public final class PinnedBuffer implements AutoCloseable {

    private final Context context;
    private final MemorySegment raw;
    private final Arena scope = Arena.ofShared();
    private final MemorySegment segment;
    private final AtomicBoolean closed = new AtomicBoolean();

    PinnedBuffer(Context context, MemorySegment raw) {
        this.context = context;
        this.raw = raw;
        this.segment = raw.reinterpret(raw.byteSize(), scope, null);
    }

    /** The memory; valid until {@link #close()}. */
    public MemorySegment segment() {
        return segment;
    }

    /** Bytes. */
    public long size() {
        return segment.byteSize();
    }

    /** {@code cuMemFreeHost}; once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            scope.close();
            context.makeCurrent();
            context.driver().memFreeHost(raw);
        }
    }
}
