package dev.proofline.algebra.msm;

import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;

/**
 * Eight elements of a field at once, in "registers" of a scratch array of longs (lane l of an element
 * in every eighth long), with the arithmetic of the 8-lane kernels: products and sums are canonical
 * (in [0, q)) and in the Montgomery form of the scalar code, so {@link #store} gives the scalar code's
 * words. Confined to one thread. No reference to the Vector API here: {@link #of} loads the
 * implementation by name, so that this class loads without the module.
 */
abstract class LaneField {

    /** Longs of one register (eight elements). */
    abstract int register();

    /** Longs of scratch the operations need after the caller's registers. */
    abstract int scratch();

    /** Where that scratch starts in the arrays passed to the operations; set once, before any. */
    abstract void scratchAt(int offset);

    /** x at r = a b. */
    abstract void mul(long[] x, int a, int b, int r);

    /** x at r = a^2. */
    abstract void sqr(long[] x, int a, int r);

    /** x at r = a + b. */
    abstract void add(long[] x, int a, int b, int r);

    /** x at r = a - b. */
    abstract void sub(long[] x, int a, int b, int r);

    /** Negates the elements at o in the lanes where neg[lane]. */
    abstract void negWhere(long[] x, int o, boolean[] neg);

    /** Conjugates the elements at o (Fp2 only). */
    abstract void conjugate(long[] x, int o);

    /** The lanes (bit l for lane l) where the element at o is zero. */
    abstract long zeroLanes(long[] x, int o);

    /** Words of one element. */
    abstract int width();

    /** The eight elements at words[off ..] (element l at off + l width()) to the register at xo. */
    abstract void load(long[] words, int off, long[] x, int xo);

    /** The inverse of {@link #load}. */
    abstract void store(long[] x, int xo, long[] words, int off);

    /** Whether the kernels are compiled (until then they are far slower than the scalar code). */
    abstract boolean ready();

    /** Starts the kernels' warm-up if it has not started, and waits for it at most that long. */
    abstract boolean warmUp(long timeoutMillis) throws InterruptedException;

    /** Whether the kernels' warm-up is under way (it has started and not ended). */
    abstract boolean warming();

    /**
     * The 8-lane arithmetic of a prime field or of Fp2 over one, or null where the kernels do not apply
     * or are not allowed ({@link BatchAdder#vectorAllowed}); with {@code eager}, ready from the first call.
     */
    static LaneField of(Field f, boolean eager) {
        PrimeField base = f instanceof PrimeField p ? p : f instanceof Fp2 e ? e.base() : null;
        if (base == null || !BatchAdder.vectorAllowed()) {
            return null;
        }
        try {
            Class<?> c = Class.forName("dev.proofline.algebra.msm.VectorLaneField");
            return (LaneField) c.getDeclaredMethod("create", Field.class, boolean.class).invoke(null, f, eager);
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }
}
