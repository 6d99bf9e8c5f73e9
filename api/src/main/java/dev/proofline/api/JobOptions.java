package dev.proofline.api;

import java.time.Duration;

/**
 * How a job is queued: its priority, an optional idempotency key (a second submission with the same key
 * answers with the first job instead of queueing another) and an optional deadline (the job fails with
 * {@link JobState#DEADLINE_EXCEEDED} after this long; null or zero: none, as on the wire).
 */
public record JobOptions(Priority priority, String idempotencyKey, Duration deadline) {

    /** Normal priority, no idempotency key, no deadline. */
    public static final JobOptions DEFAULT = new JobOptions(Priority.NORMAL, null, null);

    public JobOptions {
        if (priority == null) {
            throw new IllegalArgumentException("a priority is needed (Priority.NORMAL by default)");
        }
        if (deadline != null && deadline.isNegative()) {
            throw new IllegalArgumentException("a deadline cannot be negative: " + deadline);
        }
        if (deadline != null && deadline.isZero()) {
            deadline = null;
        }
    }

    public JobOptions withPriority(Priority p) {
        return new JobOptions(p, idempotencyKey, deadline);
    }

    public JobOptions withIdempotencyKey(String key) {
        return new JobOptions(priority, key, deadline);
    }

    public JobOptions withDeadline(Duration d) {
        return new JobOptions(priority, idempotencyKey, d);
    }
}
