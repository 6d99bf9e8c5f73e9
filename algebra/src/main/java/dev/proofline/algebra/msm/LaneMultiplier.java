package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.EndomorphismSubgroupCheck;
import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.curve.PointArithmetic;
import java.math.BigInteger;

/**
 * Eight scalar multiplications at once, one per lane of the 8-lane field kernels: k_l P_l for eight
 * Jacobian points of a group with an endomorphism and eight scalars, each {@link
 * GlvMultiplier#recodeRegular recoded} into two odd halves of the same number of odd digits, so that
 * the eight run the same doublings and additions in lockstep (Straus-Shamir over both halves, as
 * {@link GlvMultiplier} does with NAF digits, which would leave the lanes adding at different places).
 * Each lane has its own table of odd multiples (2j + 1) P, j below 8, and its image under phi; a
 * digit picks an entry per lane and its sign negates it per lane.
 *
 * <p>The additions use the Jacobian formula for distinct points; a lane where one would meet equal or
 * opposite points (H = 0), or whose point is at infinity, is done again by the scalar {@link
 * GlvMultiplier}, so every result equals the scalar code's point. For the many independent
 * multiplications of a transform over a group (the ceremony's), where the scalar code spends its time.
 * Confined to one thread.
 */
public final class LaneMultiplier {

    private static final int ENTRIES = 1 << (GlvMultiplier.REGULAR_WINDOW - 1);

    private final GlvMultiplier scalar;
    private final PointArithmetic pa;
    private final LaneField f;
    private final int jw;
    private final int cw;
    private final int windows;
    private final int applications;
    private final boolean conjugates;
    private final boolean cyIsOne;

    private final long[] x;
    /** Registers: a point is three (X, Y, Z). */
    private final int reg;
    private final int pt;
    private final int t1;
    private final int t2;
    private final int acc;
    private final int sel;
    private final int two;
    private final int cx;
    private final int cy;
    private final int tmp;
    private final long[] words;
    private final boolean[] neg = new boolean[8];
    private final int[] entry = new int[8];
    private final int[] src = new int[8];
    /** Lanes done again by the scalar multiplier so far (for tests). */
    long fallbacks;

    private LaneMultiplier(GlvMultiplier scalar, LaneField f) {
        this.scalar = scalar;
        this.pa = scalar.arithmetic();
        this.f = f;
        this.jw = pa.curve().jacobianWidth();
        this.cw = f.width();
        this.windows = scalar.regularWindows();
        this.applications = scalar.applications();
        EndomorphismSubgroupCheck map = scalar.map();
        this.conjugates = map.conjugates();
        this.reg = f.register();
        this.pt = 3 * reg;
        this.t1 = 0;
        this.t2 = t1 + ENTRIES * pt;
        this.acc = t2 + ENTRIES * pt;
        this.sel = acc + pt;
        this.two = sel + pt;
        this.cx = two + pt;
        this.cy = cx + reg;
        this.tmp = cy + reg;
        int scratch = tmp + 12 * reg;
        this.x = new long[scratch + f.scratch()];
        f.scratchAt(scratch);
        this.words = new long[8 * cw];
        long[] one = new long[cw];
        pa.field().setOne(one, 0);
        long[] cyWords = map.cy();
        this.cyIsOne = java.util.Arrays.equals(cyWords, one);
        broadcast(map.cx(), cx);
        broadcast(cyWords, cy);
    }

    /**
     * The lane multiplier beside a scalar one (whose thread it shares), or null where the 8-lane kernels
     * do not apply or are not allowed. With {@code eager} the kernels count as ready from the first call
     * (for tests).
     */
    public static LaneMultiplier of(GlvMultiplier scalar, boolean eager) {
        LaneField f = LaneField.of(scalar.arithmetic().field(), eager);
        return f == null ? null : new LaneMultiplier(scalar, f);
    }

    public GlvMultiplier scalar() {
        return scalar;
    }

    /** Whether the kernels are compiled; until then the scalar multiplier is faster. */
    public boolean ready() {
        return f.ready();
    }

    /** Starts the kernels' warm-up (in the background) if it has not started, and waits at most that long. */
    public boolean warmUp(long timeoutMillis) throws InterruptedException {
        return f.warmUp(timeoutMillis);
    }

    /**
     * r at ro[l] = k[l] p at po[l] for l below count (at most 8): Jacobian points of the subgroup, scalars
     * from this multiplier's {@link GlvMultiplier#recodeRegular}. An r may be its own p, not another lane's.
     */
    public void mul(long[] p, int[] po, GlvMultiplier.Regular[] k, int count, long[] r, int[] ro) {
        if (count < 1 || count > 8) {
            throw new IllegalArgumentException("count: " + count);
        }
        long bad = 0;       // lanes at infinity, then also lanes that met an exceptional addition
        for (int l = 0; l < count; l++) {
            if (pa.isInfinity(p, po[l])) {
                bad |= 1L << l;
            }
        }
        int good = Long.numberOfTrailingZeros(~bad);
        if (good >= count) {
            for (int l = 0; l < count; l++) {
                pa.setInfinity(r, ro[l]);
            }
            return;
        }
        for (int l = 0; l < 8; l++) {
            src[l] = l < count && (bad >>> l & 1) == 0 ? l : good;
        }
        for (int c = 0; c < 3; c++) {
            for (int l = 0; l < 8; l++) {
                System.arraycopy(p, po[src[l]] + c * cw, words, l * cw, cw);
            }
            f.load(words, 0, x, t1 + c * reg);
        }
        // the table: (2j + 1) P
        dbl(t1, two);
        for (int j = 1; j < ENTRIES; j++) {
            bad |= add(t1 + (j - 1) * pt, two, t1 + j * pt);
        }
        // and its image under phi (applied once or twice)
        for (int j = 0; j < ENTRIES; j++) {
            int from = t1 + j * pt;
            int to = t2 + j * pt;
            System.arraycopy(x, from, x, to, pt);
            for (int a = 0; a < applications; a++) {
                if (conjugates) {
                    f.conjugate(x, to);
                    f.conjugate(x, to + reg);
                    f.conjugate(x, to + 2 * reg);
                }
                f.mul(x, to, cx, to);
                if (!cyIsOne) {
                    f.mul(x, to + reg, cy, to + reg);
                }
            }
        }
        int top = windows - 1;
        select(t1, k, src, top, true);
        System.arraycopy(x, sel, x, acc, pt);
        select(t2, k, src, top, false);
        bad |= add(acc, sel, acc);
        for (int i = top - 1; i >= 0; i--) {
            for (int d = 0; d < GlvMultiplier.REGULAR_WINDOW; d++) {
                dbl(acc, acc);
            }
            select(t1, k, src, i, true);
            bad |= add(acc, sel, acc);
            select(t2, k, src, i, false);
            bad |= add(acc, sel, acc);
        }
        for (int c = 0; c < 3; c++) {
            f.store(x, acc + c * reg, words, 0);
            for (int l = 0; l < count; l++) {
                if ((bad >>> l & 1) == 0) {
                    System.arraycopy(words, l * cw, r, ro[l] + c * cw, cw);
                }
            }
        }
        for (int l = 0; l < count; l++) {
            if ((bad >>> l & 1) != 0) {
                fallbacks++;
                scalar.mul(p, po[l], k[l].k(), r, ro[l]);
            }
        }
    }

    /** Loads the field element into all eight lanes of the register at o. */
    private void broadcast(long[] element, int o) {
        for (int l = 0; l < 8; l++) {
            System.arraycopy(element, 0, words, l * cw, cw);
        }
        f.load(words, 0, x, o);
    }

    /** Per lane, the table entry of digit i of the first or second half, negated as its sign says, to sel. */
    private void select(int table, GlvMultiplier.Regular[] k, int[] src, int i, boolean first) {
        for (int l = 0; l < 8; l++) {
            GlvMultiplier.Regular s = k[src[l]];
            int d = first ? s.digits1()[i] : s.digits2()[i];
            entry[l] = ((d < 0 ? -d : d) - 1) >> 1;
            neg[l] = (d < 0) != (first ? s.negative1() : s.negative2());
        }
        for (int i0 = 0; i0 < pt; i0 += 8) {
            for (int l = 0; l < 8; l++) {
                x[sel + i0 + l] = x[table + entry[l] * pt + i0 + l];
            }
        }
        f.negWhere(x, sel + reg, neg);
    }

    /** The point at r = 2 p (dbl-2009-l, a = 0); r may be p. */
    private void dbl(int p, int r) {
        final int a = tmp, b = tmp + reg, c = tmp + 2 * reg, d = tmp + 3 * reg, e = tmp + 4 * reg,
                ff = tmp + 5 * reg;
        final int px = p, py = p + reg, pz = p + 2 * reg, rx = r, ry = r + reg, rz = r + 2 * reg;
        f.sqr(x, px, a);                 // A = X^2
        f.sqr(x, py, b);                 // B = Y^2
        f.sqr(x, b, c);                  // C = B^2
        f.add(x, px, b, d);
        f.sqr(x, d, d);
        f.sub(x, d, a, d);
        f.sub(x, d, c, d);
        f.add(x, d, d, d);               // D = 2((X + B)^2 - A - C)
        f.add(x, a, a, e);
        f.add(x, e, a, e);               // E = 3A
        f.sqr(x, e, ff);                 // F = E^2
        f.mul(x, py, pz, rz);
        f.add(x, rz, rz, rz);            // Z3 = 2 Y Z
        f.sub(x, ff, d, rx);
        f.sub(x, rx, d, rx);             // X3 = F - 2D
        f.sub(x, d, rx, d);
        f.mul(x, e, d, d);               // E (D - X3)
        f.add(x, c, c, c);
        f.add(x, c, c, c);
        f.add(x, c, c, c);               // 8C
        f.sub(x, d, c, ry);              // Y3 = E (D - X3) - 8C
    }

    /**
     * The point at r = p + q (add-2007-bl) for distinct points not at infinity; r may be p. Returns the
     * lanes where p and q have the same x (equal or opposite points), whose results are wrong.
     */
    private long add(int p, int q, int r) {
        final int z1z1 = tmp, z2z2 = tmp + reg, u1 = tmp + 2 * reg, u2 = tmp + 3 * reg, s1 = tmp + 4 * reg,
                s2 = tmp + 5 * reg, h = tmp + 6 * reg, i = tmp + 7 * reg, j = tmp + 8 * reg, rr = tmp + 9 * reg,
                v = tmp + 10 * reg, z3 = tmp + 11 * reg;
        final int px = p, py = p + reg, pz = p + 2 * reg, qx = q, qy = q + reg, qz = q + 2 * reg;
        f.sqr(x, pz, z1z1);
        f.sqr(x, qz, z2z2);
        f.mul(x, px, z2z2, u1);
        f.mul(x, qx, z1z1, u2);
        f.mul(x, py, qz, s1);
        f.mul(x, s1, z2z2, s1);          // S1 = Y1 Z2 Z2Z2
        f.mul(x, qy, pz, s2);
        f.mul(x, s2, z1z1, s2);          // S2 = Y2 Z1 Z1Z1
        f.sub(x, u2, u1, h);             // H = U2 - U1
        long same = f.zeroLanes(x, h);
        f.sub(x, s2, s1, rr);
        f.add(x, rr, rr, rr);            // r = 2 (S2 - S1)
        f.add(x, h, h, i);
        f.sqr(x, i, i);                  // I = (2H)^2
        f.mul(x, h, i, j);               // J = H I
        f.mul(x, u1, i, v);              // V = U1 I
        f.add(x, pz, qz, z3);
        f.sqr(x, z3, z3);
        f.sub(x, z3, z1z1, z3);
        f.sub(x, z3, z2z2, z3);
        f.mul(x, z3, h, z3);             // Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H
        final int rx = r, ry = r + reg, rz = r + 2 * reg;
        f.sqr(x, rr, rx);
        f.sub(x, rx, j, rx);
        f.sub(x, rx, v, rx);
        f.sub(x, rx, v, rx);             // X3 = r^2 - J - 2V
        f.sub(x, v, rx, v);
        f.mul(x, rr, v, v);
        f.mul(x, s1, j, s1);
        f.add(x, s1, s1, s1);
        f.sub(x, v, s1, ry);             // Y3 = r (V - X3) - 2 S1 J
        System.arraycopy(x, z3, x, rz, reg);
        return same;
    }
}
