package dev.proofline.cuda;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * H and the G1 MSMs of the Groth16 prover on one GPU ({@link Prover.Accelerator}): the NTTs by
 * {@link CudaNtt}, the MSMs by {@link CudaMsm} against the key's points, which are uploaded once and
 * kept resident while the key is in use. Device memory is its own budget: when an upload finds no
 * room, the least recently used other keys' points are freed and it tries again. Not thread-safe: the
 * engine's device lock serializes its callers.
 */
final class GpuAccelerator implements Prover.Accelerator, AutoCloseable {

    /** A key's G1 points on the device. */
    private record Resident(CudaMsm.Points a, CudaMsm.Points b1, CudaMsm.Points c, CudaMsm.Points h)
            implements AutoCloseable {
        @Override
        public void close() {
            a.close();
            b1.close();
            c.close();
            h.close();
        }
    }

    private final Context context;
    private final Module module;
    private final CudaNtt ntt;
    private final Map<PairingCurve, CudaMsm> msms = new java.util.EnumMap<>(PairingCurve.class);
    /** Resident keys, least recently used first. */
    private final LinkedHashMap<ProvingKey, Resident> resident = new LinkedHashMap<>(16, 0.75f, true);
    private long uploads;
    private long evictions;

    GpuAccelerator(Context context) {
        this.context = context;
        byte[] image = KernelImage.load().orElseThrow(() -> new IllegalStateException(
                "no CUDA kernels: " + KernelImage.RESOURCE + " is not on the classpath (built without nvcc)"));
        this.module = context.loadModule(image);
        this.ntt = new CudaNtt(context, module);
    }

    private CudaMsm msm(PairingCurve curve) {
        return msms.computeIfAbsent(curve, c -> new CudaMsm(context, module,
                c == PairingCurve.BN254 ? CudaMsm.Curve.BN254 : CudaMsm.Curve.BLS12_381));
    }

    @Override
    public long[] quotient(ProvingKey key, long[] a, long[] b, long[] c) {
        return ntt.quotient(key.curve().fr(), key.logDomainSize(), a, b, c);
    }

    @Override
    public long[][] g1Sums(ProvingKey key, long[] w, long[] h) {
        Resident r = resident(key);
        CudaMsm msm = msm(key.curve());
        int nVars = key.variableCount();
        int nPublic = key.publicCount();
        return new long[][] {msm.multiply(r.a(), w, 0, nVars), msm.multiply(r.b1(), w, 0, nVars),
            msm.multiply(r.c(), w, nPublic + 1, nVars - nPublic - 1), msm.multiply(r.h(), h, 0, key.domainSize())};
    }

    /** The key's points on the device, uploaded now if they are not. */
    private Resident resident(ProvingKey key) {
        Resident r = resident.get(key);
        if (r != null) {
            return r;
        }
        while (true) {
            try {
                r = upload(key);
                resident.put(key, r);
                uploads++;
                return r;
            } catch (CudaException e) {
                if (!e.getMessage().contains("CUDA_ERROR_OUT_OF_MEMORY") || resident.isEmpty()) {
                    throw e;
                }
                evictLeastRecentlyUsed();
            }
        }
    }

    private Resident upload(ProvingKey key) {
        CudaMsm msm = msm(key.curve());
        int nVars = key.variableCount();
        int nPublic = key.publicCount();
        CudaMsm.Points a = null;
        CudaMsm.Points b1 = null;
        CudaMsm.Points c = null;
        try {
            a = msm.upload(key.pointsA(), 0, nVars);
            b1 = msm.upload(key.pointsB1(), 0, nVars);
            c = msm.upload(key.pointsC(), 0, Math.max(1, nVars - nPublic - 1));
            return new Resident(a, b1, c, msm.upload(key.pointsH(), 0, key.domainSize()));
        } catch (RuntimeException e) {
            for (CudaMsm.Points p : new CudaMsm.Points[] {a, b1, c}) {
                if (p != null) {
                    p.close();
                }
            }
            throw e;
        }
    }

    private void evictLeastRecentlyUsed() {
        var it = resident.entrySet().iterator();
        Resident r = it.next().getValue();
        it.remove();
        r.close();
        evictions++;
    }

    /** Frees the device copy of {@code key}'s points, if there is one (the key was evicted from the host). */
    void forget(ProvingKey key) {
        Resident r = resident.remove(key);
        if (r != null) {
            r.close();
        }
    }

    int residentKeys() {
        return resident.size();
    }

    long uploads() {
        return uploads;
    }

    long evictions() {
        return evictions;
    }

    @Override
    public void close() {
        for (Resident r : resident.values()) {
            r.close();
        }
        resident.clear();
        for (CudaMsm m : msms.values()) {
            m.close();
        }
        ntt.close();
        module.close();
    }
}
