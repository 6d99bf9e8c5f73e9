package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The common case of proving in one object: a snarkjs {@code .zkey} opened once (memory-mapped,
 * checked), then any number of proofs of witnesses ({@code .wtns} files, or {@link Witness}es), each
 * verified before it is returned, with its public signals. Thread-safe: proofs may run on several
 * threads at once. Closing it unmaps the key; no proof may run then.
 *
 * <pre>{@code
 * try (ZkeyProver prover = ZkeyProver.open(Path.of("circuit.zkey"))) {
 *     ProofWithSignals p = prover.prove(Path.of("witness.wtns"));
 *     p.write(Path.of("proof.json"), Path.of("public.json"));
 * }
 * }</pre>
 */
public final class ZkeyProver implements AutoCloseable {

    private final ProvingKey key;
    private final Prover prover;
    private final VerificationKey vk;

    private ZkeyProver(ProvingKey key, Prover prover) {
        this.key = key;
        this.prover = prover;
        this.vk = key.verificationKey();
    }

    /**
     * Opens {@code zkey}, checking it whole ({@link ZkeyFile#open(Path)}: every point on its curve, a few
     * seconds for a key of a million points); an unreadable or malformed key is a
     * {@link dev.proofline.r1cs.io.FormatException}.
     */
    public static ZkeyProver open(Path zkey) {
        return open(zkey, Prover.create());
    }

    /** As {@link #open(Path)}, proving with {@code prover} (its randomness, its listener). */
    public static ZkeyProver open(Path zkey, Prover prover) {
        return new ZkeyProver(ZkeyFile.open(zkey), prover);
    }

    /**
     * Gives the key precomputed tables of its point sets ({@link KeyTables}) of at most {@code maxBytes}
     * (256 MiB suits keys of up to about 2^16 constraints): its proofs then run faster, the small ones
     * most (BENCHMARKS.md, "Circom circuits"). The tables are mapped from {@code cacheDir} where an
     * earlier run left them ({@link KeyTableCache}, of its default size; null: no cache), else built now,
     * on all cores (seconds to tens of seconds) and written there. For an application that keeps the prover and proves many
     * times; returns this prover, or it as it was where the tables could not be made.
     */
    public ZkeyProver withKeyTables(long maxBytes, Path cacheDir) {
        KeyTableCache cache = cacheDir == null ? null : new KeyTableCache(cacheDir);
        if (cache == null || KeyTables.attachCached(key, maxBytes, cache).isEmpty()) {
            KeyTables.attachBuilt(key, maxBytes, cache, () -> { });
        }
        return this;
    }

    /**
     * Compiles the 8-lane kernels of the key's curve now (the NTT's butterflies, the G1 and G2 MSMs'
     * additions), where the JVM has the Vector module ({@code --add-modules jdk.incubator.vector}), and
     * returns whether they are in use. Without it they start by themselves only after the scalar
     * kernels have done a few seconds of work in their place; an application that proves often calls
     * it once, after opening the key. It takes one core for a few seconds, less with the JVM options
     * that {@code docs/embedding.md} gives. False where there is no module or the 8-lane kernels do not
     * apply (the scalar ones are used).
     */
    public boolean warmUp() {
        return warmUp(key.curve());
    }

    /** As {@link #warmUp()}, for the kernels of {@code curve}. */
    public static boolean warmUp(PairingCurve curve) {
        boolean ntt = Ntt.warmUp(curve.fr());
        boolean g1 = Msm.warmUp(curve.g1());
        Msm.warmUp(curve.g2());
        return ntt || g1;
    }

    /** A proof of the witness in {@code wtns} (circom's or snarkjs's witness file). */
    public ProofWithSignals prove(Path wtns) {
        return prove(WtnsFile.read(wtns));
    }

    /**
     * A proof of {@code witness}, verified. A witness for another curve or circuit size is an
     * {@link IllegalArgumentException}; one that does not satisfy the circuit a
     * {@link Prover.ProofRejectedException}.
     */
    public ProofWithSignals prove(Witness witness) {
        Proof proof = prover.prove(key, witness);
        return ProofWithSignals.ofDecimal(proof, witness.publicSignals(key.publicCount()));
    }

    /** Checks a proof against this key's verification key. */
    public Verifier.Result verify(ProofWithSignals proof) {
        return proof.verify(vk);
    }

    /** The key's verification key (snarkjs's {@code zkey export verificationkey}). */
    public VerificationKey verificationKey() {
        return vk;
    }

    /** Writes verification_key.json as snarkjs writes it. */
    public void writeVerificationKey(Path file) throws IOException {
        SnarkjsJson.write(file, SnarkjsJson.verificationKeyJson(vk));
    }

    /** The proving key, for the lower-level API ({@link Prover}); owned by this object. */
    public ProvingKey key() {
        return key;
    }

    /** Unmaps the key. */
    @Override
    public void close() {
        key.close();
    }
}
