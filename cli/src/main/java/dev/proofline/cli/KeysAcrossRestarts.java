package dev.proofline.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The keys a local engine holds, written down for the next engine of the state directory (with the
 * witness of each one's last proof) and opened again by it, each followed by throwaway proofs, so that an
 * engine restarted (by hand, after its idle timeout, or by a newer build) or taking over from another
 * ({@link Succession}) serves a known key at once.
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
     * Each is then proved {@link #PROOFS} times ({@link #throwawayProof}): at once, or, where
     * {@code warmUpFollows}, when the warm-up calls {@link #proveHeld} (its kernels compiled: a proof
     * before them compiled the scalar code, and the first request then ran the 8-lane transforms cold),
     * the key held open until then.
     */
    void reopen(boolean warmUpFollows) {
        List<String> paths = remembered();
        housekeeping.submit(() -> reopen(paths, warmUpFollows));
    }

    /**
     * For an engine that takes over from another ({@link Succession}): opens the keys the other one wrote
     * down, in this thread (the warm-up's), and proves each {@link #PROOFS} times ({@link #throwawayProof}),
     * at the engine's turns, so that it serves them at its full speed from its first request.
     */
    void reopenAndProve() {
        reopen(remembered(), false);
    }

    /** Opens the keys at {@code paths} and proves each, or holds it for {@link #proveHeld} where {@code warmUpFollows}. */
    private void reopen(List<String> paths, boolean warmUpFollows) {
        java.util.Map<String, String> witnesses = witnesses();
        for (String p : paths) {
            Held key = open(p, witnesses.get(p));
            if (key != null && (!warmUpFollows || !holdUnlessWarm(key))) {
                prove(key);
            }
        }
    }

    /** How long {@link #prove} waits for a key's tables to be built (at the engine's turns). */
    private static final java.time.Duration TABLES_WAIT = java.time.Duration.ofMinutes(5);

    /** The keys written down by the last engine of the state directory, the most recently used last (evicted last). */
    private List<String> remembered() {
        try {
            return java.nio.file.Files.readAllLines(home.residentKeysFile(), StandardCharsets.UTF_8).reversed();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Opens the key at {@code p} at the engine's turn, with the witness of its last proof ({@code witness},
     * null for none); null where it is gone, cannot be opened or is refused.
     */
    private Held open(String p, String witness) {
        Path zkey = Path.of(p);
        if (p.isBlank() || !zkey.isAbsolute() || !java.nio.file.Files.isRegularFile(zkey)) {
            return null;
        }
        housekeeping.awaitTurn();
        try {
            Loader.KeyLease lease = loader.provingKey(zkey);
            log.accept("reopened " + p);
            return new Held(p, lease, witness);
        } catch (RuntimeException e) {
            log.accept("not reopened " + p + ": " + e.getMessage());
            return null;
        }
    }

    /**
     * Throwaway proofs of each key reopened: after one, the next requests were still slower than the later
     * ones (docs/decisions/0026-kernels-engine-takes-over-once-warm.md).
     */
    static final int PROOFS = 3;

    /** A key reopened, by its path as remembered, with the witness of its last proof where one is remembered (else null). */
    private record Held(String path, Loader.KeyLease lease, String witness) {
    }

    /** The witnesses of the keys' last proofs, as the last engine wrote them down, by the keys' paths. */
    private java.util.Map<String, String> witnesses() {
        java.util.Map<String, String> out = new java.util.HashMap<>();
        try {
            List<String> lines = java.nio.file.Files.readAllLines(home.residentWitnessesFile(), StandardCharsets.UTF_8);
            for (int i = 0; i + 1 < lines.size(); i += 2) {
                out.put(lines.get(i), lines.get(i + 1));
            }
        } catch (IOException e) {
            // none written down
        }
        return out;
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
        keys.forEach(this::prove);
    }

    /**
     * Proves {@code key} {@link #PROOFS} times ({@link #throwawayProof}), with its tables where they are
     * coming (the MSMs through them are code of their own, which its requests run), and lets it go.
     */
    private void prove(Held key) {
        try (Loader.KeyLease lease = key.lease()) {
            try {
                lease.awaitTables(TABLES_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            // a witness that did not prove is not tried again: each proof would be done twice
            String witness = key.witness();
            for (int i = 0; i < PROOFS; i++) {
                housekeeping.awaitTurn();
                if (!throwawayProof(lease.key(), key.path(), witness)) {
                    witness = null;
                }
            }
            boolean itsOwn = witness != null;
            log.accept("warmed " + key.path() + " (" + PROOFS + " proofs"
                    + (itsOwn ? " with the witness of its last proof)" : " with a made-up witness)"));
        }
    }

    /**
     * A proof of {@code key} (the file {@code path}), run through the prove command as a request runs it (its
     * command line read, the witness read from a file, the key leased from the engine's files) and dropped
     * (written to a temporary directory), so that the JIT has compiled what the key's next request runs, at
     * its size (the warm-up's circuit is smaller), the command's own code included (an engine that had run
     * no command served its first request slower: docs/decisions/0026-kernels-engine-takes-over-once-warm.md).
     * The witness is that of the key's last
     * proof, {@code witness}, where there is one and it still proves (a proof that verifies, its files
     * written: what a request runs); else made up, and the proof's own verification rejects it. Whether
     * the witness was the last proof's.
     */
    private boolean throwawayProof(dev.proofline.groth16.ProvingKey key, String path, String witness) {
        Path dir = null;
        try {
            dir = java.nio.file.Files.createTempDirectory("proofline-warm-key");
            // the key held, handed to the command as it is (not counted as a use in the status)
            Loader held = new Loader() {
                @Override
                public KeyLease provingKey(Path zkey) {
                    return new KeyLease(key, () -> { });
                }

                @Override
                public dev.proofline.r1cs.wasm.CircomWasm witnessGenerator(Path wasm, Path cacheDir) {
                    return loader.witnessGenerator(wasm, cacheDir);
                }
            };
            Invocation invocation = new Invocation(false, held, new ClientPaths(dir));
            java.io.PrintWriter none = new java.io.PrintWriter(java.io.OutputStream.nullOutputStream());
            if (witness != null && java.nio.file.Files.isRegularFile(Path.of(witness))
                    && Main.run(invocation, none, none, "prove", path, witness, "proof.json", "public.json") == 0) {
                return true;
            }
            java.nio.file.Files.write(dir.resolve("w.wtns"), dev.proofline.r1cs.io.WtnsFile.write(
                    new dev.proofline.r1cs.Witness(key.curve(), madeUpWitness(key))));
            Main.run(invocation, none, none, "prove", path, "w.wtns", "proof.json", "public.json");
        } catch (IOException | RuntimeException e) {
            // only the JIT loses
        } finally {
            try {
                if (dir != null) {
                    Dirs.deleteTree(dir);
                }
            } catch (IOException e) {
                // a temporary directory left behind
            }
            key.verificationKey().prepare();   // not at the second request's check
        }
        return false;
    }

    /** A witness for {@code key} made up as a circom witness is made: mostly bits, some narrow values, some full. */
    private static long[] madeUpWitness(dev.proofline.groth16.ProvingKey key) {
        int n = key.variableCount();
        int words = dev.proofline.r1cs.Witness.WORDS;
        long[] w = new long[n * words];
        java.util.SplittableRandom random = new java.util.SplittableRandom(n);
        for (int i = 1; i < n; i++) {
            // the MSMs' terms of 0 and 1 take paths of their own, which a witness of full elements only left
            // to the first request; they group the other terms by width, each group with windows of its own
            int kind = random.nextInt(20);
            if (kind >= 8 && kind < 13) {
                w[i * words] = 1;
            } else if (kind >= 13 && kind < 16) {
                w[i * words] = random.nextLong() >>> random.nextInt(1, 63);
            } else if (kind >= 16) {
                for (int j = 0; j < words; j++) {
                    // below 2^253, below the scalar field's modulus on both curves
                    w[i * words + j] = j == words - 1 ? random.nextLong() >>> 11 : random.nextLong();
                }
            }
        }
        w[0] = 1;   // the constant wire
        return w;
    }

    /** Writes the resident keys' paths, and the witnesses of their last proofs, for the next engine, when they changed. */
    void remember() {
        List<String> paths = resident.keyPaths();
        java.util.Map<String, String> witnesses = resident.witnessPaths();
        try {
            if (!paths.equals(remembered)) {
                remembered = paths;
                home.writeResidentKeys(paths);
            }
            if (!witnesses.equals(rememberedWitnesses)) {
                rememberedWitnesses = witnesses;
                home.writeResidentWitnesses(witnesses);
            }
        } catch (IOException e) {
            // the next engine starts without them
        }
    }

    private volatile java.util.Map<String, String> rememberedWitnesses = java.util.Map.of();

    private volatile List<String> remembered = List.of();
}
