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
 * Reference values from ffjavascript, the arithmetic library of snarkjs, computed by
 * {@code interop/ffjs/vectors.cjs} under Node.js. The fixture needs {@code npm ci} in {@code interop/}
 * (the build's test command does it); without it the test fails and says so.
 */
public final class Ffjs {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Ffjs() {
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

    /**
     * Runs {@code node interop/ffjs/vectors.cjs curve kind seed [n]} and parses its JSON output.
     *
     * @param curve "bn128" or "bls12381"
     */
    public static JsonNode vectors(String curve, String kind, long seed, Integer n) {
        Path root = repositoryRoot();
        if (!Files.isDirectory(root.resolve("interop/node_modules/ffjavascript"))) {
            throw new IllegalStateException("ffjavascript is not installed: run `npm ci` in " + root.resolve("interop"));
        }
        List<String> cmd = new ArrayList<>(List.of("node", "interop/ffjs/vectors.cjs", curve, kind, Long.toString(seed)));
        if (n != null) {
            cmd.add(n.toString());
        }
        try {
            Process proc = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(false).start();
            byte[] out = proc.getInputStream().readAllBytes();
            String err = new String(proc.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!proc.waitFor(120, TimeUnit.SECONDS) || proc.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed: " + err);
            }
            return JSON.readTree(out);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", cmd) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
