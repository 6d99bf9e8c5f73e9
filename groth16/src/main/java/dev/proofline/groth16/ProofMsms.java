package dev.proofline.groth16;

import dev.proofline.algebra.Parallel;
import dev.proofline.algebra.msm.FixedBaseTable;
import dev.proofline.algebra.msm.Msm;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A proof's MSMs on the CPU, through the key's precomputed tables where it has them ({@link KeyTables}):
 * the G1 sums A, B1, C, H and B in G2, each a Jacobian point. On keys of small domains the MSMs that
 * do not need h run beside the transforms that make it ({@link #besideTransforms}).
 */
final class ProofMsms {

    /**
     * The largest domain, log2, whose proofs run their transforms and MSMs A, B1, C, B2 side by side
     * (system property {@code proofline.prover.sideBySideMaxLog}; below 0: never). Measured on the
     * 2-core Zen 5, warm, with the keys' tables, against the steps in order in one process
     * ({@code proofline bench key-tables --in-order}): less time a proof on both curves at 2^12 to 2^16,
     * none at 2^17, where an MSM on two threads is already nearly twice as fast as on one
     * (BENCHMARKS.md, "Circom circuits").
     */
    static final int SIDE_BY_SIDE_MAX_LOG = Integer.getInteger("proofline.prover.sideBySideMaxLog", 16);

    /** The steps of the MSMs beside the transforms, in the order they are taken. */
    private static final Step[] BESIDE = {Step.MSM_B2, Step.MSM_C, Step.MSM_A, Step.MSM_B1};

    private ProofMsms() {
    }

    /**
     * Whether a proof with {@code key} on this machine runs {@link #besideTransforms}: a domain of at
     * most 2^{@link #SIDE_BY_SIDE_MAX_LOG} and at least two processors.
     */
    static boolean sideBySide(ProvingKey key) {
        return key.logDomainSize() <= SIDE_BY_SIDE_MAX_LOG && Runtime.getRuntime().availableProcessors() >= 2;
    }

    /**
     * The four G1 sums, in this order: A = sum w_i A_i, B1 = sum w_i B1_i, C = sum_private w_i C_i
     * (the variables after the constant and the public signals) and H = sum h_i H_i. {@code step} is
     * told each before it begins.
     */
    static ProofSums g1(ProvingKey key, long[] w, long[] h, Consumer<Step> step) {
        Msm msm = Msm.on(key.curve().g1());
        step.accept(Step.MSM_A);
        long[] sumA = sumA(msm, key, w);
        step.accept(Step.MSM_B1);
        long[] sumB1 = sumB1(msm, key, w);
        step.accept(Step.MSM_C);
        long[] sumC = sumC(msm, key, w);
        step.accept(Step.MSM_H);
        long[] sumH = sumH(msm, key, h);
        return ProofSums.of(sumA, sumB1, sumC, sumH);
    }

    /** B in G2 = sum w_i B2_i, Jacobian over Fp2. */
    static long[] b2(ProvingKey key, long[] w) {
        return sumB2(Msm.on(key.curve().g2()), key, w);
    }

    /**
     * All five sums, B2 among them, with h made on the way from a, b, c on the domain (consumed, by
     * the steps of {@link Quotient#compute}). At small sizes an MSM on two threads is 1.6 to 1.8 times
     * as fast as on one (BN254 G1 with a table, 2^12 to 2^14 points), not twice: the merge of the
     * threads' buckets, the recoding and the hand-offs do not shrink with the points. Two MSMs side by
     * side, one thread each, take about as long as one of them alone. So here they run side by side as seven tasks on
     * two threads, each MSM on half the processors: the three transforms first, then B2, C, A, B1 (the
     * larger first). The thread that ends the last transform combines them into h; H, which needs h,
     * follows on all processors.
     * {@code begin} and {@code end} are told each step as it begins and ends, from the thread
     * that runs it, one call at a time.
     */
    static ProofSums besideTransforms(ProvingKey key, long[] w, long[] a, long[] b, long[] c,
            Consumer<Step> begin, Consumer<Step> end) {
        int each = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        Msm g1 = Msm.on(key.curve().g1()).withParallelism(each);
        Msm g2 = Msm.on(key.curve().g2()).withParallelism(each);
        Runnable[] quotient = Quotient.steps(key, a, b, c);
        int nt = quotient.length - 1;   // the transforms; the last step combines them
        AtomicInteger transformsLeft = new AtomicInteger(nt);
        Object lock = new Object();
        Consumer<Step> begun = name -> {
            synchronized (lock) {
                begin.accept(name);
            }
        };
        Consumer<Step> ended = name -> {
            synchronized (lock) {
                end.accept(name);
            }
        };
        long[][] out = new long[5][];
        Parallel.run(2, nt + BESIDE.length, () -> task -> {
            if (task < nt) {
                if (task == 0) {
                    begun.accept(Step.H);
                }
                quotient[task].run();
                if (transformsLeft.decrementAndGet() == 0) {
                    quotient[nt].run();
                    ended.accept(Step.H);
                }
                return;
            }
            int m = task - nt;
            begun.accept(BESIDE[m]);
            switch (m) {
                case 0 -> out[4] = sumB2(g2, key, w);
                case 1 -> out[2] = sumC(g1, key, w);
                case 2 -> out[0] = sumA(g1, key, w);
                default -> out[1] = sumB1(g1, key, w);
            }
            ended.accept(BESIDE[m]);
        });
        begin.accept(Step.MSM_H);
        out[3] = sumH(Msm.on(key.curve().g1()), key, a);
        return ProofSums.of(out[0], out[1], out[2], out[3], out[4]);
    }

    private static long[] sumA(Msm msm, ProvingKey key, long[] w) {
        return KeyTables.multiply(msm, table(key, KeyTables::a), key.pointsA(), w, 0, key.variableCount());
    }

    private static long[] sumB1(Msm msm, ProvingKey key, long[] w) {
        return KeyTables.multiply(msm, table(key, KeyTables::b1), key.pointsB1(), w, 0, key.variableCount());
    }

    private static long[] sumC(Msm msm, ProvingKey key, long[] w) {
        int nPublic = key.publicCount();
        return KeyTables.multiply(msm, table(key, KeyTables::c), key.pointsC(), w, nPublic + 1,
                key.variableCount() - nPublic - 1);
    }

    private static long[] sumH(Msm msm, ProvingKey key, long[] h) {
        return KeyTables.multiply(msm, table(key, KeyTables::h), key.pointsH(), h, 0, key.domainSize());
    }

    private static long[] sumB2(Msm msm, ProvingKey key, long[] w) {
        return KeyTables.multiply(msm, table(key, KeyTables::b2), key.pointsB2(), w, 0, key.variableCount());
    }

    /** One of the key's tables, or null where the key has none (yet). */
    private static FixedBaseTable table(ProvingKey key, Function<KeyTables, FixedBaseTable> which) {
        KeyTables t = key.tables();
        return t == null ? null : which.apply(t);
    }
}
