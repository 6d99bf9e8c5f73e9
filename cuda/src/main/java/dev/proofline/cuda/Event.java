package dev.proofline.cuda;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/** An event ({@code CUevent}); closing it destroys it. */
public final class Event implements AutoCloseable {

    private final Context context;
    private final MemorySegment handle;
    private final AtomicBoolean closed = new AtomicBoolean();

    Event(Context context, MemorySegment handle) {
        this.context = context;
        this.handle = handle;
    }

    public MemorySegment handle() {
        return handle;
    }

    /** {@code cuEventRecord} on a stream (null: the NULL stream). */
    public void record(Stream stream) {
        context.makeCurrent();
        context.driver().eventRecord(handle, stream == null ? MemorySegment.NULL : stream.handle());
    }

    /** {@code cuEventSynchronize}: waits until the recorded work is done. */
    public void synchronize() {
        context.makeCurrent();
        context.driver().eventSynchronize(handle);
    }

    /** {@code cuEventElapsedTime}: milliseconds from {@code start} to this event, both recorded and done. */
    public float elapsedMillisSince(Event start) {
        context.makeCurrent();
        return context.driver().eventElapsedTime(start.handle, handle);
    }

    /** {@code cuEventDestroy}; once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            context.makeCurrent();
            context.driver().eventDestroy(handle);
        }
    }
}
