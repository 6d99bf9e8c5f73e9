package dev.proofline.engine.groth16;

import dev.proofline.engine.BufferPool;
import dev.proofline.engine.ProverBackend;
import dev.proofline.groth16.ProofSums;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.Witness;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link DeviceBackend} as the pipeline's {@link ProverBackend}, the same for every backend:
 * {@code prepare} is the device's {@link DeviceBackend#stage stage}, {@code start} its
 * {@link DeviceBackend#sums(DeviceBackend.DeviceContext, DeviceBackend.Batch) sums} (under the device's
 * lock; a batch of partitions of one proving key where the backend's {@link DeviceBackend#maxBatch} is
 * over 1), and {@code finish} the prover's {@link Prover#finish} on them (B in G2 where the device did not
 * compute it, assembly with the prover's r and s, verification), as a {@link ProofResult}. So proofs from
 * any backend are assembled and verified by the same code, and equal for the same r and s.
 *
 * @param <S> the backend's staged partition
 */
public class DeviceBackendAdapter<S> implements ProverBackend<DeviceBackendAdapter.Staged<S>, Prover.Started, ProofResult>,
        AutoCloseable {

    /** A partition staged by the backend, with what {@code finish} needs of it and how long staging took. */
    public record Staged<S>(ProvingKey key, Witness witness, S staged, long stageNanos) {
    }

    private final DeviceBackend<S> device;
    private final Prover prover;
    private final DeviceBackend.DeviceContext[] contexts;

    /** {@code device}'s proofs with {@code prover}'s randomness and listener. */
    public DeviceBackendAdapter(DeviceBackend<S> device, Prover prover) {
        this.device = device;
        this.prover = prover;
        int n = device.deviceCount();
        if (n < 1) {
            throw new IllegalArgumentException("backend " + device.name() + " has " + n + " devices");
        }
        this.contexts = new DeviceBackend.DeviceContext[n];
        for (int d = 0; d < n; d++) {
            contexts[d] = new DeviceBackend.DeviceContext(d, prover);
        }
    }

    /** {@code device} as the pipeline's backend (its staged type captured). */
    public static <S> DeviceBackendAdapter<S> of(DeviceBackend<S> device, Prover prover) {
        return new DeviceBackendAdapter<>(device, prover);
    }

    /** The backend this adapts. */
    public DeviceBackend<S> device() {
        return device;
    }

    @Override
    public String name() {
        return device.name();
    }

    @Override
    public String summary() {
        return device.summary();
    }

    @Override
    public List<String> devices() {
        return device.devices();
    }

    @Override
    public int deviceCount() {
        return contexts.length;
    }

    @Override
    public BufferPool.Memory bufferMemory() {
        return device.bufferMemory();
    }

    @Override
    public BufferPool.Allocator bufferAllocator() {
        return device.bufferAllocator();
    }

    @Override
    public List<DeviceMemory> deviceMemory() {
        return device.deviceMemory();
    }

    /** The backend's staging of a circuit job's partition for device {@code d}; anything else is refused here. */
    @Override
    public Staged<S> prepare(Object synthesized, int d) throws Exception {
        if (!(synthesized instanceof CircuitJob.Payload payload)) {
            throw new IllegalArgumentException("the " + device.name() + " backend proves circuit jobs; this job's"
                    + " synthesis gave " + (synthesized == null ? "null" : synthesized.getClass().getName()));
        }
        long t0 = System.nanoTime();
        S staged = device.stage(contexts[d], payload);
        return new Staged<>(payload.key(), payload.witness(), staged, System.nanoTime() - t0);
    }

    /** Partitions of one proving key (the same key object) share a batch, where the backend batches. */
    @Override
    public Object batchKey(Object synthesized) {
        return device.maxBatch() > 1 && synthesized instanceof CircuitJob.Payload payload ? payload.key() : null;
    }

    /** As many as the backend's {@link DeviceBackend#maxBatch}. */
    @Override
    public int maxBatch() {
        return device.maxBatch();
    }

    /** The backend's sums of the partition, as a batch of one, on device {@code d}. */
    @Override
    public Prover.Started start(Staged<S> staged, int d) throws Exception {
        return startBatch(List.of(staged), d).getFirst();
    }

    /**
     * The backend's sums of a batch of one key's partitions, in one call on device {@code d}; each
     * partition's device time is the call's shared out evenly.
     */
    @Override
    public List<Prover.Started> startBatch(List<Staged<S>> batch, int d) throws Exception {
        ProvingKey key = batch.getFirst().key();
        List<S> partitions = new ArrayList<>(batch.size());
        for (Staged<S> staged : batch) {
            if (staged.key() != key) {
                throw new IllegalArgumentException("a batch is of one proving key");
            }
            partitions.add(staged.staged());
        }
        long t0 = System.nanoTime();
        List<ProofSums> sums = device.sums(contexts[d], new DeviceBackend.Batch<>(key, partitions));
        if (sums.size() != batch.size()) {
            throw new IllegalStateException("backend " + device.name() + " gave " + sums.size()
                    + " sums for a batch of " + batch.size() + " partition" + (batch.size() == 1 ? "" : "s"));
        }
        long share = (System.nanoTime() - t0) / batch.size();
        List<Prover.Started> started = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            Staged<S> staged = batch.get(i);
            started.add(Prover.started(key, staged.witness(), sums.get(i), staged.stageNanos(), share));
        }
        return started;
    }

    /** The proof from the sums: B in G2 if needed, assembly, verification. */
    @Override
    public ProofResult finish(Prover.Started started) {
        return new ProofResult(prover.finish(started), started.witness().publicSignals(started.key().publicCount()));
    }

    /** Closes the backend (after the engine that used it). */
    @Override
    public void close() {
        device.close();
    }
}
