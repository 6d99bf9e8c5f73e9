package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.EndomorphismSubgroupCheck;
import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.function.IntFunction;

/**
 * Many scalar multiplications at once in affine coordinates, on the 8-lane field kernels: up to
 * {@link #capacity()} points in groups of eight (a point a lane), all running the same doublings and
 * additions in lockstep, the scalars {@link GlvMultiplier#recodeRegular recoded} as {@link
 * LaneMultiplier} takes them (Straus-Shamir over the two halves, a table of the odd multiples (2j + 1) P,
 * j below 8, per lane, the second half's entries through the endomorphism). Each step of the batch (a
 * doubling, or an addition of a table entry) shares one field inversion among all its points
 * (Montgomery's trick: the denominators' prefix products over the groups, one inversion of the eight
 * lanes' totals by the scalar code, then back over the groups). An affine doubling then costs about the
 * products of a Jacobian one and an affine addition about a third of a Jacobian one, which is where
 * {@link LaneMultiplier} spends half its time.
 *
 * <p>A lane whose denominator is zero (an addition of equal or opposite points, which the formula gets
 * wrong) has its denominator replaced by one and is done again by the scalar {@link GlvMultiplier} at
 * the end, as are points at infinity; so every result equals the scalar code's point. Confined to one
 * thread.
 */
public final class AffineLaneMultiplier {

    /**
     * Groups of eight points in a batch: more groups share each step's inversion among more points but
     * spread the registers (21 a group) over more of the cache. For BN254's base field, whose inversion
     * weighs most against its products, 128; for the larger fields and Fp2, 32, which measured as well or
     * better (docs/decisions/0030-key-steps-warm-up-wait-h-check-batch-size.md).
     */
    private static final int GROUPS = 32;
    private static final int GROUPS_SMALL_FIELD = 128;
    /** The most points of one {@link #mul} in any field: the callers' queues. */
    public static final int MOST = 8 * GROUPS_SMALL_FIELD;

    private static final int ENTRIES = 1 << (GlvMultiplier.REGULAR_WINDOW - 1);
    private static final boolean[] ALL = {true, true, true, true, true, true, true, true};
    // registers of a group: the accumulator (x, y), the table's entries (x, y), the step's denominator,
    // numerator and prefix product
    private static final int AX = 0;
    private static final int AY = 1;
    private static final int TABLE = 2;
    private static final int DEN = TABLE + 2 * ENTRIES;
    private static final int NUM = DEN + 1;
    private static final int PRE = NUM + 1;
    private static final int PER_GROUP = PRE + 1;

    private final GlvMultiplier scalar;
    private final PointArithmetic pa;
    private final Field field;
    private final LaneField f;
    private final int reg;
    private final int cw;
    private final int jw;
    private final int windows;
    private final int applications;
    private final boolean conjugates;
    private final long[] x;
    // the registers outside the groups
    private final int sx;
    private final int sy;
    private final int inv;
    private final int t;
    private final int lam;
    private final int x3;
    private final int tmp;
    private final int cx;
    private final int cy;

    private final long[] words;
    private final long[] wordsY;
    private final long[] totals;
    private final long[] pp;
    private final long[] e;
    private final long[] jac;
    private final long[] aff;
    private final long[] point;
    private final int capacity;
    /** Per group, the lanes that went wrong (infinity in, or a zero denominator), to redo. */
    private final long[] bad;
    /** Per slot (group * 8 + lane), the index of its multiplication in the call. */
    private final int[] src;
    private final boolean[] neg = new boolean[8];
    private final int[] entry = new int[8];
    private GlvMultiplier.Regular[] k;
    private GlvMultiplier.Recoded same;
    /** Lanes done again by the scalar multiplier so far, and steps that met a zero denominator (for tests). */
    long fallbacks;
    long zeroDenominators;

    private AffineLaneMultiplier(GlvMultiplier scalar, LaneField f, int groups) {
        this.scalar = scalar;
        this.pa = scalar.arithmetic();
        this.field = pa.field();
        this.f = f;
        this.reg = f.register();
        this.cw = f.width();
        this.windows = scalar.regularWindows();
        this.applications = scalar.applications();
        EndomorphismSubgroupCheck map = scalar.map();
        this.conjugates = map.conjugates();
        this.capacity = 8 * groups;
        this.bad = new long[groups];
        this.src = new int[capacity];
        int globals = groups * PER_GROUP;
        this.sx = globals * reg;
        this.sy = sx + reg;
        this.inv = sy + reg;
        this.t = inv + reg;
        this.lam = t + reg;
        this.x3 = lam + reg;
        this.tmp = x3 + reg;
        this.cx = tmp + reg;
        int registers = globals + 9;
        this.x = new long[registers * reg + f.scratch()];
        f.scratchAt(registers * reg);
        this.words = new long[8 * cw];
        this.wordsY = new long[8 * cw];
        this.totals = new long[8 * cw];
        this.pp = new long[8 * cw];
        this.e = new long[cw];
        this.jw = pa.curve().jacobianWidth();
        this.jac = new long[capacity * jw];
        this.aff = new long[capacity * 2 * cw];
        this.point = new long[2 * cw];
        broadcast(map.cx(), cx);
        long[] one = field.newElement();
        field.setOne(one, 0);
        if (java.util.Arrays.equals(map.cy(), one)) {
            this.cy = -1;
        } else {
            this.cy = cx + reg;
            broadcast(map.cy(), cy);
        }
    }

    /**
     * The batch multiplier beside a scalar one (whose thread it shares), or null where the 8-lane kernels
     * do not apply or are not allowed. With {@code eager} the kernels count as ready from the first call
     * (for tests).
     */
    public static AffineLaneMultiplier of(GlvMultiplier scalar, boolean eager) {
        Field field = scalar.arithmetic().field();
        return of(scalar, eager, field instanceof PrimeField p && p.width() == 4 ? GROUPS_SMALL_FIELD : GROUPS);
    }

    /** As {@link #of(GlvMultiplier, boolean)}, with this many groups of eight (for timings). */
    static AffineLaneMultiplier of(GlvMultiplier scalar, boolean eager, int groups) {
        LaneField f = LaneField.of(scalar.arithmetic().field(), eager);
        return f == null ? null : new AffineLaneMultiplier(scalar, f, groups);
    }

    /** The most points of one {@link #mul} or {@link #mulSame}. */
    public int capacity() {
        return capacity;
    }

    /** Whether the kernels are compiled; until then the scalar multiplier is faster. */
    public boolean ready() {
        return f.ready();
    }

    /**
     * r at ro[i] = k[i] p at po[i] for i below count (at most {@link #capacity()}): Jacobian points of the
     * subgroup, scalars from this multiplier's {@link GlvMultiplier#recodeRegular}. An r may be its own
     * p, not another's.
     */
    public void mul(long[] p, int[] po, GlvMultiplier.Regular[] k, int count, long[] r, int[] ro) {
        int groups = load(p, po, count, r, ro);
        if (groups == 0) {
            return;
        }
        this.k = k;
        int top = windows - 1;
        start(groups, top, true);
        addition(groups, AX, AX, top, false);
        for (int i = top - 1; i >= 0; i--) {
            for (int d = 0; d < GlvMultiplier.REGULAR_WINDOW; d++) {
                doubling(groups, AX, AX);
            }
            addition(groups, AX, AX, i, true);
            addition(groups, AX, AX, i, false);
        }
        store(count, groups, r, ro, i -> k[i].k());
        this.k = null;
    }

    /**
     * r at ro[i] = k p at po[i] for i below count (at most {@link #capacity()}), one scalar for all, recoded
     * by {@link GlvMultiplier#recode} (width-5 NAF): the lanes share its digits, so that a zero digit
     * skips its addition in every lane (about two thirds of them). k is the scalar's value, for the
     * lanes done again by the scalar code.
     */
    public void mulSame(long[] p, int[] po, GlvMultiplier.Recoded naf, BigInteger k, int count, long[] r, int[] ro) {
        int groups = load(p, po, count, r, ro);
        if (groups == 0) {
            return;
        }
        this.same = naf;
        int top = Math.max(naf.naf1().length, naf.naf2().length) - 1;
        boolean started = false;
        for (int i = top; i >= 0; i--) {
            if (started) {
                doubling(groups, AX, AX);
            }
            for (int half = 0; half < 2; half++) {
                if (digit(half == 0 ? naf.naf1() : naf.naf2(), i) == 0) {
                    continue;
                }
                if (started) {
                    addition(groups, AX, AX, i, half == 0);
                } else {
                    start(groups, i, half == 0);
                    started = true;
                }
            }
        }
        this.same = null;
        if (!started) {   // k = 0
            infinity(count, r, ro);
            return;
        }
        store(count, groups, r, ro, i -> k);
    }

    /** Every group's accumulator = its lanes' table entries of digit i of the first or second half. */
    private void start(int groups, int i, boolean first) {
        for (int g = 0; g < groups; g++) {
            select(g, i, first);
            System.arraycopy(x, sx, x, g * PER_GROUP * reg + AX * reg, 2 * reg);
        }
    }

    private void infinity(int count, long[] r, int[] ro) {
        for (int i = 0; i < count; i++) {
            pa.setInfinity(r, ro[i]);
        }
    }

    private static int digit(byte[] naf, int i) {
        return i < naf.length ? naf[i] : 0;
    }

    /**
     * The points into the lanes' first table entries, affine (one inversion), and the rest of the table:
     * (2j + 1) P by one doubling into the accumulator and additions. Returns the groups, or 0 when every
     * point is at infinity (whose results it writes then).
     */
    private int load(long[] p, int[] po, int count, long[] r, int[] ro) {
        if (count < 1 || count > capacity) {
            throw new IllegalArgumentException("count: " + count);
        }
        int aw = 2 * cw;
        int good = -1;
        for (int i = 0; i < count; i++) {
            System.arraycopy(p, po[i], jac, i * jw, jw);
            if (good < 0 && !pa.isInfinity(p, po[i])) {
                good = i;
            }
        }
        if (good < 0) {
            infinity(count, r, ro);
            return 0;
        }
        pa.batchToAffine(jac, 0, aff, 0, count);
        int groups = (count + 7) >>> 3;
        for (int g = 0; g < groups; g++) {
            long b = 0;
            for (int l = 0; l < 8; l++) {
                int i = g * 8 + l;
                boolean infinity = i < count && pa.isInfinity(jac, i * jw);
                if (infinity) {
                    b |= 1L << l;
                }
                src[i] = i < count && !infinity ? i : good;
                System.arraycopy(aff, src[i] * aw, words, l * cw, cw);
                System.arraycopy(aff, src[i] * aw + cw, wordsY, l * cw, cw);
            }
            bad[g] = b;
            int base = g * PER_GROUP * reg;
            f.load(words, 0, x, base + TABLE * reg);
            f.load(wordsY, 0, x, base + (TABLE + 1) * reg);
        }
        doubling(groups, TABLE, AX);
        for (int j = 1; j < ENTRIES; j++) {
            addition(groups, TABLE + 2 * (j - 1), TABLE + 2 * j, -1, false);
        }
        return groups;
    }

    /**
     * The accumulators of the lanes that went right to r (Jacobian, Z = 1); the others done again by the
     * scalar code from their input, multiplication i by {@code scalarOf(i)}.
     */
    private void store(int count, int groups, long[] r, int[] ro, IntFunction<BigInteger> scalarOf) {
        for (int g = 0; g < groups; g++) {
            int base = g * PER_GROUP * reg;
            f.store(x, base + AX * reg, words, 0);
            f.store(x, base + AY * reg, wordsY, 0);
            for (int l = 0; l < 8; l++) {
                int i = g * 8 + l;
                if (i >= count || (bad[g] >>> l & 1) != 0) {
                    continue;
                }
                System.arraycopy(words, l * cw, point, 0, cw);
                System.arraycopy(wordsY, l * cw, point, cw, cw);
                pa.fromAffine(point, 0, r, ro[i]);
            }
        }
        for (int i = 0; i < count; i++) {
            if ((bad[i >>> 3] >>> (i & 7) & 1) != 0) {
                fallbacks++;
                scalar.mul(jac, i * jw, scalarOf.apply(i), r, ro[i]);
            }
        }
    }

    /** Per group, the point at register q (a group register: x, then y) = 2 (the point at p). */
    private void doubling(int groups, int p, int q) {
        step(groups, p, q, true, -1, false);
    }

    /**
     * Per group, the point at register q = the point at p + a second point: the table entry of digit i of
     * the first (or second) half, per lane, when i is at least zero; otherwise the point in the accumulator
     * (the table's 2P).
     */
    private void addition(int groups, int p, int q, int i, boolean first) {
        step(groups, p, q, false, i, first);
    }

    /**
     * A doubling (denominator 2y, numerator 3x^2) or an addition (x2 - x1, y2 - y1) of every group: the
     * denominators and their prefix products going forward, one inversion, the points going back.
     */
    private void step(int groups, int p, int q, boolean doubling, int i, boolean first) {
        for (int g = 0; g < groups; g++) {
            int base = g * PER_GROUP * reg;
            int px = base + p * reg;
            int py = px + reg;
            int den = base + DEN * reg;
            int num = base + NUM * reg;
            if (doubling) {
                f.add(x, py, py, den);
                f.sqr(x, px, num);
                f.add(x, num, num, tmp);
                f.add(x, num, tmp, num);
            } else {
                int ox = base + AX * reg;
                if (i >= 0) {
                    select(g, i, first);
                    ox = sx;
                }
                f.sub(x, ox, px, den);
                f.sub(x, ox + reg, py, num);
            }
            prefix(g);
        }
        invertTotals(groups);
        for (int g = groups - 1; g >= 0; g--) {
            int base = g * PER_GROUP * reg;
            int px = base + p * reg;
            backward(g);
            int other = px;
            if (!doubling) {
                f.add(x, base + DEN * reg, px, tmp);     // the other point's x
                other = tmp;
            }
            f.sub(x, x3, px, x3);
            f.sub(x, x3, other, x3);                    // x3 = lambda^2 - x1 - x2
            end(px, base + q * reg);
        }
    }

    /** Group g's prefix product: the product of the denominators of groups 0 to g, lane by lane. */
    private void prefix(int g) {
        int base = g * PER_GROUP * reg;
        int den = base + DEN * reg;
        if (g == 0) {
            System.arraycopy(x, den, x, base + PRE * reg, reg);
        } else {
            f.mul(x, base - PER_GROUP * reg + PRE * reg, den, base + PRE * reg);
        }
    }

    /**
     * The lanes whose product of denominators is zero (rare: an addition of equal or opposite points, or
     * a lane already wrong) have each zero denominator replaced by one and are marked to be redone; the
     * prefix products are then computed again. One check of the totals a step instead of one a group.
     */
    private void checkTotals(int groups) {
        if (f.zeroLanes(x, (groups - 1) * PER_GROUP * reg + PRE * reg) == 0) {
            return;
        }
        zeroDenominators++;
        for (int g = 0; g < groups; g++) {
            int den = g * PER_GROUP * reg + DEN * reg;
            long zero = f.zeroLanes(x, den);
            if (zero != 0) {
                bad[g] |= zero;
                f.store(x, den, words, 0);
                for (int l = 0; l < 8; l++) {
                    if ((zero >>> l & 1) != 0) {
                        field.setOne(words, l * cw);
                    }
                }
                f.load(words, 0, x, den);
            }
            prefix(g);
        }
    }

    /** inv = the inverse of the last group's prefix product, lane by lane (one inversion for the eight). */
    private void invertTotals(int groups) {
        checkTotals(groups);
        f.store(x, (groups - 1) * PER_GROUP * reg + PRE * reg, totals, 0);
        VectorBatchAffine.invertEight(field, cw, totals, pp, e, words);
        f.load(words, 0, x, inv);
    }

    /** Going back over the groups: lambda = numerator / denominator of group g to lam, lambda^2 to x3. */
    private void backward(int g) {
        int base = g * PER_GROUP * reg;
        int den = base + DEN * reg;
        int over;
        if (g > 0) {
            f.mul(x, inv, base - PER_GROUP * reg + PRE * reg, t);
            f.mul(x, inv, den, inv);
            over = t;
        } else {
            over = inv;
        }
        f.mul(x, base + NUM * reg, over, lam);
        f.sqr(x, lam, x3);
    }

    /** y3 = lambda (x1 - x3) - y1; the point (x3, y3) to r (x, then y), which may be p. */
    private void end(int p, int r) {
        f.sub(x, p, x3, tmp);
        f.mul(x, lam, tmp, tmp);
        f.sub(x, tmp, p + reg, r + reg);
        System.arraycopy(x, x3, x, r, reg);
    }

    /**
     * Per lane of group g, the table entry of digit i of the first or second half, signed, to (sx, sy):
     * the lane's own scalar's digit, or the shared one's ({@link #mulSame}, not zero here).
     */
    private void select(int g, int i, boolean first) {
        int table = g * PER_GROUP * reg + TABLE * reg;
        int pt = 2 * reg;
        if (same != null) {
            int d = first ? same.naf1()[i] : same.naf2()[i];
            System.arraycopy(x, table + (((d < 0 ? -d : d) - 1) >> 1) * pt, x, sx, pt);
            if ((d < 0) != (first ? same.negative1() : same.negative2())) {
                f.negWhere(x, sy, ALL);
            }
        } else {
            for (int l = 0; l < 8; l++) {
                GlvMultiplier.Regular s = k[src[g * 8 + l]];
                int d = first ? s.digits1()[i] : s.digits2()[i];
                entry[l] = ((d < 0 ? -d : d) - 1) >> 1;
                neg[l] = (d < 0) != (first ? s.negative1() : s.negative2());
            }
            for (int i0 = 0; i0 < pt; i0 += 8) {
                for (int l = 0; l < 8; l++) {
                    x[sx + i0 + l] = x[table + entry[l] * pt + i0 + l];
                }
            }
            f.negWhere(x, sy, neg);
        }
        if (!first) {
            for (int a = 0; a < applications; a++) {
                if (conjugates) {
                    f.conjugate(x, sx);
                    f.conjugate(x, sy);
                }
                f.mul(x, sx, cx, sx);
                if (cy >= 0) {
                    f.mul(x, sy, cy, sy);
                }
            }
        }
    }

    /** One field element into all eight lanes of the register at o. */
    private void broadcast(long[] element, int o) {
        for (int l = 0; l < 8; l++) {
            System.arraycopy(element, 0, words, l * cw, cw);
        }
        f.load(words, 0, x, o);
    }
}
