package dev.proofline.cli;

import java.io.BufferedInputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The client side of the local engine ({@link LocalEngine} describes the protocol): sends a command
 * line with the working directory, prints what the engine sends back and returns its exit code.
 */
final class EngineClient {

    private static final int CONNECT_TIMEOUT_MS = 2_000;

    private EngineClient() {
    }

    /**
     * For {@link Main#main}: runs {@code args} in the local engine when it serves them (their first
     * argument is one of {@link LocalEngine#SERVED}), {@code PROOFLINE_ENGINE} is not {@code off}
     * and an engine is running. Empty: run them in this process. As the launcher, it leaves the engine
     * alone under {@code PROOFLINE_REBUILD=1}, which asks for the jars just built.
     */
    static OptionalInt forward(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (args.length == 0 || !(LocalEngine.SERVED.contains(args[0]) || LocalEngine.CLIENT.contains(args[0]))
                || "off".equals(env.get("PROOFLINE_ENGINE"))
                || "1".equals(env.get("PROOFLINE_REBUILD"))) {
            return OptionalInt.empty();
        }
        EngineHome home = EngineHome.fromEnvironment(env);
        if (!Files.exists(home.endpointFile())) {
            return OptionalInt.empty();
        }
        Optional<EngineHome.Endpoint> endpoint = home.readEndpoint();
        if (endpoint.isEmpty() || !runsThisBuild(endpoint.get(), home)) {
            return OptionalInt.empty();   // another build's engine: never used ({@link AutoStart} replaces it)
        }
        try {
            return send(home, Path.of("").toAbsolutePath(), forwarded(env), List.of(args), out, err);
        } catch (IOException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * Sends one request to the engine of {@code home} and copies its output to {@code out} and
     * {@code err}. Empty when no engine did the work: none running (a stale endpoint file is then
     * removed), or the engine closed the connection without a response (it is stopping).
     *
     * @throws IOException if the engine went away after it had started the command
     */
    static OptionalInt send(EngineHome home, Path cwd, List<String> args, OutputStream out, OutputStream err)
            throws IOException {
        return send(home, cwd, Map.of(), args, out, err);
    }

    /** The variables of {@code env} that a request carries ({@link LocalEngine#FORWARDED_ENV}). */
    static Map<String, String> forwarded(Map<String, String> env) {
        Map<String, String> m = new TreeMap<>();
        for (String name : EngineRequest.FORWARDED_ENV) {
            if (env.get(name) != null) {
                m.put(name, env.get(name));
            }
        }
        return m;
    }

    /** As {@link #send(EngineHome, Path, List, OutputStream, OutputStream)}, with those environment variables. */
    static OptionalInt send(EngineHome home, Path cwd, Map<String, String> env, List<String> args, OutputStream out,
            OutputStream err) throws IOException {
        String cwdText = cwd.toString();
        List<String> vars = env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
        if (cwdText.indexOf('\n') >= 0 || args.stream().anyMatch(a -> a.indexOf('\n') >= 0)
                || vars.stream().anyMatch(v -> v.indexOf('\n') >= 0)) {
            return OptionalInt.empty();   // not expressible in the protocol's lines
        }
        Optional<Connection> connected = connect(home);
        if (connected.isEmpty()) {
            return OptionalInt.empty();
        }
        try (Socket socket = connected.get().socket()) {
            Writer w = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8));
            w.write((vars.isEmpty() ? EngineRequest.HELLO : EngineRequest.HELLO_ENV) + "\n"
                    + connected.get().endpoint().token() + "\n" + cwdText + "\n");
            if (!vars.isEmpty()) {
                w.write(vars.size() + "\n");
                for (String v : vars) {
                    w.write(v);
                    w.write('\n');
                }
            }
            w.write(args.size() + "\n");
            for (String a : args) {
                w.write(a);
                w.write('\n');
            }
            w.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            boolean any = false;
            for (String line = EngineRequest.readLine(in); line != null; line = EngineRequest.readLine(in)) {
                any = true;
                if (line.length() < 2) {
                    continue;
                }
                byte[] text = line.substring(2).getBytes(StandardCharsets.UTF_8);
                switch (line.charAt(0)) {
                    case 'o' -> writeLine(out, text, true);
                    case 'e' -> writeLine(err, text, true);
                    case 'O' -> writeLine(out, text, false);
                    case 'E' -> writeLine(err, text, false);
                    case 'x' -> {
                        try {
                            return OptionalInt.of(Integer.parseInt(line.substring(2)));
                        } catch (NumberFormatException e) {
                            throw new IOException("the engine sent a malformed exit code: " + line);
                        }
                    }
                    default -> { }
                }
            }
            if (!any) {
                return OptionalInt.empty();
            }
            throw new IOException("the engine closed the connection before the command finished");
        }
    }

    private static void writeLine(OutputStream s, byte[] text, boolean ended) throws IOException {
        s.write(text);
        if (ended) {
            s.write('\n');
        }
        s.flush();
    }

    /** A connection to the engine named by {@code endpoint}. */
    record Connection(Socket socket, EngineHome.Endpoint endpoint) {
    }

    /**
     * A connection to the running engine of {@code home}, or empty when there is none. An endpoint
     * file whose port refuses and whose process is gone is stale: it is removed.
     */
    static Optional<Connection> connect(EngineHome home) {
        Optional<EngineHome.Endpoint> endpoint = home.readEndpoint();
        if (endpoint.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(connect(endpoint.get()));
        } catch (IOException e) {
            if (e instanceof ConnectException && !alive(endpoint.get().pid())) {
                home.removeEndpoint(endpoint.get());
            }
            return Optional.empty();
        }
    }

    /** A connection to the engine of {@code endpoint}. */
    private static Connection connect(EngineHome.Endpoint endpoint) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(LocalEngine.LOOPBACK, endpoint.port()), CONNECT_TIMEOUT_MS);
            return new Connection(s, endpoint);
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // not connected
            }
            throw e;
        }
    }

    /** The running engine's endpoint, after checking that it answers; empty when none runs. */
    static Optional<EngineHome.Endpoint> running(EngineHome home) {
        Optional<Connection> c = connect(home);
        try {
            if (c.isPresent()) {
                c.get().socket().close();
            }
        } catch (IOException e) {
            // it answered
        }
        return c.map(Connection::endpoint);
    }

    /**
     * Whether the engine of {@code endpoint} runs the jar this process runs, unchanged since the engine
     * started (the jar not newer than the endpoint file it wrote). An engine that runs from classes, not a
     * jar (the tests'), serves only clients that do too.
     */
    static boolean runsThisBuild(EngineHome.Endpoint endpoint, EngineHome home) {
        String own = ownJar();
        if (endpoint.jar().isEmpty() || own.isEmpty()) {
            return endpoint.jar().isEmpty() && own.isEmpty();
        }
        try {
            Path jar = Path.of(endpoint.jar());
            return Files.isSameFile(jar, Path.of(own))
                    && Files.getLastModifiedTime(jar).compareTo(Files.getLastModifiedTime(home.endpointFile())) <= 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The jar this process runs from, absolute; empty where it runs from a folder of classes. */
    static String ownJar() {
        try {
            Path p = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return p.toString().endsWith(".jar") ? p.toAbsolutePath().toString() : "";
        } catch (Exception e) {
            return "";
        }
    }

    /** How long {@link #retire} waits for an engine of another build to stop. */
    private static final int RETIRE_TIMEOUT_MS = 3_000;

    /**
     * Asks the engine of {@code home} to stop (one of another build, about to be replaced), waiting at
     * most a few seconds for it: an engine still busy stops after its commands, and a new one can be
     * started once it has.
     */
    static void retire(EngineHome home) {
        connect(home).ifPresent(c -> control(c, RETIRE_TIMEOUT_MS, "engine", "stop"));
    }

    /** How long {@link #handOver} waits for the engine to finish the commands it has taken. */
    private static final int HAND_OVER_TIMEOUT_MS = 600_000;

    /**
     * Asks the engine of {@code predecessor} to hand over to the engine that calls this, its successor
     * ({@link Succession}): it stops after the commands it has taken, leaving the successor running.
     * Returns once it has stopped (at most {@link #HAND_OVER_TIMEOUT_MS}), or at once where it cannot be reached.
     */
    static void handOver(EngineHome.Endpoint predecessor) {
        try {
            control(connect(predecessor), HAND_OVER_TIMEOUT_MS, "engine", Succession.HAND_OVER);
        } catch (IOException e) {
            // not reachable: the successor waits for its lock all the same
        }
    }

    /** Sends a control request ({@code engine ...}) and reads the answer to its end. */
    private static void control(Connection c, int timeoutMs, String... args) {
        try (Socket socket = c.socket()) {
            socket.setSoTimeout(timeoutMs);
            Writer w = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
            w.write(EngineRequest.HELLO + "\n" + c.endpoint().token() + "\n/\n" + args.length + "\n"
                    + String.join("\n", args) + "\n");
            w.flush();
            socket.getInputStream().readAllBytes();
        } catch (IOException e) {
            // still stopping: the next command finds it gone
        }
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
