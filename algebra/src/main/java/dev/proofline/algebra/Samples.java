package dev.proofline.algebra;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import java.util.SplittableRandom;

/**
 * Deterministic sample inputs for benchmarks and examples: cheap to make at millions of elements,
 * and the same inputs ffjavascript's benchmark uses ({@code interop/ffjs/bench.cjs}), so that the
 * two are timed on like data. Not random enough for anything cryptographic.
 */
public final class Samples {

    private Samples() {
    }

    /** The affine points G, 2G, ..., nG of a curve's generator, by n - 1 additions and one batch inversion. */
    public static long[] generatorMultiples(WeierstrassCurve curve, int n) {
        PointArithmetic pa = curve.arithmetic();
        int jw = curve.jacobianWidth();
        long[] jac = new long[Math.multiplyExact(n, jw)];
        long[] g = curve.generator();
        pa.fromAffine(g, 0, jac, 0);
        for (int i = 1; i < n; i++) {
            pa.addMixed(jac, (i - 1) * jw, g, 0, jac, i * jw);
        }
        long[] points = new long[Math.multiplyExact(n, curve.affineWidth())];
        pa.batchToAffine(jac, 0, points, 0, n);
        return points;
    }

    /**
     * n scalars of 4 little-endian words each, uniform below 2^bits (bits at most 253, so that they are
     * canonical in both scalar fields).
     */
    public static long[] scalarWords(int n, int bits, long seed) {
        if (bits < 193 || bits > 253) {
            throw new IllegalArgumentException("bits must be in [193, 253]: " + bits);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] s = new long[Math.multiplyExact(n, 4)];
        long topMask = (1L << (bits - 192)) - 1;
        for (int i = 0; i < s.length; i++) {
            s[i] = rnd.nextLong();
            if ((i & 3) == 3) {
                s[i] &= topMask;
            }
        }
        return s;
    }

    /** n field elements (Montgomery form), uniform below 2^253. */
    public static long[] fieldElements(PrimeField f, int n, long seed) {
        long[] words = scalarWords(n, 253, seed);
        long[] canonical = new long[f.width()];
        long[] v = f.newVector(n);
        for (int i = 0; i < n; i++) {
            System.arraycopy(words, 4 * i, canonical, 0, 4);
            f.toMontgomery(canonical, 0, v, i * f.width());
        }
        return v;
    }
}
