package dev.proofline.groth16.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.algebra.testing.Node;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * snarkjs Groth16 fixtures built by {@code interop/groth16/fixture.cjs}: a circom circuit of
 * {@code interop/groth16/circuits} compiled for one curve, its proving key (after one
 * contribution, so delta is not the generator), the verification key, a witness and a proof that
 * snarkjs made, all cached under {@code groth16/target/circom-fixtures}.
 *
 * <p>Needs Node.js and {@code npm ci} in {@code interop/}. A cold build of a small circuit takes a
 * few seconds (multiplier) to about 35 s (poseidon on bls12381, mostly its powers of tau); a cached
 * one about 0.1 s.
 */
public final class CircomFixtures {

    /** Curve names as snarkjs and circom spell them. */
    public static final String BN128 = "bn128";
    public static final String BLS12381 = "bls12381";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(30);
    private static final Duration SNARKJS_TIMEOUT = Duration.ofMinutes(5);
    private static final Map<String, Fixture> BUILT = new HashMap<>();

    /**
     * The files of one fixture (absolute paths). {@code power}: log2 of the Groth16 domain size,
     * the smallest with 2^power >= constraints + public inputs + outputs + 1.
     */
    public record Fixture(String curve, String circuit, int constraints, int power, Path r1cs, Path wasm,
            Path zkey, Path vk, Path input, Path wtns, Path proof, Path publicJson) {
    }

    /** The output of one finished process. */
    private record Result(int exitCode, String stdout, String stderr) {
    }

    private CircomFixtures() {
    }

    /** Where fixtures are cached: the groth16 module's build directory. */
    public static Path cacheDir() {
        return Node.repositoryRoot().resolve("groth16/target/circom-fixtures");
    }

    /**
     * Builds (or reuses) the fixture of {@code interop/groth16/circuits/<circuit>.circom} on
     * {@code curve} ({@link #BN128} or {@link #BLS12381}), with a small powers of tau made for it.
     */
    public static Fixture build(String curve, String circuit) {
        return build(curve, circuit, null);
    }

    /**
     * As {@link #build(String, String)}, with a given prepared powers of tau file (needed in
     * practice for the bench circuit, whose own 2^17 ceremony would take long); {@code ptau} null
     * makes one.
     */
    public static synchronized Fixture build(String curve, String circuit, Path ptau) {
        String key = curve + "/" + circuit + "/" + ptau;
        Fixture done = BUILT.get(key);
        if (done != null) {
            return done;
        }
        List<String> args = new ArrayList<>(List.of("groth16/fixture.cjs", cacheDir().toString(), curve, circuit));
        if (ptau != null) {
            args.add("--ptau");
            args.add(ptau.toAbsolutePath().toString());
        }
        Result r = node(args, BUILD_TIMEOUT);
        if (r.exitCode() != 0) {
            throw new IllegalStateException("fixture.cjs " + curve + " " + circuit + " failed (" + r.exitCode()
                    + "): " + r.stderr().strip());
        }
        Fixture f;
        try {
            JsonNode m = JSON.readTree(r.stdout());
            f = new Fixture(m.path("curve").asText(), m.path("circuit").asText(),
                    m.path("constraints").asInt(), m.path("power").asInt(),
                    path(m, "r1cs"), path(m, "wasm"), path(m, "zkey"), path(m, "vk"), path(m, "input"),
                    path(m, "wtns"), path(m, "proof"), path(m, "public"));
        } catch (IOException e) {
            throw new IllegalStateException("fixture.cjs printed no JSON manifest: " + r.stdout(), e);
        }
        BUILT.put(key, f);
        return f;
    }

    private static Path path(JsonNode manifest, String field) {
        JsonNode v = manifest.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalStateException("fixture manifest has no " + field + ": " + manifest);
        }
        return Path.of(v.asText());
    }

    /**
     * {@code snarkjs groth16 verify vk publicJson proof}. snarkjs exits with 1 both when the
     * proof is rejected and when it cannot read its input; a rejection is told apart by its log
     * line ("Invalid proof", "Proof commitments are not valid.", "Public inputs are not valid.").
     *
     * @return true when snarkjs accepts, false when it rejects
     * @throws IllegalStateException for any other failure (a missing file, unparsable JSON, ...)
     */
    public static boolean snarkjsVerifies(Path vk, Path publicJson, Path proof) {
        Result r = snarkjs(SNARKJS_TIMEOUT, "groth16", "verify", vk.toAbsolutePath().toString(),
                publicJson.toAbsolutePath().toString(), proof.toAbsolutePath().toString());
        String out = plain(r.stdout() + r.stderr());
        if (r.exitCode() == 0 && out.contains("OK!")) {
            return true;
        }
        if (r.exitCode() == 1 && out.lines().anyMatch(CircomFixtures::isRejection)) {
            return false;
        }
        throw new IllegalStateException("snarkjs groth16 verify failed (" + r.exitCode() + "): " + out.strip());
    }

    private static boolean isRejection(String line) {
        return line.startsWith("[ERROR]") && (line.endsWith("Invalid proof")
                || line.endsWith("Proof commitments are not valid.")
                || line.endsWith("Public inputs are not valid."));
    }

    /** {@code snarkjs zkey export verificationkey zkey out}; returns {@code out}. */
    public static Path exportVk(Path zkey, Path out) {
        Result r = snarkjs(SNARKJS_TIMEOUT, "zkey", "export", "verificationkey", zkey.toAbsolutePath().toString(),
                out.toAbsolutePath().toString());
        String log = plain(r.stdout() + r.stderr());
        if (r.exitCode() != 0 || log.contains("[ERROR]") || !Files.isRegularFile(out)) {
            throw new IllegalStateException("snarkjs zkey export verificationkey failed (" + r.exitCode() + "): "
                    + log.strip());
        }
        return out;
    }

    /**
     * What one run of the snarkjs command line did: its exit code, its stdout as written, and its stdout
     * and stderr together without colour codes. snarkjs's log lines start with its level and name
     * ("[INFO]  snarkJS: "); {@link #messages(String)} gives those of one level without that prefix.
     */
    public record SnarkjsRun(int exitCode, String stdout, String output) {

        /** The text of the log lines of {@code level} ("INFO", "WARN", "ERROR"), in order, without the prefix. */
        public List<String> messages(String level) {
            String prefix = "[" + level + "]";
            return output.lines().filter(l -> l.startsWith(prefix))
                    .map(l -> l.substring(prefix.length()).strip().replaceFirst("^snarkJS: ", ""))
                    .toList();
        }
    }

    /** Runs {@code snarkjs args...} (the pinned one in interop/node_modules) with absolute paths in args. */
    public static SnarkjsRun snarkjs(String... args) {
        Result r = snarkjs(SNARKJS_TIMEOUT, args);
        return new SnarkjsRun(r.exitCode(), r.stdout(), plain(r.stdout() + r.stderr()));
    }

    private static Result snarkjs(Duration timeout, String... args) {
        List<String> cmd = new ArrayList<>(List.of("node_modules/snarkjs/build/cli.cjs"));
        cmd.addAll(List.of(args));
        return node(cmd, timeout);
    }

    /** Without ANSI colour codes (snarkjs's logger colours its level tags). */
    private static String plain(String s) {
        return s.replaceAll("\u001B\\[[0-9;]*m", "");
    }

    /** Runs {@code node args...} in interop/; kills the whole process tree on timeout. */
    private static Result node(List<String> args, Duration timeout) {
        Path interop = Node.repositoryRoot().resolve("interop");
        if (!Files.isDirectory(interop.resolve("node_modules/snarkjs"))
                || !Files.isDirectory(interop.resolve("node_modules/circom2"))) {
            throw new IllegalStateException("snarkjs/circom2 are not installed: run `npm ci` in " + interop);
        }
        List<String> cmd = new ArrayList<>(List.of("node"));
        cmd.addAll(args);
        Process proc;
        try {
            proc = new ProcessBuilder(cmd).directory(interop.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run node: " + e.getMessage(), e);
        }
        try {
            proc.getOutputStream().close();
        } catch (IOException e) {
            // nothing is written to it anyway
        }
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(proc.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(proc.getErrorStream()));
        try {
            if (!proc.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                proc.descendants().forEach(ProcessHandle::destroyForcibly);
                proc.destroyForcibly();
                throw new IllegalStateException("timed out after " + timeout + ": node " + String.join(" ", args));
            }
            return new Result(proc.exitValue(), out.join(), err.join());
        } catch (InterruptedException e) {
            proc.descendants().forEach(ProcessHandle::destroyForcibly);
            proc.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
