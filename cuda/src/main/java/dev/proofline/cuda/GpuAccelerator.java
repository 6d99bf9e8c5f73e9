package dev.proofline.cuda;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.ProofSums;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.Scalars;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * H and the G1 MSMs of the Groth16 prover on one GPU (a lane of {@link CudaBackend}), and B in G2 when
 * asked ({@link CudaBackend#G2_PROPERTY}): the NTTs by {@link CudaNtt}, the MSMs by {@link CudaMsm}
 * against the key's points, which are uploaded once and kept resident while the key is in use
 * ({@link DeviceKeys}, shared by the lanes of a device). Device memory is its own budget: when an
 * allocation finds no room, the least recently used other keys' points that no lane is proving with are
 * freed and it tries again (a key whose file was closed is dropped first). Not thread-safe: the engine's
 * lock of the lane serializes its callers; the figures for status pages ({@link #residentKeys},
 * {@link #residentBytes}) may be read from any thread.
 *
 * <p>{@link #sums} is the path of the engine's pinned buffers: a, b, c and the witness are copied from
 * page-locked host memory to the device by async copies on a copy stream, the witness first; the NTT
 * stream waits for each vector's event before its first kernel reads it, and the MSM stream waits for
 * the witness (A, B1, C run while the NTTs and the copies of b and c are still going) and for h, which
 * stays on the device; B in G2, when computed here, runs on the G2 instance's own stream beside the G1
 * MSMs. {@link #quotient} and {@link #g1Sums} take {@code long[]}s and copy them through pinned staging.
 */
final class GpuAccelerator implements AutoCloseable {

    /** The device copies of a proof's vectors, kept and grown between proofs. */
    private enum Vector { A, B, C, WITNESS }

    private final Context context;
    private final Module module;
    private final CudaNtt ntt;
    private final CudaCoefficients coefficients;
    private final Map<MsmGroup, CudaMsm> msms = new java.util.EnumMap<>(MsmGroup.class);
    /** Whether B in G2 is computed here, with the G1 sums (else on the CPU in the prover's finish). */
    private final boolean g2;
    /** Whether a, b, c of keys proved from their coefficients are computed here (else on the CPU). */
    private final boolean abc;
    /** The keys resident on this device, shared with its other lanes (or this accelerator's own). */
    private final DeviceKeys keys;
    private final boolean ownsKeys;
    private final DeviceBuffer[] vectors = new DeviceBuffer[Vector.values().length];
    private Stream copies;
    private Event witnessReady;
    private Event aReady;
    private Event bReady;
    private Event cReady;
    private Event hReady;
    private long abcOnDevice;

    GpuAccelerator(Context context) {
        this(context, KernelImage.load().orElseThrow(() -> new IllegalStateException(
                "no CUDA kernels: " + KernelImage.RESOURCE + " is not on the classpath (built without nvcc)")), false,
                true);
    }

    /**
     * With the kernels of {@code image} (a fatbin; the tests' fake driver takes its own); with {@code g2},
     * B in G2 too (the key's B2 points resident as well); with {@code abc}, a, b, c of keys proved from
     * their coefficients (the coefficients resident too, from the first such proof).
     */
    GpuAccelerator(Context context, byte[] image, boolean g2, boolean abc) {
        this(context, image, g2, abc, null);
    }

    /**
     * As {@link #GpuAccelerator(Context, byte[], boolean, boolean)}, with the device's resident keys shared
     * with its other lanes ({@code keys}, which the caller closes after every lane; null: keys of its own).
     * Lanes that share keys must agree on {@code g2}.
     */
    GpuAccelerator(Context context, byte[] image, boolean g2, boolean abc, DeviceKeys keys) {
        this.keys = keys == null ? new DeviceKeys() : keys;
        this.ownsKeys = keys == null;
        this.context = context;
        this.module = context.loadModule(image);
        this.ntt = new CudaNtt(context, module);
        this.coefficients = new CudaCoefficients(context, module);
        this.g2 = g2;
        this.abc = abc;
    }

    /** The G1 MSM of {@code curve} on this device (made on first use). */
    CudaMsm msm(PairingCurve curve) {
        return msm(MsmGroup.g1(curve));
    }

    private CudaMsm msm(MsmGroup group) {
        return msms.computeIfAbsent(group, c -> new CudaMsm(context, module, c));
    }

    /** Whether B in G2 is computed here. */
    boolean g2() {
        return g2;
    }

    /** Whether a, b, c of proofs with {@code key} are computed here: on, and the key has its coefficients. */
    public boolean computesAbc(ProvingKey key) {
        return abc && key.coefficientCount() > 0;
    }

    /** Proofs whose a, b, c were computed here from the key's coefficients. */
    long abcOnDevice() {
        return abcOnDevice;
    }

    /** h (the H MSM's scalars) from a, b, c on the key's domain (their vectors are overwritten). */
    public Scalars.Canonical quotient(ProvingKey key, Prover.Abc abc) {
        return new Scalars.Canonical(ntt.quotient(key.curve().fr(), key.logDomainSize(), abc.a().words(),
                abc.b().words(), abc.c().words()));
    }

    /** The sums from the witness and h, through pinned staging. */
    public ProofSums g1Sums(ProvingKey key, Scalars.Canonical witness, Scalars.Canonical quotient) {
        long[] w = witness.words();
        long[] h = quotient.words();
        return holding(key, r -> {
            CudaMsm msm = msm(key.curve());
            int nVars = key.variableCount();
            int nPublic = key.publicCount();
            long[] sumA = msm.multiply(r.a, w, 0, nVars);
            long[] sumB1 = msm.multiply(r.b1, w, 0, nVars);
            long[] sumC = msm.multiply(r.c, w, nPublic + 1, nVars - nPublic - 1);
            long[] sumH = msm.multiply(r.h, h, 0, key.domainSize());
            long[] sumB2 = r.b2 == null ? null : msm(MsmGroup.g2(key.curve())).multiply(r.b2, w, 0, nVars);
            return sums(sumA, sumB1, sumC, sumH, sumB2);
        });
    }

    /**
     * Runs {@code work} with {@code key} resident on the device (uploaded first if it is not) and held by
     * this lane, so that no other lane frees it meanwhile; lets go of it however the work ends.
     */
    private <T> T holding(ProvingKey key, Function<DeviceKeys.Resident, T> work) {
        DeviceKeys.Resident r = keys.acquire(key, this::upload);
        try {
            return work.apply(r);
        } finally {
            keys.release(r);
        }
    }

    /**
     * H and the four G1 sums from the native vectors (the engine's pinned buffers): uploaded by async
     * copies on the copy stream, overlapped with the NTTs and the MSMs on their streams; h stays on the
     * device for the H MSM. Returns when all of it is done (the host memory is free again then).
     */
    public ProofSums sums(ProvingKey key, Prover.NativeWorkspace ws) {
        return holding(key, r -> sums(key, r, ws, false));
    }

    /**
     * As {@link #sums(ProvingKey, Prover.NativeWorkspace)} with a, b, c computed here: only the witness
     * is copied, the key's coefficients (grouped by row and uploaded with the first such proof) give
     * a, b, c on the device ({@link CudaCoefficients}), and the NTTs wait for them there.
     */
    public ProofSums sumsFromWitness(ProvingKey key, Prover.NativeWorkspace ws) {
        if (!abc) {
            throw new IllegalStateException("a, b, c on the device are switched off for this accelerator");
        }
        return holding(key, r -> sums(key, r, ws, true));
    }

    private ProofSums sums(ProvingKey key, DeviceKeys.Resident r, Prover.NativeWorkspace ws, boolean fromWitness) {
        CudaCoefficients.Rows rows = fromWitness ? keys.rows(r, () -> CudaCoefficients.upload(key,
                bytes -> keys.withRoom(key, () -> context.allocate(bytes)))) : null;
        CudaMsm msm = msm(key.curve());
        int nVars = key.variableCount();
        int nPublic = key.publicCount();
        long vectorBytes = Prover.NativeWorkspace.vectorBytes(key);
        long witnessBytes = Prover.NativeWorkspace.witnessBytes(key);
        DeviceBuffer a = vector(Vector.A, vectorBytes, key);
        DeviceBuffer b = vector(Vector.B, vectorBytes, key);
        DeviceBuffer c = vector(Vector.C, vectorBytes, key);
        DeviceBuffer w = vector(Vector.WITNESS, witnessBytes, key);
        streamsAndEvents();
        boolean done = false;
        CudaMsm.Pending b2 = null;
        try {
            // the witness first: the MSMs of A, B1 and C need nothing else
            copy(ws.witness(), witnessBytes, w, witnessReady);
            if (rows != null) {
                // a, b, c written together by one kernel: the NTTs wait for its one event
                coefficients.launchAsync(key, rows, w, witnessReady, a, b, c, aReady);
                ntt.quotientAsync(key.curve().fr(), key.logDomainSize(), a, b, c, aReady, aReady, aReady, hReady);
            } else {
                copy(ws.a(), vectorBytes, a, aReady);
                copy(ws.b(), vectorBytes, b, bReady);
                copy(ws.c(), vectorBytes, c, cReady);
                ntt.quotientAsync(key.curve().fr(), key.logDomainSize(), a, b, c, aReady, bReady, cReady, hReady);
            }
            // B in G2 on its own instance's stream, beside the G1 MSMs (it needs only the witness)
            if (r.b2 != null) {
                b2 = msm(MsmGroup.g2(key.curve())).multiplyAsync(r.b2, w, 0, nVars, witnessReady);
            }
            long[] sumA = msm.multiply(r.a, w, 0, nVars, witnessReady);
            long[] sumB1 = msm.multiply(r.b1, w, 0, nVars, null);
            long[] sumC = msm.multiply(r.c, w, nPublic + 1, nVars - nPublic - 1, null);
            long[] sumH = msm.multiply(r.h, a, 0, key.domainSize(), hReady);
            long[] sumB2 = b2 == null ? null : b2.join();
            ntt.synchronize();
            coefficients.synchronize();
            copies.synchronize();
            done = true;
            if (rows != null) {
                abcOnDevice++;
            }
            return sums(sumA, sumB1, sumC, sumH, sumB2);
        } finally {
            if (!done) {
                if (b2 != null) {
                    try {
                        b2.join(); // its stream reads the witness, and its instance takes no call until then
                    } catch (RuntimeException ignored) {
                        // the first error is the one to report
                    }
                }
                drain(); // the host buffers go back to the pool: nothing may still copy from them
            }
        }
    }

    private static ProofSums sums(long[] sumA, long[] sumB1, long[] sumC, long[] sumH, long[] sumB2) {
        return ProofSums.of(sumA, sumB1, sumC, sumH, sumB2);
    }

    private void copy(MemorySegment host, long bytes, DeviceBuffer to, Event ready) {
        to.copyFromHostAsync(host.asSlice(0, bytes), 0, copies);
        ready.record(copies);
    }

    private void drain() {
        for (Runnable r : new Runnable[] {ntt::synchronize, coefficients::synchronize, copies::synchronize}) {
            try {
                r.run();
            } catch (RuntimeException ignored) {
                // the first error is the one to report
            }
        }
    }

    private void streamsAndEvents() {
        if (copies == null) {
            copies = context.createStream();
            witnessReady = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
            aReady = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
            bReady = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
            cReady = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
            hReady = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
        }
    }

    /** The device copy of a proof's vector, at least {@code bytes}, making room among the resident keys. */
    private DeviceBuffer vector(Vector v, long bytes, ProvingKey using) {
        DeviceBuffer b = vectors[v.ordinal()];
        if (b != null && b.size() >= bytes) {
            return b;
        }
        if (b != null) {
            vectors[v.ordinal()] = null;
            b.close();
        }
        b = keys.withRoom(using, () -> context.allocate(bytes));
        vectors[v.ordinal()] = b;
        return b;
    }

    /** The key's points, uploaded to the device (for {@link DeviceKeys#acquire}). */
    private DeviceKeys.Resident upload(ProvingKey key) {
        CudaMsm msm = msm(key.curve());
        int nVars = key.variableCount();
        int nPublic = key.publicCount();
        ResidentPoints a = null;
        ResidentPoints b1 = null;
        ResidentPoints c = null;
        ResidentPoints h = null;
        try {
            // A, B1, C and B2 without their points at infinity (most of a circom key's A and B)
            a = msm.uploadWithoutInfinity(key.pointsA(), 0, nVars);
            b1 = msm.uploadWithoutInfinity(key.pointsB1(), 0, nVars);
            int nc = nVars - nPublic - 1;
            c = msm.uploadWithoutInfinity(key.pointsC(), 0, Math.max(1, nc));
            h = msm.upload(key.pointsH(), 0, key.domainSize());
            long bytes = a.bytes() + b1.bytes() + c.bytes() + h.bytes();
            ResidentPoints b2 = null;
            if (g2) {
                b2 = msm(MsmGroup.g2(key.curve())).uploadWithoutInfinity(key.pointsB2(), 0, nVars);
                bytes += b2.bytes();
            }
            return new DeviceKeys.Resident(a, b1, c, h, b2, bytes);
        } catch (RuntimeException e) {
            for (ResidentPoints p : new ResidentPoints[] {a, b1, c, h}) {
                if (p != null) {
                    p.close();
                }
            }
            throw e;
        }
    }

    /** Frees the device copy of {@code key}'s points, if there is one (the key was evicted from the host). */
    void forget(ProvingKey key) {
        keys.forget(key);
    }

    /** Keys whose points are resident; may be read from any thread. */
    int residentKeys() {
        return keys.residentKeys();
    }

    /**
     * Each resident key's file name and device footprint ("circuit.zkey 412.5 MiB"), least recently used
     * first; may be read from any thread.
     */
    List<String> footprints() {
        return keys.footprints();
    }

    /** Bytes of the resident keys' points and coefficients; may be read from any thread. */
    long residentBytes() {
        return keys.residentBytes();
    }

    /** Keys uploaded to the device (by any of its lanes). */
    long uploads() {
        return keys.uploads();
    }

    long evictions() {
        return keys.evictions();
    }

    @Override
    public void close() {
        try {
            if (copies != null) {
                drain();
            }
        } finally {
            if (ownsKeys) {
                keys.close();
            }
            for (int i = 0; i < vectors.length; i++) {
                if (vectors[i] != null) {
                    vectors[i].close();
                    vectors[i] = null;
                }
            }
            for (CudaMsm m : msms.values()) {
                m.close();
            }
            ntt.close();
            coefficients.close();
            if (copies != null) {
                for (Event e : new Event[] {witnessReady, aReady, bReady, cReady, hReady}) {
                    e.close();
                }
                copies.close();
            }
            module.close();
        }
    }
}
