package dev.proofline.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine.Model.CommandSpec;

/** {@code proofline bench} where the lab is not installed (a release): says so, whatever follows. */
@Command(name = "bench", description = "Benchmarks and simulations: the lab, in a repository checkout only.")
final class NoLab implements Callable<Integer> {

    /** Everything after {@code bench}, help included: the answer is the same. */
    @Unmatched
    List<String> rest;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("proofline bench: the lab (benchmarks and simulations) is not installed"
                + " here; it runs from a repository checkout: ./proofline bench");
        return Main.EXIT_INPUT;
    }
}
