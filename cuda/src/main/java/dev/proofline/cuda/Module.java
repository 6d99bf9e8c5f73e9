package dev.proofline.cuda;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/** A loaded module ({@code CUmodule}); closing it unloads it, and its functions with it. */
public final class Module implements AutoCloseable {

    private final Context context;
    private final MemorySegment handle;
    private final AtomicBoolean closed = new AtomicBoolean();

    Module(Context context, MemorySegment handle) {
        this.context = context;
        this.handle = handle;
    }

    public MemorySegment handle() {
        return handle;
    }

    /** {@code cuModuleGetFunction}: a kernel by its (mangled, unless {@code extern "C"}) name. */
    public Function function(String name) {
        context.makeCurrent();
        return new Function(context, name, context.driver().moduleGetFunction(handle, name));
    }

    /** {@code cuModuleUnload}; once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            context.makeCurrent();
            context.driver().moduleUnload(handle);
        }
    }
}
