package dev.proofline.daemon.jobs;

/**
 * The jobs' part of a status answer: the status as JSON, and in cluster mode this node's id and the
 * cluster's JSON (both null without a store).
 */
public record JobsStatus(String json, String nodeId, String clusterJson) {
}
