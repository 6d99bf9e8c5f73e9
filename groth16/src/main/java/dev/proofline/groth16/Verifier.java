package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.pairing.Pairing;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Groth16 verification: e(A, B) = e(alpha, beta) e(vk_x, gamma) e(C, delta) with
 * vk_x = IC_0 + sum_i x_i IC_i, checked as one multi-pairing
 * e(-A, B) e(alpha, beta) e(vk_x, gamma) e(C, delta) = 1 (one final exponentiation). A key checked
 * more than once has its fixed parts prepared ({@link VerificationKey#prepared}): gamma's and delta's
 * lines recorded, e(alpha, beta)'s Miller loop computed once.
 */
public final class Verifier {

    /** The outcome, with the reason when the proof is rejected. */
    public record Result(boolean valid, String reason) {
        static Result ok() {
            return new Result(true, null);
        }

        static Result invalid(String reason) {
            return new Result(false, reason);
        }
    }

    private Verifier() {
    }

    public static boolean verify(VerificationKey vk, List<BigInteger> publicSignals, Proof proof) {
        return check(vk, publicSignals, proof).valid();
    }

    /**
     * Checks a proof. Rejected (not thrown): a proof or key for different curves, a number of public
     * signals other than the key's, a signal not below r (as snarkjs rejects them), a failed pairing check.
     */
    public static Result check(VerificationKey vk, List<BigInteger> publicSignals, Proof proof) {
        PairingCurve curve = vk.curve();
        if (proof.curve() != curve) {
            return Result.invalid("the proof is on " + proof.curve().snarkjsName() + ", the key on " + curve.snarkjsName());
        }
        if (publicSignals.size() != vk.publicCount()) {
            return Result.invalid(publicSignals.size() + " public signals, the key expects " + vk.publicCount());
        }
        PrimeField fr = curve.fr();
        long[] scalars = new long[publicSignals.size() * Msm.SCALAR_WORDS];
        for (int i = 0; i < publicSignals.size(); i++) {
            BigInteger x = publicSignals.get(i);
            if (x.signum() < 0 || x.compareTo(fr.modulus()) >= 0) {
                return Result.invalid("public signal #" + i + " is not below the scalar field modulus");
            }
            System.arraycopy(PrimeField.words(x, Msm.SCALAR_WORDS), 0, scalars, i * Msm.SCALAR_WORDS, Msm.SCALAR_WORDS);
        }
        WeierstrassCurve g1 = curve.g1();
        PointArithmetic pa = g1.arithmetic();
        int aw = g1.affineWidth();
        long[] ic = vk.ic();
        long[] x = Msm.on(g1).withParallelism(1).multiply(ic, 1, scalars, 0, publicSignals.size());
        long[] ic0 = new long[g1.jacobianWidth()];
        pa.fromAffine(ic, 0, ic0, 0);
        pa.add(x, 0, ic0, 0, x, 0);
        long[] vkx = new long[aw];
        pa.toAffine(x, 0, vkx, 0);
        long[] negA = new long[aw];
        pa.negAffine(proof.a(), 0, negA, 0);

        VerificationKey.Prepared prepared = vk.prepared();
        boolean ok;
        if (prepared != null) {
            ok = curve.pairing().pairingProductIsOne(new long[][] {negA}, new long[][] {proof.b()},
                    new long[][] {vkx, proof.c()}, new Pairing.PreparedG2[] {prepared.gamma2(), prepared.delta2()},
                    prepared.alphaBetaLoop());
        } else {
            List<long[]> ps = new ArrayList<>();
            List<long[]> qs = new ArrayList<>();
            add(ps, qs, pa, curve.g2().arithmetic(), negA, proof.b());
            add(ps, qs, pa, curve.g2().arithmetic(), vk.alpha1(), vk.beta2());
            add(ps, qs, pa, curve.g2().arithmetic(), vkx, vk.gamma2());
            add(ps, qs, pa, curve.g2().arithmetic(), proof.c(), vk.delta2());
            ok = ps.isEmpty()
                    || curve.pairing().pairingProductIsOne(ps.toArray(new long[0][]), qs.toArray(new long[0][]));
        }
        return ok ? Result.ok() : Result.invalid("the pairing check failed");
    }

    /** Adds the pair unless one side is the point at infinity (then e(P, Q) = 1). */
    private static void add(List<long[]> ps, List<long[]> qs, PointArithmetic g1, PointArithmetic g2, long[] p,
            long[] q) {
        if (g1.isInfinityAffine(p, 0) || g2.isInfinityAffine(q, 0)) {
            return;
        }
        ps.add(p);
        qs.add(q);
    }
}
