package dev.proofline.cuda;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/** A stream ({@code CUstream}); closing it destroys it (work already queued still completes). */
public final class Stream implements AutoCloseable {

    private final Context context;
    private final MemorySegment handle;
    private final AtomicBoolean closed = new AtomicBoolean();

    Stream(Context context, MemorySegment handle) {
        this.context = context;
        this.handle = handle;
    }

    public MemorySegment handle() {
        return handle;
    }

    public Context context() {
        return context;
    }

    /** {@code cuStreamSynchronize}: waits for everything queued so far. */
    public void synchronize() {
        context.makeCurrent();
        context.driver().streamSynchronize(handle);
    }

    /** {@code cuStreamWaitEvent}: what is queued after this waits for the event's recorded work. */
    public void waitFor(Event event) {
        context.makeCurrent();
        context.driver().streamWaitEvent(handle, event.handle());
    }

    /** {@code cuEventRecord} of the event on this stream. */
    public void record(Event event) {
        event.record(this);
    }

    /** {@code cuStreamDestroy}; once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            context.makeCurrent();
            context.driver().streamDestroy(handle);
        }
    }
}
