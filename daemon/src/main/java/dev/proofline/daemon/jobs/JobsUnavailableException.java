package dev.proofline.daemon.jobs;

/**
 * The jobs cannot be reached now (their store is unreachable, closed or full): the request did nothing
 * that a client can count on and may be retried. The jobs' own name for a store outage, so that the
 * transports answer it without knowing where jobs are kept.
 */
public final class JobsUnavailableException extends RuntimeException {

    /** The store's outage, with its message (a client reads it redacted). */
    public JobsUnavailableException(RuntimeException outage) {
        super(outage.getMessage(), outage);
    }
}
