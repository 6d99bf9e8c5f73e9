package dev.proofline.engine;

/**
 * A partition past its backend's {@code start}, with the backend that started it: the finalizers hand
 * the state back to that backend's {@code finish}, typed, so that finish can only get what start gave.
 *
 * @param <S> the backend's started state
 */
record StartedPartition<S>(ProverBackend<?, S, ?> backend, S state) {

    /** The backend's CPU tail on this state: the partition's proof. */
    Object finish() throws Exception {
        return backend.finish(state);
    }
}
