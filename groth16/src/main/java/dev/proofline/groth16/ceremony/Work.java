package dev.proofline.groth16.ceremony;

import java.util.function.Consumer;

/**
 * A step's work counted in units (group multiplications, points written or checked), passed on as a
 * fraction of its total to a log that is a {@link StepProgress}; nothing otherwise. The fractions go
 * out in order, from whichever thread counts, and reach 1 once.
 */
final class Work {

    /** A G2 operation's units: its field is Fp2, which makes it about three times a G1 one. */
    static final int G2 = 3;

    private final StepProgress progress;
    private final double total;
    private long done;
    private boolean ended;

    Work(Consumer<String> log, double total) {
        this.progress = log instanceof StepProgress p ? p : null;
        this.total = Math.max(1, total);
    }

    synchronized void add(long units) {
        if (progress != null && units > 0 && !ended) {
            done += units;
            report(Math.min(1, done / total));
        }
    }

    /** The step has ended: the fraction is 1 whatever was counted. */
    synchronized void finish() {
        if (progress != null && !ended) {
            report(1);
        }
    }

    private void report(double fraction) {
        ended = fraction >= 1;
        progress.done(fraction);
    }

    /** The units of a point operation in G2 ({@code g2}) or G1. */
    static int weight(boolean g2) {
        return g2 ? G2 : 1;
    }

    /** Work of a size-n group transform: a multiplication per butterfly and stage, and n for a scaling. */
    static double transform(int log, boolean scaled) {
        double n = Math.pow(2, log);
        return n / 2 * log + (scaled ? n : 0);
    }
}
