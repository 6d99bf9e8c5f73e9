package dev.proofline.cuda;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.WeierstrassCurve;

/** The groups the MSM kernels are built for ({@link CudaMsm}): G1 and G2 of each curve. */
public enum MsmGroup {
    BN254("bn254", 4, 254, PairingCurve.BN254, false),
    BLS12_381("bls12381", 6, 255, PairingCurve.BLS12_381, false),
    BN254_G2("bn254_g2", 4, 254, PairingCurve.BN254, true),
    BLS12_381_G2("bls12381_g2", 6, 255, PairingCurve.BLS12_381, true);

    private final String prefix;
    private final int limbs;
    private final int scalarBits;
    private final PairingCurve pairingCurve;
    private final boolean g2;

    MsmGroup(String prefix, int limbs, int scalarBits, PairingCurve pairingCurve, boolean g2) {
        this.prefix = prefix;
        this.limbs = limbs;
        this.scalarBits = scalarBits;
        this.pairingCurve = pairingCurve;
        this.g2 = g2;
    }

    /** G1 of {@code c}. */
    public static MsmGroup g1(PairingCurve c) {
        return c == PairingCurve.BN254 ? BN254 : BLS12_381;
    }

    /** G2 of {@code c}. */
    public static MsmGroup g2(PairingCurve c) {
        return c == PairingCurve.BN254 ? BN254_G2 : BLS12_381_G2;
    }

    /** The prefix of the group's entry points, {@code pl_<prefix>_msm_...}. */
    public String prefix() {
        return prefix;
    }

    /** The curve of the Java code. */
    public PairingCurve pairingCurve() {
        return pairingCurve;
    }

    /** The group in the Java code (its arithmetic combines the window sums on the host). */
    public WeierstrassCurve group() {
        return g2 ? pairingCurve.g2() : pairingCurve.g1();
    }

    /** 64-bit words of a base field element. */
    public int limbs() {
        return limbs;
    }

    /** Words of a coordinate: the base field's limbs on G1, twice that (c0, c1) on G2. */
    public int coordinateWords() {
        return g2 ? 2 * limbs : limbs;
    }

    /** Words of an affine point. */
    public int affineWords() {
        return 2 * coordinateWords();
    }

    /** Words of a Jacobian point. */
    public int jacobianWords() {
        return 3 * coordinateWords();
    }

    /** Bit length of the group order r. */
    public int scalarBits() {
        return scalarBits;
    }
}
