package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

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
    void aSubcommandsVersionIsTheRootsVersion() {
        for (String command : List.of("prove", "zkey")) {
            CliRun r = CliRun.of(command, "--version");
            assertEquals(0, r.code(), command);
            assertEquals(CliRun.of("--version").out(), r.out(), command);
        }
    }

    @Test
    void aGroupRunWithoutASubcommandPrintsItsUsage() {
        // the groups share their run (ParentCommand): annotated ones get their spec from picocli, the
        // ones built in code set it
        for (String group : List.of("zkey", "zkey export", "zkey import", "r1cs", "wtns", "engine", "groth16",
                "powersoftau", "powersoftau export", "powersoftau import", "powersoftau prepare")) {
            CliRun r = CliRun.of(group.split(" "));
            assertEquals(0, r.code(), group + ": " + r.err());
            assertTrue(r.out().startsWith("Usage: proofline " + group + " "), group + ": " + r.out());
        }
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
            boolean hidden = model(c.get()).usageMessage().hidden();
            assertEquals(!hidden, out.contains("  " + name + " "), name + " (hidden: " + hidden + ") in:\n" + out);
        });
    }

    @Test
    void subcommandNamesAreTheCommandsOwn() {
        ProoflineCommand.SUBCOMMANDS.forEach((name, c) -> assertEquals(name, model(c.get()).name()));
    }

    /** A subcommand's model as picocli builds it: from its annotations, or the one built in code. */
    private static CommandSpec model(Object command) {
        return command instanceof CommandSpec coded ? coded : new CommandLine(command).getCommandSpec();
    }

    @Test
    void theCommandsBuiltInCodeHaveTheStandardOptionsAndTheirOwnModelEachTime() {
        for (String name : List.of("prove", "verify", "fullprove")) {
            CommandSpec first = model(ProoflineCommand.SUBCOMMANDS.get(name).get());
            assertTrue(first.findOption("-h").usageHelp() && first.findOption("--help").usageHelp(), name);
            assertTrue(first.findOption("-V").versionHelp() && first.findOption("--version").versionHelp(), name);
            assertNotSame(first, model(ProoflineCommand.SUBCOMMANDS.get(name).get()), name);
        }
        CliRun r = CliRun.of("prove", "--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("Usage: proofline prove [-hV] [--timings] [--binary=<proof.bin>] [--repeat=<n>]"),
                r.out());
        assertTrue(r.out().contains("<circuit.zkey> <witness.wtns> <proof.json> <public.json>"), r.out());
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
