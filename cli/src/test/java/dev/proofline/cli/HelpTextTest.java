package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command's {@code --help}, as a user reads it: each visible command says what it does in a whole
 * sentence where its parent lists it (picocli lists only the first line of a description, so a first
 * line that ends mid-sentence reads as cut off), and each visible option says what it is for.
 */
class HelpTextTest {

    private static void walk(CommandLine cl, List<String> problems) {
        CommandSpec spec = cl.getCommandSpec();
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
                walk(sub, problems);
            }
        }
    }

    @Test
    void everyVisibleCommandAndOptionIsDescribedInWholeSentences() {
        List<String> problems = new ArrayList<>();
        CommandLine root = ProoflineCommand.commandLine(Invocation.PROCESS, "--help");
        for (CommandLine sub : root.getSubcommands().values()) {
            if (!sub.getCommandSpec().usageMessage().hidden()) {
                walk(sub, problems);
            }
        }
        assertEquals(List.of(), problems, String.join("\n", problems));
    }
}
