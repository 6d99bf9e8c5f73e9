package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import dev.proofline.cuda.NttPlan.Launch;
import dev.proofline.cuda.NttPlan.Op;
import dev.proofline.cuda.NttPlan.Slot;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The transforms of {@link Ntt} on a CUDA device, with the same results word for word: forward,
 * inverse, coset forward and inverse, {@link #evaluationsOnCoset} and the Groth16 {@link #quotient}
 * (evaluations of a, b, c on the coset, then h = a b - c out of Montgomery form), over the scalar field
 * of BN254 or BLS12-381, on flat vectors of Montgomery elements in the Java layout, in place.
 *
 * <p>Each call on {@code long[]} vectors copies them into pinned memory, queues on one stream the copies
 * to the device, the kernel launches of {@link NttPlan} (the butterfly stages ten at a time, on groups
 * of 2^10 elements in shared memory: 2^20 points take three passes over the vector) and the copy back,
 * waits for the stream and copies the result out. {@link #quotientAsync} works on vectors already in
 * (or on their way to) device memory instead: it queues the launches after a wait for each vector's
 * event and returns, leaving h on the device. The twiddles of a (field, size) are made on the host
 * once, uploaded on first use and kept until {@link #close()}; device and pinned buffers for the
 * vectors are kept and grown as needed. Calls are serialized; each first waits for the work the
 * previous one left queued.
 */
public final class CudaNtt implements AutoCloseable {

    private record TableKey(String prefix, int logN) {
    }

    private final Context context;
    private final Module module;
    private final boolean ownsModule;
    private final Stream stream;
    private final Map<String, Function> functions = new HashMap<>();
    private final Map<TableKey, DeviceBuffer> twiddles = new HashMap<>();
    private final Map<Slot, DeviceBuffer> buffers = new EnumMap<>(Slot.class);
    private PinnedBuffer pinned;
    /** Whether {@link #quotientAsync} left work on the stream that no call has waited for yet. */
    private boolean pending;
    private boolean closed;

    /** On {@code context}, with the NTT kernels of {@code module} (the caller keeps and closes both). */
    public CudaNtt(Context context, Module module) {
        this(context, module, false);
    }

    private CudaNtt(Context context, Module module, boolean ownsModule) {
        this.context = Objects.requireNonNull(context);
        this.module = Objects.requireNonNull(module);
        this.ownsModule = ownsModule;
        this.stream = context.createStream();
    }

    /**
     * On {@code context}, loading the module's own kernels ({@link KernelImage}); the module is unloaded
     * by {@link #close()}.
     *
     * @throws IllegalStateException when the module was built without nvcc (no kernels)
     */
    public static CudaNtt load(Context context) {
        byte[] image = KernelImage.load().orElseThrow(() -> new IllegalStateException(
                "no CUDA kernels: " + KernelImage.RESOURCE + " is not on the classpath (built without a GPU driver"
                        + " or without nvcc; -Dcuda.kernels=always builds them)"));
        Module m = context.loadModule(image);
        try {
            return new CudaNtt(context, m, true);
        } catch (RuntimeException e) {
            m.close();
            throw e;
        }
    }

    /** a_i <- sum_j a_j w^(ij) ({@link Ntt#forward}). */
    public void forward(PrimeField f, int logSize, long[] a) {
        run(f, logSize, Op.FORWARD, null, 0, a);
    }

    /** a_i <- n^-1 sum_j a_j w^(-ij) ({@link Ntt#inverse}). */
    public void inverse(PrimeField f, int logSize, long[] a) {
        run(f, logSize, Op.INVERSE, null, 0, a);
    }

    /** a_i <- sum_j a_j g^j w^(ij) ({@link Ntt#cosetForward}). */
    public void cosetForward(PrimeField f, int logSize, long[] a, long[] g, int gi) {
        run(f, logSize, Op.COSET_FORWARD, g, gi, a);
    }

    /** a_j <- g^-j n^-1 sum_i a_i w^(-ij) ({@link Ntt#cosetInverse}). */
    public void cosetInverse(PrimeField f, int logSize, long[] a, long[] g, int gi) {
        run(f, logSize, Op.COSET_INVERSE, g, gi, a);
    }

    /** Values on H to values on g*H ({@link Ntt#evaluationsOnCoset}). */
    public void evaluationsOnCoset(PrimeField f, int logSize, long[] a, long[] g, int gi) {
        run(f, logSize, Op.EVALUATIONS_ON_COSET, g, gi, a);
    }

    /**
     * The Groth16 prover's H scalars: a, b, c (values on the domain of 2^logSize, Montgomery form) taken
     * to the coset g*H, g = {@link RootsOfUnity#snarkjsCosetShift}, then h_i = a_i b_i - c_i out of
     * Montgomery form (canonical words), written into {@code a}, which is returned; b and c are left as
     * they were.
     */
    public long[] quotient(PrimeField f, int logSize, long[] a, long[] b, long[] c) {
        long[] g = RootsOfUnity.snarkjsCosetShift(f, logSize);
        run(f, logSize, Op.QUOTIENT, g, 0, a, b, c);
        return a;
    }

    /**
     * The quotient on vectors in device memory: a, b, c (2^logSize elements each, Montgomery form, the
     * Java layout) in the given buffers, each of which may still be on its way there on another stream:
     * the launches that read a vector first wait for its event ({@code aReady}, {@code bReady},
     * {@code cReady}; null when it is there already). h = a b - c (canonical words) goes into {@code a}.
     * Everything is queued on this instance's stream, then {@code done} is recorded there; the call does
     * not wait ({@link #synchronize} does, and so does the next call). The buffers must stay allocated
     * until then.
     */
    public synchronized void quotientAsync(PrimeField f, int logSize, DeviceBuffer a, DeviceBuffer b, DeviceBuffer c,
            Event aReady, Event bReady, Event cReady, Event done) {
        String prefix = check(f, logSize);
        long vectorBytes = (1L << logSize) * f.width() * Long.BYTES;
        for (DeviceBuffer v : new DeviceBuffer[] {a, b, c}) {
            if (v.size() < vectorBytes) {
                throw new IllegalArgumentException("a device vector of " + v.size() + " bytes; 2^" + logSize
                        + " elements need " + vectorBytes);
            }
        }
        long[] scale = NttPlan.scaleTables(f, logSize, Op.QUOTIENT, RootsOfUnity.snarkjsCosetShift(f, logSize), 0);
        Map<Slot, Long> address = new EnumMap<>(Slot.class);
        address.put(Slot.TWIDDLES, twiddles(f, prefix, logSize).address());
        address.put(Slot.A, a.address());
        address.put(Slot.B, b.address());
        address.put(Slot.C, c.address());
        Map<Slot, Event> ready = new EnumMap<>(Slot.class);
        Event[] events = {aReady, bReady, cReady};
        Slot[] data = {Slot.A, Slot.B, Slot.C};
        for (int k = 0; k < 3; k++) {
            if (events[k] != null) {
                ready.put(data[k], events[k]);
            }
        }
        long scaleBytes = (long) scale.length * Long.BYTES;
        address.put(Slot.SCALE, buffer(Slot.SCALE, scaleBytes).address());
        boolean queued = false;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = pinned(scaleBytes);
            MemorySegment.copy(scale, 0, host, JAVA_LONG, 0, scale.length);
            buffers.get(Slot.SCALE).copyFromHostAsync(host, 0, stream);
            enqueue(arena, f, prefix, NttPlan.launches(Op.QUOTIENT, logSize), address, ready);
            done.record(stream);
            queued = true;
        } finally {
            pending = true; // queued or partly queued: the next call (or close) waits for it
            if (!queued) {
                drain();
                pending = false;
            }
        }
    }

    /** Waits for the work {@link #quotientAsync} queued (an error in it is thrown here). */
    public synchronized void synchronize() {
        pending = false;
        stream.synchronize();
    }

    /** The field's kernel prefix, after checking the call. */
    private String check(PrimeField f, int logN) {
        if (closed) {
            throw new IllegalStateException("CudaNtt is closed");
        }
        String prefix = NttPlan.kernelPrefix(f);
        if (logN < 0 || logN > f.twoAdicity() || logN > 28) {
            throw new IllegalArgumentException("log size " + logN + " out of [0, " + Math.min(28, f.twoAdicity())
                    + "] for the " + f.name());
        }
        if (pending) {
            synchronize(); // the staging memory and the scale buffer are about to be reused
        }
        return prefix;
    }

    /** Queues the launches, each first waiting for the events of the vectors it is the first to read. */
    private void enqueue(Arena arena, PrimeField f, String prefix, List<Launch> launches, Map<Slot, Long> address,
            Map<Slot, Event> ready) {
        int w = f.width();
        for (Launch l : launches) {
            KernelArgs args = new KernelArgs(arena);
            for (NttPlan.Arg arg : l.args()) {
                switch (arg) {
                    case NttPlan.Pointer p -> {
                        Event e = ready.remove(p.slot());
                        if (e != null) {
                            stream.waitFor(e);
                        }
                        args.pointer(address.get(p.slot()) + p.element() * w * Long.BYTES);
                    }
                    case NttPlan.Null ignored -> args.pointer(0L);
                    case NttPlan.U32 u -> args.i32(u.value());
                }
            }
            args.i64(l.count());
            function(prefix, l.kernel()).launch(Dim3.of(l.blocks()), Dim3.of(l.block()), 0, stream, args);
        }
    }

    private synchronized void run(PrimeField f, int logN, Op op, long[] g, int gi, long[]... vectors) {
        String prefix = check(f, logN);
        int w = f.width();
        long n = 1L << logN;
        long vectorBytes = n * w * Long.BYTES;
        for (long[] v : vectors) {
            if (v.length < n * w) {
                throw new IllegalArgumentException("expected " + n + " elements (" + n * w + " longs), got "
                        + v.length + " longs");
            }
        }
        long[] scale = g == null ? new long[0] : NttPlan.scaleTables(f, logN, op, g, gi);
        List<Launch> launches = NttPlan.launches(op, logN);

        Map<Slot, Long> address = new EnumMap<>(Slot.class);
        address.put(Slot.TWIDDLES, twiddles(f, prefix, logN).address());
        Slot[] data = {Slot.A, Slot.B, Slot.C};
        for (int k = 0; k < vectors.length; k++) {
            address.put(data[k], buffer(data[k], vectorBytes).address());
        }
        long scaleBytes = (long) scale.length * Long.BYTES;
        if (scaleBytes > 0) {
            address.put(Slot.SCALE, buffer(Slot.SCALE, scaleBytes).address());
        }
        MemorySegment host = pinned(vectors.length * vectorBytes + scaleBytes);
        boolean done = false;
        try (Arena arena = Arena.ofConfined()) {
            for (int k = 0; k < vectors.length; k++) {
                MemorySegment part = host.asSlice(k * vectorBytes, vectorBytes);
                MemorySegment.copy(vectors[k], 0, part, JAVA_LONG, 0, (int) (n * w));
                buffers.get(data[k]).copyFromHostAsync(part, 0, stream);
            }
            if (scaleBytes > 0) {
                MemorySegment part = host.asSlice(vectors.length * vectorBytes, scaleBytes);
                MemorySegment.copy(scale, 0, part, JAVA_LONG, 0, scale.length);
                buffers.get(Slot.SCALE).copyFromHostAsync(part, 0, stream);
            }
            enqueue(arena, f, prefix, launches, address, new EnumMap<>(Slot.class));
            MemorySegment result = host.asSlice(0, vectorBytes);
            buffers.get(Slot.A).copyToHostAsync(result, 0, stream);
            stream.synchronize();
            done = true;
            MemorySegment.copy(result, JAVA_LONG, 0, vectors[0], 0, (int) (n * w));
        } finally {
            if (!done) {
                drain();
            }
        }
    }

    /** After a failure: waits for what was queued (the pinned memory may be reused), keeping the first error. */
    private void drain() {
        try {
            stream.synchronize();
        } catch (RuntimeException ignored) {
            // the error that got here is the one to report
        }
    }

    /** The twiddles of a (field, size) on the device, made and uploaded on first use. */
    private DeviceBuffer twiddles(PrimeField f, String prefix, int logN) {
        TableKey key = new TableKey(prefix, logN);
        DeviceBuffer b = twiddles.get(key);
        if (b == null) {
            long[] t = NttPlan.twiddles(f, logN);
            b = context.allocate((long) t.length * Long.BYTES);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment s = arena.allocate((long) t.length * Long.BYTES, 8);
                MemorySegment.copy(t, 0, s, JAVA_LONG, 0, t.length);
                b.copyFromHost(s, 0);
            } catch (RuntimeException e) {
                b.close();
                throw e;
            }
            twiddles.put(key, b);
        }
        return b;
    }

    /** The device buffer of a slot, at least {@code bytes} long. */
    private DeviceBuffer buffer(Slot slot, long bytes) {
        DeviceBuffer b = buffers.get(slot);
        if (b == null || b.size() < bytes) {
            if (b != null) {
                buffers.remove(slot);
                b.close();
            }
            b = context.allocate(bytes);
            buffers.put(slot, b);
        }
        return b;
    }

    /** The pinned staging memory, at least {@code bytes} long. */
    private MemorySegment pinned(long bytes) {
        if (pinned == null || pinned.size() < bytes) {
            if (pinned != null) {
                PinnedBuffer old = pinned;
                pinned = null;
                old.close();
            }
            pinned = context.allocatePinned(bytes);
        }
        return pinned.segment().asSlice(0, bytes);
    }

    private Function function(String prefix, String kernel) {
        return functions.computeIfAbsent(NttPlan.entryPoint(prefix, kernel), module::function);
    }

    /** Frees the device and pinned buffers and the stream, and unloads the module when it loaded it. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stream.synchronize();
        } finally {
            for (DeviceBuffer b : twiddles.values()) {
                b.close();
            }
            for (DeviceBuffer b : buffers.values()) {
                b.close();
            }
            if (pinned != null) {
                pinned.close();
            }
            stream.close();
            if (ownsModule) {
                module.close();
            }
        }
    }
}
