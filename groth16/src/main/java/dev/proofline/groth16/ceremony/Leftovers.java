package dev.proofline.groth16.ceremony;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.List;

/**
 * What a resumable step leaves beside its target when it stops before it is done: {@code <target>.partial},
 * its output so far, and {@code <target>.partial.for}, the note of what it was written for (the step, its
 * parameters and its inputs, {@link #identity}), then one line for each part whose bytes are on the disk
 * where the output itself does not say so (a streamed file; a sectioned one says it by each section's
 * size). The same step on the same inputs later keeps what the note allows; anything else starts again,
 * so that a changed input is never resumed from. Every resumable writer goes through this class.
 */
final class Leftovers {

    /** The earlier run's output, and where this run writes. */
    final Path temp;
    private final Path note;
    private final String identity;

    /** The leftovers of {@code target} for {@code identity} (null: a step that is not resumable). */
    Leftovers(Path target, String identity) {
        Path t = target.toAbsolutePath();
        this.temp = t.resolveSibling(t.getFileName() + ".partial");
        this.note = t.resolveSibling(t.getFileName() + ".partial.for");
        this.identity = identity == null ? null : identity.replace("\\", "\\\\").replace("\n", "\\n");
    }

    /** Says in {@code log} that this run goes on from the earlier run's output, as a resumed run's first line. */
    void sayResuming(java.util.function.Consumer<String> log) {
        log.accept("resuming the earlier run's " + temp.getFileName());
    }

    /** Says in {@code log} that the earlier run's {@code part} is kept (and not computed again). */
    static void sayKept(java.util.function.Consumer<String> log, String part) {
        log.accept(part + ": kept from the earlier run");
    }

    /** Whether the writing is resumable: kept when it stops, and what was kept is used again. */
    boolean resumable() {
        return identity != null;
    }

    /**
     * The lines the earlier run noted after its identity, where it was a run of this step on these inputs
     * and its output is there; null otherwise (nothing is kept then).
     */
    List<String> earlier() throws IOException {
        if (identity == null || !Files.isRegularFile(temp) || !Files.isRegularFile(note)) {
            return null;
        }
        List<String> lines = Files.readString(note, StandardCharsets.UTF_8).lines().toList();
        return !lines.isEmpty() && lines.getFirst().equals(identity) ? lines.subList(1, lines.size()) : null;
    }

    /**
     * Notes that the output in {@link #temp} is for this identity, followed by {@code parts}: written to a
     * sibling and renamed over the note, so that a crash leaves the old note or the new one, whole.
     */
    void note(List<String> parts) throws IOException {
        StringBuilder b = new StringBuilder(identity).append('\n');
        parts.forEach(p -> b.append(p).append('\n'));
        Path next = note.resolveSibling(note.getFileName() + ".new");
        Files.writeString(next, b, StandardCharsets.UTF_8);
        Files.move(next, note, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Moves the whole output onto {@code target} and drops the note. */
    void commit(Path target) throws IOException {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.deleteIfExists(note);   // this run's, or an earlier resumable run's, whose output is gone now
    }

    /** After a run that did not finish: a resumable run's output stays for the next one, another's goes. */
    void abandon() throws IOException {
        if (identity == null) {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * What a resumable run is for: the step (with whatever parameters change its output) and each input's
     * real path, size and time of change, so that a changed input is never resumed from.
     */
    static String identity(String step, Path... inputs) throws IOException {
        StringBuilder b = new StringBuilder(step);
        for (Path p : inputs) {
            Path real = p.toRealPath();
            b.append(" of ").append(real).append(", ").append(Files.size(real)).append(" bytes, changed ")
                    .append(Files.getLastModifiedTime(real).toMillis());
        }
        return b.toString();
    }

    /**
     * A step's parameters for its identity: a contribution's name (hexadecimal, so that no name reads as
     * another parameter) and, for a beacon, its hash and iteration exponent.
     */
    static String parameters(String step, String name, byte[] beaconHash, int iterationsExp) {
        StringBuilder b = new StringBuilder(step);
        if (beaconHash != null) {
            b.append(" with beacon ").append(HexFormat.of().formatHex(beaconHash)).append(" iterated 2^")
                    .append(iterationsExp);
        }
        b.append(name == null ? ", no name" : ", named 0x" + HexFormat.of().formatHex(name.getBytes(
                StandardCharsets.UTF_8)));
        return b.toString();
    }
}
