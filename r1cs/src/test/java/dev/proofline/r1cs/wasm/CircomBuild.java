package dev.proofline.r1cs.wasm;

import dev.proofline.algebra.testing.Node;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Compiles circom circuits to witness generators with the circom2 of {@code interop/} (npm
 * package circom2, circomlib found through {@code -l interop/node_modules}), cached under
 * {@code r1cs/target/circom/<curve>/<name>} while the source and curve are unchanged, and computes
 * reference witnesses with {@code snarkjs wtns calculate}.
 */
final class CircomBuild {

    private CircomBuild() {
    }

    /** The circuits of interop/groth16/circuits. */
    static Path interopCircuit(String name) {
        return Node.repositoryRoot().resolve("interop/groth16/circuits/" + name + ".circom");
    }

    /** The input.json next to an interop circuit. */
    static Path interopInput(String name) {
        return Node.repositoryRoot().resolve("interop/groth16/circuits/" + name + ".input.json");
    }

    /** A circuit of this module's test resources. */
    static Path testCircuit(String name) {
        return Node.repositoryRoot().resolve("r1cs/src/test/resources/dev/proofline/r1cs/wasm/" + name + ".circom");
    }

    /** circuit.wasm of {@code source} compiled for {@code prime} (bn128, bls12381, goldilocks, ...). */
    static synchronized Path wasm(Path source, String prime) {
        String name = source.getFileName().toString().replaceFirst("\\.circom$", "");
        Path dir = Node.repositoryRoot().resolve("r1cs/target/circom/" + prime + "/" + name);
        Path wasm = dir.resolve(name + "_js/" + name + ".wasm");
        Path stamp = dir.resolve("source.sha256");
        try {
            String hash = sha256(Files.readAllBytes(source), prime + " --sym");
            if (Files.isRegularFile(wasm) && Files.isRegularFile(stamp) && Files.readString(stamp).equals(hash)) {
                return wasm;
            }
            Files.createDirectories(dir.getParent());
            Path tmp = Files.createTempDirectory(dir.getParent(), name + ".tmp");
            Path interop = Node.repositoryRoot().resolve("interop");
            run(interop, List.of("node", "node_modules/circom2/cli.js", source.toString(), "--wasm", "--sym", "--prime", prime,
                    "-l", "node_modules", "-o", tmp.toString()));
            Files.writeString(tmp.resolve("source.sha256"), hash);
            deleteTree(dir);
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            return wasm;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The .wtns bytes snarkjs computes ({@code snarkjs wtns calculate wasm input out}). */
    static byte[] snarkjsWtns(Path wasm, Path input, Path out) {
        Node.snarkjs("wtns", "calculate", wasm.toAbsolutePath().toString(), input.toAbsolutePath().toString(),
                out.toAbsolutePath().toString());
        try {
            return Files.readAllBytes(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256(byte[] source, String prime) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(source);
            md.update(("\0" + prime).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void run(Path dir, List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(new ArrayList<>(cmd)).directory(dir.toFile()).start();
        p.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
        try {
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", cmd));
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): "
                    + out.join() + err.join());
        }
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }
    }
}
