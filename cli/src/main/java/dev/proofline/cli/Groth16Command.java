package dev.proofline.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code proofline groth16 prove|verify|fullprove}: snarkjs's names for {@code prove}, {@code verify} and
 * {@code fullprove}, with the same arguments in the same order, so that a script written for
 * {@code snarkjs groth16 ...} runs with {@code proofline} in its place. Each is the top-level command's own
 * model, built in code like it ({@link CommandModel}): the group costs a one-off process no annotation
 * scanning.
 */
final class Groth16Command extends ParentCommand {

    private Groth16Command() {
    }

    /** The group's model with its three subcommands, built in code ({@link CommandModel}). */
    static CommandSpec model() {
        Groth16Command c = new Groth16Command();
        CommandSpec s = CommandModel.command(c, "groth16",
                "snarkjs's names: `groth16 prove`, `groth16 verify` and `groth16 fullprove` take snarkjs's"
                        + " arguments and are the commands prove, verify and fullprove.");
        s.addSubcommand("prove", new CommandLine(ProveCommand.model()));
        s.addSubcommand("verify", new CommandLine(VerifyCommand.model()));
        s.addSubcommand("fullprove", new CommandLine(FullproveCommand.model()));
        c.spec = s;
        return s;
    }
}
