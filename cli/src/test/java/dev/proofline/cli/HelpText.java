package dev.proofline.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every visible command's {@code --help}, as a user reads it, from the root down (with the lab's
 * {@code bench} commands where the lab is on the class path): each command says what it does in a whole
 * sentence where its parent lists it (picocli lists only the first line of a description, so a first
 * line that ends mid-sentence reads as cut off), and each visible option says what it is for.
 *
 * @param walked the qualified names of the commands looked at
 * @param problems one line for each command or option whose help falls short
 */
public record HelpText(List<String> walked, List<String> problems) {

    /** The whole command line's help, checked. */
    public static HelpText check() {
        HelpText h = new HelpText(new ArrayList<>(), new ArrayList<>());
        CommandLine root = ProoflineCommand.commandLine(Invocation.PROCESS, "--help");
        for (CommandLine sub : root.getSubcommands().values()) {
            if (!sub.getCommandSpec().usageMessage().hidden()) {
                h.walk(sub);
            }
        }
        return h;
    }

    private void walk(CommandLine cl) {
        CommandSpec spec = cl.getCommandSpec();
        walked.add(spec.qualifiedName());
        String[] description = spec.usageMessage().description();
        String first = description.length == 0 ? "" : description[0].strip();
        if (first.isEmpty()) {
            problems.add(spec.qualifiedName() + ": no description");
        } else if (!first.matches("(?s).*[.:)!?]$")) {
            problems.add(spec.qualifiedName() + ": listed as \"" + first + "\", which stops mid-sentence");
        }
        for (OptionSpec o : spec.options()) {
            if (!o.hidden() && String.join("", o.description()).isBlank()) {
                problems.add(spec.qualifiedName() + " " + o.longestName() + ": no description");
            }
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (!sub.getCommandSpec().usageMessage().hidden() && sub.getCommandSpec().parent() == spec) {
                walk(sub);
            }
        }
    }
}
