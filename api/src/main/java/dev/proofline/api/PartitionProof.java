package dev.proofline.api;

import java.util.List;

/**
 * One partition of a job as the daemon reports it: its state and, once done, its proof (snarkjs's
 * {@code proof.json} text and the compact binary form: compressed points), its public signals (decimal,
 * as snarkjs's {@code public.json}), how long each stage took and, in cluster mode, the node that proved it.
 */
public record PartitionProof(int partition, String state, String proofJson, byte[] proofBinary,
        List<String> publicSignals, Timings timings, String node) {

    /** Milliseconds in each stage of the pipeline, and in all. */
    public record Timings(double queueWaitMs, double synthesisMs, double proverWaitMs, double proverMs,
            double finalizeMs, double totalMs) {
    }
}
