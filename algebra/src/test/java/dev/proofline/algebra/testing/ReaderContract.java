package dev.proofline.algebra.testing;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * What every reader of an untrusted input promises, as the fuzz targets assert it: on any input it
 * returns a value or throws its documented exception, whose message is short (it names the problem,
 * it does not echo the input). Any other outcome is a finding: an OutOfMemoryError or
 * StackOverflowError, a NegativeArraySizeException, an index, arithmetic, null-pointer or state
 * exception, or the documented exception with a message of megabytes.
 */
public final class ReaderContract {

    /** Longest accepted error message, in characters. */
    public static final int MAX_MESSAGE = 2_000;

    private ReaderContract() {
    }

    /**
     * Runs {@code read}: its value, or empty when it threw {@code documented}; throws an
     * {@link AssertionError} (with the original as its cause) for anything else.
     */
    public static <T> Optional<T> returnsOrRejects(Supplier<T> read, Class<? extends RuntimeException> documented) {
        T value;
        try {
            value = read.get();
        } catch (RuntimeException e) {
            if (!documented.isInstance(e)) {
                throw new AssertionError("threw " + e.getClass().getName() + ", not the documented "
                        + documented.getSimpleName() + ": " + e.getMessage(), e);
            }
            String m = e.getMessage();
            if (m == null || m.isBlank()) {
                throw new AssertionError("rejected the input without saying why", e);
            }
            if (m.length() > MAX_MESSAGE) {
                throw new AssertionError("rejected the input with a message of " + m.length() + " characters", e);
            }
            return Optional.empty();
        } catch (Error e) {
            throw new AssertionError("threw " + e.getClass().getName() + " (documented: "
                    + documented.getSimpleName() + ")", e);
        }
        if (value == null) {
            throw new AssertionError("returned null instead of a value or a " + documented.getSimpleName());
        }
        return Optional.of(value);
    }
}
