package dev.proofline.cli;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A command's output files, written all or none: each file is first written in full beside its
 * place (a hidden temporary file in the same directory), and only once every one of them was written
 * are they moved into place; a failure removes what was written and names the file and the problem
 * ({@code proof.json: cannot be written: No space left on device}). So a proof.json is never left
 * without its public.json, nor an earlier one half overwritten. An output that exists and is not a
 * regular file (a device such as {@code /dev/stdout}, a pipe) cannot be replaced: it is written in
 * place, after the others were written in full and before they are moved.
 */
final class OutputFiles {

    /** The file, as the user named it, and its bytes; in the order they were added. */
    private final Map<Path, byte[]> files = new LinkedHashMap<>();

    /** Adds {@code file} with {@code text} (UTF-8). */
    OutputFiles add(Path file, String text) {
        return add(file, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Adds {@code file} with {@code bytes}; a null file is left out (an optional output not asked for). */
    OutputFiles add(Path file, byte[] bytes) {
        if (file != null) {
            files.put(file, bytes);
        }
        return this;
    }

    /** Writes every file, or none; an {@link IOException} names the file that could not be written. */
    void write() throws IOException {
        Map<Path, Path> staged = new LinkedHashMap<>();
        List<Path> inPlace = new ArrayList<>();
        try {
            for (Map.Entry<Path, byte[]> f : files.entrySet()) {
                Path file = f.getKey();
                if (Files.exists(file) && !Files.isRegularFile(file)) {
                    if (Files.isDirectory(file)) {
                        throw new IOException(file + ": is a directory, cannot be written as a file");
                    }
                    inPlace.add(file);
                    continue;
                }
                Path dir = file.toAbsolutePath().getParent();
                Path tmp;
                try {
                    tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".part");
                } catch (IOException e) {
                    throw cannotWrite(file, e);
                }
                staged.put(file, tmp);
                try {
                    Files.write(tmp, f.getValue());
                } catch (IOException e) {
                    throw cannotWrite(file, e);
                }
            }
            for (Path file : inPlace) {
                try {
                    Files.write(file, files.get(file));
                } catch (IOException e) {
                    throw cannotWrite(file, e);
                }
            }
            for (Map.Entry<Path, Path> s : staged.entrySet()) {
                try {
                    move(s.getValue(), s.getKey());
                } catch (IOException e) {
                    throw cannotWrite(s.getKey(), e);
                }
            }
            staged.clear();
        } finally {
            for (Path tmp : staged.values()) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static IOException cannotWrite(Path file, IOException e) {
        String why = e instanceof java.nio.file.NoSuchFileException ? "its directory does not exist"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new IOException(file + ": cannot be written: " + why, e);
    }
}
