package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.Node;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bash launcher ({@code ./proofline}) in the layout of an unpacked release (scripts/dist.sh:
 * {@code runtime/} and {@code app/} beside it), whose Java runtime is a script that prints the
 * arguments it was given: which runtime, jar and JVM options the launcher chose, without a JVM.
 */
class LauncherScriptTest {

    @TempDir
    Path tmp;

    private Path release;

    @BeforeEach
    void unpackARelease() throws Exception {
        release = Files.createDirectories(tmp.resolve("proofline-1.0"));
        Files.copy(Node.repositoryRoot().resolve("proofline"), release.resolve("proofline"));
        Path bin = Files.createDirectories(release.resolve("runtime/bin"));
        executable(bin.resolve("java"), "#!/bin/sh\nprintf 'arg %s\\n' \"$@\"\n");
        // a runtime that has the incubating Vector API, as the release's does
        Files.writeString(release.resolve("runtime/release"), "JAVA_VERSION=\"25\"\nMODULES=\"java.base"
                + " jdk.incubator.vector\"\n");
        Files.createDirectories(release.resolve("app"));
        Files.writeString(release.resolve("app/proofline-cli.jar"), "");
    }

    @Test
    void aLauncherReachedThroughASymbolicLinkRunsTheReleaseItLinksTo() throws Exception {
        Path links = Files.createDirectories(tmp.resolve("home/bin"));
        Path link = Files.createSymbolicLink(links.resolve("proofline"), release.resolve("proofline"));
        List<String> args = run(link, "--version");
        assertTrue(args.contains("-jar"), () -> "the release's java was not run: " + args);
        assertEquals(release.resolve("app/proofline-cli.jar").toRealPath().toString(),
                args.get(args.indexOf("-jar") + 1));
        assertEquals("--version", args.getLast());
    }

    @Test
    void helpAndTheEnginesStatusRunWithoutTheIncubatingModuleWhileTheEngineAndTheDaemonHaveIt() throws Exception {
        Path launcher = release.resolve("proofline");
        for (List<String> quiet : List.of(List.of("engine", "--help"), List.of("engine", "status"),
                List.of("engine", "stop"), List.of("engine"), List.of("daemon", "--help"), List.of("bench", "-h"))) {
            List<String> args = run(launcher, quiet.toArray(String[]::new));
            assertFalse(args.contains("jdk.incubator.vector"), () -> quiet + " loads the incubating module: " + args);
        }
        for (List<String> proving : List.of(List.of("engine", "start"), List.of("engine", "run"), List.of("daemon"))) {
            List<String> args = run(launcher, proving.toArray(String[]::new));
            assertTrue(args.contains("jdk.incubator.vector"), () -> proving + " lost the 8-lane kernels: " + args);
        }
    }

    @Test
    void theCeremonysStepsHaveTheKernelsForPreparePhase2AndForLargeInputs() throws Exception {
        Path launcher = release.resolve("proofline");
        Path small = Files.writeString(tmp.resolve("small.ptau"), "ptau");
        Path large = tmp.resolve("large.ptau");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(large.toFile(), "rw")) {
            f.setLength(17L << 20);
        }
        Path linked = Files.createSymbolicLink(tmp.resolve("linked.ptau"), large);   // counts by its target
        String s = small.toString();
        String l = large.toString();
        for (List<String> step : List.of(List.of("powersoftau", "prepare", "phase2", s, "b.ptau"),
                List.of("powersoftau", "contribute", l, "b.ptau", "--name=x"), List.of("powersoftau", "verify", l),
                List.of("powersoftau", "verify", linked.toString()),
                List.of("zkey", "new", l, s, "c.zkey"), List.of("zkey", "contribute", l, "b.zkey"),
                List.of("zkey", "verify", l, s, "c.zkey"), List.of("zkey", "export", "bellman", l, "p"))) {
            List<String> args = run(launcher, step.toArray(String[]::new));
            assertTrue(args.contains("jdk.incubator.vector"), () -> step + " without the 8-lane kernels: " + args);
            assertTrue(args.contains("-XX:MaxNewSize=32m") && args.contains("-XX:+UseSerialGC"),
                    () -> step + " without the small young generation and the serial collector: " + args);
        }
        for (List<String> quick : List.of(List.of("powersoftau", "contribute", s, "b.ptau"),
                List.of("zkey", "new", s, l, "c.zkey"), List.of("powersoftau", "new", "bn128", "12", "a.ptau"),
                List.of("zkey", "export", "verificationkey", l, "vk.json"), List.of("prove", l, "c.wtns"))) {
            List<String> args = run(launcher, quick.toArray(String[]::new));
            assertFalse(args.contains("jdk.incubator.vector"), () -> quick + " loads the incubating module: " + args);
        }
    }

    @Test
    void anEngineStartedWithoutKernelsRunsAsAOneOffCommandsJvmFromItsStartUpCacheWithoutTheIncubatingModule()
            throws Exception {
        Path cache = release.resolve("app/proofline.aot");
        Files.writeString(cache, "");
        Files.setLastModifiedTime(release.resolve("app/proofline-cli.jar"), FileTime.fromMillis(
                Files.getLastModifiedTime(cache).toMillis() - 60_000));
        Path launcher = release.resolve("proofline");
        List<String> small = run(launcher, "engine", "run", "--key-domain", "12", "--no-kernels", "--auto");
        assertFalse(small.contains("jdk.incubator.vector"), () -> "loads the incubating module: " + small);
        assertTrue(small.contains("-XX:AOTCache=" + cache.toRealPath()), () -> "without the start-up cache: " + small);
        List<String> oneOff = run(launcher, "prove", "c.zkey", "c.wtns", "p.json", "public.json");
        List<String> compiler = oneOff.stream().filter(a -> a.startsWith("-XX:FreqInlineSize")
                || a.startsWith("-XX:CompileThresholdScaling") || a.startsWith("-XX:CICompilerCount")).toList();
        assertFalse(compiler.isEmpty(), () -> "a one-off command without its compiler options: " + oneOff);
        assertTrue(small.containsAll(compiler), () -> "not the one-off commands' compiler options " + compiler + ": " + small);
        List<String> large = run(launcher, "engine", "run", "--key-domain", "16", "--auto");
        assertTrue(large.contains("jdk.incubator.vector"), () -> "lost the 8-lane kernels: " + large);
        assertTrue(large.stream().noneMatch(a -> a.startsWith("-XX:AOTCache")), () -> "a cache it cannot use: " + large);
        assertTrue(large.stream().noneMatch(compiler::contains), () -> "the one-off commands' compiler options: " + large);
    }

    @Test
    void benchRunsWithTheLabInACheckoutAndWithoutItInARelease() throws Exception {
        List<String> released = run(release.resolve("proofline"), "bench", "msm-g1");
        assertEquals(List.of("-jar", release.resolve("app/proofline-cli.jar").toRealPath().toString(), "bench", "msm-g1"),
                released.subList(released.size() - 4, released.size()));
        assertFalse(released.stream().anyMatch(a -> a.contains("lab") || a.contains("jdk.incubator.vector")),
                released.toString());
        // a checkout with its jars built, on a JDK (JAVA_HOME) whose java prints its arguments
        Path checkout = Files.createDirectories(tmp.resolve("checkout"));
        Files.copy(Node.repositoryRoot().resolve("proofline"), checkout.resolve("proofline"));
        for (String jar : List.of("cli/target/proofline-cli.jar", "lab/target/proofline-lab.jar")) {
            Files.createDirectories(checkout.resolve(jar).getParent());
            Files.writeString(checkout.resolve(jar), "");
        }
        Path jdk = Files.createDirectories(tmp.resolve("jdk/bin"));
        executable(jdk.resolve("java"), "#!/bin/sh\nprintf 'arg %s\\n' \"$@\"\n");
        Files.writeString(jdk.resolve("../release"), "JAVA_VERSION=\"25\"\nMODULES=\"java.base jdk.incubator.vector\"\n");
        String root = checkout.toRealPath().toString();
        List<String> args = run(checkout.resolve("proofline"), Map.of("JAVA_HOME", jdk.getParent().toString()),
                "bench", "msm-g1");
        assertEquals(List.of("-cp", root + "/cli/target/proofline-cli.jar:" + root + "/lab/target/proofline-lab.jar:"
                + root + "/lab/target/lib/*", "dev.proofline.cli.Main", "bench", "msm-g1"),
                args.subList(args.size() - 5, args.size()), args.toString());
        assertTrue(args.contains("jdk.incubator.vector"), () -> "the lab's bench lost the 8-lane kernels: " + args);
    }

    @Test
    void theReleasesReadmeAsksForNoBuildAndItsCommandsAreTheCommandLines() throws Exception {
        String dist = Files.readString(Node.repositoryRoot().resolve("scripts/dist.sh"));
        assertTrue(dist.contains("cp scripts/release-README.md \"$stage/README.md\""), "dist.sh ships the release's README");
        String readme = Files.readString(Node.repositoryRoot().resolve("scripts/release-README.md"));
        assertFalse(readme.contains("mvnw") || readme.contains("mvn ") || readme.contains("build the jars"), readme);
        List<String> commands = readme.lines().filter(l -> l.startsWith("./proofline ")).toList();
        assertTrue(commands.size() >= 8, "the README's commands: " + commands);
        for (String line : commands) {
            // each parses as a command of this CLI, with the arguments it takes
            List<String> words = CliParse.words(line.substring("./proofline ".length()));
            assertEquals(Optional.empty(), CliParse.problem(words), line);
        }
    }

    @Test
    void aRebuildAskedForBuildsOnceAndRecordsTheStartUpCacheWithoutBuildingAgain() throws Exception {
        // a repository checkout: the launcher, a Maven wrapper that counts its builds and makes the jar,
        // a JDK 25 whose java prints its arguments
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.copy(Node.repositoryRoot().resolve("proofline"), repo.resolve("proofline"));
        executable(repo.resolve("mvnw"), "#!/bin/sh\necho build >> builds.txt\nmkdir -p cli/target\n"
                + ": > cli/target/proofline-cli.jar\n");
        Path jdk = Files.createDirectories(tmp.resolve("jdk/bin"));
        executable(jdk.resolve("java"), "#!/bin/sh\nprintf 'arg %s\\n' \"$@\"\n");
        Files.writeString(tmp.resolve("jdk/release"), "JAVA_VERSION=\"25\"\n");
        ProcessBuilder pb = new ProcessBuilder(repo.resolve("proofline").toString(), "--version")
                .directory(tmp.toFile()).redirectErrorStream(true);
        pb.environment().put("PROOFLINE_REBUILD", "1");
        pb.environment().put("JAVA_HOME", tmp.resolve("jdk").toString());
        pb.environment().put("PROOFLINE_HOME", tmp.resolve("state").toString());
        pb.environment().remove("PROOFLINE_JAVA_OPTS");
        pb.environment().remove("CI");
        Process p = pb.start();
        try {
            boolean ended = p.waitFor(1, TimeUnit.MINUTES);
            assertTrue(ended, "the launcher did not end: " + Files.readAllLines(repo.resolve("builds.txt")).size()
                    + " builds so far");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), out);
            assertEquals(1, Files.readAllLines(repo.resolve("builds.txt")).size(), out);
            assertTrue(out.contains("arg aot-training"), "the start-up cache was not recorded: " + out);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** The arguments the launcher gave the release's java. */
    private List<String> run(Path launcher, String... args) throws Exception {
        return run(launcher, Map.of(), args);
    }

    /** The same, with {@code env} added to the launcher's environment. */
    private List<String> run(Path launcher, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("PROOFLINE_ENGINE", "off");
        pb.environment().put("PROOFLINE_HOME", tmp.resolve("state").toString());
        pb.environment().remove("PROOFLINE_JAVA_OPTS");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(1, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), out);
        return out.lines().filter(l -> l.startsWith("arg ")).map(l -> l.substring(4)).toList();
    }

    private static void executable(Path file, String text) throws Exception {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
