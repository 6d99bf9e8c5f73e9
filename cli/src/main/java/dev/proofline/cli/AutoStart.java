package dev.proofline.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A one-off command that found no engine starts one in the background, once it has done its own work
 * (so that it costs this command nothing): the next commands are then served warm. As Gradle's and
 * Maven's daemons do, it takes care that:
 * <ul>
 * <li>two shells that start one at the same moment leave one engine: the engine's lock decides, and the
 * loser exits at once ({@code engine run --auto});</li>
 * <li>an engine of another build (a rebuilt jar, another release) is never used
 * ({@link EngineClient#runsThisBuild}) but stopped and replaced;</li>
 * <li>a crashed engine's endpoint is found stale and removed ({@link EngineClient#connect}), and the next
 * command starts a new one;</li>
 * <li>it does not start where it would surprise: {@code PROOFLINE_ENGINE=off} or {@code manual},
 * {@code CI} set, {@code auto-start = off} in {@link EngineSettings}, a state directory that cannot be
 * written, less than {@link #MIN_AVAILABLE_BYTES} of memory available ({@link #declined}).</li>
 * </ul>
 * The first time it starts one, it says so in one line on stderr.
 */
final class AutoStart {

    /** Memory an engine needs besides what is in use: its heap grows with the keys it holds. */
    static final long MIN_AVAILABLE_BYTES = 2L << 30;

    private AutoStart() {
    }

    /** Why no engine is started for a command run with {@code env}; empty when one may be. */
    static Optional<String> declined(Map<String, String> env, EngineHome home) {
        String mode = env.getOrDefault("PROOFLINE_ENGINE", "");
        if (mode.equals("off") || mode.equals("manual")) {
            return Optional.of("PROOFLINE_ENGINE=" + mode);
        }
        if ("1".equals(env.get("PROOFLINE_REBUILD"))) {
            return Optional.of("PROOFLINE_REBUILD=1");
        }
        String ci = env.get("CI");
        if (ci != null && !ci.isEmpty() && !ci.equalsIgnoreCase("false")) {
            return Optional.of("CI is set");
        }
        EngineSettings settings;
        try {
            settings = EngineSettings.of(home);
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        if (!settings.autoStart()) {
            return Optional.of("auto-start = off in " + home.settingsFile());
        }
        try {
            home.createEngineDir();
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.of(home.dir() + " cannot be written");
        }
        if (!Files.isWritable(home.engineDir())) {
            return Optional.of(home.engineDir() + " cannot be written");
        }
        long available = availableMemory();
        if (available >= 0 && available < MIN_AVAILABLE_BYTES) {
            return Optional.of(ResidentFiles.size(available) + " of memory available, less than "
                    + ResidentFiles.size(MIN_AVAILABLE_BYTES));
        }
        return Optional.empty();
    }

    /**
     * After a one-off command ({@code args}) ran in this process: starts an engine in the background where
     * none runs for this build and none is declined. Says so on {@code err} the first time. After one of
     * the daemon's client commands, an engine that does not warm up the proving code (it would take
     * seconds of CPU for commands that wait on the network). {@code keyDomain}: the domain size (log) of
     * the largest key the command proved with (0: none), which the engine's warm-up is told first.
     */
    static void afterOneOff(String[] args, Map<String, String> env, PrintStream err, int keyDomain) {
        if (args.length == 0 || !(LocalEngine.SERVED.contains(args[0]) || LocalEngine.CLIENT.contains(args[0]))
                || List.of(args).stream().anyMatch(HELP::contains)) {
            return;   // nothing to serve, or a command's help or version only
        }
        EngineHome home = EngineHome.fromEnvironment(env);
        if (declined(env, home).isPresent()) {
            return;
        }
        try {
            Optional<EngineHome.Endpoint> running = EngineClient.running(home);
            if (running.isPresent()) {
                if (EngineClient.runsThisBuild(running.get(), home)) {
                    return;   // one serves already (it came up while this command ran)
                }
                EngineClient.retire(home);
            } else if (lockHeld(home)) {
                return;   // one is starting
            }
            long engine = spawnDetached(home, env, List.of(args), LocalEngine.CLIENT.contains(args[0]), keyDomain);
            if (!Files.exists(home.noticeFile())) {
                Files.writeString(home.noticeFile(), "");
                err.println("proofline: started a local engine in the background (pid " + engine
                        + ") so that the next commands run warm; `proofline engine stop` stops it,"
                        + " PROOFLINE_ENGINE=off or `proofline engine auto-start off` keeps it from starting"
                        + " (docs/engine-cli.md)");
            }
        } catch (IOException | RuntimeException e) {
            // no engine this time: the next command tries again
        }
    }

    /** The options that print a command's help or the version instead of running it. */
    private static final Set<String> HELP = Set.of("-h", "--help", "-V", "--version");

    /** Whether an engine holds (or is taking) the state directory's lock; where that cannot be told, yes. */
    static boolean lockHeld(EngineHome home) {
        return !Boolean.FALSE.equals(Housekeeping.lockedElsewhere(home.lockFile()));
    }

    /**
     * Starts {@code engine run --auto} in a session of its own, at a lower priority ({@link #nice}), its
     * input from /dev/null and its output appended to the engine's log: through the launcher where this
     * process was started by it
     * ({@code PROOFLINE_LAUNCHER}, so that the engine has the launcher's JVM options), else with this
     * JVM's command line. {@code noWarmUp}: without the warm-up, whatever the settings say. {@code keyDomain}:
     * the domain size (log) of the key the command proved with, 0 for none; where there is one, the engine
     * runs without the 8-lane kernels ({@code --no-kernels}), and a key of 2^{@link EngineWarmUp#kernelsFromLog}
     * or more makes it start one with them beside it ({@link Succession}). {@code predecessor}: the pid of the
     * engine that starts this one as its successor ({@code --succeed}), 0 for none.
     */
    static Process spawn(EngineHome home, Map<String, String> env, List<String> args, boolean noWarmUp, int keyDomain,
            long predecessor) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command(home, env, args, noWarmUp, keyDomain, predecessor))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(home.logFile().toFile()))
                .redirectErrorStream(true);
        pb.environment().put("PROOFLINE_HOME", home.dir().toString());
        Process p = pb.start();
        closeQuietly(p.getOutputStream());
        return p;
    }

    /**
     * As {@link #spawn} without a predecessor, for a process about to end: the engine is started by a shell
     * that leaves it in the background and ends at once, and its pid is returned. A child of this process
     * would keep a thread of its JVM waiting for it in native code, which the JVM's exit waits for, a while,
     * before it gives up (BENCHMARKS.md, "the first call"). Where there is no {@code /bin/sh}, as {@link #spawn}.
     */
    static long spawnDetached(EngineHome home, Map<String, String> env, List<String> args, boolean noWarmUp,
            int keyDomain) throws IOException {
        if (!Files.isExecutable(Path.of("/bin/sh"))) {
            return spawn(home, env, args, noWarmUp, keyDomain, 0).pid();
        }
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c",
                "log=$1; shift; \"$@\" </dev/null >>\"$log\" 2>&1 & echo $!", "sh", home.logFile().toString()));
        cmd.addAll(command(home, env, args, noWarmUp, keyDomain, 0));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectError(ProcessBuilder.Redirect.appendTo(home.logFile().toFile()));
        pb.environment().put("PROOFLINE_HOME", home.dir().toString());
        Process sh = pb.start();
        String pid = new String(sh.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip();
        try {
            if (sh.waitFor() != 0) {
                throw new IOException("the shell that starts the engine ended with " + sh.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the engine started", e);
        }
        try {
            return Long.parseLong(pid);
        } catch (NumberFormatException e) {
            throw new IOException("the shell that starts the engine printed no pid: " + pid, e);
        }
    }

    /** The command line of {@link #spawn}. */
    private static List<String> command(EngineHome home, Map<String, String> env, List<String> args, boolean noWarmUp,
            int keyDomain, long predecessor) throws IOException {
        EngineSettings settings = EngineSettings.of(home);
        String warmUp = noWarmUp ? "none" : settings.warmUp();
        List<String> cmd = new ArrayList<>();
        String launcher = env.get("PROOFLINE_LAUNCHER");
        if (launcher != null && Files.isExecutable(Path.of(launcher))) {
            setsid().ifPresent(cmd::add);
            cmd.addAll(nice());
            cmd.add(launcher);
            cmd.addAll(List.of("engine", "run", "--idle-timeout", EngineCommand.format(settings.idleTimeout()),
                    "--warm-up", warmUp));
        } else {
            cmd.addAll(EngineCommand.engineCommand(args, settings.idleTimeout(), List.of(warmUp.split(",")),
                    "256MiB", null));
            if (cmd.size() > 1 && setsid().filter(cmd.getFirst()::equals).isPresent()) {
                cmd.addAll(1, nice());
            } else {
                cmd.addAll(0, nice());
            }
        }
        if (keyDomain > 0) {
            cmd.addAll(List.of("--key-domain", Integer.toString(keyDomain)));
        }
        if (predecessor != 0) {
            cmd.addAll(List.of("--succeed", Long.toString(predecessor)));
        } else if (keyDomain > 0) {
            // its first requests sooner, from the one-off commands' start-up cache, without the kernels' compilation
            // beside them (docs/decisions/0026-kernels-engine-takes-over-once-warm.md)
            cmd.add("--no-kernels");
        }
        cmd.add("--auto");
        return cmd;
    }

    /**
     * {@code nice}, where there is one, to nice 10: an engine nobody asked for yields the cores to the
     * programs beside it (its JVM's start, its compilers and collector included). Its requests lose nothing
     * by it while the client that sent one waits for the answer. From a thread at nice 10 already (an
     * engine that starts the one replacing it), no more.
     */
    static List<String> nice() {
        int by = Math.max(0, 10 - Housekeeping.niceOfThisThread().orElse(0));
        for (String nice : List.of("/usr/bin/nice", "/bin/nice")) {
            if (by > 0 && Files.isExecutable(Path.of(nice))) {
                return List.of(nice, "-n", Integer.toString(by));
            }
        }
        return List.of();
    }

    static Optional<String> setsid() {
        for (String setsid : List.of("/usr/bin/setsid", "/bin/setsid")) {
            if (Files.isExecutable(Path.of(setsid))) {
                return Optional.of(setsid);
            }
        }
        return Optional.empty();
    }

    /** MemAvailable of /proc/meminfo in bytes; -1 where it cannot be read. */
    static long availableMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    String[] f = line.substring("MemAvailable:".length()).strip().split("\\s+");
                    return Long.parseLong(f[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable
        }
        return -1;
    }

    private static void closeQuietly(OutputStream s) {
        try {
            s.close();
        } catch (IOException e) {
            // the child's input is /dev/null anyway
        }
    }
}
