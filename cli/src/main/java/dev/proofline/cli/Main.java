package dev.proofline.cli;

import java.io.PrintWriter;
import java.nio.channels.FileLock;
import java.util.Map;
import java.util.Optional;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;

/** Entry point of the {@code proofline} command. */
public final class Main {

    static {
        // picocli looks for Groovy's Closure class unless told not to: a failed lookup that opens every
        // jar of the class path, a measurable part of each one-off command's start
        // (docs/decisions/0012-one-off-jvm-options.md). No command uses closures.
        if (System.getProperty("picocli.disable.closures") == null) {
            System.setProperty("picocli.disable.closures", "true");
        }
    }

    private Main() {
    }

    /**
     * Runs the command, in a local engine when one is running and serves it ({@link EngineClient#forward});
     * else in this process, after which an engine is started in the background where none runs
     * ({@link AutoStart}).
     */
    public static void main(String[] args) {
        int code;
        try {
            Map<String, String> env = System.getenv();
            OptionalInt served = EngineClient.forward(args, env, System.out, System.err);
            if (served.isPresent()) {
                code = served.getAsInt();
            } else {
                // while this command runs, a local engine's own background work waits (Housekeeping)
                boolean engineCommand = args.length > 0 && LocalEngine.SERVED.contains(args[0]);
                Optional<FileLock> running = engineCommand
                        ? Housekeeping.holdClientLock(EngineHome.fromEnvironment(env)) : Optional.empty();
                // keys checked where engine.conf asks for it, as an engine of the same state directory checks them;
                // the largest key's size told to the engine this command may start
                AtomicInteger keyDomain = new AtomicInteger();
                Loader keys = EngineWarmUp.toldOfKeys(VerifiedKeys.oneOff(EngineHome.fromEnvironment(env)),
                        log -> keyDomain.accumulateAndGet(log, Math::max));
                code = run(new Invocation(true, keys, null, env), null, null, args);
                java.lang.ref.Reference.reachabilityFence(running);   // its channel would release it when collected
                AutoStart.afterOneOff(args, env, System.err, keyDomain.get());
            }
        } catch (VirtualMachineError e) {
            // picocli hands only exceptions to handle(): an error (out of memory, a stack overflow)
            // would otherwise end the process with a stack trace
            System.err.println("proofline: " + (e instanceof OutOfMemoryError
                    ? "out of memory (" + e.getMessage() + "); PROOFLINE_JAVA_OPTS=-Xmx... gives the JVM more"
                    : e.toString()));
            if (System.getenv("PROOFLINE_DEBUG") != null) {
                e.printStackTrace();
            }
            code = EXIT_FAILURE;
        }
        end(args.length == 0 ? "" : args[0], code);
    }

    /** The commands that compute, write their files and return, with no shutdown hook to run ({@link #end}). */
    private static final Set<String> HALTING = Set.of("prove", "verify", "fullprove", "groth16", "zkey", "r1cs", "wtns",
            "setup");

    /**
     * Ends the process with {@code code}. After the commands in {@link #HALTING}, once stdout and stderr
     * are flushed, by {@link Runtime#halt}: {@link System#exit} would first look up a {@code System.Logger}
     * for its exit message, a search of every jar on the class path for a logging service, and run the
     * shutdown sequence; halting made a one-off proof of a small circuit measurably quicker
     * (docs/decisions/0012-one-off-jvm-options.md). After
     * the other commands (the engine, the daemon, benches: libraries may have hooks), and whenever a flight
     * recording runs (a hook writes it), by {@link System#exit}.
     */
    private static void end(String command, int code) {
        if (HALTING.contains(command) && !flightRecording()) {
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(code);
        }
        System.exit(code);
    }

    private static boolean flightRecording() {
        return ModuleLayer.boot().findModule("jdk.jfr").isPresent() && jdk.jfr.FlightRecorder.isInitialized();
    }

    /** Exit code for input that cannot be read or does not fit together (and for bad usage). */
    static final int EXIT_INPUT = 2;
    /** Exit code for a failure of the work itself. */
    public static final int EXIT_FAILURE = 1;

    /** Runs the command line and returns its exit code (tests call this instead of main). */
    public static int run(String... args) {
        return run(Invocation.PROCESS, null, null, args);
    }

    /**
     * Runs the command line with {@code invocation}, printing to {@code out} and {@code err} (null:
     * this process's stdout and stderr); the local engine runs each request so.
     */
    static int run(Invocation invocation, PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = ProoflineCommand.commandLine(invocation, args);
        if (invocation.paths() != null) {
            cl.registerConverter(Path.class, invocation.paths());
        }
        if (out != null) {
            cl.setOut(out);
        }
        if (err != null) {
            cl.setErr(err);
        }
        cl.setExecutionExceptionHandler(Main::handle);
        return cl.execute(args);
    }

    /**
     * Errors are one line on stderr, without a stack trace: bad input (a file that cannot be read, a
     * malformed or mismatched one) exits 2, anything else 1.
     */
    private static int handle(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        boolean input = e instanceof IllegalArgumentException || e instanceof java.io.IOException
                || e instanceof java.io.UncheckedIOException;
        String msg = e.getMessage() == null ? e.toString() : e.getMessage();
        msg = Invocation.of(cl.getCommandSpec()).asWritten(msg);
        // the command as typed, group included: "proofline groth16 prove: ...", "proofline zkey export-vk: ..."
        cl.getErr().println(cl.getCommandSpec().qualifiedName() + ": " + msg);
        if (!input && System.getenv("PROOFLINE_DEBUG") != null) {
            e.printStackTrace(cl.getErr());
        }
        return input ? EXIT_INPUT : EXIT_FAILURE;
    }
}
