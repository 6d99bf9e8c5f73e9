package dev.proofline.groth16.ceremony;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A step's work counted in units (group multiplications, points written), passed on as a fraction of
 * its total to a log that is a {@link StepProgress}; nothing otherwise.
 */
final class Work {

    private final StepProgress progress;
    private final double total;
    private final AtomicLong done = new AtomicLong();

    Work(Consumer<String> log, double total) {
        this.progress = log instanceof StepProgress p ? p : null;
        this.total = Math.max(1, total);
    }

    void add(long units) {
        if (progress != null && units > 0) {
            progress.done(Math.min(1, done.addAndGet(units) / total));
        }
    }

    /** The step has ended: the fraction is 1 whatever was counted. */
    void finish() {
        if (progress != null) {
            progress.done(1);
        }
    }

    /** Work of a size-n group transform: a multiplication per butterfly and stage, and n for a scaling. */
    static double transform(int log, boolean scaled) {
        double n = Math.pow(2, log);
        return n / 2 * log + (scaled ? n : 0);
    }
}
