package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.ScalarMultiplier;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.msm.Msm;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;

/**
 * Sparse sums of points: output j = sum over its terms t of k_t B_t, where B_t is point index_t of
 * one of a few bases (kind_t) and k_t a scalar (canonical words). A phase-2 key's A, B1, B2, C and IC
 * points are such sums over the Lagrange-basis points of the powers of tau, one term per nonzero
 * coefficient of the circuit's matrices: most outputs have one to a few terms, a few (the constant
 * signal, signals used everywhere) have thousands.
 *
 * <p>Built in two passes over the same terms: {@link #count} for each, then {@link #seal}, then
 * {@link #add} for each in the same order.
 */
final class PointSums {

    /** Outputs with more terms than this are computed by an MSM, the others term by term. */
    private static final int MSM_TERMS = 256;
    /** Scalars longer than this go through the endomorphism (GLV), shorter ones the plain windowed NAF. */
    private static final int GLV_BITS = 128;

    private final int outputs;
    private final int[] start;
    private byte[] kind;
    private int[] index;
    private long[] scalars;
    private int[] fill;

    PointSums(int outputs) {
        this.outputs = outputs;
        this.start = new int[outputs + 1];
    }

    void count(int output) {
        start[output + 1]++;
    }

    void seal() {
        for (int j = 0; j < outputs; j++) {
            start[j + 1] += start[j];
        }
        int n = start[outputs];
        kind = new byte[n];
        index = new int[n];
        scalars = new long[4 * n];
        fill = Arrays.copyOf(start, outputs);
    }

    /** Adds a term to {@code output}: {@code scalar[at..at+4)} (canonical) times point {@code i} of basis {@code k}. */
    void add(int output, int k, int i, long[] scalar, int at) {
        int t = fill[output]++;
        kind[t] = (byte) k;
        index[t] = i;
        System.arraycopy(scalar, at, scalars, 4 * t, 4);
    }

    int outputs() {
        return outputs;
    }

    /** Terms summed between two reports to {@code evaluate}'s progress. */
    private static final int PROGRESS_TERMS = 4096;

    /**
     * The sums, affine (flat, the curve's affine width each; an output without terms is infinity).
     * {@code bases[k]} holds basis k's affine points; {@code r} is the scalar field's modulus. {@code done}
     * hears the terms summed as it goes (a few thousand at a time, from any of its threads), for a step's
     * progress.
     */
    long[] evaluate(PairingCurve pairingCurve, boolean g2, long[][] bases, BigInteger r, LongConsumer done) {
        WeierstrassCurve curve = g2 ? pairingCurve.g2() : pairingCurve.g1();
        int jw = curve.jacobianWidth();
        int aw = curve.affineWidth();
        long[] jac = new long[Math.multiplyExact(outputs, jw)];
        int tasks = Math.max(1, Math.min(outputs / 16, Runtime.getRuntime().availableProcessors() * 8));
        long terms = start[outputs];
        int[] bounds = new int[tasks + 1];
        // ranges of about equal term counts, so that a heavy signal does not leave one thread working alone
        for (int task = 1, j = 0; task < tasks; task++) {
            long goal = terms * task / tasks;
            while (j < outputs && start[j] < goal) {
                j++;
            }
            bounds[task] = j;
        }
        bounds[tasks] = outputs;
        IntStream.range(0, tasks).parallel().forEach(task -> {
            Multiplications mm = Multiplications.of(pairingCurve, g2, terms);
            PointArithmetic pa = mm.scalar().arithmetic();
            ScalarMultiplier sm = new ScalarMultiplier(pa);
            // on the lanes, terms wait for their multiplications
            long[] term = new long[Multiplications.MOST_QUEUED * jw];
            int[] target = new int[Multiplications.MOST_QUEUED];
            int waiting = 0;
            long[] neg = new long[aw];
            long summed = 0;
            for (int j = bounds[task]; j < bounds[task + 1]; j++) {
                pa.setInfinity(jac, j * jw);
                if (start[j + 1] - start[j] > MSM_TERMS) {
                    continue;
                }
                summed += start[j + 1] - start[j];
                if (summed >= PROGRESS_TERMS) {
                    done.accept(summed);
                    summed = 0;
                }
                for (int t = start[j]; t < start[j + 1]; t++) {
                    long[] base = bases[kind[t]];
                    int bi = index[t] * aw;
                    BigInteger k = signed(t, r);
                    if (k.equals(BigInteger.ONE)) {
                        pa.addMixed(jac, j * jw, base, bi, jac, j * jw);
                    } else if (k.equals(BigInteger.ONE.negate())) {
                        pa.negAffine(base, bi, neg, 0);
                        pa.addMixed(jac, j * jw, neg, 0, jac, j * jw);
                    } else if (k.bitLength() <= GLV_BITS || !mm.onLanes()) {
                        if (k.signum() != 0) {
                            pa.fromAffine(base, bi, term, 0);
                            if (k.bitLength() <= GLV_BITS) {
                                sm.mul(term, 0, k, term, 0);
                            } else {
                                mm.mul(term, 0, k);
                            }
                            pa.add(jac, j * jw, term, 0, jac, j * jw);
                        }
                    } else {
                        pa.fromAffine(base, bi, term, waiting * jw);
                        target[waiting++] = j;
                        if (mm.mul(term, (waiting - 1) * jw, k)) {
                            waiting = addTerms(pa, term, target, waiting, jac);
                        }
                    }
                }
            }
            mm.flush();
            addTerms(pa, term, target, waiting, jac);
            done.accept(summed);
        });
        for (int j = 0; j < outputs; j++) {
            int n = start[j + 1] - start[j];
            if (n > MSM_TERMS) {
                long[] pts = new long[n * aw];
                for (int t = start[j]; t < start[j + 1]; t++) {
                    System.arraycopy(bases[kind[t]], index[t] * aw, pts, (t - start[j]) * aw, aw);
                }
                long[] s = Arrays.copyOfRange(scalars, 4 * start[j], 4 * start[j + 1]);
                System.arraycopy(Msm.on(curve).multiply(pts, s), 0, jac, j * jw, jw);
                done.accept(n);
            }
        }
        long[] out = new long[Math.multiplyExact(outputs, aw)];
        int chunk = 1 << 14;
        IntStream.range(0, (outputs + chunk - 1) / chunk).parallel().forEach(c -> {
            int from = c * chunk;
            curve.arithmetic().batchToAffine(jac, from * jw, out, from * aw, Math.min(chunk, outputs - from));
        });
        return out;
    }

    /** Adds the first {@code waiting} points of {@code term} to their outputs; returns 0. */
    private static int addTerms(PointArithmetic pa, long[] term, int[] target, int waiting, long[] jac) {
        int jw = pa.curve().jacobianWidth();
        for (int q = 0; q < waiting; q++) {
            pa.add(jac, target[q] * jw, term, q * jw, jac, target[q] * jw);
        }
        return 0;
    }

    /** Term t's scalar as the integer of least magnitude congruent to it (r - 1 is -1: a negation, not 254 doublings). */
    private BigInteger signed(int t, BigInteger r) {
        BigInteger k = toBigInteger(scalars, 4 * t);
        BigInteger negative = k.subtract(r);
        return negative.bitLength() < k.bitLength() ? negative : k;
    }

    private static BigInteger toBigInteger(long[] w, int at) {
        byte[] be = new byte[33];
        for (int i = 0; i < 4; i++) {
            long x = w[at + i];
            for (int b = 0; b < 8; b++) {
                be[32 - 8 * i - b] = (byte) (x >>> (8 * b));
            }
        }
        return new BigInteger(be);
    }
}
