package dev.proofline.cli;

import picocli.CommandLine;

/** Entry point of the {@code proofline} command. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (tests call this instead of main). */
    public static int run(String... args) {
        return new CommandLine(new ProoflineCommand()).execute(args);
    }
}
