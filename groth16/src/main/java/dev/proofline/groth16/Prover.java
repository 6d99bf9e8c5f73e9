package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.Parallel;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.BinFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * The Groth16 prover on the CPU, for snarkjs proving keys, in two halves:
 * <ul>
 *   <li>{@link #start}: a = A w and b = B w on the evaluation domain from the key's coefficients,
 *       c = a b pointwise; a, b, c moved to the coset g H (g = snarkjs's shift, see
 *       {@link RootsOfUnity#snarkjsCosetShift}), h = a b - c there; then the G1 MSMs: A, B1, C (private
 *       variables) against the witness and H against h. snarkjs keys hold in H the points
 *       [tau^i ... / delta] already divided by Z on the coset, so no division is needed.
 *   <li>{@link #finish}: the G2 MSM of B, assembly with the blinding r and s
 *       (A = alpha + sum w_i A_i + r delta, B = beta + sum w_i B_i + s delta,
 *       C = sum_private w_i C_i + sum h_i H_i + s A + r B1 - r s delta), and verification of the proof
 *       against the key's verification key: a proof that fails it is an error, never a result.
 * </ul>
 * Work runs on the common fork-join pool (all cores).
 */
public final class Prover {


    /** What {@link #start} hands to {@link #finish}: the G1 sums, Jacobian, and the inputs. */
    public static final class Started {
        private final ProvingKey key;
        private final Witness witness;
        private final long[] sumA;
        private final long[] sumB1;
        private final long[] sumC;
        private final long[] sumH;
        /** B in G2 when an accelerator computed it with the G1 sums; null: {@link #finish} computes it. */
        private final long[] sumB2;
        private final long abcNanos;
        private final long msmNanos;

        Started(ProvingKey key, Witness witness, long[][] sums, long abcNanos, long msmNanos) {
            this.key = key;
            this.witness = witness;
            this.sumA = sums[0];
            this.sumB1 = sums[1];
            this.sumC = sums[2];
            this.sumH = sums[3];
            this.sumB2 = sums.length > 4 ? sums[4] : null;
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
         * Time spent on a, b, c and the NTTs (H), in nanoseconds; after {@link #prepare}, the time of
         * prepare (H is then part of {@link #msmNanos}).
         */
        public long polynomialNanos() {
            return abcNanos;
        }

        /** Time spent on the G1 MSMs, in nanoseconds. */
        public long msmNanos() {
            return msmNanos;
        }
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
        /** Step {@code index} of {@code total} begins; {@code name} says what it is. */
        void step(int index, int total, String name);
    }

    /** The steps a proof goes through, in order (both halves). */
    public static final List<String> STEPS = List.of("a, b, c", "H (NTTs)", "MSM A", "MSM B1", "MSM C", "MSM H",
            "MSM B2", "assembly", "verification");

    /**
     * Where {@link #start}'s heavy steps run instead of the CPU code: the NTTs of H and the G1 MSMs
     * (a GPU backend plugs in here). a, b, c are still computed on the CPU, and {@link #finish} (G2 MSM,
     * assembly, verification) runs on the CPU, so a proof made with an accelerator is verified by the
     * same code as any other.
     */
    public interface Accelerator {
        /**
         * h, canonical words (the H MSM's scalars), from a, b, c on the key's domain (Montgomery form; the
         * vectors may be longer than the domain and may be overwritten).
         */
        long[] quotient(ProvingKey key, long[] a, long[] b, long[] c);

        /**
         * The four G1 sums as Jacobian points: A (witness against points A), B1, C (the private
         * witness values against points C) and H ({@code h} against points H); and optionally a fifth,
         * B in G2 (witness against points B2, Jacobian over Fp2), which {@link #finish} then uses instead
         * of computing it on the CPU.
         */
        long[][] g1Sums(ProvingKey key, long[] witness, long[] h);

        /**
         * H and the four G1 sums (optionally B in G2 too, as {@link #g1Sums}) from vectors in native
         * memory, prepared by {@link #prepare}: a, b, c
         * complete on the key's domain (Montgomery form; they may be overwritten) and the witness's
         * canonical words. A device backend copies them from there without a staging copy (page-locked
         * memory goes to the device by DMA). By default they are copied to the heap, then
         * {@link #quotient} and {@link #g1Sums}.
         */
        default long[][] sums(ProvingKey key, NativeWorkspace ws) {
            long bytes = NativeWorkspace.vectorBytes(key);
            long[] a = ws.a().asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
            long[] b = ws.b().asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
            long[] c = ws.c().asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
            long[] h = quotient(key, a, b, c);
            long[] w = ws.witness().asSlice(0, NativeWorkspace.witnessBytes(key)).toArray(ValueLayout.JAVA_LONG);
            return g1Sums(key, w, h);
        }
    }

    private final ProofRandomness randomness;
    private final Listener listener;
    private final Accelerator accelerator;

    private Prover(ProofRandomness randomness, Listener listener, Accelerator accelerator) {
        this.randomness = randomness;
        this.listener = listener;
        this.accelerator = accelerator;
    }

    /** A prover with fresh secure randomness for every proof. */
    public static Prover create() {
        return new Prover(ProofRandomness.secure(), (i, n, s) -> { }, null);
    }

    public Prover withRandomness(ProofRandomness r) {
        return new Prover(r, listener, accelerator);
    }

    public Prover withListener(Listener l) {
        return new Prover(randomness, l, accelerator);
    }

    /** This prover with H and the G1 MSMs on {@code a} (null: on the CPU). */
    public Prover withAccelerator(Accelerator a) {
        return new Prover(randomness, listener, a);
    }

    private void step(String name) {
        listener.step(STEPS.indexOf(name), STEPS.size(), name);
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
     * The vectors of a proof in native memory, for an accelerator that copies them to a device: a, b, c
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

        private Prepared(ProvingKey key, Witness witness, NativeWorkspace workspace, long nanos) {
            this.key = key;
            this.witness = witness;
            this.workspace = workspace;
            this.nanos = nanos;
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
     * does; with {@code rows < 0} a and b come from the key's coefficients and c = a b. The rest of the
     * domain is zeroed, and the witness's canonical words are copied into the workspace.
     */
    public Prepared prepare(ProvingKey key, Witness witness, NativeWorkspace ws, int rows) {
        check(key, witness);
        ws.check(key);
        long t0 = System.nanoTime();
        step("a, b, c");
        PrimeField fr = key.curve().fr();
        int n = key.domainSize();
        long end = NativeWorkspace.vectorBytes(key);
        if (rows >= 0) {
            checkRows(key, rows);
            int nPublic = key.publicCount();
            for (MemorySegment v : new MemorySegment[] {ws.a(), ws.b(), ws.c()}) {
                v.asSlice(rows * 32L, end - rows * 32L).fill((byte) 0);
            }
            long[] w = witness.words();
            long[] t = new long[4];
            for (int s = 0; s <= nPublic; s++) {
                fr.toMontgomery(w, s * 4, t, 0);
                MemorySegment.copy(t, 0, ws.a(), ValueLayout.JAVA_LONG, (rows + s) * 32L, 4);
            }
        } else {
            ws.a().asSlice(0, end).fill((byte) 0);
            ws.b().asSlice(0, end).fill((byte) 0);
            evaluate(key, witness, ws.a(), ws.b());
            parallelChunks(n, (lo, hi) -> {
                int len = (hi - lo) * 4;
                long[] x = new long[len];
                long[] y = new long[len];
                MemorySegment.copy(ws.a(), ValueLayout.JAVA_LONG, lo * 32L, x, 0, len);
                MemorySegment.copy(ws.b(), ValueLayout.JAVA_LONG, lo * 32L, y, 0, len);
                for (int i = 0; i < len; i += 4) {
                    fr.mul(x, i, y, i, x, i);
                }
                MemorySegment.copy(x, 0, ws.c(), ValueLayout.JAVA_LONG, lo * 32L, len);
            });
        }
        long[] w = witness.words();
        MemorySegment.copy(w, 0, ws.witness(), ValueLayout.JAVA_LONG, 0, key.variableCount() * 4);
        return new Prepared(key, witness, ws, System.nanoTime() - t0);
    }

    /**
     * H and the G1 MSMs from {@link #prepare}d native vectors: on the accelerator
     * ({@link Accelerator#sums}), or without one on the CPU from heap copies. {@link Started#polynomialNanos}
     * is then the time of {@code prepare}, {@link Started#msmNanos} the time of this call.
     */
    public Started start(Prepared p) {
        ProvingKey key = p.key;
        long t1 = System.nanoTime();
        if (accelerator != null) {
            step("H (NTTs)");
            long[][] sums = accelerator.sums(key, p.workspace);
            return new Started(key, p.witness, sums, p.nanos, System.nanoTime() - t1);
        }
        long bytes = NativeWorkspace.vectorBytes(key);
        long[] a = p.workspace.a().asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
        long[] b = p.workspace.b().asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
        long[] c = p.workspace.c().asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
        long[] h = quotient(key, a, b, c, this);
        return msms(key, p.witness, h, t1 - p.nanos);
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
        checkRows(key, rows);
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
        checkRows(key, rows);
        PrimeField fr = key.curve().fr();
        long t0 = System.nanoTime();
        step("a, b, c");
        int n = key.domainSize();
        int nPublic = key.publicCount();
        long[] w = witness.words();
        for (long[] v : new long[][] {ws.a(), ws.b(), ws.c()}) {
            java.util.Arrays.fill(v, rows * 4, n * 4, 0L);
        }
        for (int s = 0; s <= nPublic; s++) {
            fr.toMontgomery(w, s * 4, ws.a(), (rows + s) * 4);
        }
        long[] h = quotient(key, ws.a(), ws.b(), ws.c(), this);
        return msms(key, witness, h, t0);
    }

    private static void checkRows(ProvingKey key, int rows) {
        int nPublic = key.publicCount();
        if (rows < 0 || (long) rows + nPublic + 1 > key.domainSize()) {
            throw new IllegalArgumentException(rows + " constraints and " + (nPublic + 1)
                    + " public rows do not fit the key's domain of " + key.domainSize());
        }
    }

    /**
     * a, b, c; H by NTTs; the G1 MSMs. The workspace is this call's own and is no longer reachable once H
     * is computed (h takes a's place), so that b and c are garbage while the MSMs run.
     */
    public Started start(ProvingKey key, Witness witness) {
        check(key, witness);
        long t0 = System.nanoTime();
        long[] h = quotient(key, witness, Workspace.allocate(key), this);
        return msms(key, witness, h, t0);
    }

    /** As {@link #start(ProvingKey, Witness)}, computing in {@code ws}. */
    public Started start(ProvingKey key, Witness witness, Workspace ws) {
        check(key, witness);
        ws.check(key);
        long t0 = System.nanoTime();
        long[] h = quotient(key, witness, ws, this);
        return msms(key, witness, h, t0);
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

    private Started msms(ProvingKey key, Witness witness, long[] h, long t0) {
        PairingCurve curve = key.curve();
        long t1 = System.nanoTime();
        long[] w = witness.words();
        int nVars = key.variableCount();
        int nPublic = key.publicCount();
        if (accelerator != null) {
            step("MSM A");
            long[][] sums = accelerator.g1Sums(key, w, h);
            long t2 = System.nanoTime();
            return new Started(key, witness, sums, t1 - t0, t2 - t1);
        }
        WeierstrassCurve g1 = curve.g1();
        Msm msm = Msm.on(g1);
        KeyTables t = key.tables();
        step("MSM A");
        long[] sumA = KeyTables.multiply(msm, t == null ? null : t.a(), key.pointsA(), w, 0, nVars);
        step("MSM B1");
        long[] sumB1 = KeyTables.multiply(msm, t == null ? null : t.b1(), key.pointsB1(), w, 0, nVars);
        step("MSM C");
        long[] sumC = KeyTables.multiply(msm, t == null ? null : t.c(), key.pointsC(), w, nPublic + 1,
                nVars - nPublic - 1);
        step("MSM H");
        long[] sumH = KeyTables.multiply(msm, t == null ? null : t.h(), key.pointsH(), h, 0, key.domainSize());
        long t2 = System.nanoTime();
        return new Started(key, witness, new long[][] {sumA, sumB1, sumC, sumH}, t1 - t0, t2 - t1);
    }

    /** The G2 MSM, assembly with r and s, and verification. */
    public Proof finish(Started st) {
        ProvingKey key = st.key;
        PairingCurve curve = key.curve();
        WeierstrassCurve g1 = curve.g1();
        WeierstrassCurve g2 = curve.g2();
        long[] w = st.witness.words();
        step("MSM B2");
        KeyTables tables = key.tables();
        long[] sumB2 = st.sumB2 != null ? st.sumB2.clone()
                : KeyTables.multiply(Msm.on(g2), tables == null ? null : tables.b2(), key.pointsB2(), w, 0,
                        key.variableCount());
        step("assembly");
        ProofRandomness.Pair rs = randomness.draw(g1.order());
        BigInteger r = rs.r();
        BigInteger s = rs.s();
        PointArithmetic p1 = g1.arithmetic();
        PointArithmetic p2 = g2.arithmetic();
        int j1 = g1.jacobianWidth();

        long[] a = st.sumA.clone();
        addAffine(p1, a, key.alpha1());
        addMultiple(p1, a, key.delta1(), r);

        long[] b = sumB2;
        addAffine(p2, b, key.beta2());
        addMultiple(p2, b, key.delta2(), s);

        long[] b1 = st.sumB1.clone();
        addAffine(p1, b1, key.beta1());
        addMultiple(p1, b1, key.delta1(), s);

        long[] c = st.sumC.clone();
        p1.add(c, 0, st.sumH, 0, c, 0);
        long[] t = new long[j1];
        p1.mul(a, 0, s, t, 0);
        p1.add(c, 0, t, 0, c, 0);
        p1.mul(b1, 0, r, t, 0);
        p1.add(c, 0, t, 0, c, 0);
        BigInteger rs2 = r.multiply(s).mod(g1.order());
        addMultiple(p1, c, key.delta1(), g1.order().subtract(rs2).mod(g1.order()));

        Proof proof = new Proof(curve, affine(p1, a, g1.affineWidth()), affine(p2, b, g2.affineWidth()),
                affine(p1, c, g1.affineWidth()));
        step("verification");
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

    private static void addAffine(PointArithmetic pa, long[] acc, long[] affine) {
        pa.addMixed(acc, 0, affine, 0, acc, 0);
    }

    private static void addMultiple(PointArithmetic pa, long[] acc, long[] affine, BigInteger k) {
        long[] t = new long[acc.length];
        pa.mulAffine(affine, 0, k, t, 0);
        pa.add(acc, 0, t, 0, acc, 0);
    }

    private static long[] affine(PointArithmetic pa, long[] jac, int aw) {
        long[] r = new long[aw];
        pa.toAffine(jac, 0, r, 0);
        return r;
    }

    // ---------------------------------------------------------------- a, b, c and H

    /**
     * h on the coset, canonical words (the MSM's scalars): a = A w, b = B w (Montgomery form), c = a b;
     * each taken from values on the domain to values on the coset; h = a b - c.
     */
    static long[] quotient(ProvingKey key, Witness witness, Workspace ws, Prover prover) {
        prover.step("a, b, c");
        PrimeField fr = key.curve().fr();
        int n = key.domainSize();
        int words = fr.limbs();
        long[] a = ws.a();
        long[] b = ws.b();
        long[] c = ws.c();
        java.util.Arrays.fill(a, 0, n * words, 0L);
        java.util.Arrays.fill(b, 0, n * words, 0L);
        evaluate(key, witness, a, b);
        parallelChunks(n, (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                fr.mul(a, i * words, b, i * words, c, i * words);
            }
        });
        return quotient(key, a, b, c, prover);
    }

    /** h on the coset from a, b, c on the domain (Montgomery form, domain-size vectors), consumed. */
    static long[] quotient(ProvingKey key, long[] a, long[] b, long[] c, Prover prover) {
        if (prover.accelerator != null) {
            prover.step("H (NTTs)");
            return prover.accelerator.quotient(key, a, b, c);
        }
        PrimeField fr = key.curve().fr();
        int n = key.domainSize();
        int words = fr.limbs();
        prover.step("H (NTTs)");
        Ntt ntt = Ntt.of(fr, key.logDomainSize());
        long[] g = RootsOfUnity.snarkjsCosetShift(fr, key.logDomainSize());
        // one after the other, each on all cores; a task handed to the common pool and joined from this
        // thread would wait forever while the pool's workers are busy elsewhere (it has one on two cores)
        ntt.evaluationsOnCoset(a, g, 0);
        ntt.evaluationsOnCoset(b, g, 0);
        ntt.evaluationsOnCoset(c, g, 0);
        long[] one = new long[words];
        one[0] = 1;
        parallelChunks(n, (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                int o = i * words;
                fr.mul(a, o, b, o, a, o);
                fr.sub(a, o, c, o, a, o);
                fr.mul(a, o, one, 0, a, o); // Montgomery form -> canonical words
            }
        });
        return a;
    }

    /**
     * a or b (by the matrix) [constraint] += value * w[signal] over all coefficients. The value is stored as the
     * Montgomery form of (coefficient R), so one Montgomery product with the canonical witness value
     * gives the Montgomery form of coefficient * w. In parallel when the key lists each matrix in
     * constraint order (ranges cut where the constraint changes, so no two threads share one).
     */
    private static void evaluate(ProvingKey key, Witness witness, long[] a, long[] b) {
        MemorySegment coefs = key.coefficients();
        long[] w = witness.words();
        PrimeField fr = key.curve().fr();
        int[] cut = cuts(key);
        IntStream.range(0, cut.length - 1).parallel().forEach(p -> {
            long[] v = new long[4];
            long[] t = new long[4];
            for (int i = cut[p]; i < cut[p + 1]; i++) {
                long o = (long) i * ProvingKey.COEFFICIENT_BYTES;
                long[] out = coefs.get(BinFile.U32, o) == 0 ? a : b;
                int c = coefs.get(BinFile.U32, o + 4);
                int s = coefs.get(BinFile.U32, o + 8);
                MemorySegment.copy(coefs, BinFile.U64, o + 12, v, 0, 4);
                fr.mul(v, 0, w, s * 4, t, 0);
                fr.add(out, c * 4, t, 0, out, c * 4);
            }
        });
    }

    /** As {@link #evaluate(ProvingKey, Witness, long[], long[])} into native vectors. */
    private static void evaluate(ProvingKey key, Witness witness, MemorySegment a, MemorySegment b) {
        MemorySegment coefs = key.coefficients();
        long[] w = witness.words();
        PrimeField fr = key.curve().fr();
        int[] cut = cuts(key);
        IntStream.range(0, cut.length - 1).parallel().forEach(p -> {
            long[] v = new long[4];
            long[] t = new long[4];
            long[] acc = new long[4];
            for (int i = cut[p]; i < cut[p + 1]; i++) {
                long o = (long) i * ProvingKey.COEFFICIENT_BYTES;
                MemorySegment out = coefs.get(BinFile.U32, o) == 0 ? a : b;
                long at = coefs.get(BinFile.U32, o + 4) * 32L;
                int s = coefs.get(BinFile.U32, o + 8);
                MemorySegment.copy(coefs, BinFile.U64, o + 12, v, 0, 4);
                fr.mul(v, 0, w, s * 4, t, 0);
                MemorySegment.copy(out, ValueLayout.JAVA_LONG, at, acc, 0, 4);
                fr.add(acc, 0, t, 0, acc, 0);
                MemorySegment.copy(acc, 0, out, ValueLayout.JAVA_LONG, at, 4);
            }
        });
    }

    /**
     * The key's coefficients cut into ranges for parallel evaluation (range p is [cut[p], cut[p + 1])):
     * several when the key lists each matrix in constraint order, cut where the constraint changes so
     * that no two ranges write one constraint; one range otherwise.
     */
    private static int[] cuts(ProvingKey key) {
        int to = key.coefficientCount();
        MemorySegment coefs = key.coefficients();
        int parts = key.coefficientsInConstraintOrder()
                ? Math.max(1, Math.min(4 * ForkJoinPool.getCommonPoolParallelism(), to / 4096)) : 1;
        int[] cut = new int[parts + 1];
        cut[parts] = to;
        for (int p = 1; p < parts; p++) {
            int i = Math.max(cut[p - 1], (int) ((long) to * p / parts));
            while (i > 0 && i < to && constraint(coefs, i - 1) == constraint(coefs, i)) {
                i++;
            }
            cut[p] = i;
        }
        return cut;
    }

    private static int constraint(MemorySegment coefs, int i) {
        return coefs.get(BinFile.U32, (long) i * ProvingKey.COEFFICIENT_BYTES + 4);
    }

    private static void parallelChunks(int n, Parallel.Range body) {
        Parallel.chunks(n, 1 << 14, body);
    }
}
