package dev.proofline.groth16;

import dev.proofline.algebra.msm.Msm;
import java.util.function.Consumer;

/**
 * A proof's MSMs on the CPU, through the key's precomputed tables where it has them ({@link KeyTables}):
 * the G1 sums A, B1, C, H and B in G2, each a Jacobian point.
 */
final class ProofMsms {

    private ProofMsms() {
    }

    /**
     * The four G1 sums, in this order: A = sum w_i A_i, B1 = sum w_i B1_i, C = sum_private w_i C_i
     * (the variables after the constant and the public signals) and H = sum h_i H_i. {@code step} is
     * told the name of each (the {@link Prover#STEPS}) before it begins.
     */
    static long[][] g1(ProvingKey key, long[] w, long[] h, Consumer<String> step) {
        Msm msm = Msm.on(key.curve().g1());
        KeyTables t = key.tables();
        int nVars = key.variableCount();
        int nPublic = key.publicCount();
        step.accept("MSM A");
        long[] sumA = KeyTables.multiply(msm, t == null ? null : t.a(), key.pointsA(), w, 0, nVars);
        step.accept("MSM B1");
        long[] sumB1 = KeyTables.multiply(msm, t == null ? null : t.b1(), key.pointsB1(), w, 0, nVars);
        step.accept("MSM C");
        long[] sumC = KeyTables.multiply(msm, t == null ? null : t.c(), key.pointsC(), w, nPublic + 1,
                nVars - nPublic - 1);
        step.accept("MSM H");
        long[] sumH = KeyTables.multiply(msm, t == null ? null : t.h(), key.pointsH(), h, 0, key.domainSize());
        return new long[][] {sumA, sumB1, sumC, sumH};
    }

    /** B in G2 = sum w_i B2_i, Jacobian over Fp2. */
    static long[] b2(ProvingKey key, long[] w) {
        KeyTables t = key.tables();
        return KeyTables.multiply(Msm.on(key.curve().g2()), t == null ? null : t.b2(), key.pointsB2(), w, 0,
                key.variableCount());
    }
}
