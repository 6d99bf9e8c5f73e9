package dev.proofline.cli;

import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What one run of the command line runs with besides its arguments and its output writers: whether
 * its stderr may be this process's terminal (for the progress bar), how it opens proving keys and
 * witness generators, and, in the local engine, the client's paths. A one-off process runs with
 * {@link #PROCESS}; the engine makes one for each request.
 *
 * @param console whether stderr is this process's own (a progress bar is drawn when it is a terminal)
 * @param loader  opens keys and witness generators
 * @param paths   resolves relative path arguments against the client's directory; null: against this
 *                process's
 * @param env     the environment the command reads ({@code PROOFLINE_TOKEN}): this process's, or the
 *                client's as it sent it to the engine
 */
record Invocation(boolean console, Loader loader, ClientPaths paths, Map<String, String> env) {

    /** A one-off process: its own stdout and stderr, files opened for each command. */
    static final Invocation PROCESS = new Invocation(true, Loader.ONE_OFF, null);

    Invocation {
        env = Map.copyOf(env);
    }

    /** With this process's environment. */
    Invocation(boolean console, Loader loader, ClientPaths paths) {
        this(console, loader, paths, System.getenv());
    }

    /** The invocation of the command line that {@code spec} belongs to. */
    static Invocation of(CommandSpec spec) {
        return spec.root().userObject() instanceof ProoflineCommand root ? root.invocation() : PROCESS;
    }

    /** {@code message} with the paths the client wrote, as the client wrote them. */
    String asWritten(String message) {
        return paths == null ? message : paths.asWritten(message);
    }
}
