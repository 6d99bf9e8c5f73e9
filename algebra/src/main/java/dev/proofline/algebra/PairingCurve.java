package dev.proofline.algebra;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bls12381.Bls12381Subgroups;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.bn254.Bn254Subgroups;
import dev.proofline.algebra.curve.GlvMultiplier;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.pairing.Pairing;
import java.math.BigInteger;
import java.util.Optional;
import java.util.function.Supplier;

/** The two pairing-friendly curves Groth16 proofs are made on, under the names snarkjs gives them. */
public enum PairingCurve {
    BN254("bn128", Bn254.FP, Bn254.FR, CurveGroup.BN254_G1, CurveGroup.BN254_G2, Pairing::bn254),
    BLS12_381("bls12381", Bls12381.FP, Bls12381.FR, CurveGroup.BLS12_381_G1, CurveGroup.BLS12_381_G2,
            Pairing::bls12381);

    private final String snarkjsName;
    private final PrimeField fp;
    private final PrimeField fr;
    private final CurveGroup g1;
    private final CurveGroup g2;
    private final Supplier<Pairing> pairing;

    PairingCurve(String snarkjsName, PrimeField fp, PrimeField fr, CurveGroup g1, CurveGroup g2,
            Supplier<Pairing> pairing) {
        this.snarkjsName = snarkjsName;
        this.fp = fp;
        this.fr = fr;
        this.g1 = g1;
        this.g2 = g2;
        this.pairing = pairing;
    }

    /** "bn128" or "bls12381": the {@code curve} field of snarkjs's JSON files. */
    public String snarkjsName() {
        return snarkjsName;
    }

    public PrimeField fp() {
        return fp;
    }

    public PrimeField fr() {
        return fr;
    }

    public CurveGroup g1Group() {
        return g1;
    }

    public CurveGroup g2Group() {
        return g2;
    }

    public WeierstrassCurve g1() {
        return g1.curve();
    }

    public WeierstrassCurve g2() {
        return g2.curve();
    }

    /** Scalar multiplication by an endomorphism (GLV) on G1 or G2, for the calling thread. */
    public GlvMultiplier multiplier(boolean g2) {
        return switch (this) {
            case BN254 -> g2 ? Bn254Subgroups.g2Multiplier() : Bn254Subgroups.g1Multiplier();
            case BLS12_381 -> g2 ? Bls12381Subgroups.g2Multiplier() : Bls12381Subgroups.g1Multiplier();
        };
    }

    public Pairing pairing() {
        return pairing.get();
    }

    /** The curve snarkjs calls {@code name} ("bn128", also "bn254"; "bls12381", also "bls12-381"). */
    public static Optional<PairingCurve> bySnarkjsName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "bn128", "bn254", "altbn128" -> Optional.of(BN254);
            case "bls12381", "bls12-381", "bls12_381" -> Optional.of(BLS12_381);
            default -> Optional.empty();
        };
    }

    /** The curve whose base field has modulus q, as binary files identify it. */
    public static Optional<PairingCurve> byBaseModulus(BigInteger q) {
        for (PairingCurve c : values()) {
            if (c.fp.modulus().equals(q)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** The curve whose scalar field has modulus r (the prime of .wtns and .r1cs files). */
    public static Optional<PairingCurve> byScalarModulus(BigInteger r) {
        for (PairingCurve c : values()) {
            if (c.fr.modulus().equals(r)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
