package dev.proofline.algebra.curve;

import java.math.BigInteger;

/**
 * Membership in the subgroup of prime order r of a {@link WeierstrassCurve}, and cofactor clearing,
 * for one thread (holds a {@link PointArithmetic}).
 *
 * <p>Every membership test here assumes its input is ON THE CURVE: check that first (decoders do).
 * For a curve point P, "in the subgroup" means r P = O; {@link #byOrder} tests exactly that, the
 * per-curve subclasses test an equivalent, cheaper endomorphism equation.
 */
public abstract class SubgroupCheck {

    protected final WeierstrassCurve curve;
    protected final PointArithmetic pa;
    protected final ScalarMultiplier sm;
    private final long[] j;
    private final long[] t;

    protected SubgroupCheck(WeierstrassCurve curve) {
        this.curve = curve;
        this.pa = curve.arithmetic();
        this.sm = new ScalarMultiplier(pa);
        this.j = new long[curve.jacobianWidth()];
        this.t = new long[curve.jacobianWidth()];
    }

    /** The check of the definition, r P = O: any curve, one full-length scalar multiplication. */
    public static SubgroupCheck byOrder(WeierstrassCurve curve) {
        return new SubgroupCheck(curve) {
            @Override
            public boolean isInSubgroup(long[] p, int pi) {
                return hasOrderDividingR(p, pi);
            }
        };
    }

    /**
     * For curves whose whole group of points is the subgroup (cofactor 1, e.g. BN254 G1): every
     * point on the curve passes.
     */
    public static SubgroupCheck cofactorOne(WeierstrassCurve curve) {
        if (!curve.cofactor().equals(BigInteger.ONE)) {
            throw new IllegalArgumentException(curve + " has cofactor " + curve.cofactor());
        }
        return new SubgroupCheck(curve) {
            @Override
            public boolean isInSubgroup(long[] p, int pi) {
                return true;
            }
        };
    }

    public WeierstrassCurve curve() {
        return curve;
    }

    public PointArithmetic arithmetic() {
        return pa;
    }

    public ScalarMultiplier multiplier() {
        return sm;
    }

    /** Whether a Jacobian point on the curve lies in the subgroup of order r (infinity does). */
    public abstract boolean isInSubgroup(long[] p, int pi);

    /** Whether an affine point on the curve lies in the subgroup of order r. */
    public boolean isInSubgroupAffine(long[] p, int pi) {
        pa.fromAffine(p, pi, j, 0);
        return isInSubgroup(j, 0);
    }

    /** r P == O, computed as such (the reference the faster checks are tested against). */
    public final boolean hasOrderDividingR(long[] p, int pi) {
        sm.mul(p, pi, curve.order(), t, 0);
        return pa.isInfinity(t, 0);
    }

    /** r = h P with h the cofactor (Jacobian in and out): maps any curve point into the subgroup. */
    public void clearCofactor(long[] p, int pi, long[] r, int ri) {
        sm.mul(p, pi, curve.cofactor(), r, ri);
    }

    /** r = h P for an affine p; r Jacobian. */
    public void clearCofactorAffine(long[] p, int pi, long[] r, int ri) {
        pa.fromAffine(p, pi, j, 0);
        clearCofactor(j, 0, r, ri);
    }
}
