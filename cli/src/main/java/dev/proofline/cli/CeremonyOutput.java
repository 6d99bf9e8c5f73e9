package dev.proofline.cli;

import dev.proofline.groth16.ceremony.StepProgress;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;
import picocli.CommandLine.Model.CommandSpec;

/** What the ceremony commands ({@code powersoftau}, {@code zkey new|contribute|beacon|verify}) print. */
final class CeremonyOutput {

    private CeremonyOutput() {
    }

    /**
     * A step's progress: its lines on the command's stderr as they come, and where that stderr is this
     * process's own and a terminal, a one-line bar of the fraction done with the time left, drawn once
     * the step has run two seconds (not for a request the local engine runs, nor into a file or a pipe).
     */
    static StepProgress progress(CommandSpec spec) {
        return new Bar(spec.commandLine().getErr(), terminal(spec), System::nanoTime);
    }

    /** The bar of {@link #progress} alone, for a step whose lines are not printed ({@code zkey verify}). */
    static StepProgress barOnly(CommandSpec spec) {
        return new Bar(spec.commandLine().getErr(), terminal(spec), System::nanoTime, false);
    }

    private static boolean terminal(CommandSpec spec) {
        return Invocation.of(spec).console() && System.console() != null && System.console().isTerminal();
    }

    /** Lines where {@code lines}, and the bar where {@code drawn}; {@code clock} gives nanoseconds. */
    static final class Bar implements StepProgress {

        private static final long DELAY_NANOS = 2_000_000_000L;
        private static final long REDRAW_NANOS = 250_000_000L;
        private static final int WIDTH = 30;

        private final PrintWriter err;
        private final boolean draws;
        private final boolean lines;
        private final LongSupplier clock;
        private final long start;
        private long drawnAt = -1;
        private boolean shown;

        Bar(PrintWriter err, boolean draws, LongSupplier clock) {
            this(err, draws, clock, true);
        }

        Bar(PrintWriter err, boolean draws, LongSupplier clock, boolean lines) {
            this.err = err;
            this.draws = draws;
            this.lines = lines;
            this.clock = clock;
            this.start = clock.getAsLong();
        }

        @Override
        public synchronized void accept(String line) {
            if (!lines) {
                return;
            }
            clear();
            err.println(line);
            err.flush();
        }

        @Override
        public synchronized void done(double fraction) {
            long now = clock.getAsLong();
            if (!draws || now - start < DELAY_NANOS) {
                return;
            }
            if (fraction >= 1) {
                clear();
                return;
            }
            if (shown && now - drawnAt < REDRAW_NANOS) {
                return;
            }
            int filled = (int) (WIDTH * fraction);
            double elapsed = (now - start) / 1e9;
            String left = fraction < 0.01 ? "" : "  about " + duration(elapsed * (1 - fraction) / fraction) + " left";
            err.printf(Locale.ROOT, "\r[%s%s] %3d%%%-24s", "#".repeat(filled), " ".repeat(WIDTH - filled),
                    (int) (100 * fraction), left);
            err.flush();
            drawnAt = now;
            shown = true;
        }

        private void clear() {
            if (shown) {
                err.print("\r" + " ".repeat(WIDTH + 32) + "\r");
                err.flush();
                shown = false;
            }
        }

        static String duration(double seconds) {
            long s = Math.round(seconds);
            if (s < 90) {
                return s + " s";
            }
            if (s < 90 * 60) {
                return Math.round(s / 60.0) + " min";
            }
            return String.format(Locale.ROOT, "%.1f h", s / 3600.0);
        }
    }

    /** Blocks of text (hashes as snarkjs prints them) on the command's stdout. */
    static void print(CommandSpec spec, String... blocks) {
        PrintWriter out = spec.commandLine().getOut();
        for (String b : blocks) {
            out.println(b);
        }
        out.flush();
    }
}
