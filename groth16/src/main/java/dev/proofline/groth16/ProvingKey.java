package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.io.BinFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A Groth16 proving key in snarkjs's layout. The large sections (the constraint coefficients and the
 * A, B1, B2, C, H point vectors) stay in the memory-mapped file and are used in place: their points
 * are affine with little-endian Montgomery coordinates, which is exactly the layout
 * {@link dev.proofline.algebra.msm.Msm#multiply(MemorySegment, long, long[], int, int)} reads. The
 * small parts (alpha, beta, gamma, delta, IC) are decoded onto the heap.
 *
 * <p>Coefficients: {@code coefficientCount} records of {@code 12 + 32} bytes: u32 matrix (0 = A,
 * 1 = B), u32 constraint, u32 signal, then the value as snarkjs stores it, which is the Montgomery
 * form of (coefficient x R), so that one Montgomery multiplication by a canonical witness value gives
 * the Montgomery form of their product.
 *
 * <p>Closing the key unmaps the file; the key must not be used after, nor closed while a proof uses it.
 */
public final class ProvingKey implements AutoCloseable {

    /** Bytes of one coefficient record: matrix, constraint, signal (u32 each), value (32 bytes). */
    public static final int COEFFICIENT_BYTES = 12 + 32;
    /** A coefficient record as little-endian 32-bit words: matrix, constraint, signal, the value's eight. */
    public static final int COEFFICIENT_WORDS = COEFFICIENT_BYTES / 4;

    /** Coefficient records a loop over them copies at a time ({@link #copyCoefficients}). */
    public static final int COEFFICIENT_CHUNK = 2048;

    /**
     * Records [from, from + count) of a coefficient section into {@code rec}, {@link #COEFFICIENT_WORDS}
     * words each, in one copy: loops over many records read the array, which even the interpreter (where
     * a one-off process runs them first) does quickly, where a read of the mapped segment is tens of calls.
     */
    public static void copyCoefficients(MemorySegment coefs, int from, int count, int[] rec) {
        MemorySegment.copy(coefs, BinFile.U32, (long) from * COEFFICIENT_BYTES, rec, 0, count * COEFFICIENT_WORDS);
    }

    /** The value of the record at word {@code at} of {@code rec} ({@link #copyCoefficients}), as four words into v. */
    public static void coefficientValue(int[] rec, int at, long[] v) {
        for (int k = 0; k < 4; k++) {
            v[k] = Integer.toUnsignedLong(rec[at + 3 + 2 * k]) | (long) rec[at + 4 + 2 * k] << 32;
        }
    }

    private final Path source;
    private final Arena arena;
    private final PairingCurve curve;
    private final int nVars;
    private final int nPublic;
    private final int logDomain;
    private final long[] alpha1;
    private final long[] beta1;
    private final long[] beta2;
    private final long[] gamma2;
    private final long[] delta1;
    private final long[] delta2;
    private final long[] ic;
    private final MemorySegment coefficients;
    private final int coefficientCount;
    private final boolean coefficientsInConstraintOrder;
    private final MemorySegment pointsA;
    private final MemorySegment pointsB1;
    private final MemorySegment pointsB2;
    private final MemorySegment pointsC;
    private final MemorySegment pointsH;
    private volatile KeyTables tables;
    private boolean closed;

    /** Made at the first {@link #verificationKey()}; one per key, so that its preparation is kept. */
    private volatile VerificationKey verificationKey;

    /**
     * For key readers: the parts of a key, already checked. The key owns {@code arena} (the mapping
     * of the segments) and closes it when closed.
     */
    public ProvingKey(Path source, Arena arena, PairingCurve curve, int nVars, int nPublic, int logDomain, long[] alpha1,
            long[] beta1, long[] beta2, long[] gamma2, long[] delta1, long[] delta2, long[] ic,
            MemorySegment coefficients, int coefficientCount, boolean inConstraintOrder,
            MemorySegment pointsA, MemorySegment pointsB1, MemorySegment pointsB2, MemorySegment pointsC,
            MemorySegment pointsH) {
        this.source = source;
        this.arena = arena;
        this.curve = curve;
        this.nVars = nVars;
        this.nPublic = nPublic;
        this.logDomain = logDomain;
        this.alpha1 = alpha1;
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.gamma2 = gamma2;
        this.delta1 = delta1;
        this.delta2 = delta2;
        this.ic = ic;
        this.coefficients = coefficients;
        this.coefficientCount = coefficientCount;
        this.coefficientsInConstraintOrder = inConstraintOrder;
        this.pointsA = pointsA;
        this.pointsB1 = pointsB1;
        this.pointsB2 = pointsB2;
        this.pointsC = pointsC;
        this.pointsH = pointsH;
    }

    /** The file the key was read from. */
    public Path source() {
        return source;
    }

    public PairingCurve curve() {
        return curve;
    }

    /** Variables, w_0 = 1 included. */
    public int variableCount() {
        return nVars;
    }

    /** Public signals (outputs and public inputs), w_0 not included. */
    public int publicCount() {
        return nPublic;
    }

    /** log2 of the evaluation domain size. */
    public int logDomainSize() {
        return logDomain;
    }

    public int domainSize() {
        return 1 << logDomain;
    }

    public long[] alpha1() {
        return alpha1.clone();
    }

    public long[] beta1() {
        return beta1.clone();
    }

    public long[] beta2() {
        return beta2.clone();
    }

    public long[] gamma2() {
        return gamma2.clone();
    }

    public long[] delta1() {
        return delta1.clone();
    }

    public long[] delta2() {
        return delta2.clone();
    }

    /** IC_0 .. IC_nPublic, affine G1, flat. */
    public long[] ic() {
        return ic.clone();
    }

    /** The coefficient records (section 4 without its count). */
    public MemorySegment coefficients() {
        return coefficients;
    }

    public int coefficientCount() {
        return coefficientCount;
    }

    /**
     * Whether the coefficients come in non-decreasing constraint order (snarkjs writes each
     * constraint's terms of A and B together), which lets their evaluation be split among threads at
     * constraint boundaries.
     */
    public boolean coefficientsInConstraintOrder() {
        return coefficientsInConstraintOrder;
    }

    /** nVars G1 points. */
    public MemorySegment pointsA() {
        return pointsA;
    }

    /** nVars G1 points. */
    public MemorySegment pointsB1() {
        return pointsB1;
    }

    /** nVars G2 points. */
    public MemorySegment pointsB2() {
        return pointsB2;
    }

    /** nVars - nPublic - 1 G1 points, for the private variables. */
    public MemorySegment pointsC() {
        return pointsC;
    }

    /** domainSize G1 points. */
    public MemorySegment pointsH() {
        return pointsH;
    }

    /** The verification key that goes with this proving key. */
    public VerificationKey verificationKey() {
        VerificationKey vk = verificationKey;
        if (vk == null) {
            // one per key: a resident key's proofs are checked with it, which prepares it once
            vk = new VerificationKey(curve, nPublic, alpha1, beta2, gamma2, delta2, ic);
            verificationKey = vk;
        }
        return vk;
    }

    /** The precomputed tables attached to this key ({@link #attach}), or null. */
    public KeyTables tables() {
        return tables;
    }

    /**
     * Attaches tables built for this key ({@link KeyTables#build}); proofs started after this use them.
     * The key owns them from then on and closes them with itself; if it is closed already, they are
     * closed now and false is returned. A key has tables once: attaching others is an error.
     */
    public synchronized boolean attach(KeyTables t) {
        if (closed) {
            t.close();
            return false;
        }
        if (tables != null) {
            t.close();
            throw new IllegalStateException(this + " has tables already");
        }
        tables = t;
        return true;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (tables != null) {
            tables.close();
        }
        arena.close();
    }

    @Override
    public String toString() {
        return "ProvingKey[" + source + ", " + curve.snarkjsName() + ", " + nVars + " variables, " + nPublic
                + " public, domain 2^" + logDomain + "]";
    }
}
