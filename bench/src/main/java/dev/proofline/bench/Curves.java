package dev.proofline.bench;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;

/** The benchmark parameter "curve" (bn254 or bls12381) resolved to the objects it names. */
enum Curves {
    bn254(Bn254.FP, Bn254.FR, Bn254.G1, Bn254.G2),
    bls12381(Bls12381.FP, Bls12381.FR, Bls12381.G1, Bls12381.G2);

    final PrimeField fp;
    final PrimeField fr;
    final WeierstrassCurve g1;
    final WeierstrassCurve g2;

    Curves(PrimeField fp, PrimeField fr, WeierstrassCurve g1, WeierstrassCurve g2) {
        this.fp = fp;
        this.fr = fr;
        this.g1 = g1;
        this.g2 = g2;
    }
}
