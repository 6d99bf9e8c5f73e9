package dev.proofline.algebra.pairing;

import dev.proofline.algebra.Parallel;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * The optimal ate pairing e: G1 x G2 -> GT ⊂ Fp12* of a BN or BLS12 curve, computed as a Miller loop
 * followed by the final exponentiation f -> f^((p^12 - 1)/r), split into the easy part
 * (p^6 - 1)(p^2 + 1) and a curve-specific hard part.
 *
 * <p>The hard parts are the addition chains snarkjs uses (through ffjavascript/wasmcurves), so
 * {@link #pair} returns exactly ffjavascript's values; each chain raises to m (p^4 - p^2 + 1)/r instead
 * of the exact (p^4 - p^2 + 1)/r, with a fixed m coprime to r, so the result is e(P, Q)^m for the
 * reduced ate pairing e: still bilinear and non-degenerate, and cheaper to compute. See {@link Bn254Pairing} (m = 2u(6u^2 + 3u + 1))
 * and {@link Bls12381Pairing} (m = 3).
 *
 * <p>Inputs are affine points in {@link WeierstrassCurve}'s layout: G1 = (x, y) over Fp, G2 = (x, y) over
 * Fp2, infinity = all zeros; a pair with a point at infinity contributes 1. Points must be on the curve
 * and in the order-r subgroups; that is not checked here. Results are Fp12 elements in {@link Fp12}'s
 * layout. Instances are immutable and thread-safe: every call works on its own scratch.
 */
public abstract sealed class Pairing permits Bn254Pairing, Bls12381Pairing {

    /** Where the sextic twist puts the line coefficients (see {@link MillerLoop}). */
    enum Twist {
        /** E': y^2 = x^3 + b/ξ (BN254). */
        D,
        /** E': y^2 = x^3 + b ξ (BLS12-381). */
        M
    }

    private final WeierstrassCurve g1;
    private final WeierstrassCurve g2;
    private final PrimeField fp;
    private final Fp12 prototype;   // holds the shared constants; only ever copied with forThread()
    private final Twist twist;
    private final int[] loopDigits; // Miller loop scalar, signed digits in {-1, 0, 1}, little-endian
    private final long[] threeB;    // 3 b' of the twist (Fp2)
    private final long[] half;      // 1/2 (Fp)

    Pairing(WeierstrassCurve g1, WeierstrassCurve g2, int xi0, Twist twist, int[] loopDigits) {
        this.g1 = g1;
        this.g2 = g2;
        this.fp = (PrimeField) g1.field();
        this.prototype = new Fp12(fp, xi0);
        this.twist = twist;
        this.loopDigits = loopDigits.clone();
        Fp2 fp2 = prototype.fp2();
        this.threeB = g2.b();
        long[] three = fp2.of(BigInteger.valueOf(3), BigInteger.ZERO);
        fp2.mul(threeB, 0, three, 0, threeB, 0);
        this.half = fp.fromBigInteger(BigInteger.TWO.modInverse(fp.modulus()));
    }

    /** BN254 (alt_bn128, snarkjs's "bn128"). */
    public static Pairing bn254() {
        return Bn254Pairing.INSTANCE;
    }

    /** BLS12-381. */
    public static Pairing bls12381() {
        return Bls12381Pairing.INSTANCE;
    }

    public WeierstrassCurve g1() {
        return g1;
    }

    public WeierstrassCurve g2() {
        return g2;
    }

    /** A new Fp12 for the calling thread, for working on pairing values. */
    public Fp12 fp12() {
        return (Fp12) prototype.forThread();
    }

    /** e(P, Q) (see the class comment for the exact power). */
    public long[] pair(long[] g1Affine, long[] g2Affine) {
        return finalExponentiation(millerLoop(new long[][] {g1Affine}, new long[][] {g2Affine}));
    }

    /** Whether ∏ e(P_i, Q_i) = 1: one product of Miller loops and one final exponentiation. */
    public boolean pairingProductIsOne(long[][] g1s, long[][] g2s) {
        long[] f = finalExponentiation(millerLoopOnThreads(g1s, g2s));
        return fp12().isOne(f, 0);
    }

    /**
     * A G2 point's lines in the Miller loop, computed once, for pairings of many G1 points with this
     * fixed one (a verification key's gamma and delta): the loop then evaluates the recorded lines at P
     * and does no G2 arithmetic for the pair. Immutable and thread-safe.
     */
    public static final class PreparedG2 {

        private final Pairing pairing;
        private final long[] point;
        /** l0, l1, l2 (Fp2) of each doubling and addition, in the loop's order; null at infinity. */
        private final long[] lines;

        private PreparedG2(Pairing pairing, long[] point, long[] lines) {
            this.pairing = pairing;
            this.point = point;
            this.lines = lines;
        }
    }

    /** Q's lines, for {@link #pairingProductIsOne(long[][], long[][], long[][], PreparedG2[], long[])}. */
    public PreparedG2 prepare(long[] g2Affine) {
        int n = fp.width();
        if (g2Affine.length != 4 * n) {
            throw new IllegalArgumentException("expected an affine G2 point of " + 4 * n + " longs, got "
                    + g2Affine.length);
        }
        long[] q = g2Affine.clone();
        if (allZero(q)) {
            return new PreparedG2(this, q, null);
        }
        MillerLoop m = new MillerLoop(fp12(), twist, threeB, half, new long[][] {new long[2 * n]},
                new long[][] {q}, new int[] {0}, 1);
        m.record();
        run(m);
        return new PreparedG2(this, q, m.lines());
    }

    /**
     * Whether ∏ e(P_i, Q_i) ∏ e(R_k, S_k) e0 = 1, S_k prepared ({@link #prepare}) and e0 given as the
     * Miller loop value {@code factor} (null: 1), e.g. {@link #millerLoop} of a fixed pair: the same
     * check as {@link #pairingProductIsOne(long[][], long[][])} over all the pairs, for less work. The
     * computed and the prepared pairs run on two threads where there are two.
     */
    public boolean pairingProductIsOne(long[][] g1s, long[][] g2s, long[][] preparedG1s, PreparedG2[] prepared,
            long[] factor) {
        requirePrepared(preparedG1s, prepared);
        Fp12 f12 = fp12();
        long[][] parts = new long[2][];
        if (g1s.length > 0 && prepared.length > 0 && Runtime.getRuntime().availableProcessors() >= 2) {
            Parallel.run(2, 2, () -> t -> parts[t] = t == 0
                    ? millerLoop(g1s, g2s, new long[0][], new PreparedG2[0])
                    : millerLoop(new long[0][], new long[0][], preparedG1s, prepared));
            f12.mul(parts[0], 0, parts[1], 0, parts[0], 0);
        } else {
            parts[0] = millerLoop(g1s, g2s, preparedG1s, prepared);
        }
        if (factor != null) {
            f12.mul(parts[0], 0, factor, 0, parts[0], 0);
        }
        return f12.isOne(finalExponentiation(parts[0]), 0);
    }

    /**
     * {@link #millerLoop}, with four pairs or more cut in two halves run on two threads where there are
     * two, their values multiplied: each half pays its own squarings of f (a small share of a Groth16
     * check's four pairs) and half the lines (docs/decisions/0013-circom-matrix-intel-2-6.md).
     */
    private long[] millerLoopOnThreads(long[][] g1s, long[][] g2s) {
        if (g1s.length < 4 || g1s.length != g2s.length || Runtime.getRuntime().availableProcessors() < 2) {
            return millerLoop(g1s, g2s);
        }
        int h = g1s.length / 2;
        long[][] parts = new long[2][];
        Parallel.run(2, 2, () -> t -> parts[t] = t == 0
                ? millerLoop(Arrays.copyOfRange(g1s, 0, h), Arrays.copyOfRange(g2s, 0, h))
                : millerLoop(Arrays.copyOfRange(g1s, h, g1s.length), Arrays.copyOfRange(g2s, h, g2s.length)));
        fp12().mul(parts[0], 0, parts[1], 0, parts[0], 0);
        return parts[0];
    }

    /** ∏ f_i, the Miller loop values of the pairs, computed together (one squaring per step for all). */
    public long[] millerLoop(long[][] g1s, long[][] g2s) {
        return millerLoop(g1s, g2s, new long[0][], new PreparedG2[0]);
    }

    /**
     * ∏ f_i over the computed pairs (P_i, Q_i) and the prepared pairs (R_k, S_k), in one loop: the same
     * value as {@link #millerLoop(long[][], long[][])} of all the pairs.
     */
    public long[] millerLoop(long[][] g1s, long[][] g2s, long[][] preparedG1s, PreparedG2[] prepared) {
        requirePrepared(preparedG1s, prepared);
        if (g1s.length != g2s.length) {
            throw new IllegalArgumentException("need as many G1 as G2 points: " + g1s.length + " vs " + g2s.length);
        }
        int n = fp.width();
        int total = g1s.length + prepared.length;
        long[][] ps = new long[total][];
        long[][] qs = new long[total][];
        long[][] lines = new long[total][];
        for (int i = 0; i < g1s.length; i++) {
            ps[i] = g1s[i];
            qs[i] = g2s[i];
        }
        for (int k = 0; k < prepared.length; k++) {
            ps[g1s.length + k] = preparedG1s[k];
            qs[g1s.length + k] = prepared[k].point;
            lines[g1s.length + k] = prepared[k].lines;
        }
        int[] live = new int[total];
        int pairs = 0;
        for (int i = 0; i < total; i++) {
            if (ps[i].length != 2 * n || qs[i].length != 4 * n) {
                throw new IllegalArgumentException("pair " + i + ": expected affine points of " + 2 * n + " and "
                        + 4 * n + " longs, got " + ps[i].length + " and " + qs[i].length);
            }
            if (!allZero(ps[i]) && !allZero(qs[i])) {
                live[pairs++] = i;
            }
        }
        Fp12 f12 = fp12();
        if (pairs == 0) {
            return f12.one();
        }
        MillerLoop m = new MillerLoop(f12, twist, threeB, half, ps, qs, live, pairs);
        for (int j = 0; j < pairs; j++) {
            if (lines[live[j]] != null) {
                m.replay(j, lines[live[j]]);
            }
        }
        run(m);
        return m.f;
    }

    /** As many G1 points as prepared G2 points, each prepared by this pairing. */
    private void requirePrepared(long[][] preparedG1s, PreparedG2[] prepared) {
        if (preparedG1s.length != prepared.length) {
            throw new IllegalArgumentException("need as many G1 points as prepared G2 points: " + preparedG1s.length
                    + " vs " + prepared.length);
        }
        for (PreparedG2 q : prepared) {
            if (q.pairing != this) {
                throw new IllegalArgumentException("a G2 point prepared for another curve");
            }
        }
    }

    /** The loop over the Miller scalar's digits, then the curve's last steps. */
    private void run(MillerLoop m) {
        int n = fp.width();
        int top = loopDigits.length - 1;   // loopDigits[top] = 1: T starts at Q
        for (int i = top - 1; i >= 0; i--) {
            if (i != top - 1) {
                m.square();
            }
            for (int j = 0; j < m.pairs; j++) {
                m.doubling(j);
            }
            int d = loopDigits[i];
            if (d != 0) {
                for (int j = 0; j < m.pairs; j++) {
                    int qo = m.qOffset(j);
                    int w2 = 2 * n;
                    m.addition(j, m.q, qo, d > 0 ? qo + w2 : qo + 2 * w2);
                }
            }
        }
        finishMillerLoop(m);
    }

    /** f^((p^12 - 1)/r * m) (see the class comment). */
    public long[] finalExponentiation(long[] f) {
        Fp12 f12 = fp12();
        long[] r = f12.newElement();
        long[] t = f12.newElement();
        // easy part: f^((p^6 - 1)(p^2 + 1)), which lands in the cyclotomic subgroup
        f12.inv(f, 0, t, 0);
        f12.conjugate(f, 0, r, 0);
        f12.mul(r, 0, t, 0, r, 0);
        f12.frobenius(r, 0, 2, t, 0);
        f12.mul(t, 0, r, 0, r, 0);
        hardPart(f12, r);
        return r;
    }

    /** The curve's last steps of the Miller loop (BN: two more lines; BLS: x < 0 correction). */
    abstract void finishMillerLoop(MillerLoop m);

    /** g = g^(m (p^4 - p^2 + 1)/r) for g in the cyclotomic subgroup. */
    abstract void hardPart(Fp12 f12, long[] g);

    /**
     * r = a^e for a in the cyclotomic subgroup, e given by signed digits (little-endian, in {-1, 0, 1}),
     * negated when {@code negative}: squarings are cyclotomic, a^-1 is the conjugate.
     */
    static void cyclotomicPow(Fp12 f12, long[] a, int ai, int[] digits, boolean negative, long[] r, int ri) {
        long[] base = f12.newElement();
        long[] baseInv = f12.newElement();
        f12.copy(a, ai, base, 0);
        f12.conjugate(a, ai, baseInv, 0);
        long[] acc = f12.one();
        boolean started = false;
        for (int i = digits.length - 1; i >= 0; i--) {
            if (started) {
                f12.cyclotomicSquare(acc, 0, acc, 0);
            }
            if (digits[i] != 0) {
                f12.mul(acc, 0, digits[i] > 0 ? base : baseInv, 0, acc, 0);
                started = true;
            }
        }
        if (negative) {
            f12.conjugate(acc, 0, r, ri);
        } else {
            f12.copy(acc, 0, r, ri);
        }
    }

    /** Binary digits of k > 0, little-endian. */
    static int[] binaryDigits(BigInteger k) {
        int[] d = new int[k.bitLength()];
        for (int i = 0; i < d.length; i++) {
            d[i] = k.testBit(i) ? 1 : 0;
        }
        return d;
    }

    /** The non-adjacent form of k > 0, little-endian; the top digit is 1. */
    static int[] nafDigits(BigInteger k) {
        int[] d = new int[k.bitLength() + 1];
        int len = 0;
        BigInteger e = k;
        BigInteger four = BigInteger.valueOf(4);
        while (e.signum() > 0) {
            int z = 0;
            if (e.testBit(0)) {
                z = 2 - e.mod(four).intValue();
                e = e.subtract(BigInteger.valueOf(z));
            }
            d[len++] = z;
            e = e.shiftRight(1);
        }
        return Arrays.copyOf(d, len);
    }

    private static boolean allZero(long[] a) {
        for (long x : a) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
