package dev.proofline.algebra.pairing;

import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;
import java.util.Arrays;

/**
 * The state of one (multi-)Miller loop: the accumulator f in Fp12 and, per pair (P, Q), the running
 * point T = [k]Q of the twist in homogeneous projective coordinates (X : Y : Z), x = X/Z, y = Y/Z.
 * Lines come from the doubling and addition formulas of Costello, Lange and Naehrig, "Faster pairing
 * computations on curves with high-degree twists" (PKC 2010), in the form arkworks uses; each line is
 * known only up to a factor in Fp2, which the final exponentiation removes (p^6 - 1 kills Fp6).
 *
 * <p>A pair whose Q is fixed can replay the lines recorded for Q once ({@link Pairing.PreparedG2}):
 * its T and its doubling and addition formulas are then skipped, and only the lines' evaluation at P
 * remains.
 *
 * <p>One instance per call; not thread-safe.
 */
final class MillerLoop {

    private final Fp12 f12;
    private final Fp2 fp2;
    private final PrimeField fp;
    private final Pairing.Twist twist;
    private final long[] threeB;  // 3 b' (Fp2), b' the twist's coefficient
    private final long[] half;    // 1/2 in Fp
    private final int n;
    private final int w2;
    final int pairs;
    /** Per pair: px, py (Fp). */
    final long[] p;
    /** Per pair: qx, qy, -qy (Fp2), affine. */
    final long[] q;
    /** Per pair: X, Y, Z (Fp2) of T. */
    private final long[] t;
    /** The accumulator. */
    final long[] f;
    private final long[] s;      // scratch, Fp2 slots
    private final long[] line;   // l0, l1, l2 (Fp2)
    /** Per pair: the lines recorded for its Q ({@link Pairing.PreparedG2}), replayed in order; null: computed. */
    private final long[][] replayed;
    private final int[] cursor;
    /** In a recording loop, the lines so far (one pair; f is not computed); null otherwise. */
    private long[] recorded;
    private int recordedLength;

    MillerLoop(Fp12 f12, Pairing.Twist twist, long[] threeB, long[] half, long[][] g1s, long[][] g2s, int[] live,
            int pairs) {
        this.f12 = f12;
        this.fp2 = f12.fp2();
        this.fp = f12.base();
        this.twist = twist;
        this.threeB = threeB;
        this.half = half;
        this.n = fp.width();
        this.w2 = 2 * n;
        this.pairs = pairs;
        this.p = new long[pairs * 2 * n];
        this.q = new long[pairs * 3 * w2];
        this.t = new long[pairs * 3 * w2];
        for (int j = 0; j < pairs; j++) {
            int src = live[j];
            System.arraycopy(g1s[src], 0, p, j * 2 * n, 2 * n);
            System.arraycopy(g2s[src], 0, q, j * 3 * w2, 2 * w2);
            fp2.neg(q, j * 3 * w2 + w2, q, j * 3 * w2 + 2 * w2);
            // T = Q, Z = 1
            System.arraycopy(g2s[src], 0, t, j * 3 * w2, 2 * w2);
            fp2.setOne(t, j * 3 * w2 + 2 * w2);
        }
        this.f = f12.one();
        this.s = new long[12 * w2];
        this.line = new long[3 * w2];
        this.replayed = new long[pairs][];
        this.cursor = new int[pairs];
    }

    /** Pair j's lines are {@code lines} (recorded for its Q): its doublings and additions replay them. */
    void replay(int j, long[] lines) {
        replayed[j] = lines;
    }

    /** Makes this loop (of one pair) record its lines instead of evaluating them; {@link #lines} returns them. */
    void record() {
        recorded = new long[64 * 3 * w2];
    }

    /** The lines recorded, in the order the loop computed them. */
    long[] lines() {
        return Arrays.copyOf(recorded, recordedLength);
    }

    /** Offset of Q's x in {@link #q} for pair j; y follows, then -y. */
    int qOffset(int j) {
        return j * 3 * w2;
    }

    void square() {
        if (recorded == null) {
            f12.sqr(f, 0, f, 0);
        }
    }

    void conjugate() {
        if (recorded == null) {
            f12.conjugate(f, 0, f, 0);
        }
    }

    /** T = 2T for pair j, and f = f * (the tangent line at T, evaluated at P). */
    void doubling(int j) {
        if (replayed[j] != null) {
            replayLine(j);
            return;
        }
        final int x = j * 3 * w2, y = x + w2, z = y + w2;
        final int a = 0, b = w2, c = 2 * w2, e = 3 * w2, ff = 4 * w2, g = 5 * w2, h = 6 * w2, i = 7 * w2,
                jj = 8 * w2, u = 9 * w2, v = 10 * w2;
        fp2.mul(t, x, t, y, s, a);
        fp2.mulByBase(s, a, half, 0, s, a);          // A = XY/2
        fp2.sqr(t, y, s, b);                         // B = Y^2
        fp2.sqr(t, z, s, c);                         // C = Z^2
        fp2.mul(s, c, threeB, 0, s, e);              // E = 3b' C
        fp2.dbl(s, e, s, ff);
        fp2.add(s, ff, s, e, s, ff);                 // F = 3E
        fp2.add(s, b, s, ff, s, g);
        fp2.mulByBase(s, g, half, 0, s, g);          // G = (B + F)/2
        fp2.add(t, y, t, z, s, h);
        fp2.sqr(s, h, s, h);
        fp2.add(s, b, s, c, s, u);
        fp2.sub(s, h, s, u, s, h);                   // H = (Y + Z)^2 - B - C = 2YZ
        fp2.sub(s, e, s, b, s, i);                   // I = E - B
        fp2.sqr(t, x, s, jj);                        // J = X^2
        fp2.sub(s, b, s, ff, s, u);
        fp2.mul(s, a, s, u, t, x);                   // X' = A (B - F)
        fp2.sqr(s, g, s, u);
        fp2.sqr(s, e, s, v);
        fp2.sub(s, u, s, v, s, u);
        fp2.dbl(s, v, s, v);
        fp2.sub(s, u, s, v, t, y);                   // Y' = G^2 - 3E^2
        fp2.mul(s, b, s, h, t, z);                   // Z' = B H
        final int l0 = 0, l1 = w2, l2 = 2 * w2;
        fp2.dbl(s, jj, s, u);
        fp2.add(s, u, s, jj, line, l1);              // 3 X^2
        if (twist == Pairing.Twist.D) {
            fp2.neg(s, h, line, l0);
            fp2.copy(s, i, line, l2);
        } else {
            fp2.copy(s, i, line, l0);
            fp2.neg(s, h, line, l2);
        }
        evaluate(j);
    }

    /** T = T + R for pair j, R affine at (ra, rx) and (ra, ry), and f = f * (the chord, at P). */
    void addition(int j, long[] ra, int rx, int ry) {
        if (replayed[j] != null) {
            replayLine(j);
            return;
        }
        final int x = j * 3 * w2, y = x + w2, z = y + w2;
        final int th = 0, la = w2, c = 2 * w2, d = 3 * w2, e = 4 * w2, ff = 5 * w2, g = 6 * w2, h = 7 * w2,
                u = 8 * w2;
        fp2.mul(ra, ry, t, z, s, u);
        fp2.sub(t, y, s, u, s, th);                  // θ = Y - y_R Z
        fp2.mul(ra, rx, t, z, s, u);
        fp2.sub(t, x, s, u, s, la);                  // λ = X - x_R Z
        fp2.sqr(s, th, s, c);                        // C = θ^2
        fp2.sqr(s, la, s, d);                        // D = λ^2
        fp2.mul(s, la, s, d, s, e);                  // E = λ^3
        fp2.mul(t, z, s, c, s, ff);                  // F = Z θ^2
        fp2.mul(t, x, s, d, s, g);                   // G = X λ^2
        fp2.add(s, e, s, ff, s, h);
        fp2.sub(s, h, s, g, s, h);
        fp2.sub(s, h, s, g, s, h);                   // H = E + F - 2G
        final int l0 = 0, l1 = w2, l2 = 2 * w2;
        // the line's constant term J = θ x_R - λ y_R
        final int jj = twist == Pairing.Twist.D ? l2 : l0;
        fp2.mul(s, th, ra, rx, line, jj);
        fp2.mul(s, la, ra, ry, s, u);
        fp2.sub(line, jj, s, u, line, jj);
        fp2.neg(s, th, line, l1);
        fp2.copy(s, la, line, twist == Pairing.Twist.D ? l0 : l2);
        // T' = (λ H, θ (G - H) - E Y, Z E)
        fp2.mul(s, e, t, y, s, u);
        fp2.sub(s, g, s, h, s, g);
        fp2.mul(s, th, s, g, s, g);
        fp2.sub(s, g, s, u, t, y);
        fp2.mul(s, la, s, h, t, x);
        fp2.mul(t, z, s, e, t, z);
        evaluate(j);
    }

    /** The next recorded line of pair j, evaluated at its P. */
    private void replayLine(int j) {
        System.arraycopy(replayed[j], cursor[j], line, 0, line.length);
        cursor[j] += line.length;
        evaluate(j);
    }

    /**
     * f = f * l(P). D-type twist: l = l0 y_P + l1 x_P w + l2 v w (sparse 0, 3, 4); M-type twist:
     * l = l0 + l1 x_P v + l2 y_P v w (sparse 0, 1, 4).
     */
    private void evaluate(int j) {
        if (recorded != null) {
            if (recordedLength + line.length > recorded.length) {
                recorded = Arrays.copyOf(recorded, 2 * recorded.length);
            }
            System.arraycopy(line, 0, recorded, recordedLength, line.length);
            recordedLength += line.length;
            return;
        }
        final int px = j * 2 * n, py = px + n;
        final int l0 = 0, l1 = w2, l2 = 2 * w2;
        fp2.mulByBase(line, l1, p, px, line, l1);
        if (twist == Pairing.Twist.D) {
            fp2.mulByBase(line, l0, p, py, line, l0);
            f12.mulBy034(f, 0, line, l0, line, l1, line, l2);
        } else {
            fp2.mulByBase(line, l2, p, py, line, l2);
            f12.mulBy014(f, 0, line, l0, line, l1, line, l2);
        }
    }
}
