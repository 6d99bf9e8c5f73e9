package dev.proofline.algebra.curve;

import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import java.math.BigInteger;

/**
 * Subgroup membership by an endomorphism equation phi(P) == [lambda] P, where
 * phi(x, y) = (cx * frob(x), cy * frob(y)) and frob is the identity (G1: the GLV map
 * sigma(x, y) = (beta x, y)) or the Frobenius of Fp2, i.e. conjugation (G2: the untwist-Frobenius-twist
 * map psi). On the subgroup phi acts as multiplication by its eigenvalue lambda; for the curves and
 * the lambdas chosen by the per-curve factories the converse holds too on all of E(F), so the equation
 * characterises the subgroup at the cost of a scalar multiplication by a short lambda.
 *
 * <p>phi applies directly to Jacobian coordinates: frob is a field automorphism, so
 * frob(X / Z^2) = frob(X) / frob(Z)^2, and (X, Y, Z) maps to (cx frob(X), cy frob(Y), frob(Z)).
 */
public final class EndomorphismSubgroupCheck extends SubgroupCheck {

    private final Field f;
    private final Fp2 fp2;   // non-null when frob is conjugation
    private final long[] cx;
    private final long[] cy;
    private final BigInteger lambda;
    private final RecodedScalar recoded;
    private final long[] jp;
    private final long[] phiP;
    private final long[] lambdaP;

    /**
     * @param cx         coefficient of phi on x, in the curve's coordinate field (Montgomery form)
     * @param cy         coefficient of phi on y
     * @param frobenius  whether phi conjugates (Fp2) before scaling
     * @param lambda     the eigenvalue tested against, any sign
     */
    public EndomorphismSubgroupCheck(WeierstrassCurve curve, long[] cx, long[] cy, boolean frobenius,
            BigInteger lambda) {
        super(curve);
        this.f = pa.field();
        if (frobenius && !(f instanceof Fp2)) {
            throw new IllegalArgumentException("the Frobenius map here is Fp2 conjugation; " + curve + " is not over Fp2");
        }
        this.fp2 = frobenius ? (Fp2) f : null;
        this.cx = cx.clone();
        this.cy = cy.clone();
        this.lambda = lambda;
        this.recoded = RecodedScalar.of(lambda);
        this.jp = new long[curve.jacobianWidth()];
        this.phiP = new long[curve.jacobianWidth()];
        this.lambdaP = new long[curve.jacobianWidth()];
    }

    /** The coefficient on x (Montgomery form). */
    public long[] cx() {
        return cx.clone();
    }

    /** The coefficient on y (Montgomery form). */
    public long[] cy() {
        return cy.clone();
    }

    /** Whether phi conjugates (Fp2) before scaling. */
    public boolean conjugates() {
        return fp2 != null;
    }

    /** The eigenvalue tested against. */
    public BigInteger lambda() {
        return lambda;
    }

    /** r = phi(p), Jacobian. */
    public void endomorphism(long[] p, int pi, long[] r, int ri) {
        int w = f.width();
        if (fp2 != null) {
            fp2.conjugate(p, pi, r, ri);
            fp2.conjugate(p, pi + w, r, ri + w);
            fp2.conjugate(p, pi + 2 * w, r, ri + 2 * w);
        } else {
            pa.copy(p, pi, r, ri);
        }
        f.mul(r, ri, cx, 0, r, ri);
        f.mul(r, ri + w, cy, 0, r, ri + w);
    }

    @Override
    public boolean isInSubgroup(long[] p, int pi) {
        if (pa.isInfinity(p, pi)) {
            return true;
        }
        endomorphism(p, pi, phiP, 0);
        sm.mul(p, pi, recoded, lambdaP, 0);
        return pa.equal(phiP, 0, lambdaP, 0);
    }

    /** As {@link #isInSubgroup}, [lambda] P from the affine point (mixed additions where the recoding allows). */
    @Override
    public boolean isInSubgroupAffine(long[] p, int pi) {
        if (pa.isInfinityAffine(p, pi)) {
            return true;
        }
        pa.fromAffine(p, pi, jp, 0);
        endomorphism(jp, 0, phiP, 0);
        sm.mulAffine(p, pi, recoded, lambdaP, 0);
        return pa.equal(phiP, 0, lambdaP, 0);
    }
}
