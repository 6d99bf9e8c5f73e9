package dev.proofline.cli;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code proofline engine start | stop | status}: the local engine, a warm JVM in the background that
 * runs {@code prove}, {@code verify}, {@code fullprove}, {@code zkey} and {@code wtns} for the
 * {@code proofline} command while it runs ({@link LocalEngine}).
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = {"A warm local engine: while it runs, prove, verify, fullprove, zkey and wtns run in it.",
            "Proving keys and witness generators stay open between commands; PROOFLINE_ENGINE=off runs a command"
                + " in its own JVM all the same. The engine's state is in $PROOFLINE_HOME/engine (default"
                + " ~/.proofline/engine)."},
        subcommands = {EngineCommand.Start.class, EngineCommand.Stop.class, EngineCommand.Status.class,
            EngineCommand.AutoStartSetting.class, EngineCommand.Run.class})
final class EngineCommand extends ParentCommand {

    /** Time the engine waits for its first answer after start. */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    /** Time {@code engine stop} waits for the process to end after it has stopped. */
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

    /** {@code proofline engine start}: spawns {@code engine run} in the background and waits until it answers. */
    @Command(name = "start", mixinStandardHelpOptions = true,
            description = {"Start the local engine in the background; returns once it serves requests.",
                "Exit codes: 0 started, 1 it did not start (see its log), 2 one is already running."})
    static final class Start implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--idle-timeout", paramLabel = "<duration>", defaultValue = "30m",
                converter = DurationConverter.class,
                description = "stop after this long without requests: 90s, 30m, 2h; 0 never (default: ${DEFAULT-VALUE})")
        Duration idleTimeout;

        @Option(names = "--warm-up", paramLabel = "<curves>", defaultValue = "bn128,bls12381", split = ",",
                description = "curves whose proofs are compiled in the background first: bn128, bls12381, or"
                        + " none (default: ${DEFAULT-VALUE})")
        List<String> warmUp;

        @Option(names = "--key-tables", paramLabel = "<size>", defaultValue = "256MiB",
                description = "native memory for each resident key's precomputed tables (256MiB, 1GiB; 0 none;"
                        + " default: ${DEFAULT-VALUE})")
        String keyTables;

        @Option(names = "--verify-keys", paramLabel = "<prepared.ptau>",
                description = "prove only with keys that verify (as `zkey verify`) against the r1cs beside them and"
                        + " this prepared powers of tau (default: verify-keys in $PROOFLINE_HOME/engine.conf, else none)")
        Path verifyKeys;

        @Override
        public Integer call() throws IOException, InterruptedException {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            EngineWarmUp.curves(warmUp);   // a bad name or size fails here, not in the engine
            tableBytes(spec, keyTables);
            Path ptau = verifyKeys == null ? null : ptau(spec, verifyKeys);
            EngineHome home = EngineHome.fromEnvironment();
            Optional<EngineHome.Endpoint> running = EngineClient.running(home);
            if (running.isPresent() && !EngineClient.runsThisBuild(running.get(), home)) {
                out.println("stopping the engine of another build (pid " + running.get().pid() + ")");
                EngineClient.retire(home);
                running = EngineClient.running(home);
            }
            if (running.isPresent()) {
                err.println("proofline engine: an engine is already running (pid " + running.get().pid()
                        + "); `proofline engine stop` stops it");
                return Main.EXIT_INPUT;
            }
            home.createEngineDir();
            List<String> original = spec.root().commandLine().getParseResult().originalArgs();
            ProcessBuilder pb = new ProcessBuilder(engineCommand(original, idleTimeout, warmUp, keyTables, ptau))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(home.logFile().toFile()))
                    .redirectErrorStream(true);
            Process engine = pb.start();
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                Optional<EngineHome.Endpoint> up = EngineClient.running(home);
                if (up.isPresent()) {
                    out.println("engine started: pid " + up.get().pid() + ", log " + home.logFile());
                    return 0;
                }
                if (engine.waitFor(25, TimeUnit.MILLISECONDS)) {
                    err.println("proofline engine: the engine exited (" + engine.exitValue() + ") before it served;"
                            + " its log, " + home.logFile() + ", ends:");
                    home.logTail(5).forEach(line -> err.println("  " + line));
                    return engine.exitValue() == Main.EXIT_INPUT ? Main.EXIT_INPUT : Main.EXIT_FAILURE;
                }
            }
            engine.destroy();
            err.println("proofline engine: the engine did not answer within " + format(START_TIMEOUT) + "; see "
                    + home.logFile());
            return Main.EXIT_FAILURE;
        }
    }

    /**
     * The command line of {@code engine run} in a new JVM with this one's options: this process's
     * command line less {@code clientArgs} (its own arguments, the last ones), under {@code setsid}
     * where there is one, so that the engine outlives the terminal. {@code verifyKeys}: the ptau of
     * {@code --verify-keys} (null: the engine reads its settings).
     */
    static List<String> engineCommand(List<String> clientArgs, Duration idleTimeout, List<String> warmUp,
            String keyTables, Path verifyKeys) {
        List<String> cmd = new ArrayList<>();
        for (String setsid : List.of("/usr/bin/setsid", "/bin/setsid")) {
            if (Files.isExecutable(Path.of(setsid))) {
                cmd.add(setsid);
                break;
            }
        }
        ProcessHandle.Info info = ProcessHandle.current().info();
        List<String> all = info.arguments().map(Arrays::asList).orElse(List.of());
        int jvm = all.size() - clientArgs.size();
        if (info.command().isPresent() && jvm > 0 && all.subList(jvm, all.size()).equals(clientArgs)) {
            cmd.add(info.command().get());
            cmd.addAll(all.subList(0, jvm));
        } else {   // no command line to copy: the same Java, options and class path
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        }
        cmd.addAll(List.of("engine", "run", "--idle-timeout", format(idleTimeout), "--warm-up", String.join(",", warmUp),
                "--key-tables", keyTables));
        if (verifyKeys != null) {
            cmd.addAll(List.of("--verify-keys", verifyKeys.toString()));
        }
        return cmd;
    }

    /** {@code proofline engine stop}. */
    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = {"Stop the local engine, once the commands it has taken have finished.",
                "Exit codes: 0 stopped, 1 none was running."})
    static final class Stop implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException, InterruptedException {
            EngineHome home = EngineHome.fromEnvironment();
            Optional<EngineHome.Endpoint> endpoint = home.readEndpoint();
            OptionalInt code = controlRunning(spec, home, "stop");
            if (code.isEmpty()) {
                return Main.EXIT_FAILURE;
            }
            long pid = endpoint.map(EngineHome.Endpoint::pid).orElse(ProcessHandle.current().pid());
            Optional<ProcessHandle> process = ProcessHandle.of(pid);
            if (pid != ProcessHandle.current().pid() && process.isPresent()) {
                try {
                    process.get().onExit().get(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    spec.commandLine().getErr().println("proofline engine: pid " + pid + " is still running");
                }
            }
            return code.getAsInt();
        }
    }

    /** {@code proofline engine status}. */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = {"Show the local engine: pid, uptime, idle timeout, requests served, resident keys.",
                "Exit codes: 0 running, 1 none is running."})
    static final class Status implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            EngineHome home = EngineHome.fromEnvironment();
            OptionalInt code = control(spec, home, "status");
            if (code.isEmpty()) {
                Optional<String> declined = AutoStart.declined(System.getenv(), home);
                spec.commandLine().getErr().println("proofline engine: no engine running; "
                        + (declined.isPresent() ? "none starts by itself (" + declined.get() + ")"
                                : "the next prove, verify, fullprove, groth16, zkey or wtns command starts one"));
                return Main.EXIT_FAILURE;
            }
            return code.getAsInt();
        }
    }

    /** {@code proofline engine run}: the engine itself, in the foreground (what {@code start} spawns). */
    @Command(name = "run", hidden = true, description = "Run the local engine in this process until it stops.")
    static final class Run implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--idle-timeout", paramLabel = "<duration>", defaultValue = "30m",
                converter = DurationConverter.class)
        Duration idleTimeout;

        @Option(names = "--warm-up", paramLabel = "<curves>", defaultValue = "bn128,bls12381", split = ",")
        List<String> warmUp;

        @Option(names = "--key-tables", paramLabel = "<size>", defaultValue = "256MiB")
        String keyTables;

        @Option(names = "--auto", description = "started by a one-off command: where another engine runs or is"
                + " starting, exit 0 at once")
        boolean auto;

        @Option(names = "--verify-keys", paramLabel = "<prepared.ptau>")
        Path verifyKeys;

        @Option(names = "--key-domain", paramLabel = "<log>", description = "the domain size (log) of the key the"
                + " one-off command that started it proved with (its warm-up compiles what that size needs first)")
        int keyDomain;

        @Option(names = "--no-kernels", description = "without the 8-lane kernels and without the warm-up (the launcher"
                + " starts this JVM as a one-off command's, from the start-up cache); the first key of 2^14 or more starts"
                + " an engine with them beside it (--succeed), which takes over once warm")
        boolean noKernels;

        @Option(names = "--succeed", paramLabel = "<pid>", description = "warm up beside the engine of that pid (one"
                + " without the 8-lane kernels), then take over from it; stop if it ends first")
        long predecessor;

        @Override
        public Integer call() throws IOException, InterruptedException {
            EngineHome home = EngineHome.fromEnvironment();
            // the settings' ptau where none is given: every engine of the state directory checks keys then
            Path ptau = verifyKeys != null ? ptau(spec, verifyKeys) : EngineSettings.of(home).verifyKeys();
            LocalEngine server;
            try {
                server = LocalEngine.start(home, idleTimeout, System.out, tableBytes(spec, keyTables), auto, ptau,
                        predecessor);
            } catch (LocalEngine.AlreadyRunningException e) {
                spec.commandLine().getErr().println("proofline engine: " + e.getMessage()
                        + (auto ? "; this one is not needed" : ""));
                return auto ? 0 : Main.EXIT_INPUT;
            }
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("engine-shutdown").unstarted(server::abandon));
            if (noKernels) {
                server.withoutKernels(spec.root().commandLine().getParseResult().originalArgs());
            }
            if (predecessor != 0) {
                // the kernels, then the keys its predecessor holds, proved a few times; then it takes over.
                // Its kernels wait for the engine's turns like the rest: the predecessor's requests come first
                server.startWarmUp(EngineWarmUp.curves(warmUp), true, 0);
            } else {
                server.reopenKeys(!noKernels);
                if (!noKernels) {
                    // an engine started for a small key is warmed by its requests: the built-in circuit's key
                    // set-up and synthesis took the compilers from them (docs/decisions/0025-small-key-engine-warmed-by-its-requests.md)
                    server.startWarmUp(EngineWarmUp.curves(warmUp), true, EngineWarmUp.PROOFS);
                }
                server.keyUsed(keyDomain);
            }
            server.awaitStopped();
            return 0;
        }
    }

    /** {@code proofline engine auto-start on|off}: whether one-off commands start an engine ({@link AutoStart}). */
    @Command(name = "auto-start", mixinStandardHelpOptions = true,
            description = {"Whether a one-off prove, verify, fullprove, groth16, zkey or wtns command that finds no engine"
                + " starts one in the background (on by default; written to $PROOFLINE_HOME/engine.conf).",
                "Without an argument, prints the setting and whether an engine would start now."})
    static final class AutoStartSetting implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Parameters(arity = "0..1", paramLabel = "on|off")
        String value;

        @Override
        public Integer call() throws IOException {
            EngineHome home = EngineHome.fromEnvironment();
            PrintWriter out = spec.commandLine().getOut();
            if (value != null) {
                if (!value.equals("on") && !value.equals("off")) {
                    throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                            "expected on or off, not '" + value + "'");
                }
                EngineSettings.set(home, "auto-start", value);
            }
            Optional<String> declined = AutoStart.declined(System.getenv(), home);
            out.println("auto-start " + (EngineSettings.of(home).autoStart() ? "on" : "off")
                    + (declined.isPresent() ? "; no engine starts by itself here: " + declined.get()
                            : "; a one-off command that finds no engine starts one"));
            return 0;
        }
    }

    /** The bytes of a {@code --key-tables} size, or a usage error naming the option. */
    static long tableBytes(CommandSpec spec, String size) {
        try {
            return dev.proofline.daemon.config.DaemonConfig.parseBytes(size);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--key-tables: " + e.getMessage());
        }
    }

    /** The absolute path of a {@code --verify-keys} ptau, or a usage error naming the option where it cannot be read. */
    static Path ptau(CommandSpec spec, Path ptau) {
        if (!Files.isRegularFile(ptau) || !Files.isReadable(ptau)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--verify-keys: " + ptau + ": "
                    + (Files.exists(ptau) ? "not a file that can be read" : "no such file"));
        }
        return ptau.toAbsolutePath().normalize();
    }

    /** As {@link #control}, saying so on stderr when no engine runs. */
    private static OptionalInt controlRunning(CommandSpec spec, EngineHome home, String verb) throws IOException {
        OptionalInt code = control(spec, home, verb);
        if (code.isEmpty()) {
            spec.commandLine().getErr().println("proofline engine: no engine running");
        }
        return code;
    }

    /** Sends {@code engine <verb>} to the running engine, its answer to the command's writers; empty: none runs. */
    private static OptionalInt control(CommandSpec spec, EngineHome home, String verb) throws IOException {
        return EngineClient.send(home, Path.of("").toAbsolutePath(), List.of("engine", verb),
                to(spec.commandLine().getOut()), to(spec.commandLine().getErr()));
    }

    /** Bytes of whole UTF-8 lines, written to {@code w} at each flush. */
    private static OutputStream to(PrintWriter w) {
        return new OutputStream() {
            private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

            @Override
            public void write(int b) {
                buf.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                buf.write(b, off, len);
            }

            @Override
            public void flush() {
                w.print(buf.toString(StandardCharsets.UTF_8));
                w.flush();
                buf.reset();
            }
        };
    }

    private static final Pattern DURATION_PART = Pattern.compile("([0-9]+)(ms|s|m|h|d)");

    /** Durations as {@code 500ms}, {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}, {@code 1h30m}, or {@code 0}. */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            if (value.equals("0")) {
                return Duration.ZERO;
            }
            Matcher m = DURATION_PART.matcher(value);
            Duration total = Duration.ZERO;
            int at = 0;
            while (at < value.length() && m.find(at) && m.start() == at) {
                long n = Long.parseLong(m.group(1));
                total = total.plus(switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                });
                at = m.end();
            }
            if (at == 0 || at != value.length()) {
                throw new IllegalArgumentException("not a duration: '" + value + "' (e.g. 90s, 30m, 2h; 0: never)");
            }
            return total;
        }
    }

    /** {@code d} as the converter reads it, in its largest units: {@code 1h30m}, {@code 45s}, {@code 250ms}. */
    static String format(Duration d) {
        if (d.isZero()) {
            return "0";
        }
        if (d.toMillisPart() != 0 || d.toNanosPart() % 1_000_000 != 0) {
            return d.toMillis() + "ms";
        }
        StringBuilder s = new StringBuilder();
        long h = d.toHours();
        int m = d.toMinutesPart();
        int sec = d.toSecondsPart();
        if (h > 0) {
            s.append(h).append('h');
        }
        if (m > 0) {
            s.append(m).append('m');
        }
        if (sec > 0 || s.isEmpty()) {
            s.append(sec).append('s');
        }
        return s.toString();
    }
}
