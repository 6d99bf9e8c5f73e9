package dev.proofline.api;

/**
 * What one partition (one proof) of a job is proved from: a witness file's bytes, or circom inputs that
 * the daemon turns into a witness (the circuit then needs its {@code circuit.wasm}).
 */
public sealed interface PartitionInput {

    /**
     * A snarkjs/circom {@code .wtns} file's bytes. They are sent as they are when the job is submitted,
     * without a copy: do not change the array while a submission that holds it runs.
     */
    record Wtns(byte[] bytes) implements PartitionInput {
    }

    /** circom input JSON, e.g. {@code {"a": "3", "b": "11"}}. */
    record CircomInput(String json) implements PartitionInput {
    }

    /** The kind of every partition of a streamed submission (they share one). */
    enum Kind {
        WTNS, CIRCOM_INPUT
    }
}
