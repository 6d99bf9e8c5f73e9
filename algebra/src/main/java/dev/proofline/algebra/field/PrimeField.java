package dev.proofline.algebra.field;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteOrder;

/**
 * A prime field GF(q) in Montgomery form: an element x is stored as x*R mod q in {@code limbs}
 * little-endian 64-bit words, R = 2^(64*limbs). Subclasses supply the unrolled hot arithmetic;
 * everything here is built on top of it (conversions, inversion, square roots, encodings).
 */
public abstract class PrimeField extends Field {

    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final String name;
    private final BigInteger modulus;
    private final int limbs;
    private final long[] modulusWords;
    private final long[] r2;            // R^2 mod q, in plain words: mul(x, R2) turns x into Montgomery form
    private final long[] r3;            // R^3 mod q, in plain words: mul((xR)^-1, R3) = x^-1 R
    private final long[] pMinus2;
    private final long[] legendreExp;   // (q-1)/2
    // Tonelli-Shanks: q - 1 = 2^s * t with t odd; z a non-residue
    private final int twoAdicity;
    private final long[] tMinus1Over2;
    private final long[] nonResidueToT; // z^t, Montgomery
    private final BigInteger smallestNonResidue;
    private final DivstepInverse divsteps;

    protected PrimeField(String name, BigInteger modulus, int limbs) {
        this.name = name;
        this.modulus = modulus;
        this.limbs = limbs;
        this.modulusWords = words(modulus, limbs);
        BigInteger r = BigInteger.ONE.shiftLeft(64 * limbs);
        this.r2 = words(r.multiply(r).mod(modulus), limbs);
        this.r3 = words(r.multiply(r).multiply(r).mod(modulus), limbs);
        this.pMinus2 = words(modulus.subtract(BigInteger.TWO), limbs);
        BigInteger qm1 = modulus.subtract(BigInteger.ONE);
        this.legendreExp = words(qm1.shiftRight(1), limbs);
        int s = qm1.getLowestSetBit();
        this.twoAdicity = s;
        BigInteger t = qm1.shiftRight(s);
        this.tMinus1Over2 = words(t.subtract(BigInteger.ONE).shiftRight(1), limbs);
        BigInteger z = BigInteger.TWO;
        while (z.modPow(qm1.shiftRight(1), modulus).equals(BigInteger.ONE)) {
            z = z.add(BigInteger.ONE);
        }
        this.smallestNonResidue = z;
        this.divsteps = new DivstepInverse(modulus, limbs);
        this.nonResidueToT = new long[limbs];
        toMontgomeryWords(z.modPow(t, modulus), nonResidueToT, 0);
    }

    /** Little-endian 64-bit words of a non-negative integer below 2^(64*n). */
    public static long[] words(BigInteger x, int n) {
        if (x.signum() < 0 || x.bitLength() > 64 * n) {
            throw new IllegalArgumentException("does not fit in " + n + " words: " + x);
        }
        long[] w = new long[n];
        for (int i = 0; i < n; i++) {
            w[i] = x.shiftRight(64 * i).longValue();
        }
        return w;
    }

    private void toMontgomeryWords(BigInteger canonical, long[] r, int ri) {
        long[] w = words(canonical, limbs);
        mul(w, 0, r2, 0, r, ri);
    }

    /** Montgomery's -q^-1 mod 2^64 (exposed for tests and device code generation). */
    protected abstract long montgomeryInverseWord();

    public String name() {
        return name;
    }

    public BigInteger modulus() {
        return modulus;
    }

    public int limbs() {
        return limbs;
    }

    /** Bits of the modulus. */
    public int bits() {
        return modulus.bitLength();
    }

    /** Bytes of a canonical encoding: 32 for 254/255-bit fields, 48 for 381 bits. */
    public int byteLength() {
        return 8 * limbs;
    }

    /** Largest s with 2^s dividing q - 1. */
    public int twoAdicity() {
        return twoAdicity;
    }

    /** The smallest quadratic non-residue (2, 3, 5, ...). */
    public BigInteger smallestNonResidue() {
        return smallestNonResidue;
    }

    public long[] modulusWords() {
        return modulusWords.clone();
    }

    public long negInvWord() {
        return montgomeryInverseWord();
    }

    @Override
    public final int width() {
        return limbs;
    }

    @Override
    public Field forThread() {
        return this;
    }

    @Override
    public void inv(long[] a, int ai, long[] r, int ri) {
        pow(a, ai, pMinus2, r, ri); // Fermat: a^(q-2); 0 maps to 0
    }

    /**
     * Bernstein and Yang's divsteps ({@link DivstepInverse}) on the Montgomery form xR, then one
     * product by R^3: x^-1 R. 0 maps to 0.
     */
    @Override
    public void invVartime(long[] a, int ai, long[] r, int ri) {
        long[] t = new long[limbs];
        divsteps.inverse(a, ai, t, 0);
        mul(t, 0, r3, 0, r, ri);
    }

    // ---------------------------------------------------------------- conversions

    /** r = x mod q, in Montgomery form (any integer, negative ones too). */
    public void fromBigInteger(BigInteger x, long[] r, int ri) {
        toMontgomeryWords(x.mod(modulus), r, ri);
    }

    public long[] fromBigInteger(BigInteger x) {
        long[] r = newElement();
        fromBigInteger(x, r, 0);
        return r;
    }

    public long[] fromLong(long x) {
        return fromBigInteger(BigInteger.valueOf(x));
    }

    /** The canonical value of an element, in [0, q). */
    public BigInteger toBigInteger(long[] a, int ai) {
        long[] c = new long[limbs];
        fromMontgomery(a, ai, c, 0);
        return wordsToBigInteger(c, 0, limbs);
    }

    public static BigInteger wordsToBigInteger(long[] w, int off, int n) {
        byte[] be = new byte[8 * n];
        for (int i = 0; i < n; i++) {
            long v = w[off + i];
            for (int b = 0; b < 8; b++) {
                be[8 * n - 1 - (8 * i + b)] = (byte) (v >>> (8 * b));
            }
        }
        return new BigInteger(1, be);
    }

    /** Canonical words (x) to Montgomery form (xR). The words must be below q. */
    public void toMontgomery(long[] canonical, int ci, long[] r, int ri) {
        mul(canonical, ci, r2, 0, r, ri);
    }

    /** Montgomery form (xR) to canonical words (x). */
    public void fromMontgomery(long[] a, int ai, long[] r, int ri) {
        long[] one = new long[limbs];
        one[0] = 1;
        mul(a, ai, one, 0, r, ri);
    }

    /** Whether little-endian words are a canonical value (below q). */
    public boolean isCanonical(long[] w, int wi) {
        for (int i = limbs - 1; i >= 0; i--) {
            int c = Long.compareUnsigned(w[wi + i], modulusWords[i]);
            if (c != 0) {
                return c < 0;
            }
        }
        return false;
    }

    public long[] fromDecimal(String s) {
        BigInteger x;
        try {
            x = new BigInteger(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a decimal number: \"" + s + "\"", e);
        }
        if (x.signum() < 0 || x.compareTo(modulus) >= 0) {
            throw new IllegalArgumentException("value out of range [0, q) of the " + name + ": " + s);
        }
        return fromBigInteger(x);
    }

    public String toDecimal(long[] a, int ai) {
        return toBigInteger(a, ai).toString();
    }

    // ---------------------------------------------------------------- byte encodings

    /** Canonical value, little-endian, {@link #byteLength()} bytes. */
    public void toBytesLE(long[] a, int ai, byte[] out, int off) {
        long[] c = new long[limbs];
        fromMontgomery(a, ai, c, 0);
        putWordsLE(c, 0, out, off);
    }

    /** Canonical value, big-endian, {@link #byteLength()} bytes. */
    public void toBytesBE(long[] a, int ai, byte[] out, int off) {
        long[] c = new long[limbs];
        fromMontgomery(a, ai, c, 0);
        putWordsBE(c, out, off);
    }

    /**
     * Reads a canonical little-endian value into Montgomery form.
     *
     * @throws IllegalArgumentException when the value is not below q
     */
    public void fromBytesLE(byte[] in, int off, long[] r, int ri) {
        long[] c = new long[limbs];
        getWordsLE(in, off, c, 0);
        requireCanonical(c);
        toMontgomery(c, 0, r, ri);
    }

    /** Reads a canonical big-endian value into Montgomery form; rejects values not below q. */
    public void fromBytesBE(byte[] in, int off, long[] r, int ri) {
        long[] c = new long[limbs];
        for (int i = 0; i < limbs; i++) {
            long v = 0;
            for (int b = 0; b < 8; b++) {
                v = (v << 8) | (in[off + 8 * (limbs - 1 - i) + b] & 0xffL);
            }
            c[i] = v;
        }
        requireCanonical(c);
        toMontgomery(c, 0, r, ri);
    }

    /**
     * Reads the Montgomery form itself, little-endian (the layout of snarkjs .zkey and .wtns sections
     * that hold Montgomery values); rejects values not below q.
     */
    public void fromMontgomeryBytesLE(byte[] in, int off, long[] r, int ri) {
        getWordsLE(in, off, r, ri);
        requireCanonical(r, ri);
    }

    /** Writes the Montgomery form itself, little-endian. */
    public void toMontgomeryBytesLE(long[] a, int ai, byte[] out, int off) {
        putWordsLE(a, ai, out, off);
    }

    /** Reads the Montgomery form, little-endian, from memory (a mapped key file); rejects values ≥ q. */
    public void fromMontgomerySegment(MemorySegment seg, long byteOffset, long[] r, int ri) {
        for (int i = 0; i < limbs; i++) {
            r[ri + i] = seg.get(LE_LONG, byteOffset + 8L * i);
        }
        requireCanonical(r, ri);
    }

    /** Writes the Montgomery form, little-endian, to memory. */
    public void toMontgomerySegment(long[] a, int ai, MemorySegment seg, long byteOffset) {
        for (int i = 0; i < limbs; i++) {
            seg.set(LE_LONG, byteOffset + 8L * i, a[ai + i]);
        }
    }

    private void requireCanonical(long[] w) {
        requireCanonical(w, 0);
    }

    private void requireCanonical(long[] w, int wi) {
        if (!isCanonical(w, wi)) {
            throw new IllegalArgumentException("value is not below the modulus of the " + name);
        }
    }

    private void putWordsLE(long[] w, int wi, byte[] out, int off) {
        for (int i = 0; i < limbs; i++) {
            long v = w[wi + i];
            for (int b = 0; b < 8; b++) {
                out[off + 8 * i + b] = (byte) (v >>> (8 * b));
            }
        }
    }

    private void putWordsBE(long[] c, byte[] out, int off) {
        for (int i = 0; i < limbs; i++) {
            long v = c[i];
            for (int b = 0; b < 8; b++) {
                out[off + 8 * (limbs - 1 - i) + 7 - b] = (byte) (v >>> (8 * b));
            }
        }
    }

    private void getWordsLE(byte[] in, int off, long[] r, int ri) {
        for (int i = 0; i < limbs; i++) {
            long v = 0;
            for (int b = 7; b >= 0; b--) {
                v = (v << 8) | (in[off + 8 * i + b] & 0xffL);
            }
            r[ri + i] = v;
        }
    }

    // ---------------------------------------------------------------- squares

    /** Legendre symbol: 0 for zero, 1 for a non-zero square, -1 otherwise. */
    public int legendre(long[] a, int ai) {
        if (isZero(a, ai)) {
            return 0;
        }
        long[] e = newElement();
        pow(a, ai, legendreExp, e, 0);
        return isOne(e, 0) ? 1 : -1;
    }

    /**
     * r = a square root of a (Tonelli-Shanks), returning false and leaving r untouched when a is
     * not a square. Which of the two roots is returned is unspecified; encodings pick by sign.
     */
    public boolean sqrt(long[] a, int ai, long[] r, int ri) {
        if (isZero(a, ai)) {
            setZero(r, ri);
            return true;
        }
        if (legendre(a, ai) != 1) {
            return false;
        }
        // w = a^((t-1)/2); x = a*w; b = x*w = a^t; z = c = nonResidue^t
        long[] w = newElement();
        pow(a, ai, tMinus1Over2, w, 0);
        long[] x = newElement();
        mul(a, ai, w, 0, x, 0);
        long[] b = newElement();
        mul(x, 0, w, 0, b, 0);
        long[] z = nonResidueToT.clone();
        int v = twoAdicity;
        long[] t = newElement();
        while (!isOne(b, 0)) {
            int k = 0;
            copy(b, 0, t, 0);
            while (!isOne(t, 0)) {
                sqr(t, 0, t, 0);
                k++;
            }
            // w = z^(2^(v-k-1))
            copy(z, 0, w, 0);
            for (int i = 0; i < v - k - 1; i++) {
                sqr(w, 0, w, 0);
            }
            sqr(w, 0, z, 0);
            mul(b, 0, z, 0, b, 0);
            mul(x, 0, w, 0, x, 0);
            v = k;
        }
        copy(x, 0, r, ri);
        return true;
    }

    /** Whether the canonical value is greater than (q-1)/2 (the "sign" used by compressed encodings). */
    public boolean isLexicographicallyLarge(long[] a, int ai) {
        return toBigInteger(a, ai).compareTo(modulus.subtract(BigInteger.ONE).shiftRight(1)) > 0;
    }

    // ---------------------------------------------------------------- vectors

    /** r[i] = a[i] * b[i] for n elements. */
    public void mulVec(long[] a, long[] b, long[] r, int n) {
        for (int i = 0, o = 0; i < n; i++, o += limbs) {
            mul(a, o, b, o, r, o);
        }
    }

    /** r[i] = a[i] * c for n elements. */
    public void scaleVec(long[] a, long[] c, int ci, long[] r, int n) {
        for (int i = 0, o = 0; i < n; i++, o += limbs) {
            mul(a, o, c, ci, r, o);
        }
    }

    /** r[i] = a[i] + b[i]. */
    public void addVec(long[] a, long[] b, long[] r, int n) {
        for (int i = 0, o = 0; i < n; i++, o += limbs) {
            add(a, o, b, o, r, o);
        }
    }

    /** r[i] = a[i] - b[i]. */
    public void subVec(long[] a, long[] b, long[] r, int n) {
        for (int i = 0, o = 0; i < n; i++, o += limbs) {
            sub(a, o, b, o, r, o);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
