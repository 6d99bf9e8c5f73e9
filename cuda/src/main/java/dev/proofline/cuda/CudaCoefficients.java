package dev.proofline.cuda;

import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.io.BinFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * a = A w, b = B w and c = a b of proofs on the device, from a proving key's coefficient section
 * ({@code abc.cuh}): the section is grouped by row once ({@link #upload}) and kept resident with the
 * key's points, and per proof one launch reads the witness already on the device and writes a, b, c
 * over the whole domain (the rows past the circuit's constraints zero), where the NTTs take them. So
 * only the witness crosses the bus, and the CPU does not evaluate the constraints.
 */
final class CudaCoefficients implements AutoCloseable {

    /** Threads of a launch's block. */
    static final int BLOCK = 256;

    /**
     * A key's coefficients on the device, grouped by row: {@code rows} 2n + 1 u32 offsets (row i of A
     * from rows[i], row i of B from rows[n + i]), {@code signals} a u32 per entry, {@code values} the
     * key's 32-byte values in row order; n the key's domain size, {@code bytes} the device memory held.
     */
    record Rows(DeviceBuffer rows, DeviceBuffer signals, DeviceBuffer values, int domainSize, long bytes)
            implements AutoCloseable {
        @Override
        public void close() {
            rows.close();
            signals.close();
            values.close();
        }
    }

    private final Module module;
    private final Stream stream;
    private final Map<String, Function> functions = new HashMap<>();
    /** Whether {@link #launchAsync} left work on the stream that no call has waited for yet. */
    private boolean pending;

    /** On {@code context}, with the kernels of {@code module} (the caller keeps and closes it). */
    CudaCoefficients(Context context, Module module) {
        this.module = Objects.requireNonNull(module);
        this.stream = context.createStream();
    }

    /** Bytes on the device of {@code key}'s grouped coefficients ({@link #upload}). */
    static long deviceBytes(ProvingKey key) {
        return 4L * (2L * key.domainSize() + 1) + (4L + ProvingKey.COEFFICIENT_BYTES - 12) * key.coefficientCount();
    }

    /**
     * The row offsets of {@code key}'s coefficients, 2n + 1 of them (n its domain size): entries of A's
     * row i from offset i, of B's row i from offset n + i; the last is the number of coefficients. The
     * key's loader has checked every entry (matrix 0 or 1, constraint below n, signal below nVars).
     */
    static int[] rowOffsets(ProvingKey key) {
        int n = key.domainSize();
        MemorySegment coefs = key.coefficients();
        int[] offsets = new int[2 * n + 1];
        for (int e = 0; e < key.coefficientCount(); e++) {
            offsets[slot(coefs, e, n) + 1]++;
        }
        for (int i = 0; i < 2 * n; i++) {
            offsets[i + 1] += offsets[i];
        }
        return offsets;
    }

    /** The row of entry e: its constraint, plus n in B. */
    private static int slot(MemorySegment coefs, int e, int n) {
        long o = (long) e * ProvingKey.COEFFICIENT_BYTES;
        return coefs.get(BinFile.U32, o) * n + coefs.get(BinFile.U32, o + 4);
    }

    /**
     * {@code key}'s coefficients grouped by row (a counting sort, stable: a row's entries in the key's
     * order) and copied to new device buffers, allocated by {@code allocate} (which may make room).
     */
    static Rows upload(ProvingKey key, java.util.function.LongFunction<DeviceBuffer> allocate) {
        int n = key.domainSize();
        int count = key.coefficientCount();
        int valueBytes = ProvingKey.COEFFICIENT_BYTES - 12;
        int[] offsets = rowOffsets(key);
        MemorySegment coefs = key.coefficients();
        DeviceBuffer rows = null;
        DeviceBuffer signals = null;
        DeviceBuffer values = null;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment hostRows = arena.allocate(4L * offsets.length, 8);
            MemorySegment.copy(offsets, 0, hostRows, ValueLayout.JAVA_INT, 0, offsets.length);
            MemorySegment hostSignals = arena.allocate(Math.max(4L, 4L * count), 8);
            MemorySegment hostValues = arena.allocate(Math.max(8L, (long) valueBytes * count), 8);
            int[] next = java.util.Arrays.copyOf(offsets, 2 * n);
            for (int e = 0; e < count; e++) {
                long o = (long) e * ProvingKey.COEFFICIENT_BYTES;
                int at = next[slot(coefs, e, n)]++;
                hostSignals.setAtIndex(ValueLayout.JAVA_INT, at, coefs.get(BinFile.U32, o + 8));
                MemorySegment.copy(coefs, o + 12, hostValues, (long) at * valueBytes, valueBytes);
            }
            rows = allocate.apply(hostRows.byteSize());
            signals = allocate.apply(hostSignals.byteSize());
            values = allocate.apply(hostValues.byteSize());
            rows.copyFromHost(hostRows, 0);
            signals.copyFromHost(hostSignals, 0);
            values.copyFromHost(hostValues, 0);
            return new Rows(rows, signals, values, n, rows.size() + signals.size() + values.size());
        } catch (RuntimeException | Error e) {
            for (DeviceBuffer b : new DeviceBuffer[] {rows, signals, values}) {
                if (b != null) {
                    b.close();
                }
            }
            throw e;
        }
    }

    /**
     * Queues a, b, c of the domain from {@code rows} and the witness {@code w} (canonical words) on this
     * class's stream, after {@code witnessReady}; records {@code done} when they are written.
     */
    synchronized void launchAsync(ProvingKey key, Rows rows, DeviceBuffer w, Event witnessReady, DeviceBuffer a,
            DeviceBuffer b, DeviceBuffer c, Event done) {
        int n = key.domainSize();
        if (rows.domainSize() != n) {
            throw new IllegalArgumentException("coefficient rows of a domain of " + rows.domainSize() + ", the key's is " + n);
        }
        long vectorBytes = 32L * n;
        for (DeviceBuffer v : new DeviceBuffer[] {a, b, c}) {
            if (v.size() < vectorBytes) {
                throw new IllegalArgumentException("a device vector of " + v.size() + " bytes; the key's domain needs "
                        + vectorBytes);
            }
        }
        if (w.size() < 32L * key.variableCount()) {
            throw new IllegalArgumentException("a device witness of " + w.size() + " bytes; the key's variables need "
                    + 32L * key.variableCount());
        }
        String entry = NttPlan.entryPoint(NttPlan.kernelPrefix(key.curve().fr()), "abc");
        Function f = functions.computeIfAbsent(entry, module::function);
        pending = true;
        stream.waitFor(witnessReady);
        try (Arena arena = Arena.ofConfined()) {
            KernelArgs args = new KernelArgs(arena).pointer(rows.rows()).pointer(rows.signals()).pointer(rows.values())
                    .pointer(w).pointer(a).pointer(b).pointer(c).i64(n);
            f.launch(Dim3.of((n + BLOCK - 1) / BLOCK), Dim3.of(BLOCK), 0, stream, args);
        }
        done.record(stream);
    }

    /** Waits for the work {@link #launchAsync} queued (an error in it is thrown here). */
    synchronized void synchronize() {
        pending = false;
        stream.synchronize();
    }

    @Override
    public synchronized void close() {
        try {
            if (pending) {
                synchronize();
            }
        } finally {
            stream.close();
        }
    }
}
