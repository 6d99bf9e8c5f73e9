package dev.proofline.r1cs.gadgets;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;

/**
 * The parameters of one Poseidon permutation (x^5 S-box): width t, full rounds RF, partial rounds
 * RP, the (RF + RP) t round constants and the t x t MDS matrix.
 *
 * <p>{@link #of} gives circomlib's instances: t = 2 .. 17 (1 .. 16 inputs), RF = 8, RP from
 * {@link #PARTIAL_ROUNDS}, constants and matrix from {@link #derive}, the Poseidon authors' Grain
 * LFSR procedure ({@code generate_parameters_grain.sage} of the reference implementation, run as
 * {@code 1 0 <n> <t> 8 <RP> <r>}, n = the bit length of r). On BN254 this reproduces circomlib's
 * {@code poseidon_constants} exactly (tested against circomlibjs); on BLS12-381 it gives the
 * reference repository's {@code poseidonperm_x5_255_3} and {@code _5} instances (tested against
 * their published test vectors). x^5 is a permutation of both scalar fields: gcd(5, r - 1) = 1.
 */
public final class PoseidonParameters {

    /** Full rounds. */
    public static final int FULL_ROUNDS = 8;

    /**
     * Partial rounds for t = 2 .. 17, circomlib's: the reference {@code calc_round_numbers.py}
     * (128-bit security, alpha = 5, RF + 2 and RP + 7.5% margins) gives 56 for t = 2 .. 5 and 57
     * for t = 6 .. 17 on both scalar fields (254 and 255 bits), rounded up to a multiple of t.
     */
    static final int[] PARTIAL_ROUNDS = {56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60, 65, 70, 60, 64, 68};

    public static final int MIN_WIDTH = 2;
    public static final int MAX_WIDTH = 17;

    private static final PoseidonParameters[][] CACHE =
            new PoseidonParameters[PairingCurve.values().length][MAX_WIDTH + 1];

    private final PrimeField fr;
    private final int t;
    private final int rf;
    private final int rp;
    /** Round constants, Montgomery, flat: constant i of round r at 4 (r t + i). */
    private final long[] c;
    /** MDS matrix, Montgomery, flat: M[i][j] at 4 (i t + j). */
    private final long[] m;
    private volatile PoseidonPlan plan;

    private PoseidonParameters(PrimeField fr, int t, int rf, int rp, long[] c, long[] m) {
        this.fr = fr;
        this.t = t;
        this.rf = rf;
        this.rp = rp;
        this.c = c;
        this.m = m;
    }

    /** circomlib's Poseidon for {@code inputs} inputs (t = inputs + 1) on the curve's scalar field. */
    public static PoseidonParameters of(PairingCurve curve, int inputs) {
        int t = inputs + 1;
        if (t < MIN_WIDTH || t > MAX_WIDTH) {
            throw new IllegalArgumentException("Poseidon takes 1 to " + (MAX_WIDTH - 1) + " inputs: " + inputs);
        }
        PoseidonParameters[] row = CACHE[curve.ordinal()];
        synchronized (row) {
            if (row[t] == null) {
                row[t] = derive(curve.fr(), t, FULL_ROUNDS, PARTIAL_ROUNDS[t - 2]);
            }
            return row[t];
        }
    }

    /**
     * Derives the round constants and the MDS matrix by the Grain LFSR procedure of the Poseidon
     * reference ({@code generate_parameters_grain.sage}, prime field, x^alpha S-box): an 80-bit LFSR
     * seeded with field = 1 (2 bits), S-box = 0 (4 bits), n (12), t (12), RF (10), RP (10) and 30
     * ones, run 160 steps; then self-shrinking output (of each pair of bits, the second when the
     * first is 1). Round constants: (RF + RP) t draws of n bits, most significant first, each
     * redrawn while at least r. MDS: 2t further draws x_0..x_{t-1}, y_0..y_{t-1} reduced mod r, and
     * M[i][j] = 1 / (x_i + y_j) (a Cauchy matrix).
     *
     * <p>The reference redraws the matrix when the draws repeat, when some x_i + y_j is 0, or when
     * its subspace-trail checks (algorithms 1 to 3) reject it; this derivation rejects the first two
     * cases the same way and leaves the checks to the tests, which pass for every instance
     * {@link #of} gives, so no redraw happens there.
     */
    public static PoseidonParameters derive(PrimeField fr, int t, int rf, int rp) {
        if (t < 2 || rf < 2 || rf % 2 != 0 || rp < 0) {
            throw new IllegalArgumentException("need t >= 2, an even RF >= 2 and RP >= 0: t = " + t + ", RF = " + rf
                    + ", RP = " + rp);
        }
        BigInteger r = fr.modulus();
        int n = fr.bits();
        Grain g = new Grain(n, t, rf, rp);
        long[] c = new long[4 * (rf + rp) * t];
        for (int i = 0; i < (rf + rp) * t; i++) {
            BigInteger x = g.bits(n);
            while (x.compareTo(r) >= 0) {
                x = g.bits(n);
            }
            fr.fromBigInteger(x, c, 4 * i);
        }
        long[] m = new long[4 * t * t];
        while (true) {
            BigInteger[] xy = new BigInteger[2 * t];
            boolean distinct;
            do {
                for (int i = 0; i < 2 * t; i++) {
                    xy[i] = g.bits(n).mod(r);
                }
                distinct = java.util.Arrays.stream(xy).distinct().count() == 2L * t;
            } while (!distinct);
            boolean ok = true;
            for (int i = 0; i < t && ok; i++) {
                for (int j = 0; j < t; j++) {
                    BigInteger s = xy[i].add(xy[t + j]).mod(r);
                    if (s.signum() == 0) {
                        ok = false;
                        break;
                    }
                    fr.fromBigInteger(s.modInverse(r), m, 4 * (i * t + j));
                }
            }
            if (ok) {
                return new PoseidonParameters(fr, t, rf, rp, c, m);
            }
        }
    }

    /** The Grain LFSR in self-shrinking mode. */
    private static final class Grain {
        private final boolean[] s = new boolean[80];
        private int head;

        Grain(int n, int t, int rf, int rp) {
            int k = 0;
            k = put(1, 2, k);
            k = put(0, 4, k);
            k = put(n, 12, k);
            k = put(t, 12, k);
            k = put(rf, 10, k);
            k = put(rp, 10, k);
            while (k < 80) {
                s[k++] = true;
            }
            for (int i = 0; i < 160; i++) {
                step();
            }
        }

        private int put(int v, int width, int k) {
            for (int i = width - 1; i >= 0; i--) {
                s[k++] = ((v >>> i) & 1) != 0;
            }
            return k;
        }

        /** b_{i+80} = b_{i+62} ^ b_{i+51} ^ b_{i+38} ^ b_{i+23} ^ b_{i+13} ^ b_i. */
        private boolean step() {
            boolean b = s[(head + 62) % 80] ^ s[(head + 51) % 80] ^ s[(head + 38) % 80]
                    ^ s[(head + 23) % 80] ^ s[(head + 13) % 80] ^ s[head];
            s[head] = b;
            head = (head + 1) % 80;
            return b;
        }

        private boolean next() {
            while (true) {
                boolean first = step();
                boolean second = step();
                if (first) {
                    return second;
                }
            }
        }

        BigInteger bits(int n) {
            byte[] be = new byte[(n + 7) / 8 + 1];
            for (int i = 0; i < n; i++) {
                if (next()) {
                    int bit = n - 1 - i;
                    be[be.length - 1 - bit / 8] |= (byte) (1 << (bit % 8));
                }
            }
            return new BigInteger(be);
        }
    }

    public PrimeField field() {
        return fr;
    }

    /** The width t (inputs + 1). */
    public int width() {
        return t;
    }

    public int fullRounds() {
        return rf;
    }

    public int partialRounds() {
        return rp;
    }

    /** Round constant i of round r. */
    public BigInteger roundConstant(int round, int i) {
        return fr.toBigInteger(c, 4 * (round * t + i));
    }

    /** M[i][j]. */
    public BigInteger mds(int i, int j) {
        return fr.toBigInteger(m, 4 * (i * t + j));
    }

    /** The round constants, Montgomery, flat: constant i of round r at 4 (r t + i); shared, do not modify. */
    long[] constants() {
        return c;
    }

    /** The MDS matrix, Montgomery, flat: M[i][j] at 4 (i t + j); shared, do not modify. */
    long[] matrix() {
        return m;
    }

    /** The precomputed linear maps the in-circuit permutation uses (computed once, on first use). */
    PoseidonPlan plan() {
        PoseidonPlan p = plan;
        if (p == null) {
            synchronized (this) {
                p = plan;
                if (p == null) {
                    p = new PoseidonPlan(this);
                    plan = p;
                }
            }
        }
        return p;
    }
}
