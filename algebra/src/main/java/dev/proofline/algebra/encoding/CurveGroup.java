package dev.proofline.algebra.encoding;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bls12381.Bls12381Subgroups;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.bn254.Bn254Subgroups;
import dev.proofline.algebra.curve.SubgroupCheck;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import java.util.function.Supplier;

/** The four groups the encodings cover, with what they need to know about each. */
public enum CurveGroup {
    BN254_G1(Bn254.G1, Bn254.FP, 1, "G1", Bn254Subgroups::g1),
    BN254_G2(Bn254.G2, Bn254.FP, 2, "G2", Bn254Subgroups::g2),
    BLS12_381_G1(Bls12381.G1, Bls12381.FP, 1, "G1", Bls12381Subgroups::g1),
    BLS12_381_G2(Bls12381.G2, Bls12381.FP, 2, "G2", Bls12381Subgroups::g2);

    private final WeierstrassCurve curve;
    private final PrimeField fp;
    private final int degree;
    private final String label;
    private final Supplier<SubgroupCheck> subgroupCheck;

    CurveGroup(WeierstrassCurve curve, PrimeField fp, int degree, String label, Supplier<SubgroupCheck> check) {
        this.curve = curve;
        this.fp = fp;
        this.degree = degree;
        this.label = label;
        this.subgroupCheck = check;
    }

    public WeierstrassCurve curve() {
        return curve;
    }

    /** The base prime field Fp (coordinates are Fp elements for G1, pairs of them for G2). */
    public PrimeField baseField() {
        return fp;
    }

    /** Fp elements per coordinate: 1 for G1, 2 for G2. */
    public int degree() {
        return degree;
    }

    /** "G1" or "G2". */
    public String label() {
        return label;
    }

    public boolean isG2() {
        return degree == 2;
    }

    /** The fastest subgroup check known for this group, for the calling thread. */
    public SubgroupCheck subgroupCheck() {
        return subgroupCheck.get();
    }

    /** Bytes of one Fp element: 32 for BN254, 48 for BLS12-381. */
    public int fieldBytes() {
        return fp.byteLength();
    }

    /** e.g. "BN254 G2": used to start error messages. */
    public String displayName() {
        return curve.name();
    }

    /** The name of the i-th Fp component of a point (x, y for G1; x.c0, x.c1, y.c0, y.c1 for G2). */
    String componentName(int i) {
        String coord = i < degree ? "x" : "y";
        return degree == 1 ? coord : coord + ".c" + (i % degree);
    }
}
