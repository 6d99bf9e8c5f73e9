package dev.proofline.algebra.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs Node.js in {@code interop/} (where ffjavascript and snarkjs are installed by {@code npm ci}):
 * an inline script whose stdout is JSON, or the snarkjs command line.
 */
public final class Node {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Node() {
    }

    /** The repository root: the nearest parent of the working directory that holds interop/. */
    public static Path repositoryRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("interop"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("interop/ not found above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    private static Path interop() {
        Path dir = repositoryRoot().resolve("interop");
        if (!Files.isDirectory(dir.resolve("node_modules/ffjavascript"))
                || !Files.isDirectory(dir.resolve("node_modules/snarkjs"))) {
            throw new IllegalStateException("ffjavascript/snarkjs are not installed: run `npm ci` in " + dir);
        }
        return dir;
    }

    /** Runs {@code node -e script} in interop/ and parses its stdout as JSON. */
    public static JsonNode evalJson(String script) {
        return runJson(List.of("node", "-e", script));
    }

    /** Runs {@code node args...} in interop/ and parses its stdout as JSON. */
    public static JsonNode scriptJson(String... args) {
        List<String> cmd = new ArrayList<>(List.of("node"));
        cmd.addAll(List.of(args));
        return runJson(cmd);
    }

    private static JsonNode runJson(List<String> cmd) {
        try {
            return JSON.readTree(run(cmd));
        } catch (IOException e) {
            throw new IllegalStateException("node printed no JSON: " + e.getMessage(), e);
        }
    }

    /** Runs the snarkjs command line ({@code node node_modules/snarkjs/build/cli.cjs args...}) in interop/. */
    public static void snarkjs(String... args) {
        List<String> cmd = new ArrayList<>(List.of("node", "node_modules/snarkjs/build/cli.cjs"));
        cmd.addAll(List.of(args));
        run(cmd);
    }

    private static byte[] run(List<String> cmd) {
        try {
            Process proc = new ProcessBuilder(cmd).directory(interop().toFile())
                    .redirectError(ProcessBuilder.Redirect.PIPE).start();
            // stderr is small; read stdout fully first
            byte[] out = proc.getInputStream().readAllBytes();
            String err = new String(proc.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!proc.waitFor(120, TimeUnit.SECONDS)) {
                proc.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", cmd.subList(0, 2)));
            }
            if (proc.exitValue() != 0) {
                throw new IllegalStateException(cmd.get(1) + " failed (" + proc.exitValue() + "): " + err);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run node: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
