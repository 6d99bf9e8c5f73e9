package dev.proofline.cuda;

import dev.proofline.groth16.ProvingKey;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The proving keys resident on one device, shared by the device's lanes ({@link GpuAccelerator}s): each
 * key's points (and its coefficients, once a proof computed a, b, c there) are uploaded once, by the
 * first lane that proves with it, and read by every lane. A lane holds a key from {@link #acquire} to
 * {@link #release} while it proves; when an allocation finds no device memory, the least recently used
 * keys that no lane holds are freed first ({@link #withRoom}). Thread-safe; the figures for status pages
 * ({@link #residentKeys}, {@link #residentBytes}, {@link #footprints}) may be read without the lock.
 */
final class DeviceKeys implements AutoCloseable {

    /**
     * A key on the device: its G1 points, its B2 points when B in G2 is computed there (else null), its
     * coefficients grouped by row once a proof has computed a, b, c there (else null), their bytes, and
     * how many lanes hold it now.
     */
    static final class Resident implements AutoCloseable {
        final ResidentPoints a;
        final ResidentPoints b1;
        final ResidentPoints c;
        final ResidentPoints h;
        final ResidentPoints b2;
        final long pointBytes;
        CudaCoefficients.Rows rows;
        private int holders;

        Resident(ResidentPoints a, ResidentPoints b1, ResidentPoints c, ResidentPoints h, ResidentPoints b2,
                long pointBytes) {
            this.a = a;
            this.b1 = b1;
            this.c = c;
            this.h = h;
            this.b2 = b2;
            this.pointBytes = pointBytes;
        }

        long bytes() {
            return pointBytes + (rows == null ? 0 : rows.bytes());
        }

        @Override
        public void close() {
            a.close();
            b1.close();
            c.close();
            h.close();
            if (b2 != null) {
                b2.close();
            }
            if (rows != null) {
                rows.close();
            }
        }
    }

    /** Resident keys, least recently used first. */
    private final LinkedHashMap<ProvingKey, Resident> resident = new LinkedHashMap<>(16, 0.75f, true);
    private volatile long residentBytes;
    private volatile int residentKeys;
    private volatile List<String> footprints = List.of();
    private long uploads;
    private long evictions;

    /**
     * {@code key} on the device, uploaded now by {@code upload} if it is not (making room among the keys
     * no lane holds), and held until {@link #release}.
     */
    synchronized Resident acquire(ProvingKey key, Function<ProvingKey, Resident> upload) {
        dropClosedKeys();
        Resident r = resident.get(key);
        if (r == null) {
            r = withRoom(key, () -> upload.apply(key));
            resident.put(key, r);
            uploads++;
            counts();
        }
        r.holders++;
        return r;
    }

    /** Lets go of a key {@link #acquire} gave: it may be freed again when room is needed. */
    synchronized void release(Resident r) {
        if (r.holders <= 0) {
            throw new IllegalStateException("released more often than acquired");
        }
        r.holders--;
    }

    /** The key's coefficients on the device, uploaded now by {@code upload} if they are not. */
    synchronized CudaCoefficients.Rows rows(Resident r, Supplier<CudaCoefficients.Rows> upload) {
        if (r.rows == null) {
            r.rows = upload.get();
            counts();
        }
        return r.rows;
    }

    /**
     * Runs an allocation; when the device is out of memory, frees the least recently used resident key
     * other than {@code using} that no lane holds, and tries again, until none is left.
     */
    synchronized <T> T withRoom(ProvingKey using, Supplier<T> allocation) {
        while (true) {
            try {
                return allocation.get();
            } catch (CudaException e) {
                if (!"CUDA_ERROR_OUT_OF_MEMORY".equals(e.errorName()) || !evictLeastRecentlyUsed(using)) {
                    throw e;
                }
            }
        }
    }

    private boolean evictLeastRecentlyUsed(ProvingKey keep) {
        var it = resident.entrySet().iterator();
        while (it.hasNext()) {
            var e = it.next();
            if (e.getKey() != keep && e.getValue().holders == 0) {
                it.remove();
                e.getValue().close();
                evictions++;
                counts();
                return true;
            }
        }
        return false;
    }

    /** Keys closed on the host (evicted from the engine's cache) will not be proved with again. */
    private void dropClosedKeys() {
        var it = resident.entrySet().iterator();
        while (it.hasNext()) {
            var e = it.next();
            if (e.getValue().holders == 0 && !e.getKey().pointsA().scope().isAlive()) {
                it.remove();
                e.getValue().close();
                counts();
            }
        }
    }

    /**
     * Frees the device copy of {@code key}, if there is one.
     *
     * @throws IllegalStateException a lane holds it
     */
    synchronized void forget(ProvingKey key) {
        Resident r = resident.get(key);
        if (r != null) {
            if (r.holders > 0) {
                throw new IllegalStateException("the key is in use on the device");
            }
            resident.remove(key);
            r.close();
            counts();
        }
    }

    private void counts() {
        long bytes = 0;
        List<String> each = new ArrayList<>(resident.size());
        for (Map.Entry<ProvingKey, Resident> e : resident.entrySet()) {
            bytes += e.getValue().bytes();
            Path file = e.getKey().source().getFileName();
            each.add((file == null ? e.getKey().source().toString() : file.toString()) + " "
                    + CudaBackend.size(e.getValue().bytes()));
        }
        residentBytes = bytes;
        residentKeys = resident.size();
        footprints = List.copyOf(each);
    }

    /** Keys whose points are resident. */
    int residentKeys() {
        return residentKeys;
    }

    /** Each resident key's file name and device footprint ("circuit.zkey 412.5 MiB"), least recently used first. */
    List<String> footprints() {
        return footprints;
    }

    /** Bytes of the resident keys' points and coefficients. */
    long residentBytes() {
        return residentBytes;
    }

    synchronized long uploads() {
        return uploads;
    }

    synchronized long evictions() {
        return evictions;
    }

    /** Frees every resident key (no lane may be proving then). */
    @Override
    public synchronized void close() {
        for (Resident r : resident.values()) {
            r.close();
        }
        resident.clear();
        counts();
    }
}
