package dev.proofline.r1cs.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Opening an input file: the errors name the path and say what is wrong with it (missing, a
 * directory, not readable, too large) rather than what the operating system answered to a read.
 */
public final class InputFiles {

    private InputFiles() {
    }

    /** Throws a {@link FormatException} unless {@code path} is an existing regular file. */
    public static void requireRegularFile(Path path) {
        if (Files.isDirectory(path)) {
            throw new FormatException(path, null, "is a directory, expected a file");
        }
        if (!Files.exists(path)) {
            throw new FormatException(path, null, "no such file");
        }
        if (!Files.isRegularFile(path)) {
            throw new FormatException(path, null, "is not a regular file");
        }
    }

    /**
     * The bytes of a file of at most {@code maxBytes} bytes; {@code limit} names the setting that
     * raises the bound in the error of a larger file. Never reads more than {@code maxBytes + 1}.
     */
    public static byte[] readBounded(Path path, long maxBytes, String limit) {
        requireRegularFile(path);
        int cap = (int) Math.min(Integer.MAX_VALUE - 16, maxBytes);
        try {
            if (Files.size(path) > cap) {
                throw tooLarge(path, Files.size(path), cap, limit);
            }
            try (InputStream in = Files.newInputStream(path)) {
                byte[] bytes = in.readNBytes(cap + 1);
                if (bytes.length > cap) {
                    throw tooLarge(path, -1, cap, limit);
                }
                return bytes;
            }
        } catch (IOException e) {
            throw unreadable(path, e);
        }
    }

    /** The error for a file that could not be opened or read: missing, not permitted, or the OS's reason. */
    public static FormatException unreadable(Path path, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new FormatException(path, null, "no such file");
        }
        if (e instanceof AccessDeniedException) {
            return new FormatException(path, null, "permission denied");
        }
        return new FormatException(path, null, "cannot read: " + e.getMessage(), e);
    }

    private static FormatException tooLarge(Path path, long size, long cap, String limit) {
        return new FormatException(path, null, (size >= 0 ? size + " bytes" : "larger than the limit")
                + ", at most " + cap + " are read" + (limit == null ? "" : " (raise it with -D" + limit + "=...)"));
    }
}
