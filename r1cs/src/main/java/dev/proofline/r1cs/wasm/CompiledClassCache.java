package dev.proofline.r1cs.wasm;

import com.dylibso.chicory.compiler.Cache;
import com.dylibso.chicory.compiler.MachineFactoryCompiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Chicory's cache of the JVM classes compiled from a WebAssembly module, in a directory: one jar per
 * module, named by the key Chicory gives it (the module's SHA-256) and by Chicory's version, since
 * classes of another compiler version are not used. Each file is written to a temporary file and moved
 * into place, so that concurrent processes never read half a file; a failure to write only loses the
 * cache (the next load compiles again). At most {@link #MAX_ENTRIES} modules are kept, the least recently
 * used deleted first.
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

    /** Generators kept at most; putting one more deletes the least recently used. */
    static final int MAX_ENTRIES = 32;

    @Override
    public byte[] get(String key) throws IOException {
        Path f = file(key);
        if (!Files.isRegularFile(f)) {
            return null;
        }
        byte[] data = Files.readAllBytes(f);
        try {
            Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis()));   // used: kept longest
        } catch (IOException e) {
            // kept in its place in the order
        }
        return data;
    }

    /** Deletes the least recently used jars beyond {@link #MAX_ENTRIES} - 1, to make room for one. */
    private void makeRoom() throws IOException {
        List<Path> jars;
        try (Stream<Path> s = Files.list(dir)) {
            jars = s.filter(p -> p.getFileName().toString().endsWith(".jar") && !p.getFileName().toString().startsWith("."))
                    .sorted(Comparator.comparing(CompiledClassCache::modified)).toList();
        }
        for (int i = 0; i <= jars.size() - MAX_ENTRIES; i++) {
            Files.deleteIfExists(jars.get(i));
        }
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    @Override
    public void putIfAbsent(String key, byte[] data) {
        Path f = file(key);
        try {
            if (Files.exists(f)) {
                return;
            }
            Files.createDirectories(dir);
            makeRoom();
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
