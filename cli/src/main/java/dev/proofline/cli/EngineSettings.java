package dev.proofline.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The user's settings for the local engine, in {@code $PROOFLINE_HOME/engine.conf}: lines of
 * {@code key = value}, {@code #} comments. Read by every command that might start an engine; a missing
 * file means the defaults.
 *
 * <pre>
 * auto-start = off      # a one-off command never starts an engine (default: on)
 * idle-timeout = 30m    # an engine started by a command stops after this long without requests
 * warm-up = bn128       # the curves it warms up on (default: bn128,bls12381; none)
 * verify-keys = final.ptau   # prove only with keys that verify against their r1cs and this ptau
 * </pre>
 *
 * {@code verify-keys} names a prepared powers of tau; a relative path is resolved against the file's
 * folder (the engine and the commands run from other directories). Every engine of the state directory,
 * started by hand or by a command, and every one-off command checks keys against it ({@link VerifiedKeys}).
 *
 * @param autoStart    whether a one-off command starts an engine in the background ({@link AutoStart})
 * @param idleTimeout  the idle timeout of an engine so started
 * @param warmUp       the curves of its warm-up ({@link EngineWarmUp#curves} names), as written
 * @param verifyKeys   the prepared ptau keys are checked against (absolute); null: keys are not checked
 */
record EngineSettings(boolean autoStart, Duration idleTimeout, String warmUp, Path verifyKeys) {

    static final EngineSettings DEFAULTS = new EngineSettings(true, Duration.ofMinutes(30), "bn128,bls12381", null);

    /** The settings of {@code home}; the defaults where the file is missing. */
    static EngineSettings of(EngineHome home) {
        String text;
        try {
            text = Files.readString(home.settingsFile(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return DEFAULTS;
        }
        return parse(text, home.settingsFile().toString());
    }

    /**
     * The settings written in {@code text}, from the file {@code name}.
     *
     * @throws IllegalArgumentException naming the file, the line and what is wrong with it
     */
    static EngineSettings parse(String text, String name) {
        boolean autoStart = DEFAULTS.autoStart;
        Duration idle = DEFAULTS.idleTimeout;
        String warmUp = DEFAULTS.warmUp;
        Path verifyKeys = DEFAULTS.verifyKeys;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            line = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            String where = name + ":" + (i + 1) + ": ";
            if (eq < 0) {
                throw new IllegalArgumentException(where + "expected 'key = value', found '" + line + "'");
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            switch (key) {
                case "auto-start" -> autoStart = switch (value.toLowerCase(Locale.ROOT)) {
                    case "on", "true", "yes" -> true;
                    case "off", "false", "no" -> false;
                    default -> throw new IllegalArgumentException(where + "auto-start is on or off, not '" + value + "'");
                };
                case "idle-timeout" -> {
                    try {
                        idle = new EngineCommand.DurationConverter().convert(value);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(where + "idle-timeout: " + e.getMessage());
                    }
                }
                case "warm-up" -> {
                    try {
                        EngineWarmUp.curves(java.util.List.of(value.split(",", -1)));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(where + e.getMessage());
                    }
                    warmUp = value;
                }
                case "verify-keys" -> verifyKeys = ptau(value, name, where);
                default -> throw new IllegalArgumentException(where + "unknown setting '" + key
                        + "' (auto-start, idle-timeout, warm-up, verify-keys)");
            }
        }
        return new EngineSettings(autoStart, idle, warmUp, verifyKeys);
    }

    /**
     * The ptau of {@code verify-keys = value} in the file {@code name}: relative to the file's folder,
     * and a readable file (else the keys could not be checked, and none would be proved with).
     */
    private static Path ptau(String value, String name, String where) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException(where + "verify-keys names a prepared powers of tau (a .ptau file)");
        }
        Path ptau;
        try {
            ptau = Path.of(name).toAbsolutePath().getParent().resolve(value).normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(where + "verify-keys: not a path: '" + value + "'");
        }
        if (!Files.isRegularFile(ptau) || !Files.isReadable(ptau)) {
            throw new IllegalArgumentException(where + "verify-keys: " + ptau + ": "
                    + (Files.exists(ptau) ? "not a file that can be read" : "no such file"));
        }
        return ptau;
    }

    /** Writes {@code key = value} into the file of {@code home}, keeping its other settings. */
    static void set(EngineHome home, String key, String value) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>();
        if (Files.exists(home.settingsFile())) {
            parse(Files.readString(home.settingsFile(), StandardCharsets.UTF_8), home.settingsFile().toString());
            for (String line : Files.readAllLines(home.settingsFile(), StandardCharsets.UTF_8)) {
                int hash = line.indexOf('#');
                String bare = (hash >= 0 ? line.substring(0, hash) : line).strip();
                int eq = bare.indexOf('=');
                if (eq > 0) {
                    settings.put(bare.substring(0, eq).strip(), bare.substring(eq + 1).strip());
                }
            }
        }
        settings.put(key, value);
        StringBuilder text = new StringBuilder();
        settings.forEach((k, v) -> text.append(k).append(" = ").append(v).append('\n'));
        parse(text.toString(), home.settingsFile().toString());
        Files.createDirectories(home.dir());
        Files.writeString(home.settingsFile(), text, StandardCharsets.UTF_8);
    }
}
