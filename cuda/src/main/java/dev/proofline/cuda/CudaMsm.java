package dev.proofline.cuda;

import static dev.proofline.cuda.MsmSizes.RUN;
import static dev.proofline.cuda.MsmSizes.maxTasks;
import static dev.proofline.cuda.MsmSizes.scanChunk;
import static dev.proofline.cuda.MsmSizes.segmentLength;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.cuda.MsmBuffers.Scratch;
import dev.proofline.cuda.MsmBuffers.Staging;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Multi-scalar multiplication sum_i k_i P_i on G1 or G2 on a CUDA device, by the kernels of {@code msm.cuh}
 * (Pippenger's method with signed c-bit digits, a counting sort of the (bucket, point) pairs, tasks of at
 * most 128 points of a bucket, a bucket reduction in segments of 16 buckets whose shares are summed in
 * parallel runs; the window sums are combined by doubling on the host).
 *
 * <p>ResidentPoints are uploaded once ({@link #upload}) and stay in device memory, in the snarkjs zkey layout
 * (affine x, y, little-endian Montgomery words, on G2 each coordinate c0 then c1, infinity = (0, 0));
 * each {@link #multiply} copies its scalars (4 canonical little-endian words each, taken mod r) through
 * pinned memory, runs the kernels on this instance's stream (with scratch buffers kept between calls,
 * grown as needed, freed by {@link #releaseScratch} or {@link #close}) and returns the Jacobian result
 * (X, Y, Z, Montgomery words, infinity with Z = 0), the representation of the Java {@code Msm}.
 *
 * <p>Not thread-safe: one caller at a time (the calls share the stream).
 */
public final class CudaMsm implements AutoCloseable {

    /** Words per scalar. */
    public static final int SCALAR_WORDS = 4;

    /** Threads a block for the point kernels (up to about 180 registers a thread) and the others. */
    private static final int POINT_BLOCK = 128;
    private static final int BLOCK = 256;
    private static final int MAX_BLOCKS = 1 << 20;

    private final Context context;
    private final MsmGroup curve;
    private final Stream stream;
    private final MsmKernels kernels;
    private final MsmBuffers buffers;
    private final MsmStepTimes times;
    /** The call queued and not yet joined, if any. */
    private Pending pending;
    private boolean closed;

    /** An MSM for {@code curve} with the kernels of {@code module} (loaded from {@link KernelImage}). */
    public CudaMsm(Context context, Module module, MsmGroup curve) {
        this.context = Objects.requireNonNull(context, "context");
        this.curve = Objects.requireNonNull(curve, "curve");
        this.kernels = new MsmKernels(module, curve);
        this.stream = context.createStream();
        this.buffers = new MsmBuffers(context);
        this.times = new MsmStepTimes(context, stream);
    }

    public MsmGroup curve() {
        return curve;
    }

    // ------------------------------------------------------------------ sizes

    /**
     * The window size for n points: log2(n) - 2 bits up to 8, 8 up to 2^16 points, 15 from 2^17
     * ({@code msm_window_bits}).
     */
    public static int windowBits(long n) {
        return MsmSizes.windowBits(n);
    }

    /** Windows for scalars of {@code bits} bits with c-bit signed digits ({@code msm_windows}). */
    public static int windows(int bits, int c) {
        return MsmSizes.windows(bits, c);
    }

    // ------------------------------------------------------------------ step timings

    /**
     * Times the steps of the following calls (true) or stops timing them (false): each call then records
     * an event after each of its steps, and {@link #profiles} gives the milliseconds of each. The events
     * cost a little; off by default. Either way the calls timed so far are forgotten.
     */
    public void profile(boolean on) {
        times.profile(on);
    }

    /**
     * For each call timed since {@link #profile} was switched on, the milliseconds of each step, in order,
     * from the moment the call's first work reached the stream ("scalars: host copy", the host's copy into
     * pinned memory, is timed by the host clock before that).
     */
    public List<Map<String, Double>> profiles() {
        return times.profiles();
    }

    // ------------------------------------------------------------------ points

    /**
     * Copies {@code count} affine points from byte {@code offset} of {@code points} (the zkey layout; any
     * segment, heap or native) to device memory, through a pinned buffer, and waits for the copy.
     */
    public ResidentPoints upload(MemorySegment points, long offset, int count) {
        checkOpen();
        return ResidentPoints.upload(context, stream, curve, points, offset, count);
    }

    /**
     * As {@link #upload(MemorySegment, long, int)} without the points at infinity (all words zero, as
     * snarkjs writes them): most of a circom key's A and B points are, for the signals that appear in no
     * constraint's A or B. Only the others are copied to the device, with their original indices (4
     * bytes each); an MSM over the set still takes its {@code count} scalars and reads those of the kept
     * points ({@code pl_msm_gather_scalars} on the device). When no point is at infinity this is
     * {@link #upload(MemorySegment, long, int)}.
     */
    public ResidentPoints uploadWithoutInfinity(MemorySegment points, long offset, int count) {
        checkOpen();
        return ResidentPoints.uploadWithoutInfinity(context, stream, curve, points, offset, count);
    }

    /** As {@link #upload(MemorySegment, long, int)} from a {@code long[]} of affine points. */
    public ResidentPoints upload(long[] points) {
        return upload(MemorySegment.ofArray(points), 0, points.length / curve.affineWords());
    }

    // ------------------------------------------------------------------ MSM

    /**
     * sum_{i < count} k_{s+i} P_i, Jacobian: the first {@code count} resident points, scalars from index
     * {@code scalarIndex} (in scalars, not words).
     */
    public long[] multiply(ResidentPoints points, long[] scalars, int scalarIndex, int count) {
        return multiply(points, scalars, scalarIndex, count, 0);
    }

    /** As {@link #multiply(ResidentPoints, long[], int, int)} with window size c in [2, 16] (0: {@link #windowBits}). */
    public long[] multiply(ResidentPoints points, long[] scalars, int scalarIndex, int count, int c) {
        checkOpen();
        if (points.curve() != curve || !terms(points, count) || scalarIndex < 0
                || ((long) scalarIndex + count) * SCALAR_WORDS > scalars.length) {
            throw new IllegalArgumentException("range out of bounds: " + count + " of " + points.scalarCount()
                    + " points, scalars from " + scalarIndex + " of " + scalars.length / SCALAR_WORDS);
        }
        return enqueue(points, resident(points, count), c, null, scalars, scalarIndex, null).join();
    }

    /**
     * Whether an MSM of {@code count} terms may run over {@code points}: the first {@code count} of a set
     * as uploaded; none or all of a set without its points at infinity.
     */
    private static boolean terms(ResidentPoints points, int count) {
        return points.hostIndex == null ? count >= 0 && count <= points.count()
                : count == 0 || count == points.scalarCount();
    }

    /** The resident points an MSM of {@code count} terms over {@code points} adds. */
    private static int resident(ResidentPoints points, int count) {
        return points.hostIndex == null || count == 0 ? count : points.count();
    }

    /**
     * As {@link #multiply(ResidentPoints, long[], int, int)} with the scalars already in device memory: from
     * scalar {@code scalarIndex} of {@code scalars} (4 canonical words each, as on the host), written
     * there by work on another stream that records {@code ready} when it is done (null: they are
     * there); this MSM's stream waits for that event before it reads them. No scalar goes through the
     * host.
     */
    public long[] multiply(ResidentPoints points, DeviceBuffer scalars, int scalarIndex, int count, Event ready) {
        return multiplyAsync(points, scalars, scalarIndex, count, ready).join();
    }

    /**
     * As {@link #multiply(ResidentPoints, DeviceBuffer, int, int, Event)}, returning once the work is queued on
     * this instance's stream: {@link Pending#join} waits for it and gives the sum. Work of other
     * instances (on their own streams) runs beside it. One call of this instance at a time may be
     * pending: join it before the next.
     *
     * @throws IllegalStateException a call of this instance is still pending
     */
    public Pending multiplyAsync(ResidentPoints points, DeviceBuffer scalars, int scalarIndex, int count, Event ready) {
        checkOpen();
        if (points.curve() != curve || !terms(points, count) || scalarIndex < 0
                || ((long) scalarIndex + count) * SCALAR_WORDS * 8 > scalars.size()) {
            throw new IllegalArgumentException("range out of bounds: " + count + " of " + points.scalarCount()
                    + " points, scalars from " + scalarIndex + " of " + scalars.size() / (8 * SCALAR_WORDS)
                    + " on the device");
        }
        return enqueue(points, resident(points, count), 0, scalars, null, scalarIndex, ready);
    }

    /**
     * An MSM queued on its instance's stream; {@link #join} waits for the stream and gives the sum (the
     * window sums combined on the host). Joined at most once; the instance takes no other call until then.
     */
    public final class Pending {
        private final MemorySegment windows;
        private final int nw;
        private final int c;
        private final double hostCopy;
        private long[] sum;

        private Pending(MemorySegment windows, int nw, int c, double hostCopy) {
            this.windows = windows;
            this.nw = nw;
            this.c = c;
            this.hostCopy = hostCopy;
        }

        /** A pending sum that needs no device work (no terms). */
        private Pending(long[] sum) {
            this(null, 0, 0, -1);
            this.sum = sum;
        }

        /** Waits for the MSM and returns its sum, Jacobian; again, the same sum. */
        public long[] join() {
            if (sum == null) {
                try {
                    stream.synchronize();
                    times.collect(hostCopy);
                    sum = combine(windows.toArray(ValueLayout.JAVA_LONG), nw, c);
                } finally {
                    if (pending == this) {
                        pending = null;
                    }
                }
            }
            return sum.clone();
        }
    }

    /**
     * The MSM of the first {@code count} resident points with the scalars on the device ({@code onDevice})
     * or copied there from {@code onHost}, queued on this instance's stream; for a set without its points
     * at infinity, every resident point with the scalar of its original index (gathered on the device or
     * on the host).
     */
    private Pending enqueue(ResidentPoints points, int count, int c, DeviceBuffer onDevice, long[] onHost, int scalarIndex,
            Event ready) {
        if (c != 0 && (c < 2 || c > 16)) {
            throw new IllegalArgumentException("window bits must be 0 or in [2, 16]: " + c);
        }
        if (pending != null) {
            throw new IllegalStateException("an MSM of this instance is still pending: join it first");
        }
        int jw = curve.jacobianWords();
        if (count == 0) {
            return new Pending(infinity());
        }
        if (c == 0) {
            c = windowBits(count);
        }
        long n = count;
        int nw = windows(curve.scalarBits(), c);
        int nb = 1 << (c - 1);
        int len = segmentLength(nb);
        int segs = nb / len;
        int lenLog2 = Integer.numberOfTrailingZeros(len);
        long pointBytes = 8L * jw;
        boolean gather = points.index != null;
        DeviceBuffer dScalars = onDevice != null && !gather ? null
                : buffers.scratch(Scratch.SCALARS, 8L * SCALAR_WORDS * n);
        DeviceBuffer digits = buffers.scratch(Scratch.DIGITS, 4L * nw * n);
        DeviceBuffer counts = buffers.scratch(Scratch.COUNTS, 4L * nw * nb);
        long chunks = (long) nw * (nb / scanChunk(nb));
        DeviceBuffer sums = buffers.scratch(Scratch.SUMS, 4L * chunks);
        DeviceBuffer offsets = buffers.scratch(Scratch.OFFSETS, 4L * nw * (nb + 1));
        DeviceBuffer cursor = buffers.scratch(Scratch.CURSOR, 4L * nw * nb);
        DeviceBuffer sorted = buffers.scratch(Scratch.SORTED, 4L * nw * n);
        long maxTasks = maxTasks(n, nb);
        DeviceBuffer taskCountBuffer = buffers.scratch(Scratch.TASK_COUNTS, 4L * nw * nb);
        DeviceBuffer taskOffsets = buffers.scratch(Scratch.TASK_OFFSETS, 4L * nw * (nb + 1));
        DeviceBuffer partials = buffers.scratch(Scratch.PARTIALS, pointBytes * nw * maxTasks);
        long maxGroups = maxTasks(maxTasks, nb);
        DeviceBuffer groupCounts = buffers.scratch(Scratch.GROUP_COUNTS, 4L * nw * nb);
        DeviceBuffer groupOffsets = buffers.scratch(Scratch.GROUP_OFFSETS, 4L * nw * (nb + 1));
        DeviceBuffer groupSums = buffers.scratch(Scratch.GROUP_SUMS, pointBytes * nw * maxGroups);
        DeviceBuffer buckets = buffers.scratch(Scratch.BUCKETS, pointBytes * nw * nb);
        DeviceBuffer segT = buffers.scratch(Scratch.SEG_T, pointBytes * nw * segs);
        DeviceBuffer segS = buffers.scratch(Scratch.SEG_S, pointBytes * nw * segs);
        PinnedBuffer hostScalars = onDevice != null ? null : buffers.staging(Staging.SCALARS, 8L * SCALAR_WORDS * n);
        PinnedBuffer hostResult = buffers.staging(Staging.RESULT, pointBytes * nw);
        try (Arena arena = Arena.ofConfined()) {
            long scalarAddress;
            double hostCopy = -1;
            if (onDevice == null) {
                long t0 = System.nanoTime();
                if (gather) {
                    for (int j = 0; j < count; j++) {
                        MemorySegment.copy(onHost, (scalarIndex + points.hostIndex[j]) * SCALAR_WORDS,
                                hostScalars.segment(), ValueLayout.JAVA_LONG, 8L * SCALAR_WORDS * j, SCALAR_WORDS);
                    }
                } else {
                    MemorySegment.copy(onHost, scalarIndex * SCALAR_WORDS, hostScalars.segment(), ValueLayout.JAVA_LONG,
                            0, SCALAR_WORDS * count);
                }
                hostCopy = (System.nanoTime() - t0) / 1e6;
            }
            times.mark("start");
            if (onDevice != null) {
                if (ready != null) {
                    stream.waitFor(ready);
                }
                scalarAddress = onDevice.address() + 8L * SCALAR_WORDS * scalarIndex;
                if (gather) {
                    launch(kernels.gather, n, BLOCK, new KernelArgs(arena).pointer(scalarAddress).pointer(points.index)
                            .pointer(dScalars).i64(n));
                    scalarAddress = dScalars.address();
                }
            } else {
                dScalars.copyFromHostAsync(hostScalars.segment().asSlice(0, 8L * SCALAR_WORDS * n), 0, stream);
                scalarAddress = dScalars.address();
            }
            times.mark("scalars: copy to the device (or wait)");
            long pairs = (long) nw * nb;
            launch(kernels.clear, pairs, BLOCK, new KernelArgs(arena).pointer(counts).i64(pairs));
            launch(kernels.recode, n, BLOCK,
                    new KernelArgs(arena).pointer(scalarAddress).pointer(digits).pointer(counts).i64(n).i32(c));
            times.mark("clear counts, recode digits");
            launch(kernels.chunkSums, chunks, BLOCK, new KernelArgs(arena).pointer(counts).pointer(sums).i32(nw).i32(nb));
            launch(kernels.scan, chunks, BLOCK,
                    new KernelArgs(arena).pointer(counts).pointer(sums).pointer(offsets).pointer(cursor).i32(nw).i32(nb));
            launch(kernels.scatter, n * nw, BLOCK,
                    new KernelArgs(arena).pointer(digits).pointer(cursor).pointer(sorted).i64(n).i32(nw).i32(nb));
            times.mark("sort by bucket (scan, scatter)");
            // tasks of at most TASK points of one bucket, their offsets by the same scan (the cursor is free)
            launch(kernels.taskCounts, pairs, BLOCK,
                    new KernelArgs(arena).pointer(counts).pointer(taskCountBuffer).i32(nw).i32(nb));
            launch(kernels.chunkSums, chunks, BLOCK,
                    new KernelArgs(arena).pointer(taskCountBuffer).pointer(sums).i32(nw).i32(nb));
            launch(kernels.scan, chunks, BLOCK,
                    new KernelArgs(arena).pointer(taskCountBuffer).pointer(sums).pointer(taskOffsets).pointer(cursor)
                    .i32(nw).i32(nb));
            times.mark("tasks (counts, scan)");
            launch(kernels.accumulate, nw * maxTasks, POINT_BLOCK,
                    new KernelArgs(arena).pointer(points.buffer).pointer(sorted).pointer(offsets).pointer(taskOffsets)
                    .pointer(partials).i64(n).i32(nw).i32(nb).i64(maxTasks));
            times.mark("accumulate buckets");
            // groups of at most TASK partial sums of one bucket, summed; then each bucket's group sums
            launch(kernels.taskCounts, pairs, BLOCK, new KernelArgs(arena).pointer(taskCountBuffer).pointer(groupCounts)
                    .i32(nw).i32(nb));
            launch(kernels.chunkSums, chunks, BLOCK,
                    new KernelArgs(arena).pointer(groupCounts).pointer(sums).i32(nw).i32(nb));
            launch(kernels.scan, chunks, BLOCK,
                    new KernelArgs(arena).pointer(groupCounts).pointer(sums).pointer(groupOffsets).pointer(cursor)
                    .i32(nw).i32(nb));
            launch(kernels.mergeGroups, nw * maxGroups, POINT_BLOCK, new KernelArgs(arena).pointer(partials)
                    .pointer(taskOffsets).pointer(groupOffsets).pointer(groupSums).i32(nw).i32(nb).i64(maxTasks)
                    .i64(maxGroups));
            times.mark("group counts, merge groups");
            launch(kernels.merge, pairs, POINT_BLOCK, new KernelArgs(arena).pointer(groupSums).pointer(groupOffsets)
                    .pointer(buckets).i32(nw).i32(nb).i64(maxGroups));
            times.mark("merge");
            launch(kernels.reduceSegments, (long) nw * segs, POINT_BLOCK,
                    new KernelArgs(arena).pointer(buckets).pointer(segT).pointer(segS).i32(nw).i32(nb).i32(len));
            times.mark("reduce segments");
            launch(kernels.scaleSegments, (long) nw * segs, POINT_BLOCK,
                    new KernelArgs(arena).pointer(segT).pointer(segS).i32(nw).i32(segs).i32(lenLog2));
            // each window's shares summed in runs, the runs' sums in runs, ..., until one is left
            DeviceBuffer in = segT;
            DeviceBuffer out = segS;
            for (int k = segs; k > 1; k = (k + RUN - 1) / RUN) {
                launch(kernels.sumRuns, (long) nw * ((k + RUN - 1) / RUN), POINT_BLOCK,
                        new KernelArgs(arena).pointer(in).pointer(out).i32(nw).i32(k).i32(RUN));
                DeviceBuffer t = in;
                in = out;
                out = t;
            }
            times.mark("window sums (scale segments, sum runs)");
            MemorySegment windows = hostResult.segment().asSlice(0, pointBytes * nw);
            in.copyToHostAsync(windows, 0, stream);
            times.mark("window sums' copy");
            pending = new Pending(windows, nw, c, hostCopy);
            return pending;
        } catch (RuntimeException | Error e) {
            try {
                stream.synchronize(); // nothing queued may still use the scratch buffers
            } catch (RuntimeException ignored) {
                // the first error is the one to report
            }
            throw e;
        }
    }

    /** sum_w 2^(c w) window_w, on the host: doublings from the top window down (Horner's rule). */
    private long[] combine(long[] windows, int nw, int c) {
        int jw = curve.jacobianWords();
        PointArithmetic pa = curve.group().arithmetic();
        long[] r = java.util.Arrays.copyOfRange(windows, (nw - 1) * jw, nw * jw);
        for (int w = nw - 2; w >= 0; w--) {
            for (int k = 0; k < c; k++) {
                pa.dbl(r, 0, r, 0);
            }
            pa.add(r, 0, windows, w * jw, r, 0);
        }
        return r;
    }

    /**
     * Frees the scratch buffers kept between calls (the next call allocates them again).
     *
     * @throws IllegalStateException a call is still pending
     */
    public void releaseScratch() {
        if (pending != null) {
            throw new IllegalStateException("an MSM of this instance is still pending: join it first");
        }
        buffers.release();
    }

    private void launch(Function f, long threads, int block, KernelArgs args) {
        long blocks = Math.clamp((threads + block - 1) / block, 1, MAX_BLOCKS);
        f.launch(Dim3.of((int) blocks), Dim3.of(block), 0, stream, args);
    }

    /** The point at infinity as the kernels write it: (1, 1, 0) in Montgomery form. */
    private long[] infinity() {
        long[] r = new long[curve.jacobianWords()];
        curve.group().arithmetic().setInfinity(r, 0);
        return r;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("CudaMsm is closed");
        }
    }

    /** Frees the scratch buffers and destroys the stream; resident {@link ResidentPoints} are closed by their owner. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                if (pending != null) {
                    pending = null;
                    stream.synchronize(); // the scratch buffers are freed below
                }
                releaseScratch();
            } finally {
                stream.close();
            }
        }
    }
}
