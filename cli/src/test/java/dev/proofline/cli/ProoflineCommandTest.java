package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class ProoflineCommandTest {

    @Test
    void versionNamesTheBuildVersionAndTheJava() {
        CliRun r = CliRun.of("--version");
        String out = r.out();
        assertEquals(0, r.code());
        assertTrue(out.startsWith("proofline 0."), out);
        assertTrue(out.contains("Java " + Runtime.version().feature()), out);
    }

    @Test
    void helpListsTheOptions() {
        CliRun r = CliRun.of("--help");
        String out = r.out();
        assertEquals(0, r.code());
        assertTrue(out.contains("Usage: proofline"), out);
        assertTrue(out.contains("--version"), out);
    }

    @Test
    void helpListsEverySubcommand() {
        String out = CliRun.of("--help").out();
        ProoflineCommand.SUBCOMMANDS.forEach((name, c) -> {
            boolean hidden = c.getAnnotation(Command.class).hidden();
            assertEquals(!hidden, out.contains("  " + name + " "), name + " (hidden: " + hidden + ") in:\n" + out);
        });
    }

    @Test
    void subcommandNamesAreTheCommandsOwn() {
        ProoflineCommand.SUBCOMMANDS.forEach((name, c) ->
                assertEquals(c.getAnnotation(Command.class).name(), name, c.getName()));
    }

    @Test
    void aCommandLineNamingOneSubcommandBuildsOnlyThatOne() {
        CommandLine cl = ProoflineCommand.commandLine(Invocation.PROCESS, "verify", "--help");
        assertEquals(Set.of("verify"), cl.getSubcommands().keySet());
        assertEquals(ProoflineCommand.SUBCOMMANDS.keySet(),
                ProoflineCommand.commandLine(Invocation.PROCESS, "--help").getSubcommands().keySet());
    }

    @Test
    void aMistypedSubcommandIsAUsageErrorWithASuggestion() {
        CliRun r = CliRun.of("provee");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("prove"), r.err());
    }

    @Test
    void unknownOptionIsAUsageError() {
        assertEquals(2, Main.run("--no-such-option"));
    }
}
