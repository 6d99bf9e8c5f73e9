package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.pairing.Pairing;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Groth16 verification key: alpha in G1, beta, gamma, delta in G2, and IC_0 .. IC_nPublic in G1
 * (affine, flat vectors in the curve's layout).
 */
public final class VerificationKey {

    private final PairingCurve curve;
    private final int nPublic;
    private final long[] alpha1;
    private final long[] beta2;
    private final long[] gamma2;
    private final long[] delta2;
    private final long[] ic;
    /** Checks made with this key, up to 2: the second prepares it. */
    private final AtomicInteger checks = new AtomicInteger();
    private volatile Prepared prepared;

    /**
     * The fixed parts of the pairing check, computed once: gamma and delta's Miller-loop lines, and the
     * Miller loop value of (alpha, beta). A check with them computes one pair's G2 arithmetic instead of
     * four, which took a fair share off a warm proof's verification
     * (docs/decisions/0013-circom-matrix-intel-2-6.md, "What changed").
     */
    record Prepared(Pairing.PreparedG2 gamma2, Pairing.PreparedG2 delta2, long[] alphaBetaLoop) {
    }

    public VerificationKey(PairingCurve curve, int nPublic, long[] alpha1, long[] beta2, long[] gamma2,
            long[] delta2, long[] ic) {
        if (ic.length != (nPublic + 1) * curve.g1().affineWidth()) {
            throw new IllegalArgumentException("IC holds " + ic.length / curve.g1().affineWidth()
                    + " points, expected nPublic + 1 = " + (nPublic + 1));
        }
        this.curve = curve;
        this.nPublic = nPublic;
        this.alpha1 = alpha1.clone();
        this.beta2 = beta2.clone();
        this.gamma2 = gamma2.clone();
        this.delta2 = delta2.clone();
        this.ic = ic.clone();
    }

    public PairingCurve curve() {
        return curve;
    }

    public int publicCount() {
        return nPublic;
    }

    public long[] alpha1() {
        return alpha1.clone();
    }

    public long[] beta2() {
        return beta2.clone();
    }

    public long[] gamma2() {
        return gamma2.clone();
    }

    public long[] delta2() {
        return delta2.clone();
    }

    /** IC_0 .. IC_nPublic, flat. */
    public long[] ic() {
        return ic.clone();
    }

    /**
     * The key's prepared parts from its second check on, null before: preparing costs about what one
     * check saves, so a key checked once (a one-off command) is not prepared, and one a long-running
     * prover keeps (each proof is checked) is prepared once. Thread-safe.
     */
    Prepared prepared() {
        Prepared p = prepared;
        if (p != null || checks.get() < 2 && checks.incrementAndGet() < 2) {
            return p;
        }
        synchronized (this) {
            if (prepared == null) {
                Pairing e = curve.pairing();
                prepared = new Prepared(e.prepare(gamma2), e.prepare(delta2),
                        e.millerLoop(new long[][] {alpha1}, new long[][] {beta2}));
            }
            return prepared;
        }
    }

    /**
     * Prepares the key's fixed parts now instead of at its second check: for a prover that keeps the key
     * and will check many proofs with it, so that none of its requests pays for the preparation.
     */
    public void prepare() {
        checks.set(2);
        prepared();
    }

    /** e(alpha, beta) in Fp12 (flat, Montgomery), as snarkjs exports it in {@code vk_alphabeta_12}. */
    public long[] alphaBeta() {
        return curve.pairing().pair(alpha1, beta2);
    }
}
