package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One-off commands, each a JVM of its own as a user's shell starts it, start the local engine in the
 * background and leave nothing behind: the next command is served by it, two at once leave one engine,
 * an engine of another build is replaced and never used, a killed one is replaced, the idle timeout ends
 * it, and none starts where it would surprise. Each test's engines live in a state directory of its own
 * whose settings name an idle timeout no other engine has, so that its processes can be found.
 */
class AutoStartTest {

    @TempDir
    Path tmp;

    private EngineHome home;
    private Fixture fx;
    /** The idle timeout of this test's engines: it is on their command line. */
    private String marker;
    /** JVM options of the commands a test runs (and so of the engines they start). */
    private List<String> jvmOptions = List.of();

    private record Run(int code, String out, String err) {
    }

    @BeforeEach
    void setUp() throws IOException {
        home = new EngineHome(tmp.resolve("home"));
        fx = CircomFixtures.build("bn128", "multiplier");
        marker = EngineCommand.format(Duration.ofSeconds(3_601 + (System.nanoTime() & 0xffff)));   // as printed
        settings("idle-timeout = " + marker + "\nwarm-up = none\n");
    }

    @AfterEach
    void stopEngines() {
        engines().forEach(ProcessHandle::destroyForcibly);
    }

    private void settings(String text) throws IOException {
        Files.createDirectories(home.dir());
        Files.writeString(home.settingsFile(), text);
    }

    @Test
    void aOneOffCommandStartsAnEngineThatServesTheNextOneAndSaysSoOnce() throws Exception {
        Run first = verify(Map.of());
        assertEquals(0, first.code(), first.err());
        assertEquals("OK", first.out().strip());
        assertTrue(first.err().contains("started a local engine in the background"), first.err());
        EngineHome.Endpoint endpoint = awaitEngine();
        assertTrue(first.err().contains("in the background (pid " + endpoint.pid() + ")"), first.err());
        assertTrue(home.logFile().toFile().exists());

        Run second = verify(Map.of());
        assertEquals(first.out(), second.out());
        assertEquals("", second.err(), "said once");
        assertEquals(1, status().stream().filter(l -> l.startsWith("requests   1 served")).count(),
                "the second was served by the engine: " + status());
        assertTrue(status().getFirst().contains("started by a command"), status().toString());

        Run stop = main(Map.of(), "engine", "stop");
        assertEquals(0, stop.code(), stop.err());
        await(() -> ProcessHandle.of(endpoint.pid()).isEmpty(), "the engine process ended");
        assertTrue(engines().isEmpty());
    }

    @Test
    void theEngineAOneOffCommandStartsIsNoChildOfIt() throws Exception {
        // a child would keep a thread of the command's JVM waiting for it, and the JVM's exit waits for that
        home.createEngineDir();   // as the command's checks before it make it
        long pid = AutoStart.spawnDetached(home, Map.of(), List.of("verify"), true, 0);
        assertEquals(pid, awaitEngine().pid());
        assertTrue(ProcessHandle.current().children().noneMatch(c -> c.isAlive()),
                () -> "children: " + ProcessHandle.current().children().map(ProcessHandle::pid).toList());
        Run stop = main(Map.of(), "engine", "stop");
        assertEquals(0, stop.code(), stop.err());
        await(() -> ProcessHandle.of(pid).isEmpty(), "the engine process ended");
    }

    @Test
    void twoCommandsAtOnceLeaveOneEngine() throws Exception {
        List<CompletableFuture<Run>> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return verify(Map.of());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (CompletableFuture<Run> r : runs) {
            assertEquals(0, r.get(3, TimeUnit.MINUTES).code());
        }
        EngineHome.Endpoint endpoint = awaitEngine();
        // any engine that lost the race exits at once; wait for the processes to settle
        await(() -> engines().size() == 1, "one engine process: " + engines());
        assertEquals(endpoint.pid(), engines().getFirst().pid());
    }

    @Test
    void anEngineOfAnotherBuildIsNeverUsedAndIsReplaced() throws Exception {
        verify(Map.of());
        EngineHome.Endpoint old = awaitEngine();
        // the endpoint now says the engine runs another jar: a client of this build must not use it
        Path otherJar = Files.writeString(tmp.resolve("other.jar"), "not this build");
        home.writeEndpoint(new EngineHome.Endpoint(old.port(), old.token(), old.pid(), otherJar.toString()));
        assertFalse(EngineClient.runsThisBuild(home.readEndpoint().orElseThrow(), home));

        Run run = verify(Map.of());
        assertEquals(0, run.code(), run.err());
        await(() -> ProcessHandle.of(old.pid()).isEmpty(), "the old engine stopped");
        EngineHome.Endpoint replaced = awaitEngine();
        assertNotEquals(old.pid(), replaced.pid());
        assertTrue(EngineClient.runsThisBuild(replaced, home));
        assertTrue(status().contains("requests   0 served"), "the command ran in its own process: " + status());
    }

    @Test
    void aKilledEngineIsReplacedByTheNextCommand() throws Exception {
        verify(Map.of());
        EngineHome.Endpoint killed = awaitEngine();
        ProcessHandle.of(killed.pid()).orElseThrow().destroyForcibly();
        await(() -> ProcessHandle.of(killed.pid()).isEmpty(), "killed");

        Run run = verify(Map.of());
        assertEquals(0, run.code(), run.err());
        assertEquals("OK", run.out().strip());
        EngineHome.Endpoint next = awaitEngine();
        assertNotEquals(killed.pid(), next.pid());
    }

    @Test
    void anEngineStartedByACommandRunsWithoutKernelsAndALargerKeyMakesOneWithThemTakeOverOnceWarm() throws Exception {
        Fixture large = CircomFixtures.build("bn128", "poseidon");
        assertTrue(large.power() > fx.power(), large.power() + " against " + fx.power());
        // the domain from which the kernels pay, lowered to the larger key's for the test
        jvmOptions = List.of("-Dproofline.engine.kernelsFromLog=" + large.power());

        Run first = prove(fx);
        assertEquals(0, first.code(), first.err());
        EngineHome.Endpoint small = awaitEngine();
        List<String> smallCommand = commandLine(ProcessHandle.of(small.pid()).orElseThrow());
        assertTrue(smallCommand.contains("--no-kernels"), smallCommand.toString());
        assertTrue(status().stream().anyMatch(l -> l.startsWith("kernels    scalar only: started by a command")
                && l.contains("a key of 2^" + large.power() + " or more starts an engine with the 8-lane kernels")), status()::toString);
        assertTrue(status().contains("warm-up    none: started by a command, its requests warm it"), status()::toString);

        Run big = prove(large);   // served by that engine, which starts its successor beside it
        assertEquals(0, big.code(), big.err());
        await(() -> log().contains("a key of 2^" + large.power() + " wants the 8-lane kernels: an engine with them"),
                "the successor started");
        // the successor, warm, takes over: the endpoint names it, the engine without kernels has stopped
        await(() -> log().contains("took over from pid " + small.pid()), "the successor took over: " + log());
        await(() -> ProcessHandle.of(small.pid()).isEmpty(), "the engine without kernels stopped");
        String log = log();
        assertTrue(log.contains("engine stopped: handed over to its successor, with the 8-lane kernels; 1 requests served"),
                log);
        // with the witness of the request that proved with it, which the first engine wrote down
        assertTrue(log.contains("warmed " + large.zkey().toAbsolutePath() + " (" + KeysAcrossRestarts.PROOFS
                + " proofs with the witness of its last proof)"), log);
        assertTrue(log.indexOf("warmed " + large.zkey().toAbsolutePath()) < log.indexOf("took over from pid"), log);
        EngineHome.Endpoint next = awaitEngine();
        assertNotEquals(small.pid(), next.pid());
        List<String> nextCommand = commandLine(ProcessHandle.of(next.pid()).orElseThrow());
        assertFalse(nextCommand.contains("--no-kernels"), nextCommand.toString());
        assertEquals(Long.toString(small.pid()), nextCommand.get(nextCommand.indexOf("--succeed") + 1));
        assertEquals(Integer.toString(large.power()), nextCommand.get(nextCommand.indexOf("--key-domain") + 1));

        // which serves both keys from then on
        for (Fixture f : List.of(fx, large)) {
            Run r = prove(f);
            assertEquals(0, r.code(), r.err());
        }
        assertTrue(status().contains("requests   2 served"), status()::toString);
        assertEquals(next.pid(), awaitEngine().pid());
        await(() -> engines().size() == 1, "one engine process: " + engines());
    }

    @Test
    void stoppingAnEngineEndsTheSuccessorWarmingUpBesideIt() throws Exception {
        Fixture large = CircomFixtures.build("bn128", "poseidon");
        jvmOptions = List.of("-Dproofline.engine.kernelsFromLog=" + large.power());
        settings("idle-timeout = " + marker + "\nwarm-up = bn128\n");   // a successor that compiles the kernels
        assertEquals(0, prove(fx).code());
        EngineHome.Endpoint small = awaitEngine();
        assertEquals(0, prove(large).code());
        await(() -> engines().size() == 2, "the successor started: " + engines());
        // its warm-up then waits while a one-off command of the state directory runs, which this lock stands for
        try (var held = Housekeeping.holdClientLock(home).orElseThrow()) {
            assertTrue(status().stream().anyMatch(l -> l.startsWith("successor  pid ")), status()::toString);
            assertEquals(small.pid(), awaitEngine().pid());
            Run stop = main(Map.of(), "engine", "stop");
            assertEquals(0, stop.code(), stop.err());
            await(() -> engines().isEmpty(), "no engine process left: " + engines());
            assertFalse(log().contains("took over"), log());
        }
    }

    private String log() {
        try {
            return Files.readString(home.logFile());
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void theIdleTimeoutEndsAnEngineStartedByACommand() throws Exception {
        settings("idle-timeout = 2s\nwarm-up = none\n");
        marker = "2s";
        verify(Map.of());
        EngineHome.Endpoint endpoint = awaitEngine();
        await(() -> ProcessHandle.of(endpoint.pid()).isEmpty(), "the engine ended after its idle timeout");
        assertFalse(Files.exists(home.endpointFile()));
    }

    @Test
    void noEngineStartsWhereItWouldSurprise() throws Exception {
        for (String option : List.of("--help", "-V")) {   // a command's help or the version: nothing to serve
            Run help = main(Map.of(), "prove", option);
            assertEquals(0, help.code(), help.err());
            assertFalse(help.out().isEmpty());
            Thread.sleep(300);
            assertFalse(Files.exists(home.endpointFile()), "an engine after prove " + option);
            assertTrue(engines().isEmpty(), "an engine process after prove " + option);
        }
        assertNoEngineAfter(Map.of("CI", "true"));
        assertNoEngineAfter(Map.of("PROOFLINE_ENGINE", "off"));
        assertNoEngineAfter(Map.of("PROOFLINE_ENGINE", "manual"));
        Run off = main(Map.of(), "engine", "auto-start", "off");
        assertEquals(0, off.code(), off.err());
        assertTrue(off.out().startsWith("auto-start off"), off.out());
        assertTrue(Files.readString(home.settingsFile()).contains("idle-timeout = " + marker), "other settings kept");
        assertNoEngineAfter(Map.of());
        Run status = main(Map.of(), "engine", "status");
        assertEquals(1, status.code());
        assertTrue(status.err().contains("none starts by itself (auto-start = off in " + home.settingsFile() + ")"),
                status.err());
        main(Map.of(), "engine", "auto-start", "on");

        // a state directory that cannot be made: the command works, no engine
        Path file = Files.writeString(tmp.resolve("a-file"), "");
        Run unwritable = main(Map.of("PROOFLINE_HOME", file.resolve("home").toString()), "verify", fx.vk().toString(),
                fx.publicJson().toString(), fx.proof().toString());
        assertEquals(0, unwritable.code(), unwritable.err());
        assertEquals("", unwritable.err());
        assertTrue(AutoStart.declined(Map.of(), new EngineHome(file.resolve("home"))).orElseThrow()
                .endsWith("cannot be written"));
    }

    private void assertNoEngineAfter(Map<String, String> env) throws Exception {
        Run run = verify(env);
        assertEquals(0, run.code(), run.err());
        assertEquals("", run.err(), "nothing said");
        Thread.sleep(300);
        assertFalse(Files.exists(home.endpointFile()), "no engine with " + env);
        assertTrue(engines().isEmpty(), "no engine process with " + env);
    }

    /** {@code prove} with the fixture's key and witness, to files of the test's own. */
    private Run prove(Fixture f) throws Exception {
        return main(Map.of(), "prove", f.zkey().toString(), f.wtns().toString(),
                Files.createTempFile(tmp, "proof", ".json").toString(), Files.createTempFile(tmp, "public", ".json").toString());
    }

    private Run verify(Map<String, String> env) throws Exception {
        return main(env, "verify", fx.vk().toString(), fx.publicJson().toString(), fx.proof().toString());
    }

    /** {@code proofline args} in a JVM of its own, as the launcher would start it, with {@code env} added. */
    private Run main(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().remove("PROOFLINE_ENGINE");
        pb.environment().remove("CI");
        pb.environment().remove("PROOFLINE_LAUNCHER");
        pb.environment().put("PROOFLINE_HOME", home.dir().toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("proofline " + List.of(args) + " did not end");
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private List<String> status() throws Exception {
        Run s = main(Map.of(), "engine", "status");
        assertEquals(0, s.code(), s.err());
        return s.out().lines().toList();
    }

    /** This test's engine processes: {@code engine run --auto} with its idle timeout. */
    private List<ProcessHandle> engines() {
        return ProcessHandle.allProcesses().filter(p -> {
            List<String> args = commandLine(p);
            int i = args.indexOf("--idle-timeout");
            return args.contains("--auto") && i >= 0 && i + 1 < args.size() && args.get(i + 1).equals(marker);
        }).toList();
    }

    /** A process's command line from /proc (ProcessHandle.Info leaves out long ones, like a test class path). */
    private static List<String> commandLine(ProcessHandle p) {
        try {
            byte[] b = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
            return List.of(new String(b, StandardCharsets.UTF_8).split("\0"));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The running engine's endpoint, once it answers. */
    private EngineHome.Endpoint awaitEngine() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            var e = EngineClient.running(home);
            if (e.isPresent()) {
                return e.get();
            }
            Thread.sleep(50);
        }
        fail("no engine answered in " + home.dir());
        return null;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within a minute: " + what);
            }
            Thread.sleep(50);
        }
    }
}
