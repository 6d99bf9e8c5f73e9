package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.ScalarMultiplier;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.RootsOfUnity;
import java.math.BigInteger;
import java.util.stream.IntStream;

/**
 * The inverse discrete Fourier transform over a group: from P_j = tau^j G (j < n) to
 * L_i = (1/n) sum_j w^(-ij) P_j = L_i(tau) G, the Lagrange basis of the domain of size n evaluated
 * at the unknown tau, with w snarkjs's root of unity of order n. Radix-2 decimation in time on
 * Jacobian points, each twiddle a scalar multiplication; the butterflies of a stage run in parallel.
 */
final class GroupFft {

    private GroupFft() {
    }

    /** Affine L_0..L_(n-1) from affine P_0..P_(n-1) (n = 2^log, flat vectors). */
    static long[] inverse(WeierstrassCurve curve, PrimeField fr, long[] affine, int log) {
        int n = 1 << log;
        int jw = curve.jacobianWidth();
        int aw = curve.affineWidth();
        long[] a = new long[n * jw];
        PointArithmetic pa0 = curve.arithmetic();
        for (int i = 0; i < n; i++) {
            int from = log == 0 ? 0 : Integer.reverse(i) >>> (32 - log);   // bit-reversed order
            pa0.fromAffine(affine, from * aw, a, i * jw);
        }
        if (log > 0) {
            // inverse twiddles w^(-k), k < n/2, canonical
            long[] wInv = fr.newElement();
            fr.inv(RootsOfUnity.primitive(fr, log), 0, wInv, 0);
            BigInteger[] tw = new BigInteger[n / 2];
            long[] t = fr.one();
            for (int k = 0; k < n / 2; k++) {
                tw[k] = fr.toBigInteger(t, 0);
                fr.mul(t, 0, wInv, 0, t, 0);
            }
            for (int stage = 1; stage <= log; stage++) {
                int len = 1 << stage;
                int half = len / 2;
                int step = n / len;
                int butterflies = n / 2;
                int tasks = Math.min(butterflies, Runtime.getRuntime().availableProcessors() * 4);
                IntStream.range(0, tasks).parallel().forEach(task -> {
                    PointArithmetic pa = curve.arithmetic();
                    ScalarMultiplier sm = new ScalarMultiplier(pa);
                    long[] v = new long[jw];
                    for (int b = butterflies * task / tasks; b < butterflies * (task + 1) / tasks; b++) {
                        int block = b / half;
                        int j = b % half;
                        int lo = (block * len + j) * jw;
                        int hi = lo + half * jw;
                        if (j == 0) {
                            pa.copy(a, hi, v, 0);
                        } else {
                            sm.mul(a, hi, tw[j * step], v, 0);
                        }
                        pa.neg(v, 0, a, hi);
                        pa.add(a, hi, a, lo, a, hi);       // u - w^j v
                        pa.add(a, lo, v, 0, a, lo);        // u + w^j v
                    }
                });
            }
            BigInteger nInv = BigInteger.valueOf(n).modInverse(fr.modulus());
            int tasks = Math.min(n, Runtime.getRuntime().availableProcessors() * 4);
            IntStream.range(0, tasks).parallel().forEach(task -> {
                ScalarMultiplier sm = new ScalarMultiplier(curve.arithmetic());
                for (int i = n * task / tasks; i < n * (task + 1) / tasks; i++) {
                    sm.mul(a, i * jw, nInv, a, i * jw);
                }
            });
        }
        long[] out = new long[n * aw];
        pa0.batchToAffine(a, 0, out, 0, n);
        return out;
    }
}
