package dev.proofline.groth16.ceremony;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A streamed output file written whole or not at all: to {@code <target>.partial}, moved into place
 * once written, deleted where the writing fails, so that a refused input or a crash never leaves half a
 * target (a file that a later step would take for a whole one).
 */
final class WholeFile {

    /** What writes the file's bytes; it may throw to refuse what it read, and nothing is left then. */
    interface Body<T> {
        T write(OutputStream out) throws IOException;
    }

    private WholeFile() {
    }

    /** Writes {@code target} with {@code body}; returns what {@code body} returned. */
    static <T> T write(Path target, Body<T> body) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".partial");
        T result;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
            result = body.write(out);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return result;
    }
}
