package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.testing.TinyCeremony;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands of docs/engine-cli.md's {@code sh} blocks run as written, in order, each in a JVM of its
 * own as the launcher starts one (the test's class path for the jar), in a folder that holds the files
 * they name, with {@code HOME} a temporary folder and {@code PROOFLINE_HOME} its {@code .proofline}: the
 * auto-start setting, an engine started by hand that proves and reports and stops, a one-off command
 * beside it, then an engine that checks keys and the {@code engine.conf} line of the same policy. The
 * one liberty taken: {@code engine start} gets {@code --warm-up none}, the option its comment in the doc
 * shows, so that the engine does not spend the cores on its warm-up meanwhile. Then what the doc says
 * is checked against what was printed and written: the setting in {@code engine.conf}, the fields of
 * {@code engine status}, the refusal lines of "Checked keys" (with the doc's {@code /keys/final.ptau}
 * and {@code /home/me} standing for this test's folders), and that a second {@code engine start}
 * exits 2. The keys are made here: a prepared ptau of 2^4; {@code circuit.zkey} of x^3 + 5 = out with
 * its r1cs; {@code c.zkey}, a key of another circuit beside that r1cs; {@code k.zkey} without one.
 */
class EngineCliDocCommandsTest {

    private static final Pattern SH_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern ENV = Pattern.compile("[A-Z_]+=.*");
    private static final Pattern STARTED = Pattern.compile("engine started: pid (\\d+), log (.*)\n");



    @TempDir
    Path tmp;

    private Path work;
    private Path user;
    private EngineHome home;
    private final List<Long> engines = new ArrayList<>();

    @AfterEach
    void stopEngines() throws Exception {
        for (long pid : engines) {
            ProcessHandle.of(pid).ifPresent(p -> {
                p.destroy();
                p.onExit().orTimeout(30, TimeUnit.SECONDS).join();
            });
        }
    }

    @Test
    void theCommandsRunAsWrittenAndDoWhatTheDocSays() throws Exception {
        work = Files.createDirectories(tmp.resolve("work"));
        user = Files.createDirectories(tmp.resolve("user"));
        home = new EngineHome(user.resolve(".proofline"));
        Path ptau = keys();
        String doc = Files.readString(Node.repositoryRoot().resolve("docs/engine-cli.md"));

        Map<String, Run> runs = new LinkedHashMap<>();
        for (String line : commandLines(doc)) {
            Run run = run(line);
            assertEquals(0, run.code(), () -> line + "\n" + run.err());
            runs.put(line.replaceAll("\\s+#.*", ""), run);
        }
        assertEquals(9, runs.size(), () -> "docs/engine-cli.md's commands: " + runs.keySet());

        // "writes auto-start = off to $PROOFLINE_HOME/engine.conf", and the echo line appended its own
        assertEquals(List.of("auto-start = off", "verify-keys = final.ptau"),
                Files.readAllLines(home.settingsFile()));
        assertEquals("auto-start off; no engine starts by itself here: auto-start = off in " + home.settingsFile() + "\n",
                runs.get("./proofline engine auto-start").out());

        // the engine started by hand served the proof, and its status has the fields the doc lists
        Matcher started = STARTED.matcher(runs.get("./proofline engine start").out());
        assertTrue(started.matches(), runs.get("./proofline engine start").out());
        assertEquals(home.logFile().toString(), started.group(2));
        String status = runs.get("./proofline engine status").out();
        assertTrue(status.startsWith("engine     pid " + started.group(1) + ", 127.0.0.1:"), status);
        assertTrue(status.lines().findFirst().orElseThrow().matches(".*, up [0-9ms]+, started by hand"), status);
        assertTrue(status.contains("\nidle       for "), status);
        assertTrue(status.contains("\nrequests   1 served\n"), status);
        assertTrue(status.contains("\nkeys       not checked "), status);
        assertTrue(status.contains("\nresident   1 key, 0 witness generators\n"), status);
        assertTrue(status.contains("circuit.zkey (bn254, 2^") || status.contains("circuit.zkey (bn128, 2^"), status);
        assertTrue(status.contains("\nmemory     "), status);
        assertEquals("engine stopped (pid " + started.group(1) + ")\n", runs.get("./proofline engine stop").out());
        assertTrue(ProcessHandle.of(Long.parseLong(started.group(1))).isEmpty(), "the engine's process ended");
        // the one-off prove beside it wrote a proof that verifies, and started no engine (auto-start is off)
        assertEquals(0, CliRun.of("zkey", "export", "verificationkey", work.resolve("circuit.zkey").toString(),
                work.resolve("vk.json").toString()).code());
        assertEquals(new CliRun(0, "OK\n", ""), CliRun.of("verify", work.resolve("vk.json").toString(),
                work.resolve("public.json").toString(), work.resolve("proof.json").toString()));

        // the engine that checks keys: "with one of its own build running it exits 2"
        Matcher checking = STARTED.matcher(runs.get("./proofline engine start --verify-keys final.ptau").out());
        assertTrue(checking.matches());
        assertEquals(2, run("./proofline engine start").code());

        // "Checked keys": a key that verifies is proved with; the doc's two refusals, line for line
        assertEquals(0, served("prove", "circuit.zkey", "witness.wtns", "p.json", "q.json").code());
        List<String> refusals = refusalLines(doc, ptau);
        assertEquals(2, refusals.size(), refusals::toString);
        Run c = served("prove", "c.zkey", "witness.wtns", "p.json", "q.json");
        assertEquals(new Run(2, "", refusals.get(0) + "\n"), c);
        Run k = served("prove", "k.zkey", "witness.wtns", "p.json", "q.json");
        assertEquals(new Run(2, "", refusals.get(1) + "\n"), k);
        String keysLine = served("engine", "status").out().lines().filter(l -> l.startsWith("keys ")).findFirst()
                .orElseThrow();
        Matcher said = Pattern.compile("`(keys {7}checked against [^`]*)`").matcher(doc);
        assertTrue(said.find(), "the doc shows the status line");
        assertEquals(said.group(1).replaceAll("\\s*\n\\s*", " ").replace("/keys/final.ptau", ptau.toString())
                .replaceAll("\\d+ verified, \\d+ found verified before, \\d+ refused, \\d+ found refused before$",
                        "1 verified, 0 found verified before, 2 refused, 0 found refused before"), keysLine);
        assertEquals(0, served("engine", "stop").code());
        ProcessHandle.of(Long.parseLong(checking.group(1))).ifPresent(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());

        // engine.conf's line, as the echo line wrote it, names a ptau in the state directory: a one-off
        // command refuses to prove until there is one, with the doc's message, then checks keys as the engine did
        Run unread = run("PROOFLINE_ENGINE=off ./proofline prove circuit.zkey witness.wtns p.json q.json");
        Matcher example = Pattern.compile("`(engine\\.conf:2: verify-keys: /home/me/\\.proofline/final\\.ptau: no such file)`")
                .matcher(doc);
        assertTrue(example.find(), "the doc shows the message");
        assertEquals(new Run(2, "", "proofline prove: " + home.dir() + "/"
                + example.group(1).replace("/home/me", user.toString()) + "\n"), unread);
        Files.copy(ptau, home.dir().resolve("final.ptau"));
        Run oneOff = run("PROOFLINE_ENGINE=off ./proofline prove c.zkey witness.wtns p.json q.json");
        assertEquals(new Run(2, "", refusals.get(0).replace(ptau.toString(), home.dir().resolve("final.ptau").toString())
                + "\n"), oneOff);
    }

    /** The refusal lines of "Checked keys", each message joined into one line, {@code /keys/final.ptau} made {@code ptau}. */
    private static List<String> refusalLines(String doc, Path ptau) {
        List<String> messages = new ArrayList<>();
        boolean inBlock = false;
        boolean refusals = false;   // in the block of the refusal lines, past its first
        for (String line : doc.lines().map(String::strip).toList()) {
            if (line.startsWith("```")) {
                inBlock = !inBlock;
                refusals = false;
            } else if (inBlock && line.startsWith("proofline ") && line.contains("not used for proving")) {
                messages.add(line);
                refusals = true;
            } else if (refusals && !line.isEmpty()) {
                messages.add(messages.removeLast() + " " + line);
            }
        }
        return messages.stream().map(l -> l.replace("/keys/final.ptau", ptau.toString())).toList();
    }

    /**
     * Makes in the working folder the files the doc's commands name, and the keys of "Checked keys";
     * returns the prepared ptau.
     */
    private Path keys() throws IOException {
        Path ptau = work.resolve("final.ptau");
        TinyCeremony.preparedPtau(tmp, ptau);
        Path r1cs = work.resolve("circuit.r1cs");
        TinyCeremony.key(TinyCeremony.CUBE, ptau, r1cs, work.resolve("circuit.zkey"), tmp);
        TinyCeremony.witness(TinyCeremony.CUBE, work.resolve("witness.wtns"));
        Files.copy(r1cs, work.resolve("c.r1cs"));
        TinyCeremony.key(TinyCeremony.SQUARE, ptau, tmp.resolve("square.r1cs"), work.resolve("c.zkey"), tmp);
        Files.copy(work.resolve("circuit.zkey"), work.resolve("k.zkey"));
        return ptau;
    }

    /** A request to the running engine from the working folder, as a {@code ./proofline} line would send it. */
    private Run served(String... args) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OptionalInt code = EngineClient.send(home, work, Map.of(), List.of(args), out, err);
        if (code.isEmpty()) {
            fail("the engine did not serve " + List.of(args));
        }
        return new Run(code.getAsInt(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * One line of the doc, in the working folder: {@code ./proofline ...} (after any {@code NAME=value}
     * words) in a JVM of its own, anything else by bash.
     */
    private Run run(String line) throws Exception {
        List<String> words = CliParse.words(line);
        Map<String, String> env = new LinkedHashMap<>();
        while (!words.isEmpty() && ENV.matcher(words.getFirst()).matches()) {
            String w = words.removeFirst();
            env.put(w.substring(0, w.indexOf('=')), w.substring(w.indexOf('=') + 1));
        }
        List<String> cmd = new ArrayList<>();
        if (!words.isEmpty() && words.getFirst().equals("./proofline")) {
            cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    Main.class.getName()));
            cmd.addAll(words.subList(1, words.size()));
            if (words.size() >= 3 && words.get(1).equals("engine") && words.get(2).equals("start")
                    && !words.contains("--warm-up")) {
                cmd.addAll(List.of("--warm-up", "none"));
            }
        } else {
            cmd.addAll(List.of("bash", "-c", line));
        }
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        for (String name : List.of("PROOFLINE_ENGINE", "CI", "PROOFLINE_LAUNCHER", "PROOFLINE_TOKEN", "PROOFLINE_JAVA_OPTS")) {
            pb.environment().remove(name);
        }
        pb.environment().put("HOME", user.toString());
        pb.environment().put("PROOFLINE_HOME", home.dir().toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail(line + ": did not end");
        }
        Run run = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        Matcher started = STARTED.matcher(run.out());
        if (started.matches()) {
            engines.add(Long.parseLong(started.group(1)));
        }
        return run;
    }

    /** The command lines of the document's {@code sh} blocks, in order: {@code ./proofline} ones and the shell's. */
    private static List<String> commandLines(String doc) {
        Matcher m = SH_BLOCK.matcher(doc);
        List<String> lines = new ArrayList<>();
        while (m.find()) {
            m.group(1).lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(lines::add);
        }
        return lines;
    }

    private record Run(int code, String out, String err) {
    }
}
