package dev.proofline.cli;

import dev.proofline.groth16.Prover;
import dev.proofline.groth16.Step;
import java.io.PrintWriter;

/**
 * A one-line progress bar on stderr for a proof: shown only when stderr is this process's own and a
 * terminal (never for a request the local engine runs), and only once the work has taken more than two
 * seconds, so that quick runs and scripts print nothing.
 */
final class Progress implements Prover.Listener, AutoCloseable {

    private static final long DELAY_NANOS = 2_000_000_000L;
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final boolean enabled;
    private final long start = System.nanoTime();
    private final Thread ticker;
    private volatile Step current;
    private boolean drawn;

    /** {@code console}: whether {@code err} writes to this process's stderr ({@link Invocation#console()}). */
    Progress(PrintWriter err, boolean console) {
        this.err = err;
        this.enabled = console && System.console() != null && System.console().isTerminal();
        if (enabled) {
            ticker = Thread.ofPlatform().daemon().name("progress").start(this::tick);
        } else {
            ticker = null;
        }
    }

    @Override
    public void step(Step step) {
        current = step;
    }

    private void tick() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(200);
                if (System.nanoTime() - start > DELAY_NANOS) {
                    draw();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void draw() {
        Step step = current;
        int index = step == null ? 0 : step.ordinal();
        int filled = WIDTH * index / Step.count();
        double secs = (System.nanoTime() - start) / 1e9;
        err.printf("\r[%s%s] %d/%d %-14s %6.1f s", "#".repeat(filled), " ".repeat(WIDTH - filled), index + 1,
                Step.count(), step == null ? "" : step.label(), secs);
        err.flush();
        drawn = true;
    }

    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.interrupt();
        }
        if (drawn) {
            err.print("\r" + " ".repeat(WIDTH + 40) + "\r");
            err.flush();
        }
    }
}
