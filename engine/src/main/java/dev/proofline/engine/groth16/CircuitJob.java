package dev.proofline.engine.groth16;

import dev.proofline.engine.BufferPool;
import dev.proofline.engine.JobSpec;
import dev.proofline.engine.ResidentCache;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.pce.Pce;
import dev.proofline.r1cs.wasm.CircomInput;
import java.util.List;

/**
 * A job on a registered circuit: each partition's synthesis takes a reference to the circuit's key
 * (and PCE) — taken by {@link #lease}, before the engine reserves the partition's bytes — computes the
 * witness (read from {@code .wtns} bytes, run by the circom witness generator on inputs, or computed by
 * a Java circuit), then a, b, c by the PCE when the circuit has one (otherwise the prover takes them
 * from the key's coefficients; so does a backend that computes them on its device,
 * {@link DeviceBackend#computesAbc}, and the PCE is then not loaded). The references are let go when the partition ends, however it ends.
 *
 * <p>With heap buffers (the {@link CpuBackend}) a, b, c go into the pooled {@code long[]}s and
 * synthesis yields a {@link HeapSynthesized}; with {@link BufferPool.Memory#PINNED} buffers
 * (a GPU backend) a, b, c go straight into the pooled native memory, a fourth buffer takes the
 * witness's words, and synthesis yields a {@link NativeSynthesized}.
 */
public final class CircuitJob implements JobSpec<CircuitJob.Payload> {

    /** One partition's input. */
    public sealed interface Partition permits Wtns, Inputs, Values, Instance {
    }

    /** A witness file's bytes (snarkjs {@code .wtns}). */
    public record Wtns(byte[] bytes) implements Partition {
    }

    /** Inputs for the circom witness generator (the circuit needs its wasm registered). */
    public record Inputs(CircomInput input) implements Partition {
    }

    /** A witness already computed. */
    public record Values(Witness witness) implements Partition {
    }

    /** An instance of a Java circuit (of the registered shape). */
    public record Instance(Circuit circuit) implements Partition {
    }

    /**
     * What a partition's synthesis hands the backend's {@link DeviceBackend#stage}: the key, the witness,
     * and a, b, c in heap or native (pinned) vectors, as the backend's {@link DeviceBackend#bufferMemory}
     * asked. a, b, c are in Montgomery form.
     */
    public sealed interface Payload permits HeapSynthesized, NativeSynthesized {
        ProvingKey key();

        Witness witness();

        /**
         * The circuit's rows of a, b, c already in the vectors (the PCE wrote them; the rows the setup
         * adds are not there yet), or -1: the vectors are unwritten, a, b, c come from the key's
         * coefficients (on the CPU, {@link Prover#abc}, or on a device that computes them).
         */
        int rows();
    }

    /**
     * What synthesis hands a backend with heap buffers: the key, the witness, the workspace (pooled, or
     * null for fresh vectors) and, when the PCE computed a, b, c there, their number of rows (-1 otherwise).
     */
    public record HeapSynthesized(ProvingKey key, Witness witness, Prover.Workspace workspace, int rows)
            implements Payload {
    }

    /**
     * What synthesis hands a backend with pinned buffers: the key, the witness, the native vectors
     * (a, b, c, witness) and, when the PCE computed a, b, c there, their number of rows (-1 otherwise:
     * the prover's {@code prepare} takes them from the key's coefficients).
     */
    public record NativeSynthesized(ProvingKey key, Witness witness, Prover.NativeWorkspace workspace, int rows)
            implements Payload {
    }

    private final Circuits circuits;
    private final String id;
    /** Inputs, each dropped when its partition ends (a job's result outlives its witnesses). */
    private final Partition[] inputs;
    private final long vectorBytes;
    private final long witnessBytes;
    private final long extraBytes;
    /** Whether a, b, c come from the circuit's PCE ({@link Circuits#usesPce}); otherwise from the key. */
    private final boolean usesPce;
    /** Each partition's references, from its lease to its release. */
    private final Leases[] partitionLeases;

    /** A partition's references to the circuit's key and, when it has one, its PCE (null otherwise). */
    private record Leases(ResidentCache<ProvingKey>.Lease key, ResidentCache<Pce>.Lease pce) {
        void close() {
            key.close();
            if (pce != null) {
                pce.close();
            }
        }
    }

    /**
     * A job of {@code partitions} on circuit {@code id}. The key is loaded here, if it is not resident,
     * to size the partitions' working sets.
     */
    public CircuitJob(Circuits circuits, String id, List<? extends Partition> partitions) throws InterruptedException {
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("a job needs at least one partition");
        }
        this.circuits = circuits;
        this.id = id;
        this.inputs = partitions.toArray(Partition[]::new);
        try (var key = circuits.key(id)) {
            this.vectorBytes = CpuBackend.vectorBytes(key.value());
            this.witnessBytes = 32L * key.value().variableCount();
            this.usesPce = circuits.usesPce(id, key.value());
            this.extraBytes = CpuBackend.extraBytes(key.value()) - (usesPce ? witnessBytes : 0);
        }
        this.partitionLeases = new Leases[partitions.size()];
    }

    public String circuitId() {
        return id;
    }

    @Override
    public String label() {
        return id;
    }

    @Override
    public int partitions() {
        return inputs.length;
    }

    @Override
    public long workingSetBytes(int p) {
        return 3 * vectorBytes + extraBytes;
    }

    /**
     * a, b, c: three vectors on the key's domain, which the prover computes H in; with a PCE, a fourth for
     * the witness in Montgomery form.
     */
    @Override
    public long[] bufferSizes(int p) {
        return usesPce ? new long[] {vectorBytes, vectorBytes, vectorBytes, witnessBytes}
                : new long[] {vectorBytes, vectorBytes, vectorBytes};
    }

    @Override
    public long extraBytes(int p) {
        return extraBytes;
    }

    /**
     * With pinned buffers: a, b, c and the witness's words, each in its own buffer, whether the circuit
     * has a PCE or not.
     */
    @Override
    public long[] bufferSizes(int p, BufferPool.Memory memory) {
        return memory == BufferPool.Memory.PINNED ? new long[] {vectorBytes, vectorBytes, vectorBytes, witnessBytes}
                : bufferSizes(p);
    }

    /**
     * With pinned buffers: the witness on the heap and, with a PCE, its Montgomery form (the PCE reads
     * it there); no NTT scratch (the device runs the NTTs).
     */
    @Override
    public long extraBytes(int p, BufferPool.Memory memory) {
        return memory == BufferPool.Memory.PINNED ? (usesPce ? 2 : 1) * witnessBytes : extraBytes(p);
    }

    /**
     * References the circuit's key and, when it has one, its PCE for partition {@code p} (loading them if
     * they are not resident), until {@link #release}: taken before the partition's bytes are reserved,
     * so that its own reservation cannot evict them. A second call for the same partition takes nothing.
     */
    @Override
    public void lease(int p) throws InterruptedException {
        synchronized (partitionLeases) {
            if (partitionLeases[p] != null) {
                return;
            }
        }
        var key = circuits.key(id);
        ResidentCache<Pce>.Lease pce = null;
        try {
            if (usesPce) {
                pce = circuits.pce(id);
            }
        } catch (Throwable e) {
            key.close();
            throw e;
        }
        synchronized (partitionLeases) {
            partitionLeases[p] = new Leases(key, pce);
        }
    }

    /** Partition p's references: those {@link #lease} took, or taken now for a caller that did not lease. */
    private Leases leases(int p) throws InterruptedException {
        lease(p);
        synchronized (partitionLeases) {
            return partitionLeases[p];
        }
    }

    @Override
    public Payload synthesize(int p) throws Exception {
        return synthesize(p, null);
    }

    @Override
    public Payload synthesize(int p, List<BufferPool.Buffer> buffers) throws Exception {
        Leases leases = leases(p);
        ProvingKey key = leases.key().value();
        Witness w = witness(p, key);
        if (buffers != null && buffers.size() >= 4 && buffers.get(0).memory() == BufferPool.Memory.PINNED) {
            return synthesizeNative(key, w, buffers, leases);
        }
        boolean pooled = buffers != null && buffers.size() >= 3 && !buffers.get(0).segment().isNative();
        Prover.Workspace ws = pooled ? CpuBackend.workspace(buffers) : Prover.Workspace.allocate(key);
        if (!usesPce) {
            return new HeapSynthesized(key, w, ws, -1);
        }
        Pce pce = pce(key, leases);
        long[] mont = pooled && buffers.size() == 4 ? buffers.get(3).longs() : new long[w.size() * 4];
        pce.evaluate(w, mont, ws.a(), ws.b(), ws.c());
        return new HeapSynthesized(key, w, ws, pce.r1cs().constraintCount());
    }

    /** The circuit's PCE from the partition's references, checked against its key. */
    private Pce pce(ProvingKey key, Leases leases) {
        Pce pce = leases.pce().value();
        if (pce.r1cs().wireCount() != key.variableCount()) {
            throw new IllegalArgumentException("circuit '" + id + "': its constraint system has "
                    + pce.r1cs().wireCount() + " wires, its key " + key.variableCount() + " variables");
        }
        return pce;
    }

    /** a, b, c by the PCE straight into the pinned buffers (or left to the prover's prepare without one). */
    private NativeSynthesized synthesizeNative(ProvingKey key, Witness w, List<BufferPool.Buffer> buffers,
            Leases leases) {
        Prover.NativeWorkspace ws = new Prover.NativeWorkspace(buffers.get(0).segment(), buffers.get(1).segment(),
                buffers.get(2).segment(), buffers.get(3).segment());
        if (!usesPce) {
            return new NativeSynthesized(key, w, ws, -1);
        }
        Pce pce = pce(key, leases);
        pce.evaluate(w, new long[w.size() * 4], ws.a(), ws.b(), ws.c());
        return new NativeSynthesized(key, w, ws, pce.r1cs().constraintCount());
    }

    private Witness witness(int p, ProvingKey key) {
        String name = "partition " + p + " of " + id;
        Partition in;
        synchronized (partitionLeases) {
            in = inputs[p];
        }
        if (in == null) {
            throw new IllegalStateException(name + " has already ended");
        }
        Witness w = switch (in) {
            case Wtns(byte[] bytes) -> WtnsFile.read(bytes, name);
            case Inputs(CircomInput input) -> circuits.wasm(id).calculate(input);
            case Values(Witness v) -> v;
            case Instance(Circuit c) -> WitnessSystem.witness(key.curve(), c);
        };
        return checkWitness(name, w, key);
    }

    /**
     * {@code w}, when it fits {@code key} (its curve, its number of variables); otherwise an
     * {@link IllegalArgumentException} that starts with {@code name}.
     */
    public static Witness checkWitness(String name, Witness w, ProvingKey key) {
        if (w.curve() != key.curve()) {
            throw new IllegalArgumentException(name + ": the witness is for " + w.curve().snarkjsName()
                    + ", the circuit's key for " + key.curve().snarkjsName());
        }
        if (w.size() != key.variableCount()) {
            throw new IllegalArgumentException(name + ": the witness has " + w.size() + " values, the circuit's key "
                    + key.variableCount() + " variables");
        }
        return w;
    }

    @Override
    public void release(int p) {
        Leases leases;
        synchronized (partitionLeases) {
            leases = partitionLeases[p];
            partitionLeases[p] = null;
            inputs[p] = null;
        }
        if (leases != null) {
            leases.close();
        }
    }
}
