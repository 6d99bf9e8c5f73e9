package dev.proofline.algebra.curve;

import java.math.BigInteger;

/**
 * A public scalar recoded once into width-w NAF digits, for a multiplication by the same scalar over
 * many points (a subgroup check's eigenvalue or curve parameter, once per point of a file). The window
 * is the one with the cheapest additions for an affine point: w = 2 needs no table and adds the point
 * itself, a mixed addition at about two thirds of a Jacobian one, so a sparse scalar such as
 * BLS12-381's x (6 non-zero digits in 64 bits) takes it; a dense one takes a wider window and its table
 * of odd multiples. Immutable.
 */
public final class RecodedScalar {

    /** A mixed addition against a Jacobian one: 7M + 4S against 11M + 5S, counting S as M. */
    private static final double MIXED = 11.0 / 16.0;
    /** A doubling against an addition: 2M + 5S against 11M + 5S. */
    private static final double DOUBLING = 7.0 / 16.0;
    private static final int MAX_WINDOW = 5;

    private final BigInteger value;
    private final int window;
    private final int[] digits;

    private RecodedScalar(BigInteger value, int window, int[] digits) {
        this.value = value;
        this.window = window;
        this.digits = digits;
    }

    /** The recoding of k (any sign: a negative k multiplies -P) with the cheapest window. */
    public static RecodedScalar of(BigInteger k) {
        BigInteger e = k.abs();
        int best = 2;
        int[] bestDigits = ScalarMultiplier.wnaf(e, 2);
        double bestCost = cost(2, bestDigits);
        for (int w = 3; w <= MAX_WINDOW; w++) {
            int[] d = ScalarMultiplier.wnaf(e, w);
            double c = cost(w, d);
            if (c < bestCost) {
                best = w;
                bestDigits = d;
                bestCost = c;
            }
        }
        return new RecodedScalar(k, best, bestDigits);
    }

    /** The additions a multiplication of an affine point costs, in Jacobian additions. */
    static double cost(int w, int[] digits) {
        int nonZero = 0;
        for (int d : digits) {
            nonZero += d != 0 ? 1 : 0;
        }
        if (w == 2) {
            return nonZero * MIXED;
        }
        return DOUBLING + (1 << (w - 2)) - 1 + nonZero;
    }

    public BigInteger value() {
        return value;
    }

    /** The NAF window: 2 for a plain NAF (digits 0, 1, -1). */
    public int window() {
        return window;
    }

    /** The digits, that of 2^i at i: 0 or odd, below 2^(w-1) in absolute value (the top one may be 0). */
    int[] digits() {
        return digits;
    }

    boolean isNegative() {
        return value.signum() < 0;
    }

    boolean isZero() {
        return value.signum() == 0;
    }
}
