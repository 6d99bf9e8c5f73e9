package dev.proofline.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Points resident in device memory: a set as uploaded, or a set without its points at infinity
 * ({@link CudaMsm#uploadWithoutInfinity}), which then keeps the original index of each point it holds (on
 * the device, and on the host for scalars that come from the host) and still takes a scalar for
 * every point of the original set.
 */
public final class ResidentPoints implements AutoCloseable {
    private final MsmGroup curve;
    /** The points (null when none is kept), and the original index of each when some were left out. */
    final DeviceBuffer buffer;
    private final int count;
    final DeviceBuffer index;
    final int[] hostIndex;
    private final int scalarCount;

    ResidentPoints(MsmGroup curve, DeviceBuffer buffer, int count, DeviceBuffer index, int[] hostIndex,
            int scalarCount) {
        this.curve = curve;
        this.buffer = buffer;
        this.count = count;
        this.index = index;
        this.hostIndex = hostIndex;
        this.scalarCount = scalarCount;
    }

    /** The points held on the device. */
    public int count() {
        return count;
    }

    /** The scalars an MSM over the set takes: the points of the set as given, at infinity or not. */
    public int scalarCount() {
        return scalarCount;
    }

    /** Device memory held: the points, and the index of each when some were left out. */
    public long bytes() {
        return (buffer == null ? 0 : buffer.size()) + (index == null ? 0 : index.size());
    }

    public MsmGroup curve() {
        return curve;
    }

    @Override
    public void close() {
        if (buffer != null) {
            buffer.close();
        }
        if (index != null) {
            index.close();
        }
    }

    /** Bytes of pinned memory through which points are uploaded. */
    private static final long UPLOAD_CHUNK = 32L << 20;

    /**
     * Copies {@code count} affine points from byte {@code offset} of {@code points} (the zkey layout; any
     * segment, heap or native) to device memory, through a pinned buffer, and waits for the copy.
     */
    static ResidentPoints upload(Context context, Stream stream, MsmGroup curve, MemorySegment points, long offset,
            int count) {
        checkRange(curve, points, offset, count);
        return new ResidentPoints(curve, copyToDevice(context, stream, curve, points, offset, count), count, null, null,
                count);
    }

    private static void checkRange(MsmGroup curve, MemorySegment points, long offset, int count) {
        long bytes = 8L * curve.affineWords() * count;
        if (count <= 0 || offset < 0 || offset + bytes > points.byteSize()) {
            throw new IllegalArgumentException(count + " points at byte " + offset + " of " + points.byteSize());
        }
    }

    /**
     * As {@link #upload} without the points at infinity (all words zero, as
     * snarkjs writes them): most of a circom key's A and B points are, for the signals that appear in no
     * constraint's A or B. Only the others are copied to the device, with their original indices (4
     * bytes each); an MSM over the set still takes its {@code count} scalars and reads those of the kept
     * points ({@code pl_msm_gather_scalars} on the device). When no point is at infinity this is
     * {@link #upload}.
     */
    static ResidentPoints uploadWithoutInfinity(Context context, Stream stream, MsmGroup curve, MemorySegment points,
            long offset, int count) {
        checkRange(curve, points, offset, count);
        int aw = curve.affineWords();
        long pointBytes = 8L * aw;
        int[] kept = new int[count];
        int k = 0;
        for (int i = 0; i < count; i++) {
            long at = offset + pointBytes * i;
            long any = 0;
            for (int w = 0; w < aw; w++) {
                any |= points.get(ValueLayout.JAVA_LONG_UNALIGNED, at + 8L * w);
            }
            if (any != 0) {
                kept[k++] = i;
            }
        }
        if (k == count) {
            return upload(context, stream, curve, points, offset, count);
        }
        int[] index = java.util.Arrays.copyOf(kept, k);
        if (k == 0) {
            return new ResidentPoints(curve, null, 0, null, index, count);
        }
        DeviceBuffer buffer = null;
        DeviceBuffer deviceIndex = null;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(pointBytes * k, 8);
            for (int j = 0; j < k; j++) {
                MemorySegment.copy(points, offset + pointBytes * index[j], host, pointBytes * j, pointBytes);
            }
            buffer = copyToDevice(context, stream, curve, host, 0, k);
            MemorySegment hostIndex = arena.allocate(4L * k, 8);
            MemorySegment.copy(index, 0, hostIndex, ValueLayout.JAVA_INT, 0, k);
            deviceIndex = context.allocate(4L * k);
            deviceIndex.copyFromHost(hostIndex, 0);
            return new ResidentPoints(curve, buffer, k, deviceIndex, index, count);
        } catch (RuntimeException | Error e) {
            if (buffer != null) {
                buffer.close();
            }
            if (deviceIndex != null) {
                deviceIndex.close();
            }
            throw e;
        }
    }

    /** Copies {@code count} affine points from byte {@code offset} of {@code points} to a new device buffer. */
    private static DeviceBuffer copyToDevice(Context context, Stream stream, MsmGroup curve, MemorySegment points,
            long offset, int count) {
        long bytes = 8L * curve.affineWords() * count;
        DeviceBuffer buffer = context.allocate(bytes);
        try (PinnedBuffer bounce = context.allocatePinned(Math.min(bytes, UPLOAD_CHUNK))) {
            for (long done = 0; done < bytes; ) {
                long len = Math.min(bytes - done, bounce.size());
                MemorySegment chunk = bounce.segment().asSlice(0, len);
                MemorySegment.copy(points, offset + done, chunk, 0, len);
                buffer.copyFromHostAsync(chunk, done, stream);
                stream.synchronize();
                done += len;
            }
        } catch (RuntimeException | Error e) {
            buffer.close();
            throw e;
        }
        return buffer;
    }
}
