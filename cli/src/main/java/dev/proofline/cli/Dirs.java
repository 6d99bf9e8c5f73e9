package dev.proofline.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Directories the commands make for themselves. */
final class Dirs {

    private Dirs() {
    }

    /** Deletes {@code dir} and everything below it, deepest first (a file that cannot be deleted stays). */
    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
