package dev.proofline.algebra.msm;

import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;

/**
 * Completes a batch of independent affine additions (see {@link BatchAffineBuckets}) by other means
 * than the scalar field code: {@link #of} returns the 8-lane kernel ({@code VectorBatchAffine}, or
 * {@code VectorBatchAffine2} over Fp2) where it applies, loaded by name so that the scalar path loads
 * and runs without the Vector API module.
 */
abstract class BatchAdder {

    /**
     * dst[eDst[j]] += (eNeg[j] ? -1 : 1) src at eSrc[j] for j below m, as
     * {@code BatchAffineBuckets.completeBatch}: every destination set and distinct, no source infinity; a
     * destination that cancels is unset. Results equal the scalar code's word for word.
     */
    abstract void completeBatch(long[] dst, boolean[] dstSet, long[] src, int[] eDst, int[] eSrc, boolean[] eNeg,
            int m, int aw);

    /** Whether to use it now (false while its code is not compiled yet: the scalar code is faster then). */
    abstract boolean ready();

    /** Counts additions the scalar code did while this was not {@link #ready}; enough of them start the warm-up. */
    abstract void scalarWork(int additions);

    /** Starts the warm-up if it has not started, and waits for it at most that long; returns {@link #ready}. */
    abstract boolean warmUp(long timeoutMillis) throws InterruptedException;

    /** Whether the 8-lane kernel may be used: not with {@code -Dproofline.vector=false}, nor without the module. */
    static boolean vectorAllowed() {
        return !"false".equalsIgnoreCase(System.getProperty("proofline.vector", "true"))
                && ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    /** The 8-lane kernel for the field, or null where it does not apply or is not allowed. */
    static BatchAdder of(Field f) {
        return of(f, false);
    }

    /** With {@code eager}, the kernel is ready from the first call, compiled or not (for tests). */
    static BatchAdder of(Field f, boolean eager) {
        PrimeField base = f instanceof PrimeField p ? p : f instanceof Fp2 e ? e.base() : null;
        if (base == null || !vectorAllowed()) {
            return null;
        }
        try {
            Class<?> c = Class.forName("dev.proofline.algebra.msm.VectorBatchAffine");
            if (!(boolean) c.getDeclaredMethod("applies", PrimeField.class).invoke(null, base)) {
                return null;
            }
            return (BatchAdder) c.getDeclaredMethod("create", Field.class, boolean.class).invoke(null, f, eager);
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }
}
