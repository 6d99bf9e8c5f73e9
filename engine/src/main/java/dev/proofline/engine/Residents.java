package dev.proofline.engine;

/**
 * What an engine keeps loaded for its jobs, between them, paid for from its budget: the keys a prover
 * needs and what is derived from them once (such as PCE matrices). A layer above the pipeline attaches
 * its own with {@link Engine#residents}; the engine shows them in its status and meters, counts their
 * leases' double releases with its own, and closes them when it closes.
 */
public interface Residents extends AutoCloseable {

    /** The resident keys (the status's {@code keys}). */
    ResidentCache<?> keys();

    /** What is derived from the keys and kept beside them (the status's {@code pces}). */
    ResidentCache<?> pces();

    /** Unloads every idle entry. */
    @Override
    void close();
}
