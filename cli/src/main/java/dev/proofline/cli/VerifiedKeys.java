package dev.proofline.cli;

import dev.proofline.groth16.ceremony.CheckedKeys;
import dev.proofline.groth16.ceremony.ZkeyVerifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * are ({@link CheckedKeys}): a triple that verified, or that was refused for what its files hold, is
 * remembered by each file's path, size, times of modification and of change, and file key, in this
 * process and in a file of its own under the state directory ({@link EngineHome#verifiedKeysDir}), so
 * that the engine after a restart and the one-off commands of the same state directory find it verified,
 * or refuse it at once, saying it was refused before. A changed file is checked again. Requests for the
 * same key at once check it once: the others wait for that check.
 */
final class VerifiedKeys {

    /** The endings of a ceremony's keys as snarkjs's guide names them, before {@code .zkey}. */
    private static final Pattern CEREMONY_KEY = Pattern.compile("(.+)_(final|[0-9]+)");

    private final CheckedKeys checked;
    private final AtomicLong verified = new AtomicLong();
    private final AtomicLong foundVerified = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong foundRefused = new AtomicLong();

    /** Keys checked against {@code ptau}, outcomes remembered in {@code remembered} (empty: in this process only). */
    VerifiedKeys(Path ptau, Optional<Path> remembered) {
        this.checked = new CheckedKeys(ptau, remembered);
    }

    /** Keys checked against {@code ptau}, remembered under {@code home}. */
    VerifiedKeys(Path ptau, EngineHome home) {
        this(ptau, home.verifiedKeysDir());
    }

    /** The prepared powers of tau the keys are checked against (absolute). */
    Path ptau() {
        return checked.ptau();
    }

    /** Checks run to the end (a key verified) since this object was made. */
    long verified() {
        return verified.get();
    }

    /** Keys found verified before, by another process of the state directory (the remembered file). */
    long foundVerified() {
        return foundVerified.get();
    }

    /** Keys refused by a check, or without one (no r1cs found, a file changed while the key was opened). */
    long refused() {
        return refused.get();
    }

    /** Keys refused at once, found refused before (in this process or the remembered file) with the files unchanged. */
    long foundRefused() {
        return foundRefused.get();
    }

    /** {@code inner}'s keys, each checked first ({@link #check}); its witness generators as they are. */
    Loader over(Loader inner) {
        return new Loader() {
            @Override
            public KeyLease provingKey(Path zkey) {
                CheckedKeys.Triple triple = check(zkey);
                KeyLease lease = inner.provingKey(zkey);
                if (!triple.unchanged()) {
                    lease.close();   // replaced between its check and its opening
                    refused.incrementAndGet();
                    throw refusal(zkey, triple.r1cs(), "a file changed while the key was being opened");
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

    /**
     * Returns once {@code zkey} may be used: verified now, or before while its files were as they are;
     * returns the triple as it verified.
     *
     * @throws IllegalArgumentException naming the key, the r1cs looked for, the ptau and why it is refused;
     *     where it was refused before, with the files as they are, saying so
     */
    private CheckedKeys.Triple check(Path zkey) {
        Optional<Path> r1cs = r1csOf(zkey);
        if (r1cs.isEmpty()) {
            refused.incrementAndGet();
            throw new IllegalArgumentException(zkey + ": not used for proving: keys are verified against " + ptau()
                    + " (--verify-keys) and no r1cs of its circuit was found (looked for "
                    + String.join(" and ", r1csCandidates(zkey).stream().map(Path::toString).toList()) + ")");
        }
        switch (checked.check(zkey, r1cs.get())) {
            case CheckedKeys.Verified v -> {
                switch (v.source()) {
                    case CHECKED -> verified.incrementAndGet();
                    case REMEMBERED -> foundVerified.incrementAndGet();
                    case KNOWN -> { }
                }
                return v.triple();
            }
            case CheckedKeys.Refused r -> {
                (r.source().found() ? foundRefused : refused).incrementAndGet();
                throw refusal(zkey, r1cs.get(), r.why() + r.foundNote());
            }
        }
    }

    private IllegalArgumentException refusal(Path zkey, Path r1cs, String why) {
        return new IllegalArgumentException(zkey + ": not used for proving: it does not verify against " + r1cs
                + " and " + ptau() + " (--verify-keys): " + why);
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
}
