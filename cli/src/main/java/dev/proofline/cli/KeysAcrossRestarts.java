package dev.proofline.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * The keys a local engine holds, written down for the next engine of the state directory and opened
 * again by it, each followed by a throwaway proof, so that an engine restarted (by hand, after its idle
 * timeout, or by a newer build) serves a known key at once.
 */
final class KeysAcrossRestarts {

    private final EngineHome home;
    private final ResidentFiles resident;
    /** How the keys are opened again: as the requests open them (checked first, where keys are checked). */
    private final Loader loader;
    private final Housekeeping housekeeping;
    private final Consumer<String> log;

    KeysAcrossRestarts(EngineHome home, ResidentFiles resident, Loader loader, Housekeeping housekeeping,
            Consumer<String> log) {
        this.home = home;
        this.resident = resident;
        this.loader = loader;
        this.housekeeping = housekeeping;
        this.log = log;
    }

    /**
     * Opens again, in the background as the engine's own work, the keys the last engine of this state
     * directory held ({@link EngineHome#residentKeysFile}) that still exist, with their tables (mapped
     * from the cache where it has them): a restarted engine then proves a known key at full speed from
     * its first request. A key that cannot be opened, or is refused by the keys' check, is left out.
     */
    void reopen() {
        List<String> paths;
        try {
            paths = java.nio.file.Files.readAllLines(home.residentKeysFile(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return;
        }
        housekeeping.submit(() -> {
            for (String p : paths.reversed()) {   // the most recently used opened last: evicted last
                Path zkey = Path.of(p);
                if (p.isBlank() || !zkey.isAbsolute() || !java.nio.file.Files.isRegularFile(zkey)) {
                    continue;
                }
                housekeeping.awaitTurn();
                try (Loader.KeyLease lease = loader.provingKey(zkey)) {
                    log.accept("reopened " + p);
                    housekeeping.awaitTurn();
                    throwawayProof(lease.key());
                } catch (RuntimeException e) {
                    log.accept("not reopened " + p + ": " + e.getMessage());
                }
            }
        });
    }

    /**
     * A proof of {@code key} with a made-up witness, dropped: it runs the code the key's first request
     * will run at its size (the warm-up's circuit is smaller), so that the JIT has compiled it by then.
     * Its own verification rejects it (the witness satisfies nothing), which is expected.
     */
    static void throwawayProof(dev.proofline.groth16.ProvingKey key) {
        int n = key.variableCount();
        long[] w = new long[n * dev.proofline.r1cs.Witness.WORDS];
        java.util.SplittableRandom random = new java.util.SplittableRandom(n);
        for (int i = 0; i < w.length; i++) {
            // every value below 2^253, below the scalar field's modulus on both curves
            w[i] = i % 4 == 3 ? random.nextLong() >>> 11 : random.nextLong();
        }
        w[0] = 1;   // the constant wire
        w[1] = 0;
        w[2] = 0;
        w[3] = 0;
        try {
            dev.proofline.groth16.Prover.create().prove(key, new dev.proofline.r1cs.Witness(key.curve(), w));
        } catch (RuntimeException e) {
            // rejected by its own verification, as expected (or failed otherwise: only the JIT loses)
        }
        key.verificationKey().prepare();   // not at the second request's check
    }

    /** Writes the resident keys' paths for the next engine, when they changed. */
    void remember() {
        List<String> paths = resident.keyPaths();
        if (paths.equals(remembered)) {
            return;
        }
        remembered = paths;
        try {
            home.writeResidentKeys(paths);
        } catch (IOException e) {
            // the next engine starts without them
        }
    }

    private volatile List<String> remembered = List.of();
}
