package dev.proofline.algebra.msm;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.math.BigInteger;
import java.util.Random;

/**
 * Times scalar multiplications by random scalars (not a test): the scalar GLV multiplier against the
 * lanes, eight at a time in Jacobian coordinates and a batch at a time in affine ones (each point its
 * own scalar, and one scalar for the batch), 1024 points a round, best of 20 rounds, in microseconds
 * per multiplication, one thread.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -cp algebra/target/classes:algebra/target/test-classes \
 *     dev.proofline.algebra.msm.LaneMultiplierTiming bn254 g1       # or bls12381, g2
 * </pre>
 */
public final class LaneMultiplierTiming {

    private LaneMultiplierTiming() {
    }

    public static void main(String[] args) throws InterruptedException {
        PairingCurve curve = args.length > 0 && args[0].startsWith("bls") ? PairingCurve.BLS12_381 : PairingCurve.BN254;
        boolean g2 = args.length > 1 && args[1].equals("g2");
        WeierstrassCurve c = g2 ? curve.g2() : curve.g1();
        GlvMultiplier glv = curve.multiplier(g2);
        PointArithmetic pa = glv.arithmetic();
        LaneMultiplier lanes = LaneMultiplier.of(glv, false);
        System.out.println("kernels warm: " + lanes.warmUp(120_000));
        AffineLaneMultiplier batch = AffineLaneMultiplier.of(glv, false);
        int groups = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        AffineLaneMultiplier other = groups > 0 ? AffineLaneMultiplier.of(glv, false, groups) : null;
        final int m = 1024;
        int jw = c.jacobianWidth();
        Random rnd = new Random(1);
        long[] points = new long[m * jw];
        long[] out = new long[m * jw];
        GlvMultiplier.Regular[] regular = new GlvMultiplier.Regular[m];
        GlvMultiplier.Recoded[] naf = new GlvMultiplier.Recoded[m];
        for (int i = 0; i < m; i++) {
            pa.fromAffine(c.generator(), 0, points, i * jw);
            glv.mul(points, i * jw, new BigInteger(64, rnd), points, i * jw);
            BigInteger k = new BigInteger(c.order().bitLength(), rnd).mod(c.order());
            regular[i] = glv.recodeRegular(k);
            naf[i] = glv.recode(k);
        }
        double scalarBest = Double.MAX_VALUE;
        double laneBest = Double.MAX_VALUE;
        double[] batchBest = {Double.MAX_VALUE, Double.MAX_VALUE};
        double[] otherBest = {Double.MAX_VALUE, Double.MAX_VALUE};
        BigInteger one = new BigInteger(c.order().bitLength(), rnd).mod(c.order());
        GlvMultiplier.Recoded oneNaf = glv.recode(one);
        int[] all = new int[m];
        for (int i = 0; i < m; i++) {
            all[i] = i * jw;
        }
        int[] po = new int[8];
        int[] ro = new int[8];
        GlvMultiplier.Regular[] k8 = new GlvMultiplier.Regular[8];
        for (int round = 0; round < 20; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < m; i++) {
                glv.mul(points, i * jw, naf[i], out, i * jw);
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < m; i += 8) {
                for (int l = 0; l < 8; l++) {
                    po[l] = (i + l) * jw;
                    ro[l] = po[l];
                    k8[l] = regular[i + l];
                }
                lanes.mul(points, po, k8, 8, out, ro);
            }
            long t2 = System.nanoTime();
            time(batch, points, out, all, regular, oneNaf, one, batchBest);
            if (other != null) {
                time(other, points, out, all, regular, oneNaf, one, otherBest);
            }
            scalarBest = Math.min(scalarBest, (t1 - t0) / 1e3 / m);
            laneBest = Math.min(laneBest, (t2 - t1) / 1e3 / m);
        }
        if (other != null) {
            System.out.printf("%d groups: affine batch %.1f us, one scalar for the batch %.1f us%n", groups,
                    otherBest[0], otherBest[1]);
        }
        System.out.printf("%s %s: scalar %.1f us, lanes %.1f us (%.2fx), affine batch %.1f us (%.2fx), one"
                + " scalar for the batch %.1f us (%.2fx) per multiplication%n", curve, g2 ? "G2" : "G1", scalarBest,
                laneBest, scalarBest / laneBest, batchBest[0], scalarBest / batchBest[0], batchBest[1],
                scalarBest / batchBest[1]);
    }

    /**
     * Times a batch on whole batches of the points (each its own scalar, then one scalar for all) and
     * keeps the best times per multiplication, in µs, in best[0] and best[1].
     */
    private static void time(AffineLaneMultiplier b, long[] points, long[] out, int[] all,
            GlvMultiplier.Regular[] regular, GlvMultiplier.Recoded oneNaf, BigInteger one, double[] best) {
        int cap = b.capacity();
        int m = all.length;
        int[] bo = new int[cap];
        GlvMultiplier.Regular[] kb = new GlvMultiplier.Regular[cap];
        long t0 = System.nanoTime();
        for (int i = 0; i + cap <= m; i += cap) {
            System.arraycopy(all, i, bo, 0, cap);
            System.arraycopy(regular, i, kb, 0, cap);
            b.mul(points, bo, kb, cap, out, bo);
        }
        long t1 = System.nanoTime();
        for (int i = 0; i + cap <= m; i += cap) {
            System.arraycopy(all, i, bo, 0, cap);
            b.mulSame(points, bo, oneNaf, one, cap, out, bo);
        }
        long t2 = System.nanoTime();
        int done = m / cap * cap;
        best[0] = Math.min(best[0], (t1 - t0) / 1e3 / done);
        best[1] = Math.min(best[1], (t2 - t1) / 1e3 / done);
    }
}
