package dev.proofline.r1cs.io;

import java.nio.file.Path;

/**
 * A file was rejected: truncated, corrupt, of another kind or version, for another curve, or not
 * matching the file it is used with. The message names the file, the part of it (section or field)
 * and the problem.
 */
public class FormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final String part;

    public FormatException(Path file, String part, String problem) {
        this(file, part, problem, null);
    }

    public FormatException(Path file, String part, String problem, Throwable cause) {
        super(file + (part == null ? "" : ": " + part) + ": " + problem, cause);
        this.file = String.valueOf(file);
        this.part = part;
    }

    /** The file, as it was named when opened. */
    public String file() {
        return file;
    }

    /** The section or field, or null for the file as a whole. */
    public String part() {
        return part;
    }
}
