package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.msm.AffineLaneMultiplier;
import dev.proofline.algebra.msm.LaneMultiplier;
import java.math.BigInteger;

/**
 * Scalar multiplications of points in place, for one thread: when the 8-lane kernels are compiled and
 * the batch of work is large, queued and done up to {@link #MOST_QUEUED} at a time in affine coordinates by
 * the {@link AffineLaneMultiplier} (a shorter queue at a {@link #flush}: eight at a time in Jacobian
 * ones by the {@link LaneMultiplier}); one at a time by the scalar GLV code otherwise (small batches,
 * before the kernels are warm, or where there are none). A queued point holds its old value until
 * {@link #flush}.
 */
final class Multiplications {

    /** Multiplications in a batch of work from which it pays to warm the kernels up and use them. */
    static final long LANES_FROM = 1 << 12;
    /** The longest queue (in any curve group): a caller that keeps work waiting on the queued points keeps this much. */
    static final int MOST_QUEUED = AffineLaneMultiplier.MOST;
    /** Points that share a scalar enough for a batch of their own: an affine batch of the larger fields. */
    private static final int SHARED = 256;
    /** Queued multiplications from which a flush does them in affine coordinates, all in one batch. */
    private static final int AFFINE_FROM = 32;
    /**
     * A batch of work from which a thread that finds the kernels warming up waits for them rather than
     * starting on the scalar code: the scalar code would take the cores the warm-up and the compiler
     * need, for work the lanes then do several times faster.
     */
    static final long WAIT_FROM = 1 << 14;
    /** The longest such wait; a warm-up that takes longer (the kernels never beat the scalar code) ends the waits. */
    private static final long WAIT_MILLIS = 10_000;
    private static volatile boolean waitedInVain;

    private static final ThreadLocal<Multiplications[]> CACHE = ThreadLocal.withInitial(() -> new Multiplications[8]);

    /** For tests: every batch on the lanes, their kernels counted as ready whether compiled or not. */
    static volatile boolean forceLanes;
    /** Multiplications done on the lanes in this JVM, and of those in affine batches (for tests). */
    static final java.util.concurrent.atomic.AtomicLong ON_LANES = new java.util.concurrent.atomic.AtomicLong();
    static final java.util.concurrent.atomic.AtomicLong IN_BATCHES = new java.util.concurrent.atomic.AtomicLong();
    /** Of those, in batches that shared one scalar's digits (for tests). */
    static final java.util.concurrent.atomic.AtomicLong SHARING = new java.util.concurrent.atomic.AtomicLong();

    /** A scalar recoded for both ways, for many points. */
    record Scalar(BigInteger k, GlvMultiplier.Recoded naf, GlvMultiplier.Regular regular) {

        /** Overwrites the recodings (for a secret scalar, once it is no longer needed). */
        void wipe() {
            if (naf != null) {
                naf.wipe();
            }
            if (regular != null) {
                regular.wipe();
            }
        }
    }

    private final GlvMultiplier glv;
    private final LaneMultiplier lanes;
    private final AffineLaneMultiplier batch;
    private boolean onLanes;
    /** Whether the batch of work is large enough for the lanes, which it takes once they are ready. */
    private boolean wanted;
    private long[] a;
    private final int[] offsets = new int[MOST_QUEUED];
    private final GlvMultiplier.Regular[] queued = new GlvMultiplier.Regular[MOST_QUEUED];
    /** Whether a queued recoding is this queue's own (made for one point, wiped once used). */
    private final boolean[] own = new boolean[MOST_QUEUED];
    /** Where a flush turns to the affine batch: lower when forced, so that small tests meet both ways. */
    private final int affineFrom;
    /** This queue's longest: what one affine batch of this curve group takes. */
    private final int limit;
    private final int[] eight = new int[8];
    private final GlvMultiplier.Regular[] eightK = new GlvMultiplier.Regular[8];
    private int count;
    /** The scalar every queued multiplication shares, if they do (then its digits can be shared too). */
    private Scalar shared;
    private boolean mixed;

    private Multiplications(PairingCurve curve, boolean g2, boolean eager) {
        this.glv = curve.multiplier(g2);
        this.lanes = LaneMultiplier.of(glv, eager);
        this.batch = lanes != null ? AffineLaneMultiplier.of(glv, eager) : null;
        this.affineFrom = eager ? 2 : AFFINE_FROM;
        this.limit = batch != null ? batch.capacity() : MOST_QUEUED;
    }

    /**
     * This thread's multiplications in G1 or G2 of the curve, for a batch of about {@code work}
     * multiplications: on the lanes if they are warm and the batch is large enough, and a large batch
     * starts their warm-up (in the background) when it has not started. What an earlier batch left
     * queued (one that ended in an exception) is dropped.
     */
    static Multiplications of(PairingCurve curve, boolean g2, long work) {
        boolean force = forceLanes;
        Multiplications[] c = CACHE.get();
        int i = curve.ordinal() * 4 + (g2 ? 2 : 0) + (force ? 1 : 0);
        if (c[i] == null) {
            c[i] = new Multiplications(curve, g2, force);
        }
        Multiplications m = c[i];
        m.count = 0;
        m.shared = null;
        m.mixed = false;
        m.wanted = m.lanes != null && (force || work >= LANES_FROM);
        m.onLanes = m.wanted && (force || m.lanesReady(0) || work >= WAIT_FROM && m.awaitLanes());
        return m;
    }

    /**
     * The points that must share a scalar for a caller to queue them apart from others (so that a batch
     * shares that scalar's digits): {@link #SHARED}, or a few when the lanes are forced (tests).
     */
    static int sharedBatch() {
        return forceLanes ? 4 : SHARED;
    }

    /** Starts the kernels' warm-up, without waiting, if the batch of work is large enough for them. */
    static void prepare(PairingCurve curve, boolean g2, long work) {
        if (work >= LANES_FROM) {
            of(curve, g2, 0).lanesReady(0);
        }
    }

    /**
     * Whether the kernels are ready: their warm-up started if it has not, and waited for at most that
     * long (not at all on an interrupt, whose flag stays set).
     */
    private boolean lanesReady(long waitMillis) {
        if (lanes == null) {
            return false;
        }
        if (!lanes.ready()) {
            try {
                lanes.warmUp(waitMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return lanes.ready();
    }

    /** Waits for the kernels' warm-up (once it has taken too long, no more). */
    private boolean awaitLanes() {
        if (waitedInVain) {
            return false;
        }
        boolean ready = lanesReady(WAIT_MILLIS);
        if (!ready && !Thread.currentThread().isInterrupted()) {
            waitedInVain = true;
        }
        return ready;
    }

    GlvMultiplier scalar() {
        return glv;
    }

    /**
     * Whether queued multiplications wait for a {@link #flush} (on the lanes) rather than being done at
     * once: from the first call after the kernels are ready, for a batch of work that wants them (so that
     * a long task started during their warm-up moves to them).
     */
    boolean onLanes() {
        if (!onLanes && wanted && lanes.ready()) {
            onLanes = true;
        }
        return onLanes;
    }

    /** The scalar recoded for this multiplier's ways. */
    Scalar recode(BigInteger k) {
        boolean lanes = onLanes();
        return new Scalar(k, lanes ? null : glv.recode(k), lanes ? glv.recodeRegular(k) : null);
    }

    /** The scalar recoded for both ways (to share between threads that may differ). */
    Scalar recodeBoth(BigInteger k) {
        return new Scalar(k, glv.recode(k), lanes != null ? glv.recodeRegular(k) : null);
    }

    /**
     * a at off = k (a at off), Jacobian; done at once or queued. Returns whether the queue was full and
     * has been done. The recoding of k is wiped once used (k may be a secret).
     */
    boolean mul(long[] a, int off, BigInteger k) {
        if (!onLanes()) {
            GlvMultiplier.Recoded once = glv.recode(k);
            glv.mul(a, off, once, a, off);
            once.wipe();
            return false;
        }
        mixed = true;
        return queue(a, off, glv.recodeRegular(k), true);
    }

    /** As {@link #mul(long[], int, BigInteger)} for a recoded scalar. */
    boolean mul(long[] a, int off, Scalar k) {
        if (!onLanes()) {
            glv.mul(a, off, k.naf() != null ? k.naf() : glv.recode(k.k()), a, off);
            return false;
        }
        if (count == 0) {
            shared = k;
        } else if (shared != k) {
            mixed = true;
        }
        return queue(a, off, k.regular() != null ? k.regular() : glv.recodeRegular(k.k()), k.regular() == null);
    }

    private boolean queue(long[] a, int off, GlvMultiplier.Regular k, boolean once) {
        if (this.a != a && count > 0) {
            flush();
        }
        this.a = a;
        offsets[count] = off;
        own[count] = once;
        queued[count++] = k;
        if (count == limit) {
            flush();
            return true;
        }
        return false;
    }

    /** Does the queued multiplications; returns how many there were. */
    int flush() {
        int n = count;
        if (n > 0) {
            if (n >= affineFrom && !mixed && shared != null && shared.naf() != null) {
                batch.mulSame(a, offsets, shared.naf(), shared.k(), n, a, offsets);
                IN_BATCHES.addAndGet(n);
                SHARING.addAndGet(n);
            } else if (n >= affineFrom) {
                batch.mul(a, offsets, queued, n, a, offsets);
                IN_BATCHES.addAndGet(n);
            } else {
                for (int from = 0; from < n; from += 8) {
                    int m = Math.min(8, n - from);
                    System.arraycopy(offsets, from, eight, 0, m);
                    System.arraycopy(queued, from, eightK, 0, m);
                    lanes.mul(a, eight, eightK, m, a, eight);
                }
                java.util.Arrays.fill(eightK, null);
            }
            ON_LANES.addAndGet(n);
            for (int i = 0; i < n; i++) {
                if (own[i]) {
                    queued[i].wipe();
                }
                queued[i] = null;
            }
            count = 0;
            shared = null;
            mixed = false;
        }
        return n;
    }
}
