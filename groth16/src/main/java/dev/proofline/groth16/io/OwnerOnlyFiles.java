package dev.proofline.groth16.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * Files and folders that only their owner may read: the local engine's endpoint, its caches of
 * compiled witness generators, remembered key checks.
 */
public final class OwnerOnlyFiles {

    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");

    private OwnerOnlyFiles() {
    }

    /**
     * Writes {@code file} atomically, owner-only: a private temporary file in its folder moved into place,
     * so that a reader finds the old text or the new, never a part.
     */
    public static void write(Path file, String text) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp",
                PosixFilePermissions.asFileAttribute(OWNER_FILE));
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * {@code dir}, made owner-only (0700) where it is absent (its parents as the system makes them);
     * empty where it cannot be made, or exists but is not this user's alone: what such a folder holds is
     * trusted as it is, so one that others may write is not used.
     */
    public static Optional<Path> directory(Path dir) {
        try {
            Files.createDirectories(dir.toAbsolutePath().getParent());
            if (!Files.isDirectory(dir)) {
                try {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
                } catch (FileAlreadyExistsException e) {
                    // made at the same moment by another process: checked below
                }
            }
            PosixFileAttributes attrs = Files.readAttributes(dir, PosixFileAttributes.class);
            boolean ours = attrs.owner().getName().equals(System.getProperty("user.name"));
            return ours && attrs.permissions().equals(OWNER_DIR) ? Optional.of(dir) : Optional.empty();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return Optional.empty();
        }
    }
}
