package dev.proofline.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code proofline}: the top-level command; each capability is a subcommand. */
@Command(name = "proofline",
        mixinStandardHelpOptions = true,
        versionProvider = ProoflineCommand.Version.class,
        description = "Groth16 proving engine for the JVM (BN254 and BLS12-381).",
        footer = {"", "Exit codes: 0 success, 1 failure (an invalid proof, a proof that could not be made),",
            "2 unreadable or mismatched input, bad usage."})
public final class ProoflineCommand implements Runnable {

    /**
     * The subcommands, by name, in the order help lists them. They are not in the annotation: picocli
     * builds the model of every annotated subcommand (reflection over each class, its options and
     * their types) before it parses a word, about 250 ms of a one-off process's start. {@link
     * #commandLine} adds only the one the arguments name.
     */
    static final Map<String, Class<?>> SUBCOMMANDS = subcommands(
            "prove", ProveCommand.class, "verify", VerifyCommand.class, "zkey", ZkeyCommand.class,
            "setup", SetupCommand.class, "r1cs", R1csCommand.class, "bench", BenchCommand.class,
            "wtns", WtnsCommand.class, "fullprove", FullproveCommand.class, "daemon", DaemonCommand.class,
            "submit", ClientCommands.Submit.class, "await", ClientCommands.Await.class,
            "cancel", ClientCommands.Cancel.class, "status", ClientCommands.Status.class,
            "devices", DevicesCommand.class, "engine", EngineCommand.class,
            "aot-training", AotTrainingCommand.class);

    @Spec
    CommandSpec spec;

    private final Invocation invocation;

    ProoflineCommand() {
        this(Invocation.PROCESS);
    }

    /** The root of a command line that runs with {@code invocation}. */
    ProoflineCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    Invocation invocation() {
        return invocation;
    }

    /**
     * The command line for {@code args}: when the first argument names a subcommand, with that one
     * only; otherwise (help, a root option, a word that names none) with all of them, so help lists
     * them and a mistyped name gets picocli's suggestions.
     */
    static CommandLine commandLine(Invocation invocation, String... args) {
        CommandLine cl = new CommandLine(new ProoflineCommand(invocation));
        Class<?> named = args.length == 0 ? null : SUBCOMMANDS.get(args[0]);
        if (named != null) {
            cl.addSubcommand(args[0], named);
        } else {
            SUBCOMMANDS.forEach(cl::addSubcommand);
        }
        return cl;
    }

    /** Name, class, name, class...: the names are the classes' own (a test holds them to it). */
    private static Map<String, Class<?>> subcommands(Object... nameThenClass) {
        Map<String, Class<?>> byName = new LinkedHashMap<>();
        for (int i = 0; i < nameThenClass.length; i += 2) {
            byName.put((String) nameThenClass[i], (Class<?>) nameThenClass[i + 1]);
        }
        return Collections.unmodifiableMap(byName);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
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
