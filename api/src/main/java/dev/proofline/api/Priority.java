package dev.proofline.api;

/** Where a job's partitions queue among others: a higher priority is dispatched first. */
public enum Priority {
    LOW, NORMAL, HIGH, CRITICAL
}
