package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.Proof;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local engine, started in this JVM on a temporary state directory, reached through the Java
 * client and through the bash launcher: what it writes and prints is what a one-off run writes and
 * prints.
 */
class EngineCommandTest {

    @TempDir
    Path tmp;

    private EngineHome home;
    private LocalEngine server;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    @BeforeEach
    void startEngine() throws IOException {
        home = new EngineHome(tmp.resolve("home"));
        server = LocalEngine.start(home, Duration.ofMinutes(10), new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void stopEngine() {
        server.stop("test over");
    }

    @Test
    void proofsMadeThroughTheClientAndTheLauncherAreThoseOfAOneOffRun() throws Exception {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        Path local = Files.createDirectories(tmp.resolve("local"));
        CliRun oneOff = CliRun.of("prove", fx.zkey().toString(), fx.wtns().toString(),
                local.resolve("proof.json").toString(), local.resolve("public.json").toString());
        assertEquals(0, oneOff.code(), oneOff.err());

        // relative paths, inputs and outputs, resolved against the client's directory
        Path client = Files.createDirectories(tmp.resolve("client"));
        CliRun viaClient = client(client, "prove", client.relativize(fx.zkey()).toString(),
                client.relativize(fx.wtns()).toString(), "proof.json", "public.json");
        assertEquals(oneOff, viaClient);
        assertProofOf(fx, client, local);
        assertEquals(1, server.served());

        Path shell = Files.createDirectories(tmp.resolve("shell"));
        CliRun viaLauncher = launcher(shell, Map.of(), "prove", shell.relativize(fx.zkey()).toString(),
                shell.relativize(fx.wtns()).toString(), "proof.json", "public.json");
        assertEquals(oneOff, viaLauncher);
        assertProofOf(fx, shell, local);
        assertEquals(2, server.served(), "served by the engine");

        CliRun verified = launcher(shell, Map.of(), "verify", fx.vk().toString(), "public.json", "proof.json");
        assertEquals(CliRun.of("verify", fx.vk().toString(), shell.resolve("public.json").toString(),
                shell.resolve("proof.json").toString()), verified);
        assertEquals("OK\n", verified.out());
        assertEquals(3, server.served());
    }

    @Test
    void snarkjsNamedCommandsAreServedThroughTheLauncher() throws Exception {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        Path local = Files.createDirectories(tmp.resolve("local"));
        CliRun oneOff = CliRun.of("groth16", "prove", fx.zkey().toString(), fx.wtns().toString(),
                local.resolve("proof.json").toString(), local.resolve("public.json").toString());
        assertEquals(0, oneOff.code(), oneOff.err());

        Path shell = Files.createDirectories(tmp.resolve("shell"));
        CliRun proved = launcher(shell, Map.of(), "groth16", "prove", fx.zkey().toString(), fx.wtns().toString(),
                "proof.json", "public.json");
        assertEquals(oneOff, proved);
        assertProofOf(fx, shell, local);
        CliRun verified = launcher(shell, Map.of(), "groth16", "verify", fx.vk().toString(), "public.json", "proof.json");
        assertEquals(new CliRun(0, "OK\n", ""), verified);
        assertEquals(2, server.served(), "both served by the engine");
    }

    private static void assertProofOf(Fixture fx, Path dir, Path oneOffDir) throws IOException {
        assertEquals(Files.readString(oneOffDir.resolve("public.json")), Files.readString(dir.resolve("public.json")));
        VerificationKey vk = SnarkjsJson.readVerificationKey(fx.vk());
        Proof proof = SnarkjsJson.readProof(dir.resolve("proof.json"), vk.curve());
        assertTrue(Verifier.verify(vk, SnarkjsJson.readPublic(dir.resolve("public.json")), proof));
    }

    @Test
    void aMissingWitnessExitsTwoWithTheMessageOfAOneOffRun() throws Exception {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        String[] args = {"prove", fx.zkey().toString(), "missing.wtns", "p.json", "q.json"};
        CliRun oneOff = CliRun.of(args);   // missing.wtns relative to this JVM's directory: not there either
        assertEquals(2, oneOff.code());
        assertTrue(oneOff.err().contains("missing.wtns: no such file"), oneOff.err());
        assertEquals(oneOff, client(tmp, args));
        assertEquals(oneOff, launcher(tmp, Map.of(), args));
        assertFalse(Files.exists(tmp.resolve("p.json")));

        CliRun repeat = CliRun.of("prove", fx.zkey().toString(), fx.wtns().toString(), "p.json", "q.json", "--repeat", "0");
        assertEquals(2, repeat.code());
        assertEquals(repeat, client(tmp, "prove", fx.zkey().toString(), fx.wtns().toString(), "p.json", "q.json",
                "--repeat", "0"));
    }

    @Test
    void fullproveAndStatusShowTheResidentKeyAndGenerator() throws Exception {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        for (int i = 0; i < 2; i++) {
            CliRun full = client(tmp, "fullprove", fx.input().toString(), fx.wasm().toString(), fx.zkey().toString(),
                    "proof.json", "public.json", "--timings");
            assertEquals(0, full.code(), full.err());
            assertTrue(full.err().startsWith("load ") && full.err().contains(", prove "), full.err());
            assertEquals(Files.readString(fx.publicJson()).replaceAll("\\s", ""),
                    Files.readString(tmp.resolve("public.json")).replaceAll("\\s", ""));
        }
        // the key's precomputed tables are built in the background: the status says so once they are (on a
        // machine that other programs keep busy, housekeeping waits for them for up to two minutes first)
        long deadline = System.nanoTime() + 180_000_000_000L;
        CliRun status = launcher(tmp, Map.of(), "engine", "status");
        while (!status.out().contains(", built in ") && System.nanoTime() < deadline) {
            Thread.sleep(50);
            status = launcher(tmp, Map.of(), "engine", "status");
        }
        assertEquals(0, status.code(), status.err());
        assertTrue(status.out().matches("(?s).*2\\^\\d+, [0-9.]+ KiB, tables [0-9.]+ [KM]iB, built in [0-9.]+ s, used.*"),
                status.out());
        assertTrue(status.out().contains("pid " + ProcessHandle.current().pid()), status.out());
        assertTrue(status.out().contains("requests   2 served"), status.out());
        assertTrue(status.out().contains("key        " + fx.zkey() + " (bn128, 2^"), status.out());
        assertTrue(status.out().contains("used 2 times"), status.out());
        assertTrue(status.out().contains("wasm       " + fx.wasm()), status.out());
        CliRun viaClient = client(tmp, "engine", "status");   // the same, but for the times and the heap in use
        assertEquals(status.out().lines().skip(2).filter(l -> !l.startsWith("memory ")).toList(),
                viaClient.out().lines().skip(2).filter(l -> !l.startsWith("memory ")).toList());
        // each part of the memory said, the key's tables as the key's line gives them, and the budget
        var tables = java.util.regex.Pattern.compile("tables ([0-9.]+ [KM]iB), built").matcher(status.out());
        assertTrue(tables.find(), status.out());
        assertTrue(status.out().matches("(?s).*\nmemory     [0-9.]+ [KMG]iB resident \\([0-9.]+ [KMG]iB the engine's own, "
                + "[0-9.]+ [KMG]iB of files\\): heap [0-9.]+ [KMG]iB in use of [0-9.]+ [KMG]iB held; key tables "
                + java.util.regex.Pattern.quote(tables.group(1)) + "; keys mapped [0-9.]+ [KMG]iB; compiled code and"
                + " classes [0-9.]+ [KMG]iB; the rest of its own \\(collector, threads, compilers\\) about [0-9.]+ [KMG]iB\n.*"),
                status.out());
        assertTrue(status.out().matches("(?s).*\nbudget     heap at most [0-9.]+ [KMG]iB \\(of [0-9.]+ [KMG]iB\\); keys and"
                + " their tables at most [0-9.]+ [KMG]iB, a key's tables at most [0-9.]+ [KMG]iB\n.*"), status.out());

        // the tables were written to the cache, the key's path remembered: an engine started again opens
        // the key before any request, its tables mapped from the cache
        server.stop("restarted");
        server = LocalEngine.start(home, Duration.ofMinutes(10), new PrintStream(log, true, StandardCharsets.UTF_8));
        server.reopenKeys(true);   // proved once by the warm-up's last step
        String keyLine = "(?s).*key        " + java.util.regex.Pattern.quote(fx.zkey().toString())
                + " \\(bn128, 2\\^\\d+, [0-9.]+ KiB, tables [0-9.]+ [KM]iB, mapped from the cache in [0-9.]+ s, used %s.*";
        CliRun restarted = client(tmp, "engine", "status");
        while (!restarted.out().matches(keyLine.formatted("1 time")) && System.nanoTime() < deadline + 60_000_000_000L) {
            Thread.sleep(50);
            restarted = client(tmp, "engine", "status");
        }
        assertTrue(restarted.out().matches(keyLine.formatted("1 time")), restarted.out());
        assertEquals(0, server.served(), "reopened before any request");
        String warmed = "warmed " + fx.zkey().toAbsolutePath();
        assertFalse(log.toString(StandardCharsets.UTF_8).contains(warmed), "proved before the warm-up: " + log);
        server.startWarmUp(java.util.List.of(), false, 0);
        awaitLog("warm-up done in ", deadline + 60_000_000_000L);
        String lines = log.toString(StandardCharsets.UTF_8);
        assertTrue(lines.indexOf(warmed) >= 0 && lines.indexOf(warmed) < lines.lastIndexOf("warm-up done in "), lines);
        // its requests were fullprove, with no witness file: proved with a made-up witness
        assertTrue(lines.contains(warmed + " (" + KeysAcrossRestarts.PROOFS + " proofs with a made-up witness)"), lines);
        assertTrue(client(tmp, "engine", "status").out().matches(keyLine.formatted("1 time")), "let go by the warm-up");
        CliRun again = client(tmp, "prove", fx.zkey().toString(), fx.wtns().toString(), "proof.json", "public.json");
        assertEquals(0, again.code(), again.err());
        assertTrue(client(tmp, "engine", "status").out().matches(keyLine.formatted("2 times")));

        // an engine without a warm-up (started for a small key) proves it at once, with the witness of its
        // last request (a prove), which the engine before it wrote down
        server.stop("restarted");
        log.reset();
        server = LocalEngine.start(home, Duration.ofMinutes(10), new PrintStream(log, true, StandardCharsets.UTF_8));
        server.reopenKeys(false);
        awaitLog(warmed + " (" + KeysAcrossRestarts.PROOFS + " proofs with the witness of its last proof)",
                deadline + 120_000_000_000L);

        // a witness written down that is gone: a made-up one
        server.stop("restarted");
        Files.writeString(home.residentWitnessesFile(), fx.zkey().toAbsolutePath() + "\n" + tmp.resolve("gone.wtns") + "\n");
        log.reset();
        server = LocalEngine.start(home, Duration.ofMinutes(10), new PrintStream(log, true, StandardCharsets.UTF_8));
        server.reopenKeys(false);
        awaitLog(warmed + " (" + KeysAcrossRestarts.PROOFS + " proofs with a made-up witness)", deadline + 120_000_000_000L);
    }

    private void awaitLog(String line, long deadlineNanos) throws InterruptedException {
        while (!log.toString(StandardCharsets.UTF_8).contains(line) && System.nanoTime() < deadlineNanos) {
            Thread.sleep(50);
        }
        assertTrue(log.toString(StandardCharsets.UTF_8).contains(line), () -> "no '" + line + "' in " + log);
    }

    /**
     * The warm-up proves, exports and verifies a built-in circuit on each curve through the commands a
     * request runs, on the worker, without counting as requests or keeping its key resident; the status
     * says when it is done (the 8-lane kernels' compilation is left out here, a minute of CPU at most,
     * and two proofs a curve stand for the engine's twelve).
     */
    @Test
    void theWarmUpProvesOnBothCurvesAndTheStatusSaysWhenItIsDone() throws Exception {
        CliRun before = client(tmp, "engine", "status");
        assertTrue(before.out().contains("warm-up    none"), before.out());
        server.startWarmUp(java.util.List.of(dev.proofline.algebra.PairingCurve.values()), false, 2);
        // it waits for other programs up to two minutes in all (a machine kept busy), then goes on
        String state = "";
        for (long end = System.nanoTime() + 300_000_000_000L; System.nanoTime() < end; Thread.sleep(200)) {
            state = client(tmp, "engine", "status").out();
            if (!state.contains("warm-up    running")) {
                break;
            }
        }
        assertTrue(state.contains("warm-up    done in "), state);
        assertTrue(state.contains("requests   0 served") && state.contains("resident   0 keys"), state);
        // the log line follows the status by the warm-up's clean-up (its key and tables closed, its files deleted)
        for (long end = System.nanoTime() + 30_000_000_000L; System.nanoTime() < end
                && !log.toString(StandardCharsets.UTF_8).contains("warm-up done in "); ) {
            Thread.sleep(20);
        }
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("warm-up done in "), log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void stopThroughTheLauncherRemovesTheEndpoint() throws Exception {
        assertTrue(Files.exists(home.endpointFile()));
        CliRun stop = launcher(tmp, Map.of(), "engine", "stop");
        assertEquals(0, stop.code(), stop.err());
        assertEquals("engine stopped (pid " + ProcessHandle.current().pid() + ")\n", stop.out());
        assertTrue(server.awaitStopped(Duration.ofSeconds(10)));
        assertFalse(Files.exists(home.endpointFile()));
        assertTrue(EngineClient.send(home, tmp, List.of("verify", "a", "b", "c"), OutputStream.nullOutputStream(),
                OutputStream.nullOutputStream()).isEmpty(), "no engine: the command runs in the client");
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("engine stopped: stopped by request"));
    }

    @Test
    void aRequestWithoutTheTokenIsClosedUnread() throws Exception {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        String wrong = "0".repeat(64);
        for (String hello : List.of(EngineRequest.HELLO, "proofline-engine 2")) {
            String token = hello.equals(EngineRequest.HELLO) ? wrong : server.endpoint().token();
            try (Socket s = new Socket(LocalEngine.LOOPBACK, server.endpoint().port())) {
                s.getOutputStream().write(String.join("\n", hello, token, tmp.toString(), "5", "prove",
                        fx.zkey().toString(), fx.wtns().toString(), "p.json", "q.json", "").getBytes(StandardCharsets.UTF_8));
                s.getOutputStream().flush();
                s.setSoTimeout(10_000);
                assertEquals(-1, s.getInputStream().read(), "closed with nothing sent");
            }
        }
        assertEquals(0, server.served());
        assertFalse(Files.exists(tmp.resolve("p.json")));
        assertTrue(client(tmp, "verify", "--help").out().contains("Usage: proofline verify"), "the engine still serves");
    }

    @Test
    void concurrentRequestsAreEachServed() throws Exception {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        List<Thread> clients = new ArrayList<>();
        List<CliRun> runs = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 4; i++) {
            clients.add(Thread.ofPlatform().start(() -> {
                try {
                    runs.add(client(tmp, "verify", fx.vk().toString(), fx.publicJson().toString(), fx.proof().toString()));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        for (Thread t : clients) {
            t.join();
        }
        assertEquals(4, runs.stream().filter(r -> r.equals(new CliRun(0, "OK\n", ""))).count(), runs.toString());
        assertEquals(4, server.served());
    }

    @Test
    void theEngineAnswersOnlyItsCommands() throws Exception {
        CliRun start = client(tmp, "engine", "start");
        assertEquals(2, start.code());
        assertEquals("proofline: the engine does not run 'engine'\n", start.err());
        assertEquals(2, client(tmp, "setup", "--dev", "a", "b").code());
        assertEquals(0, server.served());
    }

    @Test
    void mainForwardsUnlessTheEngineIsOff() throws Exception {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        String[] args = {"verify", fx.vk().toString(), fx.publicJson().toString(), fx.proof().toString()};
        Map<String, String> env = Map.of("PROOFLINE_HOME", home.dir().toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        OptionalInt served = EngineClient.forward(args, env, new PrintStream(out), System.err);
        assertEquals(OptionalInt.of(0), served);
        assertEquals("OK\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(1, server.served());
        assertTrue(EngineClient.forward(args, Map.of("PROOFLINE_HOME", home.dir().toString(), "PROOFLINE_ENGINE", "off"),
                System.out, System.err).isEmpty());
        assertTrue(EngineClient.forward(new String[] {"setup", "--dev", "a", "b"}, env, System.out, System.err).isEmpty());
        assertTrue(EngineClient.forward(args, Map.of("PROOFLINE_HOME", tmp.resolve("none").toString()), System.out,
                System.err).isEmpty());
    }

    @Test
    void theStateIsOwnerOnlyAndHeldByOneEngine() throws Exception {
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.engineDir())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.endpointFile())));
        EngineHome.Endpoint e = home.readEndpoint().orElseThrow();
        assertEquals(server.endpoint(), e);
        assertTrue(e.token().matches("[0-9a-f]{64}"), e.token());
        assertThrows(LocalEngine.AlreadyRunningException.class,
                () -> LocalEngine.start(home, Duration.ZERO, System.out));
        assertEquals(server.endpoint(), home.readEndpoint().orElseThrow(), "the running engine's endpoint is kept");
    }

    @Test
    void anIdleEngineStopsItself() throws Exception {
        EngineHome idleHome = new EngineHome(tmp.resolve("idle"));
        LocalEngine idle = LocalEngine.start(idleHome, Duration.ofMillis(300), new PrintStream(OutputStream.nullOutputStream()));
        assertTrue(Files.exists(idleHome.endpointFile()));
        assertTrue(idle.awaitStopped(Duration.ofSeconds(20)));
        assertEquals("idle for 300ms", idle.stopReason());
        assertFalse(Files.exists(idleHome.endpointFile()));
    }

    @Test
    void aStaleEndpointIsNotRunningAndIsRemoved() throws Exception {
        EngineHome stale = new EngineHome(tmp.resolve("stale"));
        stale.createEngineDir();
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, LocalEngine.LOOPBACK)) {
            port = s.getLocalPort();
        }
        Process gone = new ProcessBuilder("true").start();
        assertTrue(gone.waitFor(10, TimeUnit.SECONDS));
        stale.writeEndpoint(new EngineHome.Endpoint(port, "ab".repeat(32), gone.pid(), ""));
        assertTrue(EngineClient.running(stale).isEmpty());
        assertFalse(Files.exists(stale.endpointFile()));
    }

    /**
     * The engine opens a new key as a one-off command does, proving at once, and checks its points after
     * that request: a good key's status then says so; a key with a point off its curve gives the one-off
     * command's error (its proof fails verification, which names the bad point) and is not kept.
     */
    @Test
    void aKeysPointsAreCheckedAfterItsFirstRequest() throws Exception {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        CliRun good = client(tmp, "prove", fx.zkey().toString(), fx.wtns().toString(), "proof.json", "public.json");
        assertEquals(0, good.code(), good.err());
        long deadline = System.nanoTime() + 180_000_000_000L;   // housekeeping may wait for other programs first
        CliRun status = client(tmp, "engine", "status");
        while (!status.out().contains("points checked)") && System.nanoTime() < deadline) {
            Thread.sleep(50);
            status = client(tmp, "engine", "status");
        }
        assertTrue(status.out().contains("key        " + fx.zkey()) && status.out().contains("points checked)"),
                status.out());

        long h;
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            h = dev.proofline.r1cs.io.BinFile.open(fx.zkey(), "zkey", 2, Map.of(), arena).section(9).offset();
        }
        byte[] b = Files.readAllBytes(fx.zkey());
        b[(int) (h + 3 * 32)] ^= 1;   // the y of H's second point, changed by one bit
        Path bad = Files.write(tmp.resolve("offcurve.zkey"), b);
        CliRun r = client(tmp, "prove", bad.toString(), fx.wtns().toString(), "bad.json", "badpublic.json");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("offcurve.zkey") && r.err().contains("section 9 (H)")
                && r.err().contains("not on the curve"), r.err());
        assertTrue(Files.notExists(tmp.resolve("bad.json")), "no proof file is written");
        status = client(tmp, "engine", "status");
        while (status.out().contains("offcurve.zkey") && System.nanoTime() < deadline) {
            Thread.sleep(50);
            status = client(tmp, "engine", "status");
        }
        assertFalse(status.out().contains("offcurve.zkey"), "a key with a bad point is not kept: " + status.out());
    }

    @Test
    void residentKeysAreReopenedWhenChangedAndBoundedByTheirBudget() throws Exception {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        Fixture other = CircomFixtures.build("bn128", "poseidon");
        Path copy = Files.copy(fx.zkey(), tmp.resolve("copy.zkey"));
        long small = Files.size(copy);
        long large = Files.size(other.zkey());
        // room for either key, not for both
        try (ResidentFiles files = new ResidentFiles(large + small / 2, 1)) {
            Loader.KeyLease first = files.provingKey(copy);
            first.close();
            try (Loader.KeyLease again = files.provingKey(copy)) {
                assertTrue(again.key() == first.key(), "the same key, kept open");
            }
            Files.setLastModifiedTime(copy, FileTime.fromMillis(Files.getLastModifiedTime(copy).toMillis() + 5_000));
            Loader.KeyLease reopened = files.provingKey(copy);
            assertTrue(reopened.key() != first.key(), "a changed file is opened again");
            try (Loader.KeyLease second = files.provingKey(other.zkey())) {
                assertEquals(1, files.keyCount(), "no room beside a key in use: opened for its request only");
                assertFalse(files.describe().toString().contains("poseidon"), files.describe().toString());
                assertNotNull(second.key().verificationKey());
            }
            assertNotNull(reopened.key().verificationKey(), "usable until its lease is closed");
            reopened.close();
            files.provingKey(other.zkey()).close();
            assertEquals(1, files.keyCount(), "the idle key unloaded for the new one");
            assertTrue(files.describe().getFirst().contains("poseidon"), files.describe().toString());
        }
        try (ResidentFiles files = new ResidentFiles(large - 1, 1);
                Loader.KeyLease a = files.provingKey(other.zkey());
                Loader.KeyLease b = files.provingKey(other.zkey())) {
            assertTrue(a.key() != b.key(), "a key larger than the whole budget is opened for each request");
            assertEquals(0, files.keyCount());
        }
    }

    @Test
    void durationsReadAndPrintAlike() {
        EngineCommand.DurationConverter c = new EngineCommand.DurationConverter();
        for (String d : List.of("0", "250ms", "1500ms", "45s", "30m", "1h30m", "2h")) {
            assertEquals(d, EngineCommand.format(c.convert(d)));
        }
        assertEquals(Duration.ofDays(1), c.convert("1d"));
        assertEquals(Duration.ofSeconds(90), c.convert("1m30s"));
        assertThrows(IllegalArgumentException.class, () -> c.convert("30 minutes"));
        List<String> cmd = EngineCommand.engineCommand(List.of("engine", "start"), Duration.ofMinutes(5),
                List.of("bn128"), "64MiB", null);
        assertEquals(List.of("engine", "run", "--idle-timeout", "5m", "--warm-up", "bn128", "--key-tables", "64MiB"),
                cmd.subList(cmd.size() - 8, cmd.size()));
        assertEquals(List.of(dev.proofline.algebra.PairingCurve.BLS12_381),
                EngineWarmUp.curves(List.of("bls12381")));
        assertEquals(List.of(), EngineWarmUp.curves(List.of("none")));
        assertThrows(IllegalArgumentException.class, () -> EngineWarmUp.curves(List.of("bn254x")));
        CliRun badSize = CliRun.of("engine", "start", "--key-tables", "lots");
        assertEquals(2, badSize.code());
        assertTrue(badSize.err().contains("--key-tables: 'lots' is not a size"), badSize.err());
    }

    @Test
    void theDaemonsClientCommandsRunInTheEngineWithTheClientsTokenAndAsOneOff() throws Exception {
        Files.createDirectories(tmp.resolve("keys"));
        dev.proofline.daemon.config.DaemonConfig cfg = dev.proofline.daemon.config.DaemonConfig.parse("""
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                auth_token = "s3cret-token"
                [store]
                kind = "memory"
                [keys]
                directory = "%s"
                """.formatted(tmp.resolve("keys")), "engine-client.toml");
        try (dev.proofline.daemon.Daemon d = dev.proofline.daemon.Daemon.start(cfg, l -> { })) {
            String target = d.grpcAddress();
            // the token as the client's environment carries it: served, and the daemon lets it in
            CliRun withToken = client(tmp, Map.of("PROOFLINE_TOKEN", "s3cret-token"), "status", "--target", target);
            assertEquals(0, withToken.code(), withToken.err());
            assertTrue(withToken.out().contains("0 proved"), withToken.out());
            // without it the daemon refuses, as it refuses a one-off run without one: the engine's own
            // environment is not the client's
            CliRun without = client(tmp, Map.of(), "status", "--target", target);
            assertEquals(2, without.code(), without.out());
            assertTrue(without.err().contains("UNAUTHENTICATED"), without.err());
            // a command of the daemon's that waits (an unknown job) runs beside the queue: the engine still
            // answers its own status meanwhile
            CliRun await = client(tmp, Map.of("PROOFLINE_TOKEN", "s3cret-token"), "await", "--target", target,
                    "job-12345");
            assertEquals(2, await.code(), await.out());
            assertTrue(await.err().contains("NOT_FOUND"), await.err());
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("status --target " + target + ": exit 0"),
                    log.toString(StandardCharsets.UTF_8));
            // the bash launcher sends the variable too (its copy has no jar: it is served or it fails)
            CliRun viaLauncher = launcher(tmp, Map.of("PROOFLINE_TOKEN", "s3cret-token"), "status", "--target", target);
            assertEquals(0, viaLauncher.code(), viaLauncher.err());
            assertTrue(viaLauncher.out().startsWith("backend ") && viaLauncher.out().contains("0 proved"),
                    viaLauncher.out());
            CliRun tokenArg = client(tmp, Map.of(), "status", "--target", target, "--token", "s3cret-token");
            assertEquals(0, tokenArg.code(), tokenArg.err());
            assertFalse(log.toString(StandardCharsets.UTF_8).contains("s3cret"), "a token never reaches the log");
        }
    }

    /** A request through the Java client, from {@code cwd}. */
    private CliRun client(Path cwd, String... args) throws IOException {
        return client(cwd, Map.of(), args);
    }

    /** A request through the Java client, from {@code cwd}, with those environment variables. */
    private CliRun client(Path cwd, Map<String, String> env, String... args) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OptionalInt code = EngineClient.send(home, cwd, env, List.of(args), out, err);
        if (code.isEmpty()) {
            fail("the engine did not serve " + List.of(args));
        }
        return new CliRun(code.getAsInt(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A run of the bash launcher from {@code cwd}. It is a copy of ./proofline in a folder of its own:
     * served by the engine it is the same script; were it to miss the engine, it would find no jar and
     * no Maven to build one, and fail at once instead of building the project from within its tests.
     */
    private CliRun launcher(Path cwd, Map<String, String> env, String... args) throws Exception {
        Path bin = tmp.resolve("bin");
        Path script = bin.resolve("proofline");
        if (!Files.exists(script)) {
            Files.createDirectories(bin);
            Files.copy(Node.repositoryRoot().resolve("proofline"), script);
        }
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        pb.environment().put("PROOFLINE_HOME", home.dir().toString());
        pb.environment().remove("PROOFLINE_ENGINE");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread errReader = Thread.ofVirtual().start(() -> copy(p.getErrorStream(), err));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the launcher finished");
        errReader.join();
        return new CliRun(p.exitValue(), out, err.toString(StandardCharsets.UTF_8));
    }

    private static void copy(InputStream in, ByteArrayOutputStream to) {
        try (in) {
            in.transferTo(to);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
