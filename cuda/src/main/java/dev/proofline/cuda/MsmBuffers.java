package dev.proofline.cuda;

/**
 * The buffers of {@link CudaMsm}'s calls: device scratch and pinned host staging, kept between calls,
 * grown when a call needs more, and freed together.
 */
final class MsmBuffers {

    private final Context context;
    private final DeviceBuffer[] scratch = new DeviceBuffer[Scratch.values().length];
    private final PinnedBuffer[] staging = new PinnedBuffer[Staging.values().length];

    MsmBuffers(Context context) {
        this.context = context;
    }

    /** The scratch buffers of a call, kept between calls and grown when a call needs more. */
    enum Scratch {
        SCALARS, DIGITS, COUNTS, SUMS, OFFSETS, TASK_COUNTS, TASK_OFFSETS, PARTIALS, GROUP_COUNTS, GROUP_OFFSETS,
        GROUP_SUMS, CURSOR, SORTED, BUCKETS, SEG_T, SEG_S
    }

    /** Scratch buffer {@code which} with at least {@code bytes} bytes (its contents are not kept). */
    DeviceBuffer scratch(Scratch which, long bytes) {
        DeviceBuffer b = scratch[which.ordinal()];
        if (b != null && b.size() >= bytes) {
            return b;
        }
        if (b != null) {
            scratch[which.ordinal()] = null;
            b.close();
        }
        b = context.allocate(bytes);
        scratch[which.ordinal()] = b;
        return b;
    }

    /** The pinned host buffers of a call: the scalars on their way to the device, the window sums back. */
    enum Staging { SCALARS, RESULT }

    /** Pinned buffer {@code which} with at least {@code bytes} bytes, as {@link #scratch} on the host. */
    PinnedBuffer staging(Staging which, long bytes) {
        PinnedBuffer b = staging[which.ordinal()];
        if (b != null && b.size() >= bytes) {
            return b;
        }
        if (b != null) {
            staging[which.ordinal()] = null;
            b.close();
        }
        b = context.allocatePinned(bytes);
        staging[which.ordinal()] = b;
        return b;
    }

    /** As {@link CudaMsm#releaseScratch}: frees them all (the next call allocates them again). */
    void release() {
        for (int i = 0; i < scratch.length; i++) {
            if (scratch[i] != null) {
                scratch[i].close();
                scratch[i] = null;
            }
        }
        for (int i = 0; i < staging.length; i++) {
            if (staging[i] != null) {
                staging[i].close();
                staging[i] = null;
            }
        }
    }
}
