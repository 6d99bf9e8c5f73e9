package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.ntt.RootsOfUnity;
import dev.proofline.r1cs.Witness;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The Groth16 prover on the CPU, for snarkjs proving keys, in two halves:
 * <ul>
 *   <li>{@link #start}: a = A w and b = B w on the evaluation domain from the key's coefficients,
 *       c = a b pointwise ({@code Coefficients}; or a, b, c of the circuit's rows completed by
 *       {@code PublicRows}); a, b, c moved to the coset g H (g = snarkjs's shift, see
 *       {@link RootsOfUnity#snarkjsCosetShift}), h = a b - c there ({@code Quotient}); then the G1 MSMs
 *       ({@code ProofMsms}): A, B1, C (private variables) against the witness and H against h. snarkjs
 *       keys hold in H the points [tau^i ... / delta] already divided by Z on the coset, so no division
 *       is needed. On a small domain the MSMs A, B1, C and B in G2 run beside the transforms, and H
 *       after them ({@code ProofMsms.besideTransforms}).
 *   <li>{@link #finish}: the G2 MSM of B (unless {@code start} did it), assembly with the blinding r
 *       and s ({@code Assembly}: A = alpha + sum w_i A_i + r delta, B = beta + sum w_i B_i + s delta,
 *       C = sum_private w_i C_i + sum h_i H_i + s A + r B1 - r s delta), and verification of the proof
 *       against the key's verification key: a proof that fails it is an error, never a result.
 * </ul>
 * Work runs on the common fork-join pool (all cores).
 */
public final class Prover {

    /**
     * What {@link #start} hands to {@link #finish}: the key, the witness and the sums; also what a device
     * backend's sums become ({@link #started}).
     */
    public static final class Started {
        private final ProvingKey key;
        private final Witness witness;
        private final ProofSums sums;
        private final long abcNanos;
        private final long msmNanos;

        Started(ProvingKey key, Witness witness, ProofSums sums, long abcNanos, long msmNanos) {
            this.key = key;
            this.witness = witness;
            this.sums = sums;
            this.abcNanos = abcNanos;
            this.msmNanos = msmNanos;
        }

        public ProvingKey key() {
            return key;
        }

        public Witness witness() {
            return witness;
        }

        /**
         * The G1 sums; B in G2 where it was computed with them (a device that does, or a small proof's CPU
         * MSMs beside its transforms), else {@link #finish} computes it.
         */
        public ProofSums sums() {
            return sums;
        }

        /**
         * Time spent on a, b, c and the NTTs (H), in nanoseconds; after {@link #prepare}, the time of
         * prepare, and where the MSMs ran beside the transforms, the time of a, b, c (H is then part of
         * {@link #msmNanos}).
         */
        public long polynomialNanos() {
            return abcNanos;
        }

        /** Time spent on the G1 MSMs, in nanoseconds. */
        public long msmNanos() {
            return msmNanos;
        }
    }

    /**
     * A proof's sums computed elsewhere (a device backend), for {@link #finish}: {@code polynomialNanos}
     * and {@code msmNanos} as {@link Started} reports them.
     */
    public static Started started(ProvingKey key, Witness witness, ProofSums sums, long polynomialNanos,
            long msmNanos) {
        check(key, witness);
        return new Started(key, witness, sums, polynomialNanos, msmNanos);
    }

    /** A proof that failed its own verification: a bug, a corrupt key, or a witness that does not satisfy the circuit. */
    public static final class ProofRejectedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ProofRejectedException(String message) {
            super(message);
        }
    }

    /** Told when each step of a proof begins (for progress displays). */
    public interface Listener {
        /** {@code step} begins. */
        void step(Step step);

        /**
         * {@code step} has ended. Told only of steps that run side by side with others (a small proof's
         * transforms and its MSMs A, B1, C and B2, which then begin in another order than {@link Step}'s
         * and from other threads, one call at a time); any other step ends where the next one begins.
         */
        default void ended(Step step) {
        }
    }

    private final ProofRandomness randomness;
    private final Listener listener;
    private final boolean inOrder;

    private Prover(ProofRandomness randomness, Listener listener, boolean inOrder) {
        this.randomness = randomness;
        this.listener = listener;
        this.inOrder = inOrder;
    }

    /** A prover with fresh secure randomness for every proof. */
    public static Prover create() {
        return new Prover(ProofRandomness.secure(), s -> { }, false);
    }

    public Prover withRandomness(ProofRandomness r) {
        return new Prover(r, listener, inOrder);
    }

    public Prover withListener(Listener l) {
        return new Prover(randomness, l, inOrder);
    }

    /** Who is told of each step: a device backend tells it of the steps it runs itself. */
    public Listener listener() {
        return listener;
    }

    /**
     * This prover with its steps one after the other whatever the key's domain, never the MSMs beside
     * the transforms: the same proofs, the steps in {@link Step}'s order, each on all processors (for
     * measurements, and for callers that run several proofs at once anyway).
     */
    public Prover withStepsInOrder() {
        return new Prover(randomness, listener, true);
    }

    private void step(Step step) {
        listener.step(step);
    }

    private void ended(Step step) {
        listener.ended(step);
    }

    /**
     * The vectors {@link #start} computes a, b, c and H in: each at least the key's domain size times 4
     * words. Whatever they hold is overwritten, and they are free again once {@code start} returns, so
     * a caller proving many witnesses can reuse them (the engine takes them from its buffer pool).
     */
    public record Workspace(long[] a, long[] b, long[] c) {
        /** Fresh vectors for {@code key}. */
        public static Workspace allocate(ProvingKey key) {
            int words = key.domainSize() * 4;
            return new Workspace(new long[words], new long[words], new long[words]);
        }

        /** Words each vector needs for {@code key}. */
        public static long words(ProvingKey key) {
            return key.domainSize() * 4L;
        }

        void check(ProvingKey key) {
            long need = words(key);
            if (a.length < need || b.length < need || c.length < need) {
                throw new IllegalArgumentException("the workspace's vectors hold " + Math.min(a.length,
                        Math.min(b.length, c.length)) + " words, the key's domain needs " + need);
            }
        }
    }

    /**
     * The vectors of a proof in native memory, for a device backend that copies them to a device: a, b, c
     * (at least {@link #vectorBytes} each, the words in the {@code long[]} layout) and the witness's
     * canonical words (at least {@link #witnessBytes}). The engine takes them from its buffer pool, which
     * holds page-locked memory on a GPU backend. Whatever they hold is overwritten by {@link #prepare}.
     */
    public record NativeWorkspace(MemorySegment a, MemorySegment b, MemorySegment c, MemorySegment witness) {
        /** Bytes of each of a, b, c for {@code key}: its domain size times 32. */
        public static long vectorBytes(ProvingKey key) {
            return key.domainSize() * 32L;
        }

        /** Bytes of the witness for {@code key}: its variable count times 32. */
        public static long witnessBytes(ProvingKey key) {
            return key.variableCount() * 32L;
        }

        void check(ProvingKey key) {
            long need = vectorBytes(key);
            for (MemorySegment v : new MemorySegment[] {a, b, c}) {
                if (v.byteSize() < need) {
                    throw new IllegalArgumentException("a native vector of " + v.byteSize()
                            + " bytes; the key's domain needs " + need);
                }
            }
            if (witness.byteSize() < witnessBytes(key)) {
                throw new IllegalArgumentException("a native witness buffer of " + witness.byteSize()
                        + " bytes; the key's variables need " + witnessBytes(key));
            }
        }
    }

    /** What {@link #prepare} hands to {@link #start(Prepared)}: the key, the witness and the native vectors. */
    public static final class Prepared {
        private final ProvingKey key;
        private final Witness witness;
        private final NativeWorkspace workspace;
        private final long nanos;
        private final boolean abcLeft;

        private Prepared(ProvingKey key, Witness witness, NativeWorkspace workspace, long nanos, boolean abcLeft) {
            this.key = key;
            this.witness = witness;
            this.workspace = workspace;
            this.nanos = nanos;
            this.abcLeft = abcLeft;
        }

        /**
         * Whether a, b, c were left to the device ({@link #prepare}'s {@code abcOnDevice}): the workspace
         * then holds only the witness.
         */
        public boolean abcLeftToDevice() {
            return abcLeft;
        }

        public ProvingKey key() {
            return key;
        }

        public Witness witness() {
            return witness;
        }

        public NativeWorkspace workspace() {
            return workspace;
        }
    }

    /**
     * The CPU part of {@link #start} on native vectors, which a device backend runs before it takes the
     * device: with {@code rows >= 0}, a, b, c of the circuit's {@code rows} constraints are already in
     * the first {@code rows} elements of the workspace's vectors (e.g. written there by the PCE) and the
     * rows snarkjs's setup adds are appended, as {@link #start(ProvingKey, Witness, Workspace, int)}
     * does; with {@code rows < 0} a and b come from the key's coefficients and c = a b, here, or on
     * the device where {@code abcOnDevice} says it computes them (the vectors are then left as they
     * are). The rest of the domain is zeroed, and the witness's canonical words are copied into the
     * workspace.
     */
    public Prepared prepare(ProvingKey key, Witness witness, NativeWorkspace ws, int rows, boolean abcOnDevice) {
        check(key, witness);
        ws.check(key);
        long t0 = System.nanoTime();
        step(Step.ABC);
        boolean abcLeft = rows < 0 && abcOnDevice;
        if (rows >= 0) {
            PublicRows.check(key, rows);
            PublicRows.append(key, witness, ws.a(), ws.b(), ws.c(), rows);
        } else if (!abcLeft) {
            Coefficients.abc(key, witness, ws.a(), ws.b(), ws.c());
        }
        long[] w = witness.words();
        MemorySegment.copy(w, 0, ws.witness(), ValueLayout.JAVA_LONG, 0, key.variableCount() * 4);
        return new Prepared(key, witness, ws, System.nanoTime() - t0, abcLeft);
    }

    /**
     * H and the G1 MSMs from {@link #prepare}d native vectors on the CPU, from heap copies (a device
     * backend computes them from the native vectors itself). {@link Started#polynomialNanos} is then the
     * time of {@code prepare} and the transforms.
     */
    public Started start(Prepared p) {
        ProvingKey key = p.key;
        long t1 = System.nanoTime();
        if (p.abcLeft) {
            throw new IllegalStateException("prepared for a device that computes a, b, c; the CPU cannot start it");
        }
        long bytes = NativeWorkspace.vectorBytes(key);
        long[] a = p.workspace.a().asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
        long[] b = p.workspace.b().asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
        long[] c = p.workspace.c().asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
        return sums(key, p.witness, a, b, c, t1 - p.nanos);
    }

    /** Both halves. */
    public Proof prove(ProvingKey key, Witness witness) {
        return finish(start(key, witness));
    }

    /**
     * As {@link #start(ProvingKey, Witness)}, with a = A w, b = B w, c = C w already computed for the
     * circuit's own constraints (Montgomery form, one element per constraint), e.g. by the PCE or the
     * enforce path. The rows snarkjs's setup adds (w_i in A for w_0 and each public signal) are
     * appended here. For a witness that satisfies the circuit the proof equals the one computed from
     * the key's coefficients; the coefficients are not read.
     */
    public Started start(ProvingKey key, Witness witness, long[] a, long[] b, long[] c) {
        int rows = a.length / 4;
        if (b.length != a.length || c.length != a.length || a.length % 4 != 0) {
            throw new IllegalArgumentException("a, b, c must have the same number of 4-word elements");
        }
        PublicRows.check(key, rows);
        Workspace ws = Workspace.allocate(key);
        System.arraycopy(a, 0, ws.a(), 0, a.length);
        System.arraycopy(b, 0, ws.b(), 0, b.length);
        System.arraycopy(c, 0, ws.c(), 0, c.length);
        return start(key, witness, ws, rows);
    }

    /**
     * As {@link #start(ProvingKey, Witness, long[], long[], long[])}, with a, b, c of the circuit's
     * {@code rows} constraints already in the first {@code rows} elements of the workspace's vectors
     * (e.g. written there by the PCE); the rest of the vectors is overwritten.
     */
    public Started start(ProvingKey key, Witness witness, Workspace ws, int rows) {
        check(key, witness);
        ws.check(key);
        PublicRows.check(key, rows);
        long t0 = System.nanoTime();
        step(Step.ABC);
        PublicRows.append(key, witness, ws.a(), ws.b(), ws.c(), rows);
        return sums(key, witness, ws.a(), ws.b(), ws.c(), t0);
    }

    /**
     * a, b, c of a proof on the CPU, in {@code ws} (Montgomery form, on the key's domain), for a device
     * backend that runs H and the MSMs on heap vectors: with {@code rows >= 0} the circuit's rows are
     * there already (the PCE wrote them) and the public rows are appended; with {@code rows < 0} all of
     * them from the key's coefficients. Returns the workspace's vectors, typed by their form.
     */
    public Abc abc(ProvingKey key, Witness witness, Workspace ws, int rows) {
        check(key, witness);
        ws.check(key);
        if (rows >= 0) {
            PublicRows.check(key, rows);
            step(Step.ABC);
            PublicRows.append(key, witness, ws.a(), ws.b(), ws.c(), rows);
        } else {
            abc(key, witness, ws);
        }
        return new Abc(new Scalars.Montgomery(ws.a()), new Scalars.Montgomery(ws.b()), new Scalars.Montgomery(ws.c()));
    }

    /** a, b, c of a proof on the key's domain, complete: what H is computed from. */
    public record Abc(Scalars.Montgomery a, Scalars.Montgomery b, Scalars.Montgomery c) {
    }

    /**
     * a, b, c; H by NTTs; the G1 MSMs. The workspace is this call's own. With the steps in order it is no
     * longer reachable once H is computed (h takes a's place, and no frame holds b and c), so that b and
     * c are garbage while the MSMs run; a small domain's MSMs beside the transforms keep them to the end
     * (at most 2 x 2^16 elements).
     */
    public Started start(ProvingKey key, Witness witness) {
        check(key, witness);
        long t0 = System.nanoTime();
        if (besideTransforms(key)) {
            return abcAndSums(key, witness, Workspace.allocate(key), t0);
        }
        long[] h = abcAndQuotient(key, witness, Workspace.allocate(key));
        return msms(key, witness, h, t0);
    }

    /** As {@link #start(ProvingKey, Witness)}, computing in {@code ws}. */
    public Started start(ProvingKey key, Witness witness, Workspace ws) {
        check(key, witness);
        ws.check(key);
        long t0 = System.nanoTime();
        return abcAndSums(key, witness, ws, t0);
    }

    private static void check(ProvingKey key, Witness witness) {
        PairingCurve curve = key.curve();
        if (witness.curve() != curve) {
            throw new IllegalArgumentException("the witness is for " + witness.curve().snarkjsName() + ", the key "
                    + key.source() + " for " + curve.snarkjsName());
        }
        if (witness.size() != key.variableCount()) {
            throw new IllegalArgumentException("the witness has " + witness.size() + " values, the key "
                    + key.source() + " expects " + key.variableCount() + " (its nVars)");
        }
        if (witness.size() > 0 && !witness.value(0).equals(BigInteger.ONE)) {
            throw new IllegalArgumentException("the witness's first value (the constant signal) is " + witness.value(0)
                    + ", expected 1");
        }
    }

    /** a, b, c from the key's coefficients, computed in {@code ws}, then {@link #sums}. */
    private Started abcAndSums(ProvingKey key, Witness witness, Workspace ws, long t0) {
        abc(key, witness, ws);
        return sums(key, witness, ws.a(), ws.b(), ws.c(), t0);
    }

    /** h from the key's coefficients, computed in {@code ws}: a, b, c, then {@link #quotient(ProvingKey, long[], long[], long[])}. */
    private long[] abcAndQuotient(ProvingKey key, Witness witness, Workspace ws) {
        abc(key, witness, ws);
        return quotient(key, ws.a(), ws.b(), ws.c());
    }

    private void abc(ProvingKey key, Witness witness, Workspace ws) {
        step(Step.ABC);
        Coefficients.abc(key, witness, ws.a(), ws.b(), ws.c());
    }

    /** Whether {@link #sums} runs the MSMs beside the transforms for {@code key}. */
    private boolean besideTransforms(ProvingKey key) {
        return !inOrder && ProofMsms.sideBySide(key);
    }

    /**
     * h from a, b, c on the domain (consumed), then the G1 MSMs: one after the other, or for a small domain with the MSMs A, B1, C and B2 beside the transforms
     * ({@code ProofMsms.besideTransforms}, B2 then done here instead of in {@link #finish}).
     */
    private Started sums(ProvingKey key, Witness witness, long[] a, long[] b, long[] c, long t0) {
        if (besideTransforms(key)) {
            long t1 = System.nanoTime();
            ProofSums sums = ProofMsms.besideTransforms(key, witness.words(), a, b, c, this::step, this::ended);
            return new Started(key, witness, sums, t1 - t0, System.nanoTime() - t1);
        }
        long[] h = quotient(key, a, b, c);
        return msms(key, witness, h, t0);
    }

    /** h on the coset from a, b, c on the domain (consumed), by {@link Quotient}. */
    private long[] quotient(ProvingKey key, long[] a, long[] b, long[] c) {
        step(Step.H);
        return Quotient.compute(key, a, b, c);
    }

    /** The G1 MSMs by {@link ProofMsms}; {@code t0} is when a, b, c began. */
    private Started msms(ProvingKey key, Witness witness, long[] h, long t0) {
        long t1 = System.nanoTime();
        ProofSums sums = ProofMsms.g1(key, witness.words(), h, this::step);
        long t2 = System.nanoTime();
        return new Started(key, witness, sums, t1 - t0, t2 - t1);
    }

    /** The G2 MSM, assembly with r and s, and verification. */
    public Proof finish(Started st) {
        ProvingKey key = st.key;
        ProofSums sums = st.sums;
        long[] sumB2;
        if (sums.hasB2()) {
            sumB2 = sums.b2().jacobian();
        } else {
            step(Step.MSM_B2);
            sumB2 = ProofMsms.b2(key, st.witness.words());
        }
        step(Step.ASSEMBLY);
        ProofRandomness.Pair rs = randomness.draw(key.curve().g1().order());
        Proof proof = Assembly.proof(key, sums.a().jacobian(), sums.b1().jacobian(), sumB2, sums.c().jacobian(),
                sums.h().jacobian(), rs.r(), rs.s());
        step(Step.VERIFICATION);
        Verifier.Result v = Verifier.check(key.verificationKey(),
                publicSignals(st.witness, key.publicCount()), proof);
        if (!v.valid()) {
            throw new ProofRejectedException("the proof fails its own verification (" + v.reason()
                    + "): the witness does not satisfy the circuit of " + key.source() + ", or the key is corrupt");
        }
        return proof;
    }

    static List<BigInteger> publicSignals(Witness w, int nPublic) {
        List<BigInteger> out = new ArrayList<>(nPublic);
        for (int i = 1; i <= nPublic; i++) {
            out.add(w.value(i));
        }
        return out;
    }
}
