package dev.proofline.algebra.bn254;

import dev.proofline.algebra.curve.EndomorphismSubgroupCheck;
import dev.proofline.algebra.curve.RecodedScalar;
import dev.proofline.algebra.curve.SubgroupCheck;

/**
 * G2 membership on BN254 by a relation in the curve parameter u (63 bits) instead of psi's eigenvalue
 * 6u^2 (127 bits), for one thread:
 * <pre>
 *   [u + 1] P + psi([u] P) + psi^2([u] P) == psi^3([2u] P)
 * </pre>
 * On G2 psi acts as [p] = [6u^2] =: [l], and u + 1 + l u + l^2 u - 2 l^3 u = 0 mod r, so every point of
 * G2 satisfies it; that no other point of E'(Fp2) does is shown by Dai, Lin, Zhao and Zhou, "Fast
 * subgroup membership testings for G1, G2 and GT on pairing-friendly curves" (eprint 2022/348, sections
 * 3 and 5.1), and is what gnark-crypto's bn254 G2 check tests. The cost is one multiplication by u, three
 * applications of psi, a doubling and three additions: about half the doublings of psi(P) == [6u^2] P.
 * Tests check it against r P == O on points in and out of G2.
 */
public final class Bn254G2SubgroupCheck extends SubgroupCheck {

    private static final RecodedScalar U = RecodedScalar.of(Bn254.U);

    private final EndomorphismSubgroupCheck psi;
    private final long[] uP;
    private final long[] psi1;
    private final long[] psi2;
    private final long[] psi3;
    private final long[] jp;

    Bn254G2SubgroupCheck(EndomorphismSubgroupCheck psi) {
        super(Bn254.G2);
        this.psi = psi;
        int jw = Bn254.G2.jacobianWidth();
        this.uP = new long[jw];
        this.psi1 = new long[jw];
        this.psi2 = new long[jw];
        this.psi3 = new long[jw];
        this.jp = new long[jw];
    }

    /** psi, as the relation applies it. */
    public EndomorphismSubgroupCheck psi() {
        return psi;
    }

    @Override
    public boolean isInSubgroup(long[] p, int pi) {
        if (pa.isInfinity(p, pi)) {
            return true;
        }
        sm.mul(p, pi, U, uP, 0);
        return relationHolds(p, pi);
    }

    @Override
    public boolean isInSubgroupAffine(long[] p, int pi) {
        if (pa.isInfinityAffine(p, pi)) {
            return true;
        }
        sm.mulAffine(p, pi, U, uP, 0);
        pa.fromAffine(p, pi, jp, 0);
        return relationHolds(jp, 0);
    }

    /** With uP = [u] P: [u + 1] P + psi([u] P) + psi^2([u] P) == 2 psi^3([u] P). */
    private boolean relationHolds(long[] p, int pi) {
        psi.endomorphism(uP, 0, psi1, 0);      // psi([u] P)
        psi.endomorphism(psi1, 0, psi2, 0);    // psi^2([u] P)
        psi.endomorphism(psi2, 0, psi3, 0);    // psi^3([u] P)
        pa.dbl(psi3, 0, psi3, 0);              // psi^3([2u] P)
        pa.add(uP, 0, p, pi, uP, 0);           // [u + 1] P
        pa.add(uP, 0, psi1, 0, uP, 0);
        pa.add(uP, 0, psi2, 0, uP, 0);
        return pa.equal(uP, 0, psi3, 0);
    }
}
