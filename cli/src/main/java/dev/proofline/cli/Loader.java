package dev.proofline.cli;

import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.r1cs.wasm.CircomWasm;
import java.nio.file.Path;

/**
 * Opens what the proving commands read that is costly to open: proving keys (mapped) and circom
 * witness generators (compiled to JVM classes). A one-off process opens them afresh ({@link #ONE_OFF});
 * the local engine keeps them resident between requests ({@link ResidentFiles}) and checks every point
 * of a key on its curve once, in the background after the request that loaded it. Neither checks the
 * points before proving (that is 10-20% of a small proof's time): a bad point gives a proof that fails
 * the verification every proof goes through, and only then is the key checked, so that the error names
 * the bad point ({@link #explain}). Errors are those of {@link ZkeyFile#open(Path)} and
 * {@link CircomWasm#load(Path, Path)}, whichever loader opens the file.
 */
interface Loader {

    /** A proving key, checked as {@link ZkeyFile#open(Path)} checks it; the lease must be closed. */
    KeyLease provingKey(Path zkey);

    /** A witness generator, as {@link CircomWasm#load(Path, Path)} loads it (thread-safe, immutable). */
    CircomWasm witnessGenerator(Path wasm, Path cacheDir);

    /**
     * What a proof that failed with a key reports: when a point of the key is not on its curve, or not
     * canonical, that (an {@link IllegalArgumentException} naming the section and the point); otherwise
     * {@code failure} itself (the witness does not satisfy the circuit, or a bug).
     */
    static RuntimeException explain(Path zkey, RuntimeException failure) {
        try (ProvingKey checked = ZkeyFile.open(zkey)) {
            return failure;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /**
     * The directory for a witness generator's compiled classes: {@code given} ({@code --cache}), else
     * the state directory's ({@link EngineHome#wasmClassCacheDir}), else null (compiled each time).
     */
    static Path classCache(Path given) {
        return given != null ? given : EngineHome.fromEnvironment().wasmClassCacheDir().orElse(null);
    }

    /** Opens each file when asked (a key's points not checked: see {@link #explain}); closing a lease closes its key. */
    Loader ONE_OFF = new Loader() {
        @Override
        public KeyLease provingKey(Path zkey) {
            ProvingKey key = ZkeyFile.open(zkey, ZkeyFile.PointCheck.NONE);
            return new KeyLease(key, key::close);
        }

        @Override
        public CircomWasm witnessGenerator(Path wasm, Path cacheDir) {
            return CircomWasm.load(wasm, cacheDir);
        }
    };

    /** The use of a proving key for one command: closing it releases the key (closes it, or leaves it resident). */
    final class KeyLease implements AutoCloseable {

        private final ProvingKey key;
        private Runnable release;
        /** Released once the key's tables are attached or known not to come; null: none are coming. */
        private final java.util.concurrent.CountDownLatch tables;
        /** Told the witness file of a proof that verified with the key; null: nobody listens. */
        private final java.util.function.Consumer<Path> witnessUsed;

        KeyLease(ProvingKey key, Runnable release) {
            this(key, release, null, null);
        }

        KeyLease(ProvingKey key, Runnable release, java.util.concurrent.CountDownLatch tables,
                java.util.function.Consumer<Path> witnessUsed) {
            this.key = key;
            this.release = release;
            this.tables = tables;
            this.witnessUsed = witnessUsed;
        }

        /**
         * A proof with the key and the witness file {@code wtns} verified: the local engine remembers it,
         * to prove with it again when it warms up for the key (KeysAcrossRestarts).
         */
        void provedWith(Path wtns) {
            if (witnessUsed != null) {
                witnessUsed.accept(wtns.toAbsolutePath());
            }
        }

        ProvingKey key() {
            return key;
        }

        /**
         * Waits at most {@code timeout} for the key's precomputed tables, where a resident key's are being
         * built; whether they are settled (attached, or known not to come).
         */
        boolean awaitTables(java.time.Duration timeout) throws InterruptedException {
            return tables == null || tables.await(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        }

        /** Releases the key; later calls do nothing. */
        @Override
        public void close() {
            Runnable r = release;
            release = null;
            if (r != null) {
                r.run();
            }
        }
    }
}
