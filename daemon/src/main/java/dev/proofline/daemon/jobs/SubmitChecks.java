package dev.proofline.daemon.jobs;

import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.Priority;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.wasm.CircomInput;
import io.grpc.Status;
import java.time.Duration;

/**
 * The fields of a submission that the service checks before anything else (the JSON API's requests
 * included, which become the same gRPC request): numbers a client may send out of range must not
 * wrap, and strings the store keeps must stay small.
 */
public final class SubmitChecks {

    /** The longest deadline a job may have: a year. Longer ones overflowed the store's and the engine's clocks. */
    static final Duration MAX_DEADLINE = Duration.ofDays(365);
    /** The longest idempotency key, in characters: it is stored and indexed with its job. */
    static final int MAX_IDEMPOTENCY_KEY = 256;

    private SubmitChecks() {
    }

    /** INVALID_ARGUMENT for a priority that is none of the four, a deadline past a year, or a key too long. */
    public static void check(SubmitProofRequest req) {
        if (req.getPriority() == Priority.UNRECOGNIZED) {
            throw invalid("priority " + req.getPriorityValue() + " is not one of LOW (1), NORMAL (2), HIGH (3),"
                    + " CRITICAL (4)");
        }
        // uint64 on the wire: a value from 2^63 on is negative here
        long deadline = req.getDeadlineMs();
        if (Long.compareUnsigned(deadline, MAX_DEADLINE.toMillis()) > 0) {
            throw invalid("deadline_ms " + Long.toUnsignedString(deadline) + " is more than a year ("
                    + MAX_DEADLINE.toMillis() + "); 0 means none");
        }
        int key = req.getIdempotencyKey().length();
        if (key > MAX_IDEMPOTENCY_KEY) {
            throw invalid("idempotency_key has " + key + " characters, at most " + MAX_IDEMPOTENCY_KEY);
        }
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

    /** A partition of a request as the engine takes it, checked against the circuit and its key. */
    public static CircuitJob.Partition partition(Circuits.Registered circuit, ProvingKey key, Partition in, int p) {
        String name = "partition " + p + " of circuit '" + circuit.id() + "'";
        switch (in.getInputCase()) {
            case WTNS -> {
                // checked now, so that a bad witness is INVALID_ARGUMENT at submission
                // read from a view of the message's bytes: a large witness is copied once, into its values
                return new CircuitJob.Values(CircuitJob.checkWitness(name,
                        WtnsFile.read(java.lang.foreign.MemorySegment.ofBuffer(in.getWtns().asReadOnlyByteBuffer()),
                                name), key));
            }
            case INPUT_JSON -> {
                if (circuit instanceof Circuits.Java j && j.fromInput() != null) {
                    try {
                        return new CircuitJob.Instance(j.fromInput().apply(in.getInputJson()));
                    } catch (IllegalArgumentException e) {
                        throw invalid(name + ": " + e.getMessage());
                    }
                }
                if (!(circuit instanceof Circuits.Circom c) || c.wasm() == null) {
                    throw invalid(name + ": the circuit has no witness generator (circuit.wasm): send witnesses"
                            + " (.wtns)");
                }
                return new CircuitJob.Inputs(CircomInput.parse(in.getInputJson(), name));
            }
            default -> throw invalid(name + ": neither wtns nor input_json is set");
        }
    }

    private static RuntimeException invalid(String message) {
        return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
    }
}
