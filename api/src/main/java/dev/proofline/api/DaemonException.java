package dev.proofline.api;

import io.grpc.Status;

/**
 * A call the daemon refused or could not answer: the gRPC status code and the daemon's message, which
 * names the circuit or job and the problem (never a server path). The exception's message reads
 * {@code host:port: CODE: message}.
 */
public class DaemonException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status.Code code;
    private final String description;

    DaemonException(String target, Status status, Throwable cause) {
        super(target + ": " + status.getCode() + (status.getDescription() != null ? ": " + status.getDescription() : ""),
                cause);
        this.code = status.getCode();
        this.description = status.getDescription() == null ? "" : status.getDescription();
    }

    /** The gRPC status code, e.g. {@code INVALID_ARGUMENT} for a witness that does not satisfy the circuit. */
    public Status.Code code() {
        return code;
    }

    /** {@code UNAVAILABLE}: no answer from the daemon (none listens there, or the connection broke). */
    public boolean unavailable() {
        return code == Status.Code.UNAVAILABLE;
    }

    /** The daemon's message alone (empty when it gave none). */
    public String description() {
        return description;
    }

    /** {@code NOT_FOUND}: the daemon serves no circuit, or knows no job, of that id. */
    public static final class NotFoundException extends DaemonException {

        private static final long serialVersionUID = 1L;

        NotFoundException(String target, Status status, Throwable cause) {
            super(target, status, cause);
        }
    }

    /** The exception for a failed call to {@code target}: {@link NotFoundException} for NOT_FOUND. */
    static DaemonException of(String target, Status status, Throwable cause) {
        return status.getCode() == Status.Code.NOT_FOUND ? new NotFoundException(target, status, cause)
                : new DaemonException(target, status, cause);
    }
}
