package dev.proofline.algebra.ntt;

import dev.proofline.algebra.field.PrimeField;
import java.util.concurrent.ForkJoinPool;

/**
 * The radix-2 butterflies of a power-of-two transform, over a flat vector of Montgomery elements.
 * Stage s (half-size h = 2^s) reads its own contiguous table {@code tw[s]} of w_{2h}^j, j < h
 * (w_{2h} the primitive 2h-th root): read with a stride into one table of the largest stage, the
 * small stages would touch a new cache line, and often a new page, for every twiddle.
 *
 * <pre>
 *   decimation in time (forward):    u = a[i], v = a[i + h] w_{2h}^j;  a[i] = u + v,  a[i + h] = u - v
 *   decimation in frequency (inverse, Gentleman-Sande with w^-1):
 *                                    a[i] = u + v,  a[i + h] = (u - v) w_{2h}^-j = (v - u) w_{2h}^(h-j)
 * </pre>
 * The inverse reads the forward table backwards (w_{2h}^-j = -w_{2h}^(h-j)), so one table serves both.
 */
abstract class Butterflies {

    /**
     * Without the 8-lane kernel, transforms of at least 2^FUSED_FROM_LOG elements run on the fused 4-limb
     * loops and smaller ones through the field's own methods ({@link Montgomery4Butterflies#byField}).
     * Warm, the fused loops are a little faster, but they are methods of nearly 3 KB of bytecode
     * that a process first interprets, then compiles at a cost to the optimising compiler's time
     * (docs/decisions/0012-one-off-jvm-options.md);
     * the field's product is compiled by then. Below 2^17 a one-off proof spends more on that than the
     * fused loops save (docs/algebra.md, "NTT"). The system property {@code proofline.ntt.fusedFromLog}
     * sets another bound: the launcher's recording of the start-up cache sets 0, so that its small
     * proofs record the profiles of the fused loops for the larger proofs of later processes.
     */
    static final int FUSED_FROM_LOG = Integer.getInteger("proofline.ntt.fusedFromLog", 17);

    /** The fastest butterflies for the field at any size: the ones {@link #of(PrimeField, int)} picks for large transforms. */
    static Butterflies of(PrimeField f) {
        return of(f, Integer.MAX_VALUE);
    }

    /**
     * The butterflies for transforms of 2^logSize elements of the field: for 4-limb fields the 8-lane
     * kernel where it is allowed and applies, else {@link Montgomery4Butterflies} (fused from {@link
     * #FUSED_FROM_LOG}); generic ones for other fields.
     */
    static Butterflies of(PrimeField f, int logSize) {
        if (Montgomery4Butterflies.applies(f)) {
            Butterflies v = vectorised(f);
            return v != null ? v : new Montgomery4Butterflies(f, logSize < FUSED_FROM_LOG);
        }
        return new Generic(f);
    }

    /** Whether {@link #of} may pick the 8-lane kernel: not when {@code -Dproofline.vector=false}. */
    static boolean vectorAllowed() {
        return !"false".equalsIgnoreCase(System.getProperty("proofline.vector", "true"))
                && ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    /**
     * {@link VectorButterflies} for the field, or null where the Vector API module is absent, not
     * wanted, or the vectors are narrower than 512 bits. Loaded by name, so that this class and the
     * scalar kernels load and run without the module.
     */
    static Butterflies vectorised(PrimeField f) {
        if (!vectorAllowed()) {
            return null;
        }
        try {
            Class<?> c = Class.forName("dev.proofline.algebra.ntt.VectorButterflies");
            if (!(boolean) c.getDeclaredMethod("applies", PrimeField.class).invoke(null, f)) {
                return null;
            }
            return (Butterflies) c.getDeclaredConstructor(PrimeField.class).newInstance(f);
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }

    /**
     * Extra per-stage tables the kernel reads besides {@code tw} (index s, null where unused), or
     * null for none. Built once per field and size, when a transform first needs them.
     */
    int[][] vectorTables(long[][] tw, ForkJoinPool pool) {
        return null;
    }

    /**
     * Stages s0 .. s1-1 on the elements [start, start + len), len a multiple of 2^s1: every
     * butterfly of those stages stays inside the range, so a range that fits in cache is done
     * without going back to memory.
     */
    void stages(long[] a, int start, int len, int s0, int s1, long[][] tw, int[][] vt) {
        long[] scratch = newScratch();
        for (int s = s0; s < s1; s++) {
            int half = 1 << s;
            for (int base = start; base < start + len; base += 2 * half) {
                row(a, base, half, 0, half, tw[s], vt == null ? null : vt[s], scratch);
            }
        }
    }

    /**
     * Inverse (decimation-in-frequency) stages s1-1 down to s0 on [start, start + len), the mirror
     * of {@link #stages}: natural order in, bit-reversed out.
     */
    void stagesDif(long[] a, int start, int len, int s0, int s1, long[][] tw, int[][] vt) {
        long[] scratch = newScratch();
        for (int s = s1 - 1; s >= s0; s--) {
            int half = 1 << s;
            for (int base = start; base < start + len; base += 2 * half) {
                rowDif(a, base, half, 0, half, tw[s], vt == null ? null : vt[s], scratch);
            }
        }
    }

    /** The inverse butterflies j0 .. j1-1 of a group, as {@link #row} but with w^-1. */
    abstract void rowDif(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] scratch);

    /**
     * Butterflies j0 .. j1-1 of the group at {@code base} of a stage of half-size {@code half}
     * (element indices); {@code tw} is the stage's table, the twiddle of butterfly j is tw[j].
     * {@code vt} is the stage's table from {@link #vectorTables} (may be null). {@code scratch} holds
     * one element, for implementations that need it.
     */
    abstract void row(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] scratch);

    /**
     * The factors of the coset scaling of a bit-reversed vector: element p is multiplied by
     * low[p mod 2^lowBits] high[p >>> lowBits] (Montgomery elements of the field); {@code lowLimbs}
     * and {@code highLimbs} hold them in the kernel's own form, or are null.
     */
    record CosetFactors(PrimeField field, long[] low, long[] high, int lowBits, int[] lowLimbs, int[] highLimbs) {
    }

    /** The factors for {@link #scale}, with the kernel's own forms of them where it has any. */
    CosetFactors cosetFactors(PrimeField f, long[] low, long[] high, int lowBits) {
        return new CosetFactors(f, low, high, lowBits, null, null);
    }

    /** Elements [start, start + len) times their factors (see {@link CosetFactors}). */
    void scale(long[] a, int start, int len, CosetFactors s) {
        PrimeField f = s.field();
        int w = f.width();
        int b = s.lowBits();
        int lowMask = (1 << b) - 1;
        long[] t = f.newElement();
        for (int p = start; p < start + len; p++) {
            f.mul(s.low(), (p & lowMask) * w, s.high(), (p >>> b) * w, t, 0);
            f.mul(a, p * w, t, 0, a, p * w);
        }
    }

    /**
     * a_i = a_i b_i - c_i for i in [from, to), written as canonical words (out of Montgomery form): the
     * quotient's pointwise step on the coset.
     */
    void mulSubToCanonical(PrimeField f, long[] a, long[] b, long[] c, int from, int to) {
        int w = f.width();
        long[] one = new long[w];
        one[0] = 1;
        for (int i = from; i < to; i++) {
            int o = i * w;
            f.mul(a, o, b, o, a, o);
            f.sub(a, o, c, o, a, o);
            f.mul(a, o, one, 0, a, o); // Montgomery form -> canonical words
        }
    }

    /** Whether the next transform would read {@link #vectorTables} (built only then). */
    boolean readsKernelTables() {
        return false;
    }

    /** Told after each transform how many butterflies it took (the vector kernel's warm-up counts them). */
    void transformed(long butterflies) {
    }

    /**
     * Gets the kernel's fastest code ready (compiled), waiting at most {@code timeoutMillis}; whether
     * the kernel now runs it. Kernels without such a stage return false at once.
     */
    boolean warmUp(long timeoutMillis) throws InterruptedException {
        return false;
    }

    /** The scratch a worker passes to {@link #row} and {@link #rowDif}: at least one element. */
    long[] newScratch() {
        return new long[width()];
    }

    /** Longs per element. */
    abstract int width();

    /** The kernel's name, for tests and diagnostics. */
    String name() {
        return getClass().getSimpleName();
    }

    /** Any prime field, through its own (virtual) arithmetic. */
    static final class Generic extends Butterflies {
        private final PrimeField f;
        private final int w;

        Generic(PrimeField f) {
            this.f = f;
            this.w = f.width();
        }

        @Override
        int width() {
            return w;
        }

        @Override
        void row(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] t) {
            rowByField(f, a, base, half, j0, j1, tw, t);
        }

        @Override
        void rowDif(long[] a, int base, int half, int j0, int j1, long[] tw, int[] vt, long[] t) {
            rowDifByField(f, a, base, half, j0, j1, tw, t);
        }

        /** {@link #row} with the field's own methods; {@code t} holds one element. */
        static void rowByField(PrimeField f, long[] a, int base, int half, int j0, int j1, long[] tw, long[] t) {
            int w = f.width();
            for (int j = j0; j < j1; j++) {
                int u = (base + j) * w;
                int v = u + half * w;
                if (j == 0) {
                    f.copy(a, v, t, 0);     // w^0 = 1
                } else {
                    f.mul(a, v, tw, j * w, t, 0);
                }
                f.sub(a, u, t, 0, a, v);
                f.add(a, u, t, 0, a, u);
            }
        }

        /** {@link #rowDif} with the field's own methods; {@code t} holds one element. */
        static void rowDifByField(PrimeField f, long[] a, int base, int half, int j0, int j1, long[] tw, long[] t) {
            int w = f.width();
            for (int j = j0; j < j1; j++) {
                int u = (base + j) * w;
                int v = u + half * w;
                if (j == 0) {
                    f.sub(a, u, a, v, t, 0);
                } else {
                    f.sub(a, v, a, u, t, 0);
                    f.mul(t, 0, tw, (half - j) * w, t, 0);
                }
                f.add(a, u, a, v, a, u);
                f.copy(t, 0, a, v);
            }
        }
    }
}
