package dev.proofline.groth16.ceremony;

import java.util.function.Consumer;

/**
 * What a long ceremony step reports as it goes: lines as it finishes its parts ({@link #accept}), and,
 * to a log that wants it, the fraction of its work done (for a progress bar). The steps take a
 * {@code Consumer<String>}; one that is a {@code StepProgress} also hears the fractions.
 */
public interface StepProgress extends Consumer<String> {

    /** The fraction of the step's work done, 0 to 1 (1 once it ends); from any of the step's threads. */
    void done(double fraction);
}
