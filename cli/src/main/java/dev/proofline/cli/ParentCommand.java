package dev.proofline.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that only groups others ({@code proofline}, {@code zkey}, {@code powersoftau export}, ...): run
 * without a subcommand, it prints its usage, which lists them. picocli sets {@link #spec} on an annotated
 * command; a command whose model is built in code ({@link CommandModel}) sets it itself.
 */
abstract class ParentCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
