package dev.proofline.cuda;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Multi-scalar multiplication sum_i k_i P_i on G1 or G2 on a CUDA device, by the kernels of {@code msm.cuh}
 * (Pippenger's method with signed c-bit digits, a counting sort of the (bucket, point) pairs, tasks of at
 * most 128 points of a bucket, a bucket reduction in segments of 16 buckets whose shares are summed in
 * parallel runs; the window sums are combined by doubling on the host).
 *
 * <p>Points are uploaded once ({@link #upload}) and stay in device memory, in the snarkjs zkey layout
 * (affine x, y, little-endian Montgomery words, on G2 each coordinate c0 then c1, infinity = (0, 0));
 * each {@link #multiply} copies its scalars (4 canonical little-endian words each, taken mod r) through
 * pinned memory, runs the kernels on this instance's stream (with scratch buffers kept between calls,
 * grown as needed, freed by {@link #releaseScratch} or {@link #close}) and returns the Jacobian result
 * (X, Y, Z, Montgomery words, infinity with Z = 0), the representation of the Java {@code Msm}.
 *
 * <p>Not thread-safe: one caller at a time (the calls share the stream).
 */
public final class CudaMsm implements AutoCloseable {

    /** The groups the kernels are built for: G1 and G2 of each curve. */
    public enum Curve {
        BN254("bn254", 4, 254, PairingCurve.BN254, false),
        BLS12_381("bls12381", 6, 255, PairingCurve.BLS12_381, false),
        BN254_G2("bn254_g2", 4, 254, PairingCurve.BN254, true),
        BLS12_381_G2("bls12381_g2", 6, 255, PairingCurve.BLS12_381, true);

        private final String prefix;
        private final int limbs;
        private final int scalarBits;
        private final PairingCurve pairingCurve;
        private final boolean g2;

        Curve(String prefix, int limbs, int scalarBits, PairingCurve pairingCurve, boolean g2) {
            this.prefix = prefix;
            this.limbs = limbs;
            this.scalarBits = scalarBits;
            this.pairingCurve = pairingCurve;
            this.g2 = g2;
        }

        /** G1 of {@code c}. */
        public static Curve g1(PairingCurve c) {
            return c == PairingCurve.BN254 ? BN254 : BLS12_381;
        }

        /** G2 of {@code c}. */
        public static Curve g2(PairingCurve c) {
            return c == PairingCurve.BN254 ? BN254_G2 : BLS12_381_G2;
        }

        /** The prefix of the group's entry points, {@code pl_<prefix>_msm_...}. */
        public String prefix() {
            return prefix;
        }

        /** The curve of the Java code. */
        public PairingCurve pairingCurve() {
            return pairingCurve;
        }

        /** The group in the Java code (its arithmetic combines the window sums on the host). */
        public WeierstrassCurve group() {
            return g2 ? pairingCurve.g2() : pairingCurve.g1();
        }

        /** 64-bit words of a base field element. */
        public int limbs() {
            return limbs;
        }

        /** Words of a coordinate: the base field's limbs on G1, twice that (c0, c1) on G2. */
        public int coordinateWords() {
            return g2 ? 2 * limbs : limbs;
        }

        /** Words of an affine point. */
        public int affineWords() {
            return 2 * coordinateWords();
        }

        /** Words of a Jacobian point. */
        public int jacobianWords() {
            return 3 * coordinateWords();
        }

        /** Bit length of the group order r. */
        public int scalarBits() {
            return scalarBits;
        }
    }

    /** Words per scalar. */
    public static final int SCALAR_WORDS = 4;

    /** Threads a block for the point kernels (up to about 180 registers a thread) and the others. */
    private static final int POINT_BLOCK = 128;
    private static final int BLOCK = 256;
    private static final int MAX_BLOCKS = 1 << 20;
    /** Bytes of pinned memory through which points are uploaded. */
    private static final long UPLOAD_CHUNK = 32L << 20;

    private final Context context;
    private final Curve curve;
    private final Stream stream;
    private final Function clear;
    private final Function recode;
    private final Function chunkSums;
    private final Function scan;
    private final Function scatter;
    private final Function taskCounts;
    private final Function accumulate;
    private final Function mergeGroups;
    private final Function merge;
    private final Function reduceSegments;
    private final Function scaleSegments;
    private final Function sumRuns;
    private final DeviceBuffer[] scratch = new DeviceBuffer[Scratch.values().length];
    private final PinnedBuffer[] staging = new PinnedBuffer[Staging.values().length];
    private boolean closed;
    /** Non-null while steps are timed: the events of the call under way, one after each step. */
    private List<Map.Entry<String, Event>> marks;
    private final List<Map<String, Double>> profiles = new ArrayList<>();

    /** An MSM for {@code curve} with the kernels of {@code module} (loaded from {@link KernelImage}). */
    public CudaMsm(Context context, Module module, Curve curve) {
        this.context = Objects.requireNonNull(context, "context");
        this.curve = Objects.requireNonNull(curve, "curve");
        String p = "pl_" + curve.prefix() + "_msm_";
        this.clear = module.function("pl_msm_clear_u32");
        this.chunkSums = module.function("pl_msm_chunk_sums");
        this.scan = module.function("pl_msm_scan");
        this.scatter = module.function("pl_msm_scatter");
        this.recode = module.function(p + "recode");
        this.taskCounts = module.function("pl_msm_task_counts");
        this.accumulate = module.function(p + "accumulate");
        this.mergeGroups = module.function(p + "merge_groups");
        this.merge = module.function(p + "merge");
        this.reduceSegments = module.function(p + "reduce_segments");
        this.scaleSegments = module.function(p + "scale_segments");
        this.sumRuns = module.function(p + "sum_runs");
        this.stream = context.createStream();
    }

    public Curve curve() {
        return curve;
    }

    // ------------------------------------------------------------------ sizes

    /**
     * The window size for n points: about log2(n) - 2 bits, within [3, 15] ({@code msm_window_bits}). On an
     * H200, 15 was 7-11% faster than 16 at 2^20 and 2^22 points and as fast at 2^24 (BENCHMARKS.md).
     */
    public static int windowBits(long n) {
        int lg = n < 1 ? 0 : 63 - Long.numberOfLeadingZeros(n);
        return Math.clamp(lg - 2, 3, 15);
    }

    /** Windows for scalars of {@code bits} bits with c-bit signed digits ({@code msm_windows}). */
    public static int windows(int bits, int c) {
        return (bits + c) / c;
    }

    /** Buckets a segment of the bucket reduction: 16, or all when there are fewer ({@code msm_segment_len}). */
    static int segmentLength(int buckets) {
        return Math.min(buckets, 16);
    }

    /** Points a sum_runs thread adds ({@code MSM_RUN}). */
    static final int RUN = 16;

    /** Points a bucket-accumulation task adds at most ({@code MSM_TASK}). */
    static final int TASK = 128;

    /** A bound of a window's tasks ({@code msm_max_tasks}). */
    static long maxTasks(long n, int buckets) {
        return (n + TASK - 1) / TASK + Math.min(buckets, n);
    }

    /** Buckets a chunk of the counts' prefix sums ({@code msm_scan_chunk}). */
    static int scanChunk(int buckets) {
        return Math.min(buckets, 256);
    }

    // ------------------------------------------------------------------ step timings

    /**
     * Times the steps of the following calls (true) or stops timing them (false): each call then records
     * an event after each of its steps, and {@link #profiles} gives the milliseconds of each. The events
     * cost a little; off by default. Either way the calls timed so far are forgotten.
     */
    public void profile(boolean on) {
        marks = on ? new ArrayList<>() : null;
        profiles.clear();
    }

    /**
     * For each call timed since {@link #profile} was switched on, the milliseconds of each step, in order,
     * from the moment the call's first work reached the stream ("scalars: host copy", the host's copy into
     * pinned memory, is timed by the host clock before that).
     */
    public List<Map<String, Double>> profiles() {
        return List.copyOf(profiles);
    }

    /** Records an event after the step {@code step} when steps are timed. */
    private void mark(String step) {
        if (marks != null) {
            Event e = context.createEvent();
            marks.add(Map.entry(step, e));
            e.record(stream);
        }
    }

    /** After the stream is done: the time between the marks, then the events are destroyed. */
    private void collectProfile(double hostCopyMillis) {
        if (marks == null) {
            return;
        }
        Map<String, Double> times = new LinkedHashMap<>();
        if (hostCopyMillis >= 0) {
            times.put("scalars: host copy", hostCopyMillis);
        }
        for (int i = 1; i < marks.size(); i++) {
            times.merge(marks.get(i).getKey(),
                    (double) marks.get(i).getValue().elapsedMillisSince(marks.get(i - 1).getValue()), Double::sum);
        }
        for (Map.Entry<String, Event> m : marks) {
            m.getValue().close();
        }
        marks.clear();
        profiles.add(times);
    }

    // ------------------------------------------------------------------ points

    /** Points resident in device memory. */
    public final class Points implements AutoCloseable {
        private final DeviceBuffer buffer;
        private final int count;

        private Points(DeviceBuffer buffer, int count) {
            this.buffer = buffer;
            this.count = count;
        }

        public int count() {
            return count;
        }

        public Curve curve() {
            return curve;
        }

        @Override
        public void close() {
            buffer.close();
        }
    }

    /**
     * Copies {@code count} affine points from byte {@code offset} of {@code points} (the zkey layout; any
     * segment, heap or native) to device memory, through a pinned buffer, and waits for the copy.
     */
    public Points upload(MemorySegment points, long offset, int count) {
        checkOpen();
        long bytes = 8L * curve.affineWords() * count;
        if (count <= 0 || offset < 0 || offset + bytes > points.byteSize()) {
            throw new IllegalArgumentException(count + " points at byte " + offset + " of " + points.byteSize());
        }
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
        return new Points(buffer, count);
    }

    /** As {@link #upload(MemorySegment, long, int)} from a {@code long[]} of affine points. */
    public Points upload(long[] points) {
        return upload(MemorySegment.ofArray(points), 0, points.length / curve.affineWords());
    }

    // ------------------------------------------------------------------ MSM

    /**
     * sum_{i < count} k_{s+i} P_i, Jacobian: the first {@code count} resident points, scalars from index
     * {@code scalarIndex} (in scalars, not words).
     */
    public long[] multiply(Points points, long[] scalars, int scalarIndex, int count) {
        return multiply(points, scalars, scalarIndex, count, 0);
    }

    /** As {@link #multiply(Points, long[], int, int)} with window size c in [2, 16] (0: {@link #windowBits}). */
    public long[] multiply(Points points, long[] scalars, int scalarIndex, int count, int c) {
        checkOpen();
        if (points.curve() != curve || count < 0 || count > points.count() || scalarIndex < 0
                || ((long) scalarIndex + count) * SCALAR_WORDS > scalars.length) {
            throw new IllegalArgumentException("range out of bounds: " + count + " of " + points.count()
                    + " points, scalars from " + scalarIndex + " of " + scalars.length / SCALAR_WORDS);
        }
        return run(points, count, c, null, scalars, scalarIndex, null);
    }

    /**
     * As {@link #multiply(Points, long[], int, int)} with the scalars already in device memory: from
     * scalar {@code scalarIndex} of {@code scalars} (4 canonical words each, as on the host), written
     * there by work on another stream that records {@code ready} when it is done (null: they are
     * there); this MSM's stream waits for that event before it reads them. No scalar goes through the
     * host.
     */
    public long[] multiply(Points points, DeviceBuffer scalars, int scalarIndex, int count, Event ready) {
        checkOpen();
        if (points.curve() != curve || count < 0 || count > points.count() || scalarIndex < 0
                || ((long) scalarIndex + count) * SCALAR_WORDS * 8 > scalars.size()) {
            throw new IllegalArgumentException("range out of bounds: " + count + " of " + points.count()
                    + " points, scalars from " + scalarIndex + " of " + scalars.size() / (8 * SCALAR_WORDS)
                    + " on the device");
        }
        return run(points, count, 0, scalars, null, scalarIndex, ready);
    }

    /** The MSM with the scalars on the device ({@code onDevice}) or copied there from {@code onHost}. */
    private long[] run(Points points, int count, int c, DeviceBuffer onDevice, long[] onHost, int scalarIndex,
            Event ready) {
        if (c != 0 && (c < 2 || c > 16)) {
            throw new IllegalArgumentException("window bits must be 0 or in [2, 16]: " + c);
        }
        int jw = curve.jacobianWords();
        if (count == 0) {
            return infinity();
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
        DeviceBuffer dScalars = onDevice != null ? null : scratch(Scratch.SCALARS, 8L * SCALAR_WORDS * n);
        DeviceBuffer digits = scratch(Scratch.DIGITS, 4L * nw * n);
        DeviceBuffer counts = scratch(Scratch.COUNTS, 4L * nw * nb);
        long chunks = (long) nw * (nb / scanChunk(nb));
        DeviceBuffer sums = scratch(Scratch.SUMS, 4L * chunks);
        DeviceBuffer offsets = scratch(Scratch.OFFSETS, 4L * nw * (nb + 1));
        DeviceBuffer cursor = scratch(Scratch.CURSOR, 4L * nw * nb);
        DeviceBuffer sorted = scratch(Scratch.SORTED, 4L * nw * n);
        long maxTasks = maxTasks(n, nb);
        DeviceBuffer taskCountBuffer = scratch(Scratch.TASK_COUNTS, 4L * nw * nb);
        DeviceBuffer taskOffsets = scratch(Scratch.TASK_OFFSETS, 4L * nw * (nb + 1));
        DeviceBuffer partials = scratch(Scratch.PARTIALS, pointBytes * nw * maxTasks);
        long maxGroups = maxTasks(maxTasks, nb);
        DeviceBuffer groupCounts = scratch(Scratch.GROUP_COUNTS, 4L * nw * nb);
        DeviceBuffer groupOffsets = scratch(Scratch.GROUP_OFFSETS, 4L * nw * (nb + 1));
        DeviceBuffer groupSums = scratch(Scratch.GROUP_SUMS, pointBytes * nw * maxGroups);
        DeviceBuffer buckets = scratch(Scratch.BUCKETS, pointBytes * nw * nb);
        DeviceBuffer segT = scratch(Scratch.SEG_T, pointBytes * nw * segs);
        DeviceBuffer segS = scratch(Scratch.SEG_S, pointBytes * nw * segs);
        PinnedBuffer hostScalars = onDevice != null ? null : staging(Staging.SCALARS, 8L * SCALAR_WORDS * n);
        PinnedBuffer hostResult = staging(Staging.RESULT, pointBytes * nw);
        try (Arena arena = Arena.ofConfined()) {
            long scalarAddress;
            double hostCopy = -1;
            if (onDevice == null) {
                long t0 = System.nanoTime();
                MemorySegment.copy(onHost, scalarIndex * SCALAR_WORDS, hostScalars.segment(), ValueLayout.JAVA_LONG, 0,
                        SCALAR_WORDS * count);
                hostCopy = (System.nanoTime() - t0) / 1e6;
            }
            mark("start");
            if (onDevice != null) {
                if (ready != null) {
                    stream.waitFor(ready);
                }
                scalarAddress = onDevice.address() + 8L * SCALAR_WORDS * scalarIndex;
            } else {
                dScalars.copyFromHostAsync(hostScalars.segment().asSlice(0, 8L * SCALAR_WORDS * n), 0, stream);
                scalarAddress = dScalars.address();
            }
            mark("scalars: copy to the device (or wait)");
            long pairs = (long) nw * nb;
            launch(clear, pairs, BLOCK, new KernelArgs(arena).pointer(counts).i64(pairs));
            launch(recode, n, BLOCK, new KernelArgs(arena).pointer(scalarAddress).pointer(digits).pointer(counts).i64(n)
                    .i32(c));
            mark("clear counts, recode digits");
            launch(chunkSums, chunks, BLOCK, new KernelArgs(arena).pointer(counts).pointer(sums).i32(nw).i32(nb));
            launch(scan, chunks, BLOCK,
                    new KernelArgs(arena).pointer(counts).pointer(sums).pointer(offsets).pointer(cursor).i32(nw).i32(nb));
            launch(scatter, n * nw, BLOCK,
                    new KernelArgs(arena).pointer(digits).pointer(cursor).pointer(sorted).i64(n).i32(nw).i32(nb));
            mark("sort by bucket (scan, scatter)");
            // tasks of at most TASK points of one bucket, their offsets by the same scan (the cursor is free)
            launch(taskCounts, pairs, BLOCK, new KernelArgs(arena).pointer(counts).pointer(taskCountBuffer).i32(nw).i32(nb));
            launch(chunkSums, chunks, BLOCK, new KernelArgs(arena).pointer(taskCountBuffer).pointer(sums).i32(nw).i32(nb));
            launch(scan, chunks, BLOCK, new KernelArgs(arena).pointer(taskCountBuffer).pointer(sums).pointer(taskOffsets)
                    .pointer(cursor).i32(nw).i32(nb));
            mark("tasks (counts, scan)");
            launch(accumulate, nw * maxTasks, POINT_BLOCK, new KernelArgs(arena).pointer(points.buffer).pointer(sorted)
                    .pointer(offsets).pointer(taskOffsets).pointer(partials).i64(n).i32(nw).i32(nb).i64(maxTasks));
            mark("accumulate buckets");
            // groups of at most TASK partial sums of one bucket, summed; then each bucket's group sums
            launch(taskCounts, pairs, BLOCK, new KernelArgs(arena).pointer(taskCountBuffer).pointer(groupCounts)
                    .i32(nw).i32(nb));
            launch(chunkSums, chunks, BLOCK, new KernelArgs(arena).pointer(groupCounts).pointer(sums).i32(nw).i32(nb));
            launch(scan, chunks, BLOCK, new KernelArgs(arena).pointer(groupCounts).pointer(sums).pointer(groupOffsets)
                    .pointer(cursor).i32(nw).i32(nb));
            launch(mergeGroups, nw * maxGroups, POINT_BLOCK, new KernelArgs(arena).pointer(partials)
                    .pointer(taskOffsets).pointer(groupOffsets).pointer(groupSums).i32(nw).i32(nb).i64(maxTasks)
                    .i64(maxGroups));
            mark("group counts, merge groups");
            launch(merge, pairs, POINT_BLOCK, new KernelArgs(arena).pointer(groupSums).pointer(groupOffsets)
                    .pointer(buckets).i32(nw).i32(nb).i64(maxGroups));
            mark("merge");
            launch(reduceSegments, (long) nw * segs, POINT_BLOCK,
                    new KernelArgs(arena).pointer(buckets).pointer(segT).pointer(segS).i32(nw).i32(nb).i32(len));
            mark("reduce segments");
            launch(scaleSegments, (long) nw * segs, POINT_BLOCK,
                    new KernelArgs(arena).pointer(segT).pointer(segS).i32(nw).i32(segs).i32(lenLog2));
            // each window's shares summed in runs, the runs' sums in runs, ..., until one is left
            DeviceBuffer in = segT;
            DeviceBuffer out = segS;
            for (int k = segs; k > 1; k = (k + RUN - 1) / RUN) {
                launch(sumRuns, (long) nw * ((k + RUN - 1) / RUN), POINT_BLOCK,
                        new KernelArgs(arena).pointer(in).pointer(out).i32(nw).i32(k).i32(RUN));
                DeviceBuffer t = in;
                in = out;
                out = t;
            }
            mark("window sums (scale segments, sum runs)");
            MemorySegment windows = hostResult.segment().asSlice(0, pointBytes * nw);
            in.copyToHostAsync(windows, 0, stream);
            mark("window sums' copy");
            stream.synchronize();
            collectProfile(hostCopy);
            return combine(windows.toArray(ValueLayout.JAVA_LONG), nw, c);
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

    /** The scratch buffers of a call, kept between calls and grown when a call needs more. */
    private enum Scratch {
        SCALARS, DIGITS, COUNTS, SUMS, OFFSETS, TASK_COUNTS, TASK_OFFSETS, PARTIALS, GROUP_COUNTS, GROUP_OFFSETS,
        GROUP_SUMS, CURSOR, SORTED, BUCKETS, SEG_T, SEG_S
    }

    /** Scratch buffer {@code which} with at least {@code bytes} bytes (its contents are not kept). */
    private DeviceBuffer scratch(Scratch which, long bytes) {
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
    private enum Staging { SCALARS, RESULT }

    /** Pinned buffer {@code which} with at least {@code bytes} bytes, as {@link #scratch} on the host. */
    private PinnedBuffer staging(Staging which, long bytes) {
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

    /** Frees the scratch buffers kept between calls (the next call allocates them again). */
    public void releaseScratch() {
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

    /** Frees the scratch buffers and destroys the stream; resident {@link Points} are closed by their owner. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                releaseScratch();
            } finally {
                stream.close();
            }
        }
    }
}
