package dev.proofline.groth16.ceremony;

import dev.proofline.groth16.io.OwnerOnlyFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keys checked against their circuit's r1cs and one prepared powers of tau as {@code zkey verify} checks
 * them ({@link ZkeyVerifier}), each outcome remembered, so that a key, r1cs and ptau whose files have
 * not changed are checked once: the check costs about a {@code zkey new} of the circuit.
 *
 * <p>A triple is remembered by each file's path, size, times of modification and of change, and file
 * key (device and inode), verified or refused with the reason, in this object and, where a folder is
 * given, in a file of its own there (named by the three paths, written owner-only to a temporary file and
 * moved into place), which other processes of that folder find. A changed file is checked again. What
 * the files do not decide is not remembered: a file that cannot be read, one that changes during the
 * check, an I/O error (the key's folder not writable for the check's fresh key, a full disk): the next
 * request checks again. Requests for the same triple at once check it once: the others wait for that
 * check and take its outcome.
 */
public final class CheckedKeys {

    /** What follows a refused triple's stamps in its file, before the reason. */
    private static final String REFUSED = "refused\t";
    /** A file's stamp where it cannot be read, after its path. */
    private static final String UNREADABLE = "\tunreadable\n";

    private final Path ptau;
    /** Where outcomes are remembered for other processes; empty: in this object only. */
    private final Optional<Path> remembered;
    /** The last outcome of each triple of paths (by {@link Triple#name}) known to this object. */
    private final ConcurrentHashMap<String, Outcome> known = new ConcurrentHashMap<>();
    /** One lock a triple of paths, held while it is checked. */
    private final ConcurrentHashMap<String, Object> checking = new ConcurrentHashMap<>();

    /** Keys checked against {@code ptau}, outcomes remembered in the folder {@code remembered} (empty: none). */
    public CheckedKeys(Path ptau, Optional<Path> remembered) {
        this.ptau = ptau.toAbsolutePath().normalize();
        this.remembered = remembered;
    }

    /** The prepared powers of tau the keys are checked against (absolute). */
    public Path ptau() {
        return ptau;
    }

    /** Where an outcome came from. */
    public enum Source {
        /** The check ran for this request. */
        CHECKED,
        /** An earlier check of this object, the files unchanged since. */
        KNOWN,
        /** The folder of remembered outcomes, written by an earlier check of another object or process. */
        REMEMBERED;

        /** Whether the outcome was found rather than checked now. */
        public boolean found() {
            return this != CHECKED;
        }
    }

    /** A check's outcome: the triple as it was checked, and where the outcome came from. */
    public sealed interface Outcome {
        Triple triple();

        Source source();

        /**
         * What a message about the outcome adds where it was found rather than checked now: nothing, or
         * {@code " (found verified earlier; the files have not changed since)"} (or refused).
         */
        default String foundNote() {
            return !source().found() ? "" : " (found " + (this instanceof Verified ? "verified" : "refused")
                    + " earlier; the files have not changed since)";
        }
    }

    /** The key verified. */
    public record Verified(Triple triple, Source source) implements Outcome {
    }

    /** The key did not verify, or its files changed during the check: {@code why}. */
    public record Refused(Triple triple, String why, Source source) implements Outcome {
    }

    /** A key, the r1cs it is checked against and the ptau, each file as {@link #stamp} describes it. */
    public record Triple(Path zkey, Path r1cs, Path ptau, String stamps) {

        static Triple of(Path zkey, Path r1cs, Path ptau) {
            return new Triple(zkey, r1cs, ptau, stamp(zkey) + stamp(r1cs) + stamp(ptau));
        }

        /** The same files as they are now. */
        public Triple now() {
            return of(zkey, r1cs, ptau);
        }

        /** Whether the files are as they were when this triple was taken. */
        public boolean unchanged() {
            return equals(now());
        }

        /** Whether each file could be read when the triple was taken: only then is an outcome remembered. */
        boolean readable() {
            return !stamps.contains(UNREADABLE);
        }

        /** The name of the file that remembers the triple: the SHA-256 of the three paths, in hex. */
        String name() {
            String paths = zkey.toAbsolutePath().normalize() + "\n" + r1cs.toAbsolutePath().normalize() + "\n"
                    + ptau.toAbsolutePath().normalize();
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(paths.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new AssertionError("every JVM has SHA-256", e);
            }
        }
    }

    /**
     * The outcome for {@code zkey} checked against {@code r1cs} and the ptau: found, where the three files
     * are as they were when they were checked before, else checked now.
     */
    public Outcome check(Path zkey, Path r1cs) {
        Triple triple = Triple.of(zkey, r1cs, ptau);
        String name = triple.name();
        Optional<Outcome> found = knownAs(name, triple);
        if (found.isPresent()) {
            return found.get();
        }
        synchronized (checking.computeIfAbsent(name, n -> new Object())) {
            found = knownAs(name, triple);   // checked meanwhile, for another request
            if (found.isPresent()) {
                return found.get();
            }
            Optional<Outcome> stored = rememberedAs(name, triple);
            if (stored.isPresent()) {
                known.put(name, stored.get());
                return stored.get();
            }
            Outcome outcome;
            boolean decided = true;   // by the files alone: remembered
            try {
                ZkeyVerifier.verify(r1cs, ptau, zkey, m -> { });
                outcome = new Verified(triple, Source.CHECKED);
            } catch (IOException | UncheckedIOException e) {
                decided = false;
                outcome = new Refused(triple, reason(e), Source.CHECKED);
            } catch (RuntimeException e) {
                decided = e instanceof IllegalArgumentException;   // a file rejected; anything else is not the files'
                outcome = new Refused(triple, reason(e), Source.CHECKED);
            }
            if (!triple.unchanged()) {
                return outcome instanceof Refused ? outcome
                        : new Refused(triple, "a file changed while it was being verified", Source.CHECKED);
            }
            if (decided && triple.readable()) {
                known.put(name, outcome);
                remember(name, outcome);
            }
            return outcome;
        }
    }

    /** The outcome this object knows for the triple's files as they are, as found. */
    private Optional<Outcome> knownAs(String name, Triple triple) {
        Outcome o = known.get(name);
        if (o == null || !o.triple().stamps().equals(triple.stamps())) {
            return Optional.empty();
        }
        return Optional.of(switch (o) {
            case Verified v -> new Verified(triple, Source.KNOWN);
            case Refused r -> new Refused(triple, r.why(), Source.KNOWN);
        });
    }

    private static String reason(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** A file as it is now: its path, size, times of modification and of change, and file key, on a line. */
    private static String stamp(Path file) {
        Path p = file.toAbsolutePath().normalize();
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            Object changed;
            try {
                changed = Files.getAttribute(p, "unix:ctime");
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                changed = "-";
            }
            return p + "\t" + a.size() + "\t" + a.lastModifiedTime() + "\t" + changed + "\t" + a.fileKey() + "\n";
        } catch (IOException e) {
            return p + UNREADABLE;   // never remembered (Triple#readable)
        }
    }

    /**
     * The outcome remembered for the triple's files as they are; empty where none is, or it is for the
     * files as they were. The file holds the stamps, then nothing (verified) or a line {@code refused},
     * a tab and the reason.
     */
    private Optional<Outcome> rememberedAs(String name, Triple triple) {
        if (remembered.isEmpty()) {
            return Optional.empty();
        }
        String text;
        try {
            text = Files.readString(remembered.get().resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (!text.startsWith(triple.stamps())) {
            return Optional.empty();
        }
        String rest = text.substring(triple.stamps().length());
        if (rest.isEmpty()) {
            return Optional.of(new Verified(triple, Source.REMEMBERED));
        }
        if (rest.startsWith(REFUSED) && rest.endsWith("\n") && rest.indexOf('\n') == rest.length() - 1) {
            return Optional.of(new Refused(triple, rest.substring(REFUSED.length(), rest.length() - 1),
                    Source.REMEMBERED));
        }
        return Optional.empty();
    }

    /** Remembers the outcome in the folder; where that cannot be written, this object alone knows it. */
    private void remember(String name, Outcome outcome) {
        if (remembered.isEmpty()) {
            return;
        }
        String text = outcome.triple().stamps() + switch (outcome) {
            case Verified v -> "";
            case Refused r -> REFUSED + r.why().replaceAll("[\r\n]+", " ") + "\n";
        };
        try {
            OwnerOnlyFiles.write(remembered.get().resolve(name), text);
        } catch (IOException e) {
            // checked again by the next process
        }
    }
}
