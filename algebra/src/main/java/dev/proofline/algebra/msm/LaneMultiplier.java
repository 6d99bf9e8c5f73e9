package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.EndomorphismSubgroupCheck;
import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.curve.PointArithmetic;

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
    private final int cw;
    private final int windows;
    private final int applications;
    private final boolean conjugates;

    private final LanePoints lp;
    private final long[] x;
    private final int reg;
    private final int pt;
    private final int t1;
    private final int t2;
    private final int acc;
    private final int sel;
    private final int two;
    private final int cx;
    private final int cy;
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
        this.cw = f.width();
        this.windows = scalar.regularWindows();
        this.applications = scalar.applications();
        EndomorphismSubgroupCheck map = scalar.map();
        this.conjugates = map.conjugates();
        // points: the two tables, acc, the selected entry, 2P, and the map's coefficients
        this.lp = new LanePoints(f, 2 * ENTRIES + 4);
        this.x = lp.x;
        this.reg = f.register();
        this.pt = 3 * reg;
        this.t1 = lp.point(0);
        this.t2 = lp.point(ENTRIES);
        this.acc = lp.point(2 * ENTRIES);
        this.sel = lp.point(2 * ENTRIES + 1);
        this.two = lp.point(2 * ENTRIES + 2);
        this.cx = lp.point(2 * ENTRIES + 3);
        this.words = new long[8 * cw];
        this.cy = lp.coefficients(map, cx);
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
        lp.dbl(t1, two);
        for (int j = 1; j < ENTRIES; j++) {
            bad |= lp.add(t1 + (j - 1) * pt, two, t1 + j * pt);
        }
        // and its image under phi (applied once or twice)
        for (int j = 0; j < ENTRIES; j++) {
            lp.endomorphism(t1 + j * pt, t2 + j * pt, cx, cy, conjugates);
            if (applications == 2) {
                lp.endomorphism(t2 + j * pt, t2 + j * pt, cx, cy, conjugates);
            }
        }
        int top = windows - 1;
        select(t1, k, src, top, true);
        System.arraycopy(x, sel, x, acc, pt);
        select(t2, k, src, top, false);
        bad |= lp.add(acc, sel, acc);
        for (int i = top - 1; i >= 0; i--) {
            for (int d = 0; d < GlvMultiplier.REGULAR_WINDOW; d++) {
                lp.dbl(acc, acc);
            }
            select(t1, k, src, i, true);
            bad |= lp.add(acc, sel, acc);
            select(t2, k, src, i, false);
            bad |= lp.add(acc, sel, acc);
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
}
