package dev.proofline.cli;

import dev.proofline.groth16.ceremony.ZkeyVerifier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The keys that may be proved with where the operator asks for keys to be checked ({@code --verify-keys
 * <prepared.ptau>}, {@code verify-keys} in {@link EngineSettings}): a key is used only once it has
 * verified against its circuit's r1cs and that ptau as {@code proofline zkey verify} checks it
 * ({@link ZkeyVerifier}); otherwise it is refused, naming the key, the r1cs looked for, the ptau and why.
 *
 * <p>The r1cs is the file beside the key with its base name ({@code c.zkey}: {@code c.r1cs}), or, where
 * there is none and the base name ends as snarkjs names a ceremony's keys ({@code _final}, or {@code _}
 * and digits: {@code circuit_final.zkey}, {@code circuit_0001.zkey}), the base name without that ending
 * ({@code circuit.r1cs}).
 *
 * <p>A check costs about a {@code zkey new} of the circuit, so it is done once for the three files as they
 * are: a triple that verified is remembered by each file's path, size, times of modification and of
 * change, and file key (device and inode), in this process and in a file of its own under the state
 * directory ({@link EngineHome#verifiedKeysDir}, written atomically), so that the engine after a restart
 * and the one-off commands of the same state directory find it verified. A changed file is verified
 * again. Requests for the same key at once verify it once: the others wait for that check.
 */
final class VerifiedKeys {

    /** The endings of a ceremony's keys as snarkjs's guide names them, before {@code .zkey}. */
    private static final Pattern CEREMONY_KEY = Pattern.compile("(.+)_(final|[0-9]+)");

    private final Path ptau;
    /** Where verified triples are remembered; empty: in this process only. */
    private final Optional<Path> remembered;
    /** The stamps of the triples known to this process to have verified. */
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    /** One lock a triple of paths, held while it is checked. */
    private final ConcurrentHashMap<String, Object> checking = new ConcurrentHashMap<>();
    private final AtomicLong verified = new AtomicLong();
    private final AtomicLong foundVerified = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    /** Keys checked against {@code ptau}, verified triples remembered in {@code remembered} (empty: none). */
    VerifiedKeys(Path ptau, Optional<Path> remembered) {
        this.ptau = ptau.toAbsolutePath().normalize();
        this.remembered = remembered;
    }

    /** Keys checked against {@code ptau}, remembered under {@code home}. */
    VerifiedKeys(Path ptau, EngineHome home) {
        this(ptau, home.verifiedKeysDir());
    }

    /** The prepared powers of tau the keys are checked against (absolute). */
    Path ptau() {
        return ptau;
    }

    /** Checks run to the end (a key verified) since this object was made. */
    long verified() {
        return verified.get();
    }

    /** Keys found verified before, by another process of the state directory (the remembered file). */
    long foundVerified() {
        return foundVerified.get();
    }

    /** Keys refused. */
    long refused() {
        return refused.get();
    }

    /** {@code inner}'s keys, each checked first ({@link #check}); its witness generators as they are. */
    Loader over(Loader inner) {
        return new Loader() {
            @Override
            public KeyLease provingKey(Path zkey) {
                Triple checked = check(zkey);
                KeyLease lease = inner.provingKey(zkey);
                if (!checked.equals(checked.now())) {
                    lease.close();   // replaced between its check and its opening
                    refused.incrementAndGet();
                    throw refusal(zkey, checked.r1cs(), "a file changed while the key was being opened");
                }
                return lease;
            }

            @Override
            public dev.proofline.r1cs.wasm.CircomWasm witnessGenerator(Path wasm, Path cacheDir) {
                return inner.witnessGenerator(wasm, cacheDir);
            }
        };
    }

    /**
     * The one-off process's loader ({@link Loader#ONE_OFF}), its keys checked where the settings of
     * {@code home} ask for it. The settings are read when a key is opened (a command that opens none
     * does not read them); a settings file that cannot be read as such refuses the key, since it does not
     * tell whether keys must be checked.
     */
    static Loader oneOff(EngineHome home) {
        return new Loader() {
            @Override
            public KeyLease provingKey(Path zkey) {
                Path ptau = EngineSettings.of(home).verifyKeys();
                return ptau == null ? ONE_OFF.provingKey(zkey) : new VerifiedKeys(ptau, home).over(ONE_OFF).provingKey(zkey);
            }

            @Override
            public dev.proofline.r1cs.wasm.CircomWasm witnessGenerator(Path wasm, Path cacheDir) {
                return ONE_OFF.witnessGenerator(wasm, cacheDir);
            }
        };
    }

    /** A key, the r1cs it is checked against and the ptau, each file as {@link #stamp} describes it. */
    private record Triple(Path zkey, Path r1cs, Path ptau, String stamps) {

        static Triple of(Path zkey, Path r1cs, Path ptau) {
            return new Triple(zkey, r1cs, ptau, stamp(zkey) + stamp(r1cs) + stamp(ptau));
        }

        /** The same files as they are now. */
        Triple now() {
            return of(zkey, r1cs, ptau);
        }

        /** The name of the file that remembers the triple: the SHA-256 of the three paths, in hex. */
        String name() {
            String paths = zkey.toAbsolutePath().normalize() + "\n" + r1cs.toAbsolutePath().normalize() + "\n"
                    + ptau;
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(paths.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new AssertionError("every JVM has SHA-256", e);
            }
        }
    }

    /**
     * Returns once {@code zkey} may be used: verified now, or before while its files were as they are;
     * returns the triple as it verified.
     *
     * @throws IllegalArgumentException naming the key, the r1cs looked for, the ptau and why it is refused
     */
    private Triple check(Path zkey) {
        Optional<Path> r1cs = r1csOf(zkey);
        if (r1cs.isEmpty()) {
            refused.incrementAndGet();
            throw new IllegalArgumentException(zkey + ": not used for proving: keys are verified against " + ptau
                    + " (--verify-keys) and no r1cs of its circuit was found (looked for "
                    + String.join(" and ", r1csCandidates(zkey).stream().map(Path::toString).toList()) + ")");
        }
        Triple triple = Triple.of(zkey, r1cs.get(), ptau);
        if (known.contains(triple.stamps())) {
            return triple;
        }
        synchronized (checking.computeIfAbsent(triple.name(), n -> new Object())) {
            if (known.contains(triple.stamps())) {
                return triple;   // verified meanwhile, for another request
            }
            if (rememberedAs(triple).filter(triple.stamps()::equals).isPresent()) {
                foundVerified.incrementAndGet();
                known.add(triple.stamps());
                return triple;
            }
            try {
                ZkeyVerifier.verify(r1cs.get(), ptau, zkey, m -> { });
            } catch (IOException | RuntimeException e) {
                refused.incrementAndGet();
                throw refusal(zkey, r1cs.get(), e.getMessage() == null ? e.toString() : e.getMessage());
            }
            if (!triple.equals(triple.now())) {
                refused.incrementAndGet();
                throw refusal(zkey, r1cs.get(), "a file changed while it was being verified");
            }
            verified.incrementAndGet();
            known.add(triple.stamps());
            remember(triple);
            return triple;
        }
    }

    private IllegalArgumentException refusal(Path zkey, Path r1cs, String why) {
        return new IllegalArgumentException(zkey + ": not used for proving: it does not verify against " + r1cs
                + " and " + ptau + " (--verify-keys): " + why);
    }

    /** The files that may be the r1cs of {@code zkey}'s circuit, in the order they are looked for. */
    static List<Path> r1csCandidates(Path zkey) {
        String name = zkey.getFileName().toString();
        String base = name.endsWith(".zkey") ? name.substring(0, name.length() - ".zkey".length()) : name;
        List<Path> candidates = new ArrayList<>(List.of(zkey.resolveSibling(base + ".r1cs")));
        Matcher m = CEREMONY_KEY.matcher(base);
        if (m.matches()) {
            candidates.add(zkey.resolveSibling(m.group(1) + ".r1cs"));
        }
        return candidates;
    }

    /** The r1cs of {@code zkey}'s circuit: the first of {@link #r1csCandidates} that is a file. */
    static Optional<Path> r1csOf(Path zkey) {
        return r1csCandidates(zkey).stream().filter(Files::isRegularFile).findFirst();
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
            return p + "\tunreadable\n";   // never equal to a remembered stamp: verified, and refused for its own error
        }
    }

    /** The stamps remembered for the triple's paths, as they verified; empty where none are. */
    private Optional<String> rememberedAs(Triple triple) {
        if (remembered.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(remembered.get().resolve(triple.name()), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Remembers that the triple verified as it is; where that cannot be written, this process alone knows it. */
    private void remember(Triple triple) {
        if (remembered.isPresent()) {
            try {
                EngineHome.writeOwnerOnly(remembered.get().resolve(triple.name()), triple.stamps());
            } catch (IOException e) {
                // verified again by the next process
            }
        }
    }
}
