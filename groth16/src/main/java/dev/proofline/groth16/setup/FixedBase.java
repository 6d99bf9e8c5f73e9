package dev.proofline.groth16.setup;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.util.stream.IntStream;

/**
 * Multiples k G of one fixed point G, for many k: a table of d 2^(8w) G (d = 1..255, w = 0..31) so
 * that k G is the sum of one table entry per byte of k, 32 mixed additions; results are batched to
 * affine. For key generation, where every key point is a multiple of a generator.
 */
final class FixedBase {

    private static final int WINDOWS = 32;
    private static final int ENTRIES = 255;

    private final WeierstrassCurve curve;
    private final long[] table; // affine, [window][digit - 1]

    FixedBase(WeierstrassCurve curve, long[] baseAffine) {
        this.curve = curve;
        PointArithmetic pa = curve.arithmetic();
        int jw = curve.jacobianWidth();
        int aw = curve.affineWidth();
        long[] jac = new long[WINDOWS * ENTRIES * jw];
        long[] base = new long[jw];
        pa.fromAffine(baseAffine, 0, base, 0);
        for (int w = 0; w < WINDOWS; w++) {
            int row = w * ENTRIES * jw;
            pa.copy(base, 0, jac, row);
            for (int d = 1; d < ENTRIES; d++) {
                pa.add(jac, row + (d - 1) * jw, base, 0, jac, row + d * jw);
            }
            for (int i = 0; i < 8; i++) {
                pa.dbl(base, 0, base, 0);
            }
        }
        table = new long[WINDOWS * ENTRIES * aw];
        pa.batchToAffine(jac, 0, table, 0, WINDOWS * ENTRIES);
    }

    /**
     * Affine k_i G for n scalars given as canonical 4-word little-endian integers below 2^256, into
     * a new flat vector; in parallel.
     */
    long[] multiply(long[] scalars, int n) {
        int aw = curve.affineWidth();
        int jw = curve.jacobianWidth();
        long[] out = new long[Math.multiplyExact(n, aw)];
        int chunk = 1024;
        IntStream.range(0, (n + chunk - 1) / chunk).parallel().forEach(t -> {
            PointArithmetic pa = curve.arithmetic();
            int lo = t * chunk;
            int hi = Math.min(n, lo + chunk);
            long[] acc = new long[(hi - lo) * jw];
            for (int i = lo; i < hi; i++) {
                int a = (i - lo) * jw;
                pa.setInfinity(acc, a);
                for (int w = 0; w < WINDOWS; w++) {
                    int d = (int) (scalars[i * 4 + (w >>> 3)] >>> ((w & 7) * 8)) & 0xff;
                    if (d != 0) {
                        pa.addMixed(acc, a, table, (w * ENTRIES + d - 1) * aw, acc, a);
                    }
                }
            }
            pa.batchToAffine(acc, 0, out, lo * aw, hi - lo);
        });
        return out;
    }
}
