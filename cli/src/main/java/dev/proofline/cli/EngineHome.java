package dev.proofline.cli;

import dev.proofline.groth16.io.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The state directory of the local engine ({@code proofline engine}): {@code $PROOFLINE_HOME}, else
 * {@code $HOME/.proofline}. Its {@code engine/} folder (owner only, 0700) holds the running engine's
 * {@link Endpoint} file (owner only, 0600), its log and the lock that makes it the only engine of the
 * directory.
 */
record EngineHome(Path dir) {

    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");

    /**
     * Where a running engine is found: its TCP port on 127.0.0.1, the token every request must carry
     * (256 random bits, 64 hex digits), its process id and the jar it runs (empty where it runs from
     * classes, not a jar): a client uses the engine only when that is its own jar and was not rebuilt
     * after the engine started ({@link EngineClient#runsThisBuild}). The file holds one
     * {@code key=value} a line, so that the bash launcher reads it with {@code read} alone.
     */
    record Endpoint(int port, String token, long pid, String jar) {

        String text() {
            return "port=" + port + "\ntoken=" + token + "\npid=" + pid + "\njar=" + jar + "\n";
        }

        /** Parses the file's text; empty when it is not a whole endpoint (being replaced, or not ours). */
        static Optional<Endpoint> parse(String text) {
            Integer port = null;
            String token = null;
            Long pid = null;
            String jar = "";
            for (String line : text.split("\n")) {
                int eq = line.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String value = line.substring(eq + 1);
                try {
                    switch (line.substring(0, eq)) {
                        case "port" -> port = Integer.parseInt(value);
                        case "token" -> token = value;
                        case "pid" -> pid = Long.parseLong(value);
                        case "jar" -> jar = value;
                        default -> { }
                    }
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
            return port == null || token == null || pid == null ? Optional.empty()
                    : Optional.of(new Endpoint(port, token, pid, jar));
        }
    }

    /** The state directory named by the environment. */
    static EngineHome fromEnvironment(Map<String, String> env) {
        String home = env.get("PROOFLINE_HOME");
        if (home != null && !home.isEmpty()) {
            return new EngineHome(Path.of(home).toAbsolutePath());
        }
        String user = env.getOrDefault("HOME", System.getProperty("user.home"));
        return new EngineHome(Path.of(user, ".proofline").toAbsolutePath());
    }

    static EngineHome fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    Path engineDir() {
        return dir.resolve("engine");
    }

    Path endpointFile() {
        return engineDir().resolve("endpoint");
    }

    Path logFile() {
        return engineDir().resolve("engine.log");
    }

    /** Held (an OS file lock) by the running engine for its whole life; released by the OS if it dies. */
    Path lockFile() {
        return engineDir().resolve("lock");
    }

    /**
     * Held shared by each one-off command while it runs, so that an engine's own background work waits
     * for it ({@link Housekeeping}).
     */
    Path clientsLockFile() {
        return engineDir().resolve("clients.lock");
    }

    /**
     * The keys the engine held, most recently used first, one path a line: an engine that starts opens
     * them again in the background ({@link KeysAcrossRestarts#reopen}).
     */
    Path residentKeysFile() {
        return engineDir().resolve("resident-keys");
    }

    /**
     * For each key of {@link #residentKeysFile} that has one, the witness file of the last proof that verified
     * with it: two lines a key, its path then the witness's ({@link KeysAcrossRestarts}).
     */
    Path residentWitnessesFile() {
        return engineDir().resolve("resident-witnesses");
    }

    /** Where the first auto-started engine's notice was shown: it is shown once. */
    Path noticeFile() {
        return engineDir().resolve("auto-start-noticed");
    }

    /** The user's settings for the local engine ({@link EngineSettings}). */
    Path settingsFile() {
        return dir.resolve("engine.conf");
    }

    /** Precomputed tables of proving keys, kept between engines ({@link KeyTableCache}). */
    Path keyTableCacheDir() {
        return dir.resolve("cache").resolve("key-tables");
    }

    /**
     * Where {@code wtns calculate} and {@code fullprove} keep the JVM classes compiled from circom's
     * witness generators when no {@code --cache} is given: {@code cache/wasm-classes}, created
     * owner-only. Empty where it cannot be made, or where it exists but others than its owner may write
     * it or it is not this user's (its classes are loaded as they are): the generator is then compiled
     * each time, as without a cache.
     */
    Optional<Path> wasmClassCacheDir() {
        return ownerOnlyCacheDir("wasm-classes");
    }

    /**
     * Where the keys that verified against their r1cs and a named ptau are remembered
     * ({@link VerifiedKeys}): {@code cache/verified-keys}, owner-only as {@link #wasmClassCacheDir}
     * (what it holds lets a key be used without its check). Empty where it cannot be made or is not
     * owner-only: each key is then verified in each process.
     */
    Optional<Path> verifiedKeysDir() {
        return ownerOnlyCacheDir("verified-keys");
    }

    /** {@code cache/<name>}, made owner-only (0700); empty where it cannot be, or is not this user's alone. */
    private Optional<Path> ownerOnlyCacheDir(String name) {
        return OwnerOnlyFiles.directory(dir.resolve("cache").resolve(name));
    }

    /** Creates {@code engine/} (and the state directory) if absent, and makes it owner-only. */
    void createEngineDir() throws IOException {
        Files.createDirectories(dir);
        Path engine = engineDir();
        if (!Files.isDirectory(engine)) {
            try {
                Files.createDirectory(engine, PosixFilePermissions.asFileAttribute(OWNER_DIR));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // made at the same moment by another process: its mode is set below
            }
        }
        Files.setPosixFilePermissions(engine, OWNER_DIR);
    }

    /** The endpoint file's content; empty when there is none or it is not a whole endpoint. */
    Optional<Endpoint> readEndpoint() {
        try {
            return Endpoint.parse(Files.readString(endpointFile(), StandardCharsets.UTF_8));
        } catch (IOException e) {   // none (NoSuchFileException), or unreadable
            return Optional.empty();
        }
    }

    /** Writes the endpoint file atomically, owner-only ({@link #writeOwnerOnly}). */
    void writeEndpoint(Endpoint endpoint) throws IOException {
        writeOwnerOnly(endpointFile(), endpoint.text());
    }

    /** Writes the {@linkplain #residentKeysFile resident keys' paths}, one a line, atomically, owner-only. */
    void writeResidentKeys(List<String> paths) throws IOException {
        writeOwnerOnly(residentKeysFile(), paths.stream().map(p -> p + "\n").collect(java.util.stream.Collectors.joining()));
    }

    /**
     * Writes the {@linkplain #residentWitnessesFile witnesses of the resident keys' last proofs}, by the keys'
     * paths, two lines each, atomically, owner-only.
     */
    void writeResidentWitnesses(java.util.Map<String, String> witnesses) throws IOException {
        writeOwnerOnly(residentWitnessesFile(), witnesses.entrySet().stream()
                .map(e -> e.getKey() + "\n" + e.getValue() + "\n").collect(java.util.stream.Collectors.joining()));
    }

    /** Writes {@code file} atomically, owner-only ({@link OwnerOnlyFiles#write}). */
    static void writeOwnerOnly(Path file, String text) throws IOException {
        OwnerOnlyFiles.write(file, text);
    }

    /**
     * Removes the endpoint file if it still names {@code endpoint}: an engine removes its own, never
     * one a newer engine wrote.
     */
    void removeEndpoint(Endpoint endpoint) {
        if (readEndpoint().filter(endpoint::equals).isPresent()) {
            try {
                Files.deleteIfExists(endpointFile());
            } catch (IOException e) {
                // left for the next client to find stale
            }
        }
    }

    /** The last {@code n} lines of the log, for a start that failed. */
    List<String> logTail(int n) {
        try {
            List<String> lines = Files.readAllLines(logFile(), StandardCharsets.UTF_8);
            return lines.subList(Math.max(0, lines.size() - n), lines.size());
        } catch (IOException e) {
            return List.of();
        }
    }
}
