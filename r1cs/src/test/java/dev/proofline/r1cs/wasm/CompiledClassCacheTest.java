package dev.proofline.r1cs.wasm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compiled classes' cache keeps at most its number of modules, the least recently used going first. */
class CompiledClassCacheTest {

    @TempDir
    Path tmp;

    @Test
    void theLeastRecentlyUsedModulesGoFirstBeyondTheLimit() throws IOException {
        CompiledClassCache cache = new CompiledClassCache(tmp, "1.0");
        int n = CompiledClassCache.MAX_ENTRIES;
        for (int i = 0; i < n; i++) {
            cache.putIfAbsent("m" + i, new byte[] {(byte) i});
            // distinct times, oldest first, whatever the file system's clock resolution
            Files.setLastModifiedTime(tmp.resolve("m" + i + "-chicory-1.0.jar"), FileTime.fromMillis(1_000_000L + i * 1000L));
        }
        assertArrayEquals(new byte[] {0}, cache.get("m0"), "m0 used now: the most recent");
        cache.putIfAbsent("new", new byte[] {42});
        assertEquals(n, jars(), "one made room for");
        assertNull(cache.get("m1"), "the least recently used went");
        assertArrayEquals(new byte[] {0}, cache.get("m0"));
        assertArrayEquals(new byte[] {42}, cache.get("new"));
    }

    private long jars() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.filter(p -> p.toString().endsWith(".jar")).count();
        }
    }
}
