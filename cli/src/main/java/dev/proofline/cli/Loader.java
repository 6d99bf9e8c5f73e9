package dev.proofline.cli;

import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.r1cs.wasm.CircomWasm;
import java.nio.file.Path;

/**
 * Opens what the proving commands read that is costly to open: proving keys (mapped, every point
 * checked on its curve) and circom witness generators (compiled to JVM classes). A one-off process
 * opens them afresh ({@link #ONE_OFF}); the local engine keeps them resident between requests
 * ({@link ResidentFiles}). Errors are those of {@link ZkeyFile#open(Path)} and
 * {@link CircomWasm#load(Path, Path)}, whichever loader opens the file.
 */
interface Loader {

    /** A proving key, checked as {@link ZkeyFile#open(Path)} checks it; the lease must be closed. */
    KeyLease provingKey(Path zkey);

    /** A witness generator, as {@link CircomWasm#load(Path, Path)} loads it (thread-safe, immutable). */
    CircomWasm witnessGenerator(Path wasm, Path cacheDir);

    /** Opens each file when asked; closing a lease closes its key. */
    Loader ONE_OFF = new Loader() {
        @Override
        public KeyLease provingKey(Path zkey) {
            ProvingKey key = ZkeyFile.open(zkey);
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

        KeyLease(ProvingKey key, Runnable release) {
            this.key = key;
            this.release = release;
        }

        ProvingKey key() {
            return key;
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
