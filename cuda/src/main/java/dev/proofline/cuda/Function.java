package dev.proofline.cuda;

import java.lang.foreign.MemorySegment;

/** A kernel of a loaded module ({@code CUfunction}); valid while the module is loaded. */
public final class Function {

    private final Context context;
    private final String name;
    private final MemorySegment handle;

    Function(Context context, String name, MemorySegment handle) {
        this.context = context;
        this.name = name;
        this.handle = handle;
    }

    public String name() {
        return name;
    }

    public MemorySegment handle() {
        return handle;
    }

    /** {@code cuLaunchKernel} on a stream with the arguments built by {@code args}. */
    public void launch(Dim3 grid, Dim3 block, int sharedMemBytes, Stream stream, KernelArgs args) {
        launch(grid, block, sharedMemBytes, stream, args.pointers());
    }

    /**
     * {@code cuLaunchKernel} with a ready {@code void*[]} of parameter pointers; {@code stream} null
     * for the NULL stream.
     */
    public void launch(Dim3 grid, Dim3 block, int sharedMemBytes, Stream stream, MemorySegment params) {
        context.makeCurrent();
        context.driver().launchKernel(handle, grid.x(), grid.y(), grid.z(), block.x(), block.y(), block.z(), sharedMemBytes,
                stream == null ? MemorySegment.NULL : stream.handle(), params);
    }

    @Override
    public String toString() {
        return name;
    }
}
