package dev.proofline.algebra.curve;

import java.math.BigInteger;

/**
 * Single-point scalar multiplication by a signed window (width-w NAF), for one thread. For a 255-bit
 * scalar and w = 5 this costs about 256 doublings and 256/6 + 7 additions, against 128 additions for
 * the double-and-add of {@link PointArithmetic#mul}. Not constant time: scalars here are public
 * (subgroup checks, cofactor clearing, test vectors), never secrets.
 */
public final class ScalarMultiplier {

    private static final int MAX_WINDOW = 5;

    private final PointArithmetic pa;
    private final int jw;
    private final long[] table;   // odd multiples P, 3P, ..., (2^(w-1) - 1)P, Jacobian
    private final long[] acc;
    private final long[] tmp;
    private final long[] jp;     // an affine input, Jacobian
    private final long[] negP;   // -p of an affine input

    public ScalarMultiplier(PointArithmetic pa) {
        this.pa = pa;
        this.jw = pa.curve().jacobianWidth();
        this.table = new long[(1 << (MAX_WINDOW - 2)) * jw];
        this.acc = new long[jw];
        this.tmp = new long[jw];
        this.jp = new long[jw];
        this.negP = new long[pa.curve().affineWidth()];
    }

    public PointArithmetic arithmetic() {
        return pa;
    }

    /** The window for a scalar of this many bits: the w minimising about 2^(w-2) + bits/(w+1) additions. */
    static int windowFor(int bits) {
        return bits <= 80 ? 4 : MAX_WINDOW;
    }

    /**
     * The width-w NAF of a non-negative k: digits d_i, each 0 or odd with |d_i| < 2^(w-1), such that
     * k = sum d_i 2^i and every non-zero digit is followed by at least w - 1 zeros. Length
     * {@code k.bitLength() + 1} (the top digit absorbs a final carry).
     *
     * <p>Digit recoding by carry, as in libsecp256k1's {@code secp256k1_ecmult_wnaf}: read w bits at a
     * time plus the carry; a window value v >= 2^(w-1) becomes v - 2^w and carries one upward.
     */
    public static int[] wnaf(BigInteger k, int w) {
        if (k.signum() < 0) {
            throw new IllegalArgumentException("negative scalar");
        }
        if (w < 2 || w > 16) {
            throw new IllegalArgumentException("window out of range: " + w);
        }
        int len = k.bitLength() + 1;
        int[] naf = new int[len];
        int carry = 0;
        int i = 0;
        while (i < len) {
            int bit = k.testBit(i) ? 1 : 0;
            if (bit == carry) {
                i++;
                continue;
            }
            int word = 0;
            for (int j = Math.min(w, len - i) - 1; j >= 0; j--) {
                word = (word << 1) | (k.testBit(i + j) ? 1 : 0);
            }
            word += carry;
            carry = (word >>> (w - 1)) & 1;
            naf[i] = word - (carry << w);
            i += w;
        }
        return naf;
    }

    /** r = k * p, p and r Jacobian; any integer k (a negative one multiplies -p). r may be p. */
    public void mul(long[] p, int pi, BigInteger k, long[] r, int ri) {
        BigInteger e = k.abs();
        if (e.signum() == 0 || pa.isInfinity(p, pi)) {
            pa.setInfinity(r, ri);
            return;
        }
        int w = windowFor(e.bitLength());
        ladder(p, pi, wnaf(e, w), w, k.signum() < 0, r, ri);
    }

    /** r = k * p for a scalar recoded once, p and r Jacobian. r may be p. */
    public void mul(long[] p, int pi, RecodedScalar k, long[] r, int ri) {
        if (k.isZero() || pa.isInfinity(p, pi)) {
            pa.setInfinity(r, ri);
            return;
        }
        ladder(p, pi, k.digits(), k.window(), k.isNegative(), r, ri);
    }

    /**
     * r = k * p for a scalar recoded once, p affine, r Jacobian. With a plain NAF (w = 2) every addition
     * is a mixed one of p or -p, and there is no table to build.
     */
    public void mulAffine(long[] p, int pi, RecodedScalar k, long[] r, int ri) {
        if (k.isZero() || pa.isInfinityAffine(p, pi)) {
            pa.setInfinity(r, ri);
            return;
        }
        if (k.window() > 2) {
            pa.fromAffine(p, pi, jp, 0);
            ladder(jp, 0, k.digits(), k.window(), k.isNegative(), r, ri);
            return;
        }
        int[] naf = k.digits();
        pa.negAffine(p, pi, negP, 0);
        int top = naf.length - 1;
        while (naf[top] == 0) {
            top--;
        }
        if (naf[top] > 0) {
            pa.fromAffine(p, pi, acc, 0);
        } else {
            pa.fromAffine(negP, 0, acc, 0);
        }
        for (int i = top - 1; i >= 0; i--) {
            pa.dbl(acc, 0, acc, 0);
            if (naf[i] > 0) {
                pa.addMixed(acc, 0, p, pi, acc, 0);
            } else if (naf[i] < 0) {
                pa.addMixed(acc, 0, negP, 0, acc, 0);
            }
        }
        if (k.isNegative()) {
            pa.neg(acc, 0, r, ri);
        } else {
            pa.copy(acc, 0, r, ri);
        }
    }

    /** r = (+-) sum naf_i 2^i p from the top digit down, with the table of odd multiples of width w. */
    private void ladder(long[] p, int pi, int[] naf, int w, boolean negative, long[] r, int ri) {
        int entries = 1 << (w - 2);
        // table[j] = (2j + 1) p
        pa.copy(p, pi, table, 0);
        if (entries > 1) {
            pa.dbl(p, pi, tmp, 0);
            for (int j = 1; j < entries; j++) {
                pa.add(table, (j - 1) * jw, tmp, 0, table, j * jw);
            }
        }
        pa.setInfinity(acc, 0);
        for (int i = naf.length - 1; i >= 0; i--) {
            pa.dbl(acc, 0, acc, 0);
            int d = naf[i];
            if (d > 0) {
                pa.add(acc, 0, table, ((d - 1) >> 1) * jw, acc, 0);
            } else if (d < 0) {
                pa.neg(table, ((-d - 1) >> 1) * jw, tmp, 0);
                pa.add(acc, 0, tmp, 0, acc, 0);
            }
        }
        if (negative) {
            pa.neg(acc, 0, r, ri);
        } else {
            pa.copy(acc, 0, r, ri);
        }
    }

    /** r = k * p with p affine, r Jacobian. */
    public void mulAffine(long[] p, int pi, BigInteger k, long[] r, int ri) {
        pa.fromAffine(p, pi, jp, 0);
        mul(jp, 0, k, r, ri);
    }
}
