package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * {@code prepare phase2}: a .ptau with sections 12-15 added, sections 2-5 in the Lagrange basis of
 * every domain 2^0 .. 2^power (and 2^(power+1) for tau G1, whose last power is then taken as the
 * point at infinity), which is what a phase-2 key is built from. The output is what snarkjs writes
 * for the same input, byte for byte: the header's ceremony power becomes the power, sections 2-7
 * are copied, and every Lagrange point is an affine point, which has one encoding.
 *
 * <p>Memory: one domain's points at a time, as Jacobian points on the heap (at 2^power, about
 * 2^power x 3 coordinates).
 */
public final class PhaseTwoPreparation {

    private PhaseTwoPreparation() {
    }

    public static void prepare(Path in, Path out, Consumer<String> log) throws IOException {
        try (PtauFile ptau = PtauFile.open(in); PtauWriter w = new PtauWriter(out, 11)) {
            PairingCurve curve = ptau.curve();
            w.header(curve, ptau.power());
            for (int type = PtauFile.TAU_G1; type <= PtauFile.CONTRIBUTIONS; type++) {
                w.begin(type);
                w.copy(ptau.section(type));
                w.end();
            }
            int[][] pairs = {{PtauFile.TAU_G1, PtauFile.LAGRANGE_TAU_G1}, {PtauFile.TAU_G2, PtauFile.LAGRANGE_TAU_G2},
                {PtauFile.ALPHA_TAU_G1, PtauFile.LAGRANGE_ALPHA_TAU_G1},
                {PtauFile.BETA_TAU_G1, PtauFile.LAGRANGE_BETA_TAU_G1}};
            for (int[] pair : pairs) {
                boolean g2 = pair[0] == PtauFile.TAU_G2;
                PointBytes g = new PointBytes(g2 ? curve.g2() : curve.g1(), curve.fp());
                MemorySegment powers = ptau.section(pair[0]);
                w.begin(pair[1]);
                int last = pair[0] == PtauFile.TAU_G1 ? ptau.power() + 1 : ptau.power();
                for (int p = 0; p <= last; p++) {
                    long start = System.nanoTime();
                    long[] lagrange = lagrange(g, curve, powers, p, p == ptau.power() + 1);
                    byte[] bytes = new byte[(1 << p) * g.size()];
                    for (int i = 0; i < 1 << p; i++) {
                        g.stored(lagrange, i * g.curve().affineWidth(), bytes, i * g.size());
                    }
                    w.write(bytes);
                    log.accept(String.format("%s: domain 2^%d in %.2f s", PtauFile.NAMES.get(pair[1]), p,
                            (System.nanoTime() - start) / 1e9));
                }
                w.end();
            }
            w.commit();
        }
    }

    /** The Lagrange points of the domain 2^p from the first 2^p powers (the last one infinity if asked). */
    private static long[] lagrange(PointBytes g, PairingCurve curve, MemorySegment powers, int p, boolean lastIsZero) {
        WeierstrassCurve c = g.curve();
        int n = 1 << p;
        int aw = c.affineWidth();
        long[] points = new long[n * aw];
        int read = lastIsZero ? n - 1 : n;
        byte[] raw = new byte[g.size()];
        for (int i = 0; i < read; i++) {
            MemorySegment.copy(powers, ValueLayout.JAVA_BYTE, (long) i * g.size(), raw, 0, raw.length);
            g.fromStored(raw, 0, points, i * aw);
        }
        return GroupFft.inverse(curve, c == curve.g2(), points, p);
    }
}
