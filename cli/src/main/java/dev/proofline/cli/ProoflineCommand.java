package dev.proofline.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code proofline}: the top-level command; each capability is a subcommand. */
@Command(name = "proofline",
        mixinStandardHelpOptions = true,
        versionProvider = ProoflineCommand.Version.class,
        description = "Groth16 proving engine for the JVM (BN254 and BLS12-381).",
        subcommands = {ProveCommand.class, VerifyCommand.class, ZkeyCommand.class, SetupCommand.class, R1csCommand.class, BenchCommand.class,
            WtnsCommand.class, FullproveCommand.class, DaemonCommand.class, ClientCommands.Submit.class,
            ClientCommands.Await.class, ClientCommands.Cancel.class, ClientCommands.Status.class, DevicesCommand.class,
            EngineCommand.class},
        footer = {"", "Exit codes: 0 success, 1 failure (an invalid proof, a proof that could not be made),",
            "2 unreadable or mismatched input, bad usage."})
public final class ProoflineCommand implements Runnable {

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
