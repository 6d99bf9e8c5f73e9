package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.field.Fp2;

/**
 * The cost of a Pippenger window in field multiplications (additions and subtractions counted as
 * fractions of one), from which the window size and each window's accumulation are chosen. Its
 * constants come from the operation counts of the two kernels, and its choices agree with
 * measured multiplication counts on BN254 G1 for n = 2^2 .. 2^19 (within a few percent of the best
 * window size where they differ).
 */
final class CostModel {

    /** Mixed Jacobian addition, 7M + 4S, plus its additions. */
    private static final double JACOBIAN_ADD = 13.5;
    /** Reducing one non-empty Jacobian bucket: two full additions (11M + 5S each) and their additions. */
    private static final double JACOBIAN_REDUCE = 38;
    /** Affine addition in a batch: 3M for the shared inverse, 2M + 1S, and its additions. */
    static final double AFFINE_ADD = 7.5;
    /** An empty bucket taking its first point: a copy. */
    private static final double COPY = 0.3;
    /** Clearing and scanning a bucket, hit or not. */
    private static final double SCAN = 0.05;
    /** A divstep inversion, in multiplications per bit of the modulus (see {@link #inversionCost}). */
    private static final double INVERSION_PER_BIT = 0.1;

    private final double inversion;

    CostModel(WeierstrassCurve curve) {
        this.inversion = inversionCost(curve.field());
    }

    /**
     * A field inversion in multiplications of that field: the divstep inversion of
     * {@link PrimeField#invVartime} was timed at a few tens of the field's products on BN254's and
     * BLS12-381's Fp (docs/decisions/0009-divstep-inversions.md), so 0.1 log2 q;
     * in Fp2 one base-field inversion and a few operations, against Fp2 multiplications of about
     * three base-field ones.
     */
    static double inversionCost(Field f) {
        if (f instanceof PrimeField p) {
            return INVERSION_PER_BIT * p.bits();
        }
        if (f instanceof Fp2 e) {
            return INVERSION_PER_BIT * e.base().bits() / 3 + 5;
        }
        return 400;
    }

    /**
     * Multiplications of the base prime field in one multiplication of {@code f}: 1 for a prime field, 3
     * for Fp2 (Karatsuba), for comparing the costs of MSMs in G1 and G2.
     */
    static double primeMultiplications(Field f) {
        return f instanceof Fp2 ? 3 : 1;
    }

    double inversion() {
        return inversion;
    }

    /** Cost of one window over n points that can hit {@code used} buckets. */
    double window(int n, int used, boolean affine, int batch) {
        double filled = used * -Math.expm1(-(double) n / used); // expected non-empty buckets
        if (affine) {
            int k = segments(used);
            double accumulate = (n - filled) * (AFFINE_ADD + inversion / Math.min(batch, used)) + filled * COPY;
            double reduce = used * 2 * AFFINE_ADD + 2.0 * used / k * inversion + 40.0 * k;
            return accumulate + reduce + used * SCAN;
        }
        double accumulate = (n - filled) * JACOBIAN_ADD + filled * COPY;
        // with few buckets hit, a run of g empty ones costs one multiple of the running sum, ~log g
        double reduce = filled * (JACOBIAN_REDUCE + 12 * log2(Math.max(1, used / Math.max(1, filled))));
        return accumulate + reduce + used * SCAN;
    }

    /**
     * Fewest buckets a window needs for affine batches. A bucket may be in a batch only once, so with
     * few buckets a batch stays short while the other points wait in the queue, and the per-batch work
     * (the inversion, the 8-lane kernel's packing) is shared by few additions; the count model above
     * does not see that: a top window that can hit 16 buckets was measured faster in Jacobian coordinates
     * (docs/decisions/0013-circom-matrix-intel-2-6.md, "What changed").
     */
    static final int AFFINE_MIN_BUCKETS = 128;

    /** Whether affine batches are cheaper than Jacobian buckets for such a window. */
    boolean affineIsCheaper(int n, int used, int batch) {
        return used >= AFFINE_MIN_BUCKETS && window(n, used, true, batch) < window(n, used, false, batch);
    }

    /**
     * Segments K (a power of two) of the batched reduction of {@code used} buckets: the two
     * batched additions per bucket cost 2 used / K inversions, the final sums over the segments
     * about 40 K multiplications, least near K = sqrt(inversion used / 20).
     */
    int segments(int used) {
        int k = 1 << (int) Math.round(log2(Math.sqrt(inversion * used / 20)));
        return Math.max(1, Math.min(Math.min(k, BatchAffineBuckets.REDUCTION_SEGMENTS), used));
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
