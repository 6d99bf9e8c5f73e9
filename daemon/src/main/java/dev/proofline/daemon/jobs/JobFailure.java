package dev.proofline.daemon.jobs;

/**
 * A failure whose kind the jobs know, with the message a client reads as it is: the transports
 * ({@code FailureStatus}) answer it with the status of the same name and this message.
 */
public final class JobFailure extends RuntimeException {

    /** The kind of failure, named as the status that answers it. */
    public enum Code {
        NOT_FOUND, INVALID_ARGUMENT, CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE, INTERNAL
    }

    private final Code code;

    public JobFailure(Code code, String message) {
        super(message);
        this.code = code;
    }

    public Code code() {
        return code;
    }
}
