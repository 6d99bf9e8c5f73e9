package dev.proofline.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.OptionalInt;
import picocli.CommandLine;

/** Entry point of the {@code proofline} command. */
public final class Main {

    private Main() {
    }

    /** Runs the command, in a local engine when one is running and serves it ({@link EngineClient#forward}). */
    public static void main(String[] args) {
        int code;
        try {
            OptionalInt served = EngineClient.forward(args, System.getenv(), System.out, System.err);
            code = served.isPresent() ? served.getAsInt() : run(args);
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
        System.exit(code);
    }

    /** Exit code for input that cannot be read or does not fit together (and for bad usage). */
    static final int EXIT_INPUT = 2;
    /** Exit code for a failure of the work itself. */
    static final int EXIT_FAILURE = 1;

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
        cl.getErr().println("proofline " + cl.getCommandName() + ": " + msg);
        if (!input && System.getenv("PROOFLINE_DEBUG") != null) {
            e.printStackTrace(cl.getErr());
        }
        return input ? EXIT_INPUT : EXIT_FAILURE;
    }
}
