package dev.proofline.daemon.transport.grpc;

import static dev.proofline.daemon.jobs.SubmitChecks.MAX_DEADLINE;
import static dev.proofline.daemon.jobs.SubmitChecks.MAX_IDEMPOTENCY_KEY;

import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.Priority;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.daemon.jobs.JobFailure;
import dev.proofline.daemon.jobs.SubmitChecks;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.ProvingKey;
import io.grpc.Status;
import java.lang.foreign.MemorySegment;

/**
 * The fields of a submission that the service checks before anything else (the JSON API's requests
 * included, which become the same gRPC request): numbers a client may send out of range must not
 * wrap, and strings the store keeps must stay small. Its partitions are checked by {@link SubmitChecks}.
 */
public final class SubmitRequests {

    private SubmitRequests() {
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

    /** A partition of a request as the engine takes it, checked against the circuit and its key. */
    public static CircuitJob.Partition partition(Circuits.Registered circuit, ProvingKey key, Partition in, int p) {
        try {
            return switch (in.getInputCase()) {
                // checked now, so that a bad witness is INVALID_ARGUMENT at submission
                // read from a view of the message's bytes: a large witness is copied once, into its values
                case WTNS -> SubmitChecks.wtns(circuit, key, MemorySegment.ofBuffer(in.getWtns().asReadOnlyByteBuffer()), p);
                case INPUT_JSON -> SubmitChecks.input(circuit, in.getInputJson(), p);
                default -> throw invalid(SubmitChecks.name(circuit, p) + ": neither wtns nor input_json is set");
            };
        } catch (JobFailure e) {
            throw invalid(e.getMessage());
        }
    }

    private static RuntimeException invalid(String message) {
        return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
    }
}
