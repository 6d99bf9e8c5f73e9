package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * {@code prepare phase2}: a .ptau with sections 12-15 added, sections 2-5 in the Lagrange basis of
 * every domain 2^0 .. 2^power (and 2^(power+1) for tau G1, whose last power is then taken as the
 * point at infinity), which is what a phase-2 key is built from. The output is what snarkjs writes
 * for the same input, byte for byte: the header's ceremony power becomes the power, sections 2-7
 * are copied, and every Lagrange point is an affine point, which has one encoding.
 *
 * <p>Resumable: a run that stops before it is done (a crash, an error) leaves the sections it finished
 * in {@code <out>.partial}, and the next run on the same input keeps them.
 *
 * <p>Memory: one domain's points at a time, as Jacobian points on the heap (at 2^power, 2^power
 * points of three coordinates: for G2 of BLS12-381 at 2^24, 4.8 GB), read from the mapped input and
 * written out a chunk at a time.
 */
public final class PhaseTwoPreparation {

    private PhaseTwoPreparation() {
    }

    public static void prepare(Path in, Path out, Consumer<String> log) throws IOException {
        String identity = Leftovers.identity("prepare phase2", in);
        try (PtauFile ptau = PtauFile.open(in); PtauWriter w = PtauWriter.resumable(out, "ptau", 11, identity)) {
            PairingCurve curve = ptau.curve();
            if (!w.resuming(log)) {
                w.header(curve, ptau.power());
            }
            for (int type = PtauFile.TAU_G1; type <= PtauFile.CONTRIBUTIONS; type++) {
                if (!w.finished(type)) {
                    w.begin(type);
                    w.copy(ptau.section(type));
                    w.end();
                }
            }
            double total = 0;
            for (int g2 = 0; g2 < 4; g2++) {   // the four sections: tau G1 (one domain more), tau G2 (three times the work), alpha, beta
                for (int p = 0; p <= ptau.power() + (g2 == 0 ? 1 : 0); p++) {
                    total += Work.weight(g2 == 1) * Work.transform(p, true);
                }
            }
            Work work = new Work(log, total);
            int[][] pairs = {{PtauFile.TAU_G1, PtauFile.LAGRANGE_TAU_G1}, {PtauFile.TAU_G2, PtauFile.LAGRANGE_TAU_G2},
                {PtauFile.ALPHA_TAU_G1, PtauFile.LAGRANGE_ALPHA_TAU_G1},
                {PtauFile.BETA_TAU_G1, PtauFile.LAGRANGE_BETA_TAU_G1}};
            for (int[] pair : pairs) {
                boolean g2 = pair[0] == PtauFile.TAU_G2;
                int weight = Work.weight(g2);
                if (w.kept(pair[1], PtauFile.NAMES.get(pair[1]), log)) {
                    for (int p = 0; p <= (pair[0] == PtauFile.TAU_G1 ? ptau.power() + 1 : ptau.power()); p++) {
                        work.add((long) (weight * Work.transform(p, true)));
                    }
                    continue;
                }
                PointBytes g = new PointBytes(g2 ? curve.g2() : curve.g1(), curve.fp());
                byte[] bytes = new byte[GroupFft.OUT_CHUNK * g.size()];
                MemorySegment powers = ptau.section(pair[0]);
                w.begin(pair[1]);
                int last = pair[0] == PtauFile.TAU_G1 ? ptau.power() + 1 : ptau.power();
                for (int p = 0; p <= last; p++) {
                    long start = System.nanoTime();
                    int read = p == ptau.power() + 1 ? (1 << p) - 1 : 1 << p;   // the last power is infinity
                    GroupFft.transform(curve, g2, p, true, null, null, (j, dst, off) -> {
                        if (j < read) {
                            g.fromStored(powers, (long) j * g.size(), dst, off);
                        } else {
                            Arrays.fill(dst, off, off + g.curve().affineWidth(), 0L);
                        }
                    }, (affine, count) -> {
                        for (int i = 0; i < count; i++) {
                            g.stored(affine, i * g.curve().affineWidth(), bytes, i * g.size());
                        }
                        w.write(bytes, 0, count * g.size());
                    }, u -> work.add(weight * u));
                    log.accept(String.format("%s: domain 2^%d in %.2f s", PtauFile.NAMES.get(pair[1]), p,
                            (System.nanoTime() - start) / 1e9));
                }
                w.end();
            }
            w.commit();
            work.finish();
        }
    }
}
