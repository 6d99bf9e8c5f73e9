package dev.proofline.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A request to the local engine ({@link LocalEngine}), as {@link EngineClient} and the bash launcher
 * send it.
 *
 * <p>The protocol is lines of UTF-8, each ended by {@code \n}, simple enough for bash's
 * {@code /dev/tcp}. A request:
 * <pre>
 * proofline-engine 1
 * &lt;token&gt;
 * &lt;the client's working directory, absolute&gt;
 * &lt;n, the number of arguments&gt;
 * &lt;argument 1&gt; ... &lt;argument n&gt;   (one a line)
 * </pre>
 * or, with the client's environment variables that commands read ({@link #FORWARDED_ENV}; others are
 * ignored), {@code proofline-engine 2}, the token, the directory, the number of variables, each as
 * {@code NAME=value} on a line, then the arguments as above.
 * The response: {@code o <text>} and {@code e <text>}, a line of stdout or stderr; {@code O <text>} and
 * {@code E <text>}, text without a line end (what a command left unended); last {@code x <exit code>}.
 * A connection closed with no response means the engine did no work for it (a bad token, or an engine
 * that is stopping): the client runs the command itself.
 *
 * @param cwd  the client's working directory
 * @param env  the forwarded environment variables it sent
 * @param args the command line
 */
record EngineRequest(Path cwd, Map<String, String> env, List<String> args) {

    /** The environment variables a request may carry (the daemon's bearer token). */
    static final Set<String> FORWARDED_ENV = Set.of("PROOFLINE_TOKEN");

    /** The first line of every request: without, and with the client's environment. */
    static final String HELLO = "proofline-engine 1";
    static final String HELLO_ENV = "proofline-engine 2";

    /** Longest request line and most arguments read (a request is a command line). */
    private static final int MAX_LINE = 1 << 16;
    private static final int MAX_ARGS = 4096;

    /**
     * Reads a request whose token {@code token} accepts; null where it is malformed, past the limits or
     * its token is refused (the connection is then closed unread: no work is done).
     */
    static EngineRequest read(InputStream in, Predicate<String> token) throws IOException {
        String hello = readLine(in);
        if (!(HELLO.equals(hello) || HELLO_ENV.equals(hello)) || !token.test(readLine(in))) {
            return null;
        }
        String cwd = readLine(in);
        Map<String, String> env = new HashMap<>();
        if (HELLO_ENV.equals(hello)) {
            String vars = readLine(in);
            if (vars == null || !vars.matches("[0-9]{1,2}")) {
                return null;
            }
            for (int i = Integer.parseInt(vars); i > 0; i--) {
                String v = readLine(in);
                int eq = v == null ? -1 : v.indexOf('=');
                if (eq < 0) {
                    return null;
                }
                if (FORWARDED_ENV.contains(v.substring(0, eq))) {
                    env.put(v.substring(0, eq), v.substring(eq + 1));
                }
            }
        }
        String count = readLine(in);
        if (cwd == null || count == null || !Path.of(cwd).isAbsolute() || !count.matches("[0-9]{1,5}")) {
            return null;
        }
        int n = Integer.parseInt(count);
        if (n > MAX_ARGS) {
            return null;
        }
        List<String> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String a = readLine(in);
            if (a == null) {
                return null;
            }
            args.add(a);
        }
        return new EngineRequest(Path.of(cwd), env, args);
    }

    /** The command line for the log, a bearer token given as an argument left out. */
    static String loggable(List<String> args) {
        List<String> shown = new ArrayList<>(args);
        for (int i = 0; i < shown.size(); i++) {
            if (shown.get(i).equals("--token") && i + 1 < shown.size()) {
                shown.set(i + 1, "<token>");
            } else if (shown.get(i).startsWith("--token=")) {
                shown.set(i, "--token=<token>");
            }
        }
        return String.join(" ", shown);
    }

    /** A line of at most {@link #MAX_LINE} bytes without its {@code \n}; null at the end or past the limit. */
    static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0 || line.size() >= MAX_LINE) {
                return null;
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }
}
