package dev.proofline.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
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
     * Each is then proved once with a made-up witness ({@link #throwawayProof}): at once, or, where
     * {@code warmUpFollows}, when the warm-up calls {@link #proveHeld} (its kernels compiled: a proof
     * before them compiled the scalar code, and the first request then ran the 8-lane transforms cold),
     * the key held open until then.
     */
    void reopen(boolean warmUpFollows) {
        List<String> paths = remembered();
        housekeeping.submit(() -> {
            for (String p : paths) {
                Held key = open(p);
                if (key != null && (!warmUpFollows || !holdUnlessWarm(key))) {
                    prove(key, 1);
                }
            }
        });
    }

    /**
     * For an engine that takes over from another ({@link Succession}): opens the keys the other one wrote
     * down, in this thread (the warm-up's), and proves each {@code proofs} times with a made-up witness,
     * at the engine's turns, so that it serves them at its full speed from its first request.
     */
    void reopenAndProve(int proofs) {
        for (String p : remembered()) {
            Held key = open(p);
            if (key != null) {
                prove(key, proofs);
            }
        }
    }

    /** The keys written down by the last engine of the state directory, the most recently used last (evicted last). */
    private List<String> remembered() {
        try {
            return java.nio.file.Files.readAllLines(home.residentKeysFile(), StandardCharsets.UTF_8).reversed();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Opens the key at {@code p} at the engine's turn; null where it is gone, cannot be opened or is refused. */
    private Held open(String p) {
        Path zkey = Path.of(p);
        if (p.isBlank() || !zkey.isAbsolute() || !java.nio.file.Files.isRegularFile(zkey)) {
            return null;
        }
        housekeeping.awaitTurn();
        try {
            Loader.KeyLease lease = loader.provingKey(zkey);
            log.accept("reopened " + p);
            return new Held(p, lease);
        } catch (RuntimeException e) {
            log.accept("not reopened " + p + ": " + e.getMessage());
            return null;
        }
    }

    /** A key reopened, by its path as remembered. */
    private record Held(String path, Loader.KeyLease lease) {
    }

    /** The keys reopened and held for the warm-up's end ({@link #proveHeld}); {@code warm}: it has come. */
    private final List<Held> held = new ArrayList<>();
    private boolean warm;

    private synchronized boolean holdUnlessWarm(Held key) {
        if (!warm) {
            held.add(key);
        }
        return !warm;
    }

    /** The warm-up's last step: proves each key reopened so far once, and lets it go; later ones are proved at once. */
    void proveHeld() {
        List<Held> keys;
        synchronized (this) {
            warm = true;
            keys = List.copyOf(held);
            held.clear();
        }
        keys.forEach(key -> prove(key, 1));
    }

    private void prove(Held key, int proofs) {
        try (Loader.KeyLease lease = key.lease()) {
            for (int i = 0; i < proofs; i++) {
                housekeeping.awaitTurn();
                throwawayProof(lease.key());
            }
        }
        log.accept("warmed " + key.path() + (proofs == 1 ? " (a proof" : " (" + proofs + " proofs")
                + " with a made-up witness)");
    }

    /**
     * A proof of {@code key} with a made-up witness, dropped: it runs the code the key's first request
     * will run at its size (the warm-up's circuit is smaller), so that the JIT has compiled it by then.
     * Its own verification rejects it (the witness satisfies nothing), which is expected.
     */
    static void throwawayProof(dev.proofline.groth16.ProvingKey key) {
        int n = key.variableCount();
        int words = dev.proofline.r1cs.Witness.WORDS;
        long[] w = new long[n * words];
        java.util.SplittableRandom random = new java.util.SplittableRandom(n);
        for (int i = 1; i < n; i++) {
            // as a circom witness is made: mostly bits (the MSMs' terms of 0 and 1 take paths of their own,
            // which a witness of full elements only left to the first request), the rest full elements
            int kind = random.nextInt(10);
            if (kind >= 4 && kind < 7) {
                w[i * words] = 1;
            } else if (kind >= 7) {
                for (int j = 0; j < words; j++) {
                    // below 2^253, below the scalar field's modulus on both curves
                    w[i * words + j] = j == words - 1 ? random.nextLong() >>> 11 : random.nextLong();
                }
            }
        }
        w[0] = 1;   // the constant wire
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
