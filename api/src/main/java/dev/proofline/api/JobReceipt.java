package dev.proofline.api;

/**
 * The daemon's answer to a submission: the job's id, how many partitions were queued ahead of its first,
 * and whether the idempotency key named a job submitted before (then nothing new was queued).
 */
public record JobReceipt(String jobId, int queuePosition, boolean existing) {
}
