package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.RootsOfUnity;
import java.io.IOException;
import java.math.BigInteger;
import java.util.stream.IntStream;

/**
 * The discrete Fourier transform over a group. The inverse one takes P_j = tau^j G (j < n) to
 * L_i = (1/n) sum_j w^(-ij) P_j = L_i(tau) G, the Lagrange basis of the domain of size n evaluated
 * at the unknown tau, with w snarkjs's root of unity of order n; the forward one is
 * F_i = sum_j w^(ij) P_j. Either may scale its inputs or outputs by a geometric sequence first.
 * Radix-2 decimation in time on
 * Jacobian points; each twiddle is a scalar multiplication, which is where the time goes, so it is
 * done by the group's endomorphism (GLV: half the doublings of a plain windowed multiplication),
 * with each twiddle decomposed and recoded once per stage and shared by the butterflies that use it,
 * and in batches on the 8-lane kernels once they are warm ({@link Multiplications}); in the stages
 * where every twiddle serves a batch or more, the butterflies go twiddle by twiddle, so that a batch
 * shares one scalar's digits. The butterflies of a stage run in parallel.
 */
final class GroupFft {

    /** Stages with at most this many distinct twiddles recode them up front; larger ones as they go. */
    private static final int RECODED_TWIDDLES = 1 << 15;

    private GroupFft() {
    }

    /** Where the P_j come from: point j, affine, into {@code dst} at {@code off}; called from several threads. */
    interface Source {
        void read(int j, long[] dst, int off);
    }

    /** Where the L_i go: affine points, in order, a chunk at a time. */
    interface Sink {
        void accept(long[] affine, int count) throws IOException;
    }

    /** Points handed to the sink per call. */
    static final int OUT_CHUNK = 1 << 14;

    /** The factors first * ratio^i (mod r), i = 0, 1, ...: what snarkjs calls applying a key. */
    record Geometric(BigInteger first, BigInteger ratio) {

        BigInteger at(int i, BigInteger r) {
            return first.multiply(ratio.modPow(BigInteger.valueOf(i), r)).mod(r);
        }
    }

    /**
     * L_0..L_(n-1) from P_0..P_(n-1) (n = 2^log) in G1 or G2 of the curve. Memory: the n points as
     * Jacobian points (the transform is in place), and one chunk of affine output.
     */
    static void inverse(PairingCurve pairingCurve, boolean g2, int log, Source in, Sink out) throws IOException {
        transform(pairingCurve, g2, log, true, null, null, in, out, u -> { });
    }

    /**
     * The inverse transform (with its 1/n) or the forward one of P_0..P_(n-1), n = 2^log: with
     * {@code before}, P_j is multiplied by before(j) first; with {@code after}, output i by after(i).
     * {@code work} hears the multiplications as they are done ({@link Work#transform} in all).
     */
    static void transform(PairingCurve pairingCurve, boolean g2, int log, boolean inverse, Geometric before,
            Geometric after, Source in, Sink out, java.util.function.LongConsumer work) throws IOException {
        WeierstrassCurve curve = g2 ? pairingCurve.g2() : pairingCurve.g1();
        BigInteger r = pairingCurve.fr().modulus();
        PrimeField fr = pairingCurve.fr();
        int n = 1 << log;
        int jw = curve.jacobianWidth();
        int aw = curve.affineWidth();
        long[] a = new long[Math.multiplyExact(n, jw)];
        int threads = Runtime.getRuntime().availableProcessors();
        int convertTasks = Math.max(1, Math.min(n / 1024, threads * 4));
        boolean scaled = inverse && log > 0 || after != null;
        long total = (long) Work.transform(log, scaled) + (before != null ? n : 0);
        Multiplications.prepare(pairingCurve, g2, total);
        IntStream.range(0, convertTasks).parallel().forEach(task -> {
            Multiplications m = Multiplications.of(pairingCurve, g2, total);
            PointArithmetic pa = m.scalar().arithmetic();
            long[] p = new long[aw];
            for (int i = n * task / convertTasks; i < n * (task + 1) / convertTasks; i++) {
                int from = log == 0 ? 0 : Integer.reverse(i) >>> (32 - log);   // bit-reversed order
                in.read(from, p, 0);
                pa.fromAffine(p, 0, a, i * jw);
                if (before != null) {
                    m.mul(a, i * jw, before.at(from, r));
                }
            }
            m.flush();
            if (before != null) {
                work.accept(n / convertTasks);
            }
        });
        if (log > 0) {
            // twiddles w^k or w^(-k), k < n/2, canonical
            long[] w = RootsOfUnity.primitive(fr, log).clone();
            if (inverse) {
                fr.inv(w, 0, w, 0);
            }
            BigInteger[] tw = new BigInteger[n / 2];
            long[] t = fr.one();
            for (int k = 0; k < n / 2; k++) {
                tw[k] = fr.toBigInteger(t, 0);
                fr.mul(t, 0, w, 0, t, 0);
            }
            for (int stage = 1; stage <= log; stage++) {
                int len = 1 << stage;
                int half = len / 2;
                int step = n / len;
                // where every twiddle has a batch of points or more, the butterflies go twiddle by twiddle,
                // so that a batch shares its scalar (and its digits, recoded for that too)
                boolean byTwiddle = step >= Multiplications.sharedBatch();
                Multiplications.Scalar[] recoded = half <= RECODED_TWIDDLES ? new Multiplications.Scalar[half] : null;
                if (recoded != null) {
                    IntStream.range(1, half).parallel().forEach(j -> {
                        Multiplications mj = Multiplications.of(pairingCurve, g2, total);
                        recoded[j] = byTwiddle ? mj.recodeBoth(tw[j * step]) : mj.recode(tw[j * step]);
                    });
                }
                int butterflies = n / 2;
                int tasks = Math.min(butterflies, threads * 4);
                IntStream.range(0, tasks).parallel().forEach(task -> {
                    Multiplications m = Multiplications.of(pairingCurve, g2, total);
                    PointArithmetic pa = m.scalar().arithmetic();
                    long[] v = new long[jw];
                    int[] pending = new int[Multiplications.MOST_QUEUED];
                    int waiting = 0;
                    for (int b = butterflies * task / tasks; b < butterflies * (task + 1) / tasks; b++) {
                        int block = byTwiddle ? b % step : b / half;
                        int j = byTwiddle ? b / step : b % half;
                        int lo = (block * len + j) * jw;
                        if (j == 0) {
                            butterfly(pa, a, lo, lo + half * jw, v);
                            continue;
                        }
                        if (byTwiddle && block == 0 && waiting > 0) {
                            // the next twiddle: what waits shares the one before
                            m.flush();
                            waiting = pendingButterflies(pa, a, pending, waiting, half * jw, v);
                        }
                        pending[waiting++] = lo;   // its butterfly once its multiplication is done
                        if (m.mul(a, lo + half * jw, recoded != null ? recoded[j] : m.recode(tw[j * step]))
                                || !m.onLanes()) {
                            waiting = pendingButterflies(pa, a, pending, waiting, half * jw, v);
                        }
                    }
                    m.flush();
                    pendingButterflies(pa, a, pending, waiting, half * jw, v);
                    work.accept(butterflies / tasks);
                });
            }
        }
        BigInteger nInv = inverse ? BigInteger.valueOf(n).modInverse(r) : BigInteger.ONE;
        if (scaled) {
            Multiplications.Scalar same = after == null
                    ? Multiplications.of(pairingCurve, g2, total).recodeBoth(nInv) : null;
            int tasks = Math.min(n, threads * 4);
            IntStream.range(0, tasks).parallel().forEach(task -> {
                Multiplications m = Multiplications.of(pairingCurve, g2, total);
                for (int i = n * task / tasks; i < n * (task + 1) / tasks; i++) {
                    if (same != null) {
                        m.mul(a, i * jw, same);
                    } else {
                        m.mul(a, i * jw, after.at(i, r).multiply(nInv).mod(r));
                    }
                }
                m.flush();
                work.accept(n / tasks);
            });
        }
        int chunk = Math.min(n, OUT_CHUNK);
        long[] affine = new long[chunk * aw];
        for (int from = 0; from < n; from += chunk) {
            int base = from;
            int tasks = Math.max(1, Math.min(chunk / 1024, threads * 4));
            IntStream.range(0, tasks).parallel().forEach(task -> {
                int lo = chunk * task / tasks;
                int hi = chunk * (task + 1) / tasks;
                curve.arithmetic().batchToAffine(a, (base + lo) * jw, affine, lo * aw, hi - lo);
            });
            out.accept(affine, chunk);
        }
    }

    /** The butterflies of the first {@code waiting} lows in pending (their highs gap past them); returns 0. */
    private static int pendingButterflies(PointArithmetic pa, long[] a, int[] pending, int waiting, int gap, long[] v) {
        for (int q = 0; q < waiting; q++) {
            butterfly(pa, a, pending[q], pending[q] + gap, v);
        }
        return 0;
    }

    /** u, t at lo, hi (t already multiplied by its twiddle) become u + t, u - t; v is scratch. */
    private static void butterfly(PointArithmetic pa, long[] a, int lo, int hi, long[] v) {
        pa.copy(a, hi, v, 0);
        pa.neg(v, 0, a, hi);
        pa.add(a, hi, a, lo, a, hi);       // u - w^j v
        pa.add(a, lo, v, 0, a, lo);        // u + w^j v
    }
}
