package dev.proofline.daemon.jobs;

import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.wasm.CircomInput;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The checks of a submission that do not depend on how it was sent: its limits, its waits, and its
 * partitions against the circuit and its key (a service's request, or a partition a durable queue kept).
 * The service's request messages are checked by {@code SubmitRequests}, with these.
 */
public final class SubmitChecks {

    /** The longest deadline a job may have: a year. Longer ones overflowed the store's and the engine's clocks. */
    public static final Duration MAX_DEADLINE = Duration.ofDays(365);
    /** The longest idempotency key, in characters: it is stored and indexed with its job. */
    public static final int MAX_IDEMPOTENCY_KEY = 256;

    private SubmitChecks() {
    }

    /**
     * A wait in milliseconds as sent (uint64: from 2^63 on, negative here), capped at {@code max}; 0 is
     * {@code ifZero}.
     */
    public static Duration waitOf(long ms, Duration ifZero, Duration max) {
        if (ms == 0) {
            return ifZero.compareTo(max) < 0 ? ifZero : max;
        }
        return Long.compareUnsigned(ms, max.toMillis()) < 0 ? Duration.ofMillis(ms) : max;
    }

    /**
     * A partition kept by a durable queue, as the engine takes it, checked against the circuit and its key
     * (this node's, which may differ from the submitting node's): a {@link JobFailure} (INVALID_ARGUMENT)
     * when it does not fit them.
     */
    public static CircuitJob.Partition partition(Circuits.Registered circuit, ProvingKey key, ClusterStore.PartitionKind kind,
            byte[] payload, int p) {
        return switch (kind) {
            case WTNS -> wtns(circuit, key, MemorySegment.ofArray(payload).asReadOnly(), p);
            case INPUT_JSON -> input(circuit, new String(payload, StandardCharsets.UTF_8), p);
        };
    }

    /** How a message names partition {@code p} of {@code circuit}. */
    public static String name(Circuits.Registered circuit, int p) {
        return "partition " + p + " of circuit '" + circuit.id() + "'";
    }

    /** A witness ({@code .wtns}) checked against the key: a {@link JobFailure} (INVALID_ARGUMENT) when it does not fit. */
    public static CircuitJob.Partition wtns(Circuits.Registered circuit, ProvingKey key, MemorySegment wtns, int p) {
        String name = name(circuit, p);
        return new CircuitJob.Values(CircuitJob.checkWitness(name, WtnsFile.read(wtns, name), key));
    }

    /**
     * Input JSON, for a circuit that turns it into a witness: a {@link JobFailure} (INVALID_ARGUMENT) when
     * the circuit has no witness generator or the input is not one it takes.
     */
    public static CircuitJob.Partition input(Circuits.Registered circuit, String json, int p) {
        String name = name(circuit, p);
        if (circuit instanceof Circuits.Java j && j.fromInput() != null) {
            try {
                return new CircuitJob.Instance(j.fromInput().apply(json));
            } catch (IllegalArgumentException e) {
                throw new JobFailure(JobFailure.Code.INVALID_ARGUMENT, name + ": " + e.getMessage());
            }
        }
        if (!(circuit instanceof Circuits.Circom c) || c.wasm() == null) {
            throw new JobFailure(JobFailure.Code.INVALID_ARGUMENT, name + ": the circuit has no witness generator"
                    + " (circuit.wasm): send witnesses (.wtns)");
        }
        return new CircuitJob.Inputs(CircomInput.parse(json, name));
    }
}
