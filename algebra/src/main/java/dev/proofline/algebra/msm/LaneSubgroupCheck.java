package dev.proofline.algebra.msm;

import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.bn254.Bn254G2SubgroupCheck;
import dev.proofline.algebra.curve.EndomorphismSubgroupCheck;
import dev.proofline.algebra.curve.ScalarMultiplier;
import dev.proofline.algebra.curve.SubgroupCheck;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.math.BigInteger;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * The endomorphism subgroup checks of eight affine points at once, on the 8-lane kernels: the same
 * relation as the scalar check (phi(P) == [lambda] P, or BN254 G2's relation in u), with the short
 * public scalar's NAF digits shared by the eight lanes, so that they double and add in lockstep. A lane
 * passes only when every addition it made was between points of different x and the relation held
 * with both sides away from infinity: the computation was then exactly the scalar one's. Every other
 * lane (a point outside the subgroup, or one the formulas could not decide) is left to the scalar
 * check, which the caller runs. Confined to one thread.
 *
 * <p>The warm-up ({@link #warmUp}) first has the kernels compiled, then runs this class's own code
 * (the point formulas, the relation) on the group's generator until its calls stop getting faster,
 * on a thread of its own: until then {@link #ready} is false, and the callers' first checks do not
 * meet that code still interpreted or compiled by the quick compiler, several times slower.
 */
public final class LaneSubgroupCheck {

    private final LanePoints lp;
    private final LaneField f;
    private final long[] x;
    private final int reg;
    private final int cw;
    private final int[] naf;
    private final boolean negative;
    /** BN254 G2: [u + 1] P + psi([u] P) + psi^2([u] P) == psi^3([2u] P); otherwise phi(P) == [lambda] P. */
    private final boolean bnRelation;
    private final boolean conjugates;
    private final int p;
    private final int negP;
    private final int acc;
    private final int t1;
    private final int t2;
    private final int cx;
    private final int cy;
    private final long[] words;
    private final boolean[] all = {true, true, true, true, true, true, true, true};
    private final SubgroupCheck check;
    private final boolean eager;

    /** Per curve: the warm-up of this class's own code, started once, counted down when it ends. */
    private static final Map<WeierstrassCurve, CountDownLatch> OWN_WARM_UP = new ConcurrentHashMap<>();

    private LaneSubgroupCheck(LaneField f, SubgroupCheck check, boolean eager, EndomorphismSubgroupCheck map,
            BigInteger scalar, boolean bnRelation) {
        this.f = f;
        this.check = check;
        this.eager = eager;
        this.lp = new LanePoints(f, 6);
        this.x = lp.x;
        this.reg = f.register();
        this.cw = f.width();
        this.naf = ScalarMultiplier.wnaf(scalar.abs(), 2);
        this.negative = scalar.signum() < 0;
        this.bnRelation = bnRelation;
        this.conjugates = map.conjugates();
        this.p = lp.point(0);
        this.negP = lp.point(1);
        this.acc = lp.point(2);
        this.t1 = lp.point(3);
        this.t2 = lp.point(4);
        this.cx = lp.point(5);
        this.words = new long[8 * cw];
        this.cy = lp.coefficients(map, cx);
        long[] one = new long[cw];
        map.arithmetic().field().setOne(one, 0);
        lp.broadcast(one, p + 2 * reg);     // Z = 1 of P, once (-P is only added, as an affine point)
    }

    /**
     * The lane check beside a scalar one, or null where the 8-lane kernels do not apply or are not
     * allowed, or the check is of another kind. With {@code eager} the kernels count as ready from the
     * first call (for tests).
     */
    public static LaneSubgroupCheck of(SubgroupCheck check, boolean eager) {
        EndomorphismSubgroupCheck map;
        BigInteger scalar;
        boolean bn;
        if (check instanceof EndomorphismSubgroupCheck e) {
            map = e;
            scalar = e.lambda();
            bn = false;
        } else if (check instanceof Bn254G2SubgroupCheck b) {
            map = b.psi();
            scalar = Bn254.U;
            bn = true;
        } else {
            return null;
        }
        LaneField f = LaneField.of(check.arithmetic().field(), eager);
        return f == null ? null : new LaneSubgroupCheck(f, check, eager, map, scalar, bn);
    }

    /**
     * Whether the kernels are compiled, and this class's code too where its warm-up was started; until
     * then the scalar check is faster.
     */
    public boolean ready() {
        return eager || f.ready() && !ownWarming();
    }

    /** Whether the warm-up is under way: not ready yet, and may be soon. */
    public boolean warming() {
        return !eager && (f.warming() || f.ready() && ownWarming());
    }

    private boolean ownWarming() {
        CountDownLatch own = OWN_WARM_UP.get(check.curve());
        return own != null && own.getCount() > 0;
    }

    /** Starts the warm-up (in the background) if it has not started. */
    public void warmUp() {
        if (eager) {
            return;
        }
        try {
            f.warmUp(0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        OWN_WARM_UP.computeIfAbsent(check.curve(), c -> {
            CountDownLatch done = new CountDownLatch(1);
            Thread t = new Thread(() -> {
                try {
                    LaneSubgroupCheck own = of(check, false);
                    if (own != null) {
                        own.runOwnWarmUp();
                    }
                } finally {
                    done.countDown();
                }
            }, "proofline-lane-check-warm-up");
            t.setDaemon(true);
            t.start();
            return done;
        });
    }

    /** The longest the warm-up of this class's code runs, kernels' warm-up included. */
    private static final long OWN_WARM_UP_LIMIT_NANOS = 60_000_000_000L;

    /**
     * Once the kernels are compiled, checks eight copies of the generator in rounds of 32 calls, at least
     * 16 rounds (the point formulas then ran tens of thousands of times) and until four rounds in a row
     * are no faster than the best by 5%: the compiler has then done its work here.
     */
    private void runOwnWarmUp() {
        long start = System.nanoTime();
        try {
            if (!f.warmUp(OWN_WARM_UP_LIMIT_NANOS / 1_000_000)) {
                return;
            }
        } catch (InterruptedException e) {
            return;
        }
        WeierstrassCurve c = check.curve();
        int aw = c.affineWidth();
        long[] pts = new long[8 * aw];
        int[] offsets = new int[8];
        for (int l = 0; l < 8; l++) {
            System.arraycopy(c.generator(), 0, pts, l * aw, aw);
            offsets[l] = l * aw;
        }
        long best = Long.MAX_VALUE;
        long passed = 0;
        for (int round = 0, stale = 0; (round < 16 || stale < 4) && System.nanoTime() - start < OWN_WARM_UP_LIMIT_NANOS;
                round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 32; i++) {
                passed += Long.bitCount(passing(pts, offsets, 8));
            }
            long t = System.nanoTime() - t0;
            if (t < best - best / 20) {
                best = t;
                stale = 0;
            } else {
                stale++;
            }
        }
        sink = passed;
    }

    static volatile long sink;

    /**
     * The lanes l below count (bit l) whose affine point at p[offsets[l]] (on the curve, not at
     * infinity) is shown to be in the subgroup; the others are for the scalar check.
     */
    public long passing(long[] pts, int[] offsets, int count) {
        if (count < 1 || count > 8) {
            throw new IllegalArgumentException("count: " + count);
        }
        for (int c = 0; c < 2; c++) {
            for (int l = 0; l < 8; l++) {
                System.arraycopy(pts, offsets[l < count ? l : 0] + c * cw, words, l * cw, cw);
            }
            f.load(words, 0, x, p + c * reg);
        }
        System.arraycopy(x, p, x, negP, reg);
        System.arraycopy(x, p + reg, x, negP + reg, reg);
        f.negWhere(x, negP + reg, all);
        // acc = [|k|] P, the NAF's top digit being 1
        int top = naf.length - 1;
        while (naf[top] == 0) {
            top--;
        }
        System.arraycopy(x, p, x, acc, 3 * reg);
        long bad = 0;
        for (int i = top - 1; i >= 0; i--) {
            lp.dbl(acc, acc);
            if (naf[i] > 0) {
                bad |= lp.addMixed(acc, p, acc);
            } else if (naf[i] < 0) {
                bad |= lp.addMixed(acc, negP, acc);
            }
        }
        long same;
        if (bnRelation) {
            // t1 = psi([u] P), t2 = psi^2([u] P), acc = [u + 1] P + t1 + t2; p's slot gets psi^3([2u] P)
            lp.endomorphism(acc, t1, cx, cy, conjugates);
            lp.endomorphism(t1, t2, cx, cy, conjugates);
            bad |= lp.addMixed(acc, p, acc);
            bad |= lp.add(acc, t1, acc);
            bad |= lp.add(acc, t2, acc);
            lp.endomorphism(t2, t1, cx, cy, conjugates);
            lp.dbl(t1, t1);
            same = lp.equal(acc, t1);
        } else {
            // phi(P) with Z = 1, negated for a negative lambda
            lp.endomorphism(p, t1, cx, cy, conjugates);
            if (negative) {
                f.negWhere(x, t1 + reg, all);
            }
            same = lp.equal(acc, t1);
        }
        long lanes = count == 8 ? 0xFFL : (1L << count) - 1;
        return same & ~bad & lanes;
    }
}
