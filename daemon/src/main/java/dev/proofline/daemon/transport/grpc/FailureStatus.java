package dev.proofline.daemon.transport.grpc;

import dev.proofline.daemon.jobs.ClientMessages;
import dev.proofline.daemon.jobs.JobFailure;
import dev.proofline.daemon.jobs.JobsUnavailableException;
import dev.proofline.engine.ResidentCache;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.Prover;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * How a failure reaches a client, over gRPC and HTTP alike: a status code for its kind, a message for which.
 * The jobs fail in plain Java ({@link JobFailure}, {@link JobsUnavailableException}, the engine's
 * exceptions); this is where a failure becomes a status.
 */
public final class FailureStatus {

    private FailureStatus() {
    }

    /** A failure as a status whose code says what kind of problem it is and whose message says which. */
    public static StatusRuntimeException of(Throwable t) {
        if (t instanceof StatusRuntimeException s) {
            return s;
        }
        if (t instanceof JobFailure f) {
            // its message is written for the client already, as a status's would be
            return Status.fromCode(Status.Code.valueOf(f.code().name())).withDescription(f.getMessage())
                    .asRuntimeException();
        }
        if (t instanceof ExecutionException && t.getCause() != null) {
            t = t.getCause();
        }
        Status s = switch (t) {
            case Circuits.UnknownCircuitException e -> Status.NOT_FOUND;
            case CancellationException e -> Status.CANCELLED.withDescription("the job was cancelled");
            case TimeoutException e -> Status.DEADLINE_EXCEEDED;
            case Prover.ProofRejectedException e -> Status.INVALID_ARGUMENT;
            // a key or PCE that finds no room in the budget (no cause) is the client's to retry later; one
            // whose files cannot be loaded is the server's problem
            case ResidentCache.LoadException e when e.getCause() == null || e.getCause() instanceof OutOfMemoryError ->
                    Status.RESOURCE_EXHAUSTED;
            case ResidentCache.LoadException e -> Status.FAILED_PRECONDITION.withDescription("circuit "
                    + e.getMessage() + " (its files in the keys directory cannot be loaded)");
            case JobsUnavailableException e -> Status.UNAVAILABLE;
            case IllegalArgumentException e -> Status.INVALID_ARGUMENT;
            case InterruptedException e -> Status.UNAVAILABLE;
            default -> Status.INTERNAL;
        };
        if (s.getDescription() == null) {
            s = s.withDescription(t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName());
        }
        // a client learns the problem, never where the server keeps its files
        s = s.withDescription(ClientMessages.redact(s.getDescription()));
        if (s.getCode() == Status.Code.INTERNAL) {
            s = s.withCause(t);
        }
        return s.asRuntimeException();
    }
}
