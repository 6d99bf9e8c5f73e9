package dev.proofline.r1cs.wasm;

import com.dylibso.chicory.compiler.Cache;
import com.dylibso.chicory.compiler.MachineFactoryCompiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * Chicory's cache of the JVM classes compiled from a WebAssembly module, in a directory: one jar per
 * module, named by the key Chicory gives it (the module's SHA-256) and by Chicory's version, since
 * classes of another compiler version are not used. Each file is written to a temporary file and moved
 * into place, so that concurrent processes never read half a file; a failure to write only loses the
 * cache (the next load compiles again).
 */
record CompiledClassCache(Path dir, String chicoryVersion) implements Cache {

    /** The cache in {@code dir}; empty when {@code dir} is null or Chicory's version cannot be read. */
    static Optional<CompiledClassCache> in(Path dir) {
        if (dir == null) {
            return Optional.empty();
        }
        return installedChicoryVersion().map(version -> new CompiledClassCache(dir, version));
    }

    /** The version of Chicory's compiler, from its Maven metadata. */
    private static Optional<String> installedChicoryVersion() {
        try (var in = MachineFactoryCompiler.class.getResourceAsStream(
                "/META-INF/maven/com.dylibso.chicory/compiler/pom.properties")) {
            if (in == null) {
                return Optional.empty();
            }
            Properties p = new Properties();
            p.load(in);
            return Optional.ofNullable(p.getProperty("version"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private Path file(String key) {
        return dir.resolve(key.replaceAll("[^A-Za-z0-9._-]", "_") + "-chicory-"
                + chicoryVersion.replaceAll("[^A-Za-z0-9._-]", "_") + ".jar");
    }

    @Override
    public byte[] get(String key) throws IOException {
        Path f = file(key);
        return Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
    }

    @Override
    public void putIfAbsent(String key, byte[] data) {
        Path f = file(key);
        try {
            if (Files.exists(f)) {
                return;
            }
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".tmp-", ".jar");
            try {
                Files.write(tmp, data);
                Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            // not cached; the next load compiles again
        }
    }
}
