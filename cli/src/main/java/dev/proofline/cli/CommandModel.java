package dev.proofline.cli;

import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A command's model built in code rather than read from annotations, for the root and the commands a
 * one-off process runs most ({@code prove}, {@code verify}, {@code fullprove}). picocli reads an
 * annotated command by reflection: a proxy class made at run time for each annotation type and a method
 * handle for each field, which the JVM's start-up cache does not keep. That took a few times as long
 * as parsing the same arguments against a model built in code (docs/decisions/0012-one-off-jvm-options.md).
 * The command reads its arguments back from its model
 * ({@link #positional(CommandSpec, int)}, {@link #option(CommandSpec, String)}).
 */
final class CommandModel {

    private CommandModel() {
    }

    /**
     * The model of {@code command} (run by picocli when it is the command the arguments name: a
     * {@link Runnable} or {@link java.util.concurrent.Callable}), with picocli's standard help and version
     * options.
     */
    static CommandSpec command(Object command, String name, String... description) {
        CommandSpec s = CommandSpec.wrapWithoutInspection(command).name(name);
        s.usageMessage().description(description);
        s.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                .description("Show this help message and exit.").build());
        s.addOption(OptionSpec.builder("-V", "--version").versionHelp(true)
                .description("Print version information and exit.").build());
        return s;
    }

    /** Adds the next positional parameter, a path, required. */
    static void path(CommandSpec s, String label) {
        s.addPositional(PositionalParamSpec.builder().index(String.valueOf(s.positionalParameters().size()))
                .arity("1").required(true).paramLabel(label).type(Path.class).build());
    }

    /** Adds an option that takes a path, absent by default. */
    static void pathOption(CommandSpec s, String name, String label, String description) {
        s.addOption(OptionSpec.builder(name).type(Path.class).paramLabel(label).description(description).build());
    }

    /** Adds a flag, false unless given. */
    static void flag(CommandSpec s, String name, String description) {
        s.addOption(OptionSpec.builder(name).type(boolean.class).initialValue(false).description(description).build());
    }

    /** Adds an option that takes an integer. */
    static void intOption(CommandSpec s, String name, String label, int defaultValue, String description) {
        s.addOption(OptionSpec.builder(name).type(int.class).paramLabel(label)
                .defaultValue(String.valueOf(defaultValue)).description(description).build());
    }

    /** Adds {@code prove}'s and {@code fullprove}'s {@code --binary}: also write the compact binary proof. */
    static void binaryProofOption(CommandSpec s) {
        pathOption(s, "--binary", "<proof.bin>",
                "also write the compact binary proof (compressed points: 128 bytes on bn128, 192 on bls12381)");
    }

    /** Adds {@code prove}'s and {@code fullprove}'s {@code --timings}. */
    static void timingsFlag(CommandSpec s) {
        flag(s, "--timings", "print the time of each phase on stderr");
    }

    /** The value of positional parameter {@code index} after parsing. */
    static <T> T positional(CommandSpec s, int index) {
        return s.positionalParameters().get(index).getValue();
    }

    /**
     * Refuses, before any work, output files whose folder does not exist: the message names the file and
     * the folder, where writing it after the proof would have failed with the bare path. Null: no such output.
     */
    static void outputsWritable(Path... files) {
        for (Path f : files) {
            if (f == null) {
                continue;
            }
            Path dir = f.toAbsolutePath().getParent();
            if (dir != null && !java.nio.file.Files.isDirectory(dir)) {
                throw new IllegalArgumentException("cannot write " + f + ": the directory " + dir
                        + (java.nio.file.Files.exists(dir) ? " is not a directory" : " does not exist (create it first)"));
            }
        }
    }

    /** The value of option {@code name} after parsing (its default, or null, when it was not given). */
    static <T> T option(CommandSpec s, String name) {
        return s.findOption(name).getValue();
    }
}
