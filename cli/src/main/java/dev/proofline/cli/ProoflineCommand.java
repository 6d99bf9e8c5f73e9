package dev.proofline.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;

/** {@code proofline}: the top-level command; each capability is a subcommand. */
public final class ProoflineCommand extends ParentCommand {

    /**
     * The subcommands, by name, in the order help lists them, each as what picocli's {@code addSubcommand}
     * takes: an annotated class, or a model built in code ({@link CommandModel}: the commands a one-off
     * process runs most), or for {@code bench} the lab's command where the lab is installed ({@link Lab}). They are not in an annotation: picocli builds the model of every annotated
     * subcommand (reflection over each class, its options and their types) before it parses a word, a
     * large part of a one-off process's start (docs/decisions/0012-one-off-jvm-options.md).
     * {@link #commandLine} adds only the one the arguments name.
     */
    static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands(
            "prove", coded(ProveCommand::model), "verify", coded(VerifyCommand::model), "zkey", ZkeyCommand.class,
            "setup", SetupCommand.class, "r1cs", R1csCommand.class, "bench", (Supplier<Object>) Lab::bench,
            "wtns", WtnsCommand.class, "fullprove", coded(FullproveCommand::model),
            "groth16", coded(Groth16Command::model), "daemon", DaemonCommand.class,
            "submit", ClientCommands.Submit.class, "await", ClientCommands.Await.class,
            "cancel", ClientCommands.Cancel.class, "status", ClientCommands.Status.class,
            "devices", DevicesCommand.class, "engine", EngineCommand.class,
            "aot-training", AotTrainingCommand.class, "powersoftau", PowersOfTauCommand.class);

    private final Invocation invocation;

    /** The root of a command line that runs with {@code invocation}. */
    private ProoflineCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    Invocation invocation() {
        return invocation;
    }

    /**
     * The command line for {@code args}: when the first argument names a subcommand, with that one
     * only; otherwise (help, a root option, a word that names none) with all of them, so help lists
     * them and a mistyped name gets picocli's suggestions. The root's model is built in code
     * ({@link CommandModel}).
     */
    static CommandLine commandLine(Invocation invocation, String... args) {
        ProoflineCommand root = new ProoflineCommand(invocation);
        root.spec = CommandModel.command(root, "proofline", "Groth16 proving engine for the JVM (BN254 and BLS12-381).")
                .versionProvider(new Version());
        root.spec.usageMessage().footer("", "Exit codes: 0 success, 1 failure (an invalid proof, a proof that could"
                + " not be made),", "2 unreadable or mismatched input, bad usage.");
        CommandLine cl = new CommandLine(root.spec);
        Supplier<Object> named = args.length == 0 ? null : SUBCOMMANDS.get(args[0]);
        if (named != null) {
            cl.addSubcommand(args[0], named.get());
        } else {
            SUBCOMMANDS.forEach((name, command) -> cl.addSubcommand(name, command.get()));
        }
        // a subcommand's --version prints the root's version (picocli would print nothing), at any depth
        cl.getSubcommands().values().forEach(sub -> useRootVersion(sub, root.spec));
        return cl;
    }

    private static void useRootVersion(CommandLine command, CommandSpec root) {
        command.getCommandSpec().versionProvider(root.versionProvider());
        command.getSubcommands().values().forEach(sub -> useRootVersion(sub, root));
    }

    /** A subcommand whose model is built in code, a new one for each command line. */
    private static Supplier<Object> coded(Supplier<CommandSpec> model) {
        return model::get;
    }

    /**
     * Name, then an annotated class or a {@link #coded} model, and so on: the names are the commands' own
     * (a test holds them to it).
     */
    private static Map<String, Supplier<Object>> subcommands(Object... nameThenCommand) {
        Map<String, Supplier<Object>> byName = new LinkedHashMap<>();
        for (int i = 0; i < nameThenCommand.length; i += 2) {
            Object command = nameThenCommand[i + 1];
            @SuppressWarnings("unchecked")
            Supplier<Object> supplier = command instanceof Supplier<?> model ? (Supplier<Object>) model : () -> command;
            byName.put((String) nameThenCommand[i], supplier);
        }
        return Collections.unmodifiableMap(byName);
    }

    /** Reads the version Maven wrote into version.properties at build time. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties p = new Properties();
            try (InputStream in = ProoflineCommand.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new String[] {
                "proofline " + p.getProperty("version", "unknown"),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
            };
        }
    }
}
