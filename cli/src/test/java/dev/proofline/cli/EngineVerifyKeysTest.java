package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proofline.groth16.ceremony.PhaseTwo;
import dev.proofline.groth16.testing.TinyCeremony;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --verify-keys}: the local engine and the one-off commands prove only with a key that verifies
 * against the r1cs beside it and the named ptau, and check each triple of unchanged files once, across
 * engines of the same state directory: verified, or refused for the same reason.
 */
class EngineVerifyKeysTest {



    @TempDir
    static Path fixtures;

    private static Path ptau;

    @TempDir
    Path tmp;

    private EngineHome home;
    private LocalEngine server;

    /** A prepared ptau of 2^4, and for each circuit its r1cs, a key with one contribution and a witness. */
    @BeforeAll
    static void ceremony() throws IOException {
        ptau = TinyCeremony.cubeAndSquare(fixtures, true);
    }

    @AfterEach
    void stopEngine() {
        if (server != null) {
            server.stop("test over");
        }
    }

    private void startEngine(Path verifyKeys) throws IOException {
        home = new EngineHome(tmp.resolve("home"));
        server = LocalEngine.start(home, Duration.ofMinutes(10),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), 0, false, verifyKeys, 0);
    }

    /** {@code name} in this test's folder: a copy of the fixture {@code from}. */
    private Path copy(String from, String name) throws IOException {
        return Files.copy(fixtures.resolve(from), tmp.resolve(name));
    }

    @Test
    void aKeyThatVerifiesIsProvedWithAndTheStatusSaysAgainstWhichPtau() throws Exception {
        Path zkey = copy("cube.zkey", "cube.zkey");
        copy("cube.r1cs", "cube.r1cs");
        startEngine(ptau);

        CliRun proved = client("prove", zkey.toString(), fixtures.resolve("cube.wtns").toString(),
                tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString());
        assertEquals(0, proved.code(), proved.err());
        assertEquals(0, CliRun.of("zkey", "export", "verificationkey", zkey.toString(), tmp.resolve("vk.json").toString())
                .code());
        assertEquals(new CliRun(0, "OK\n", ""), client("verify", tmp.resolve("vk.json").toString(),
                tmp.resolve("public.json").toString(), tmp.resolve("proof.json").toString()));

        // snarkjs's layout: circuit.r1cs beside circuit_final.zkey
        Path last = copy("cube.zkey", "circuit_final.zkey");
        copy("cube.r1cs", "circuit.r1cs");
        CliRun snarkjsNames = client("groth16", "prove", last.toString(), fixtures.resolve("cube.wtns").toString(),
                tmp.resolve("p2.json").toString(), tmp.resolve("q2.json").toString());
        assertEquals(0, snarkjsNames.code(), snarkjsNames.err());

        CliRun status = client("engine", "status");
        assertTrue(status.out().contains("keys       checked against " + ptau
                + " and the r1cs beside each key: 2 verified, 0 found verified before, 0 refused, 0 found refused"
                + " before"), status.out());
    }

    @Test
    void aKeyOfAnotherCircuitIsRefusedNamingTheKeyTheR1csAndThePtau() throws Exception {
        Path zkey = copy("square.zkey", "swapped.zkey");
        Path r1cs = copy("cube.r1cs", "swapped.r1cs");
        startEngine(ptau);

        CliRun refused = client("prove", zkey.toString(), fixtures.resolve("square.wtns").toString(),
                tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString());
        assertEquals(2, refused.code());
        assertTrue(refused.err().startsWith("proofline prove: " + zkey + ": not used for proving: it does not verify"
                + " against " + r1cs + " and " + ptau + " (--verify-keys): "), refused.err());
        assertTrue(refused.err().contains("the circuit hash is not the circuit's"), refused.err());   // why
        assertFalse(Files.exists(tmp.resolve("proof.json")));

        // the same key with its own circuit's r1cs is proved with
        Files.copy(fixtures.resolve("square.r1cs"), r1cs, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        CliRun proved = client("prove", zkey.toString(), fixtures.resolve("square.wtns").toString(),
                tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString());
        assertEquals(0, proved.code(), proved.err());
    }

    @Test
    void aKeyWithoutAnR1csBesideItIsRefusedNamingWhatWasLookedFor() throws Exception {
        Path zkey = copy("cube.zkey", "lonely_final.zkey");
        startEngine(ptau);

        CliRun prove = client("prove", zkey.toString(), fixtures.resolve("cube.wtns").toString(),
                tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString());
        String why = zkey + ": not used for proving: keys are verified against " + ptau + " (--verify-keys) and no"
                + " r1cs of its circuit was found (looked for " + tmp.resolve("lonely_final.r1cs") + " and "
                + tmp.resolve("lonely.r1cs") + ")\n";
        assertEquals(new CliRun(2, "", "proofline prove: " + why), prove);

        // fullprove opens the key before it compiles the witness generator: refused the same way
        Files.writeString(tmp.resolve("input.json"), "{\"x\": 3}");
        Files.write(tmp.resolve("c.wasm"), new byte[] {0, 'a', 's', 'm'});
        CliRun fullprove = client("fullprove", tmp.resolve("input.json").toString(), tmp.resolve("c.wasm").toString(),
                zkey.toString(), tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString());
        assertEquals(new CliRun(2, "", "proofline fullprove: " + why), fullprove);
        assertFalse(Files.exists(tmp.resolve("proof.json")));
    }

    @Test
    void unchangedFilesAreVerifiedOnceAcrossEnginesAndOneOffCommandsAndAChangedKeyAgain() throws Exception {
        Path zkey = copy("cube.zkey", "cube.zkey");
        copy("cube.r1cs", "cube.r1cs");
        String[] prove = {"prove", zkey.toString(), fixtures.resolve("cube.wtns").toString(),
            tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString()};
        startEngine(ptau);
        assertEquals(0, client(prove).code());
        assertEquals(0, client(prove).code());
        assertTrue(client("engine", "status").out().contains(": 1 verified, 0 found verified before, 0 refused"));
        Path remembered;
        try (Stream<Path> files = Files.list(home.verifiedKeysDir().orElseThrow())) {
            List<Path> all = files.toList();
            assertEquals(1, all.size(), all::toString);
            remembered = all.getFirst();
        }
        assertTrue(Files.readString(remembered).startsWith(zkey + "\t" + Files.size(zkey) + "\t"));
        FileTime written = Files.getLastModifiedTime(remembered);

        server.stop("restart");
        startEngine(ptau);
        assertEquals(0, client(prove).code());
        assertTrue(client("engine", "status").out().contains(": 0 verified, 1 found verified before, 0 refused"));
        server.stop("test over");
        server = null;

        // a one-off command of the same state directory, told by engine.conf, finds it verified too
        Files.writeString(home.settingsFile(), "verify-keys = " + ptau + "\n");
        assertEquals(0, oneOff(prove).code());
        assertEquals(written, Files.getLastModifiedTime(remembered), "not verified again, so not written again");

        // a changed key is verified again: another contribution, which verifies too
        PhaseTwo.contribute(fixtures.resolve("cube.zkey"), zkey.resolveSibling("next.zkey"), "next", "more", m -> { });
        Files.move(zkey.resolveSibling("next.zkey"), zkey, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        startEngine(ptau);
        assertEquals(0, client(prove).code());
        assertTrue(client("engine", "status").out().contains(": 1 verified, 0 found verified before, 0 refused"));
        assertTrue(Files.readString(remembered).startsWith(zkey + "\t" + Files.size(zkey) + "\t"));
    }

    @Test
    void aRefusedKeyIsCheckedOnceWhileItsFilesDoNotChangeAndAReplacedOneAgain() throws Exception {
        Path zkey = copy("square.zkey", "swapped.zkey");
        copy("cube.r1cs", "swapped.r1cs");
        String[] prove = {"prove", zkey.toString(), fixtures.resolve("square.wtns").toString(),
            tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString()};
        startEngine(ptau);

        CliRun refused = client(prove);
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("the circuit hash is not the circuit's"), refused.err());
        assertFalse(refused.err().contains("earlier"), refused.err());
        String again = refused.err().stripTrailing() + " (found refused earlier; the files have not changed since)\n";
        assertEquals(new CliRun(2, "", again), client(prove));
        assertTrue(client("engine", "status").out().contains(": 0 verified, 0 found verified before, 1 refused,"
                + " 1 found refused before"));

        // another engine of the state directory, and a one-off command, refuse it at once for the same reason
        server.stop("restart");
        startEngine(ptau);
        assertEquals(new CliRun(2, "", again), client(prove));
        assertTrue(client("engine", "status").out().contains(": 0 verified, 0 found verified before, 0 refused,"
                + " 1 found refused before"));
        server.stop("test over");
        server = null;
        Files.writeString(home.settingsFile(), "verify-keys = " + ptau + "\n");
        assertEquals(new CliRun(2, "", again), oneOff(prove));

        // the key replaced by one of the r1cs's circuit: checked again, and proved with
        Files.copy(fixtures.resolve("cube.zkey"), zkey, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        startEngine(ptau);
        CliRun proved = client("prove", zkey.toString(), fixtures.resolve("cube.wtns").toString(),
                tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString());
        assertEquals(0, proved.code(), proved.err());
        assertTrue(client("engine", "status").out().contains(": 1 verified, 0 found verified before, 0 refused,"
                + " 0 found refused before"));
    }

    @Test
    void aBadKeyRequestedTwiceIsCheckedOnce() throws Exception {
        Path zkey = copy("square.zkey", "swapped.zkey");
        copy("cube.r1cs", "swapped.r1cs");
        VerifiedKeys keys = new VerifiedKeys(ptau, Optional.empty());
        Loader loader = keys.over(Loader.ONE_OFF);
        IllegalArgumentException first = assertThrows(IllegalArgumentException.class, () -> loader.provingKey(zkey));
        IllegalArgumentException second = assertThrows(IllegalArgumentException.class, () -> loader.provingKey(zkey));
        assertEquals(first.getMessage() + " (found refused earlier; the files have not changed since)",
                second.getMessage());
        assertEquals(List.of(0L, 1L, 1L), List.of(keys.verified(), keys.refused(), keys.foundRefused()));
    }

    @Test
    void requestsForTheSameNewKeyAtOnceVerifyItOnce() throws Exception {
        Path zkey = copy("cube.zkey", "cube.zkey");
        copy("cube.r1cs", "cube.r1cs");
        VerifiedKeys keys = new VerifiedKeys(ptau, Optional.empty());
        Loader loader = keys.over(Loader.ONE_OFF);
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<Integer>> opened = Stream.generate(() -> pool.submit(() -> {
                go.await();
                try (Loader.KeyLease lease = loader.provingKey(zkey)) {
                    return lease.key().publicCount();
                }
            })).limit(4).toList();
            go.countDown();
            for (Future<Integer> f : opened) {
                assertEquals(1, f.get());
            }
        }
        assertEquals(1, keys.verified());
        assertEquals(0, keys.refused());
    }

    @Test
    void aOneOffCommandHonoursTheSettingAndABadValueNamesTheFileAndLine() throws Exception {
        home = new EngineHome(tmp.resolve("home"));
        Files.createDirectories(home.dir());
        Path zkey = copy("square.zkey", "swapped.zkey");
        copy("cube.r1cs", "swapped.r1cs");
        String[] prove = {"prove", zkey.toString(), fixtures.resolve("square.wtns").toString(),
            tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString()};
        assertEquals(0, oneOff(prove).code(), "no setting: keys are not checked");

        // relative to the settings file's folder
        Files.copy(ptau, home.dir().resolve("final.ptau"));
        Files.writeString(home.settingsFile(), "# keys\nverify-keys = final.ptau\n");
        assertEquals(home.dir().resolve("final.ptau"), EngineSettings.of(home).verifyKeys());
        CliRun refused = oneOff(prove);
        assertEquals(2, refused.code());
        assertTrue(refused.err().startsWith("proofline prove: " + zkey + ": not used for proving: it does not verify"
                + " against " + tmp.resolve("swapped.r1cs") + " and " + home.dir().resolve("final.ptau")), refused.err());

        Files.writeString(home.settingsFile(), "auto-start = on\nverify-keys = missing.ptau\n");
        CliRun bad = oneOff(prove);
        assertEquals(2, bad.code());
        assertEquals("proofline prove: " + home.settingsFile() + ":2: verify-keys: " + home.dir().resolve("missing.ptau")
                + ": no such file\n", bad.err());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> EngineSettings.parse("verify-keys =\n", "/etc/engine.conf"));
        assertEquals("/etc/engine.conf:1: verify-keys names a prepared powers of tau (a .ptau file)", empty.getMessage());
        assertNull(EngineSettings.parse("auto-start = off\n", "/etc/engine.conf").verifyKeys());
    }

    @Test
    void engineStartRefusesAPtauItCannotReadAndHandsItsAbsolutePathToTheEngine() {
        Path missing = tmp.resolve("missing.ptau");
        CliRun r = CliRun.of("engine", "start", "--verify-keys", missing.toString(), "--warm-up", "none");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("--verify-keys: " + missing + ": no such file"), r.err());
        List<String> cmd = EngineCommand.engineCommand(List.of("engine", "start"), Duration.ofMinutes(5),
                List.of("none"), "0", ptau);
        assertEquals(List.of("--key-tables", "0", "--verify-keys", ptau.toString()), cmd.subList(cmd.size() - 4, cmd.size()));
    }

    /** A request through the Java client. */
    private CliRun client(String... args) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OptionalInt code = EngineClient.send(home, tmp, Map.of(), List.of(args), out, err);
        if (code.isEmpty()) {
            fail("the engine did not serve " + List.of(args));
        }
        return new CliRun(code.getAsInt(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A one-off command of this test's state directory, as {@link Main#main} runs it. */
    private CliRun oneOff(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new Invocation(false, VerifiedKeys.oneOff(home), null, Map.of()), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
