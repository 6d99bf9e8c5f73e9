package dev.proofline.daemon.jobs;

/**
 * What a submission answers: the job's id, its place in the queue, and whether its idempotency key named
 * a job submitted before ({@code existing}), which is the job answered.
 */
public record JobReceipt(String jobId, int queuePosition, boolean existing) {
}
