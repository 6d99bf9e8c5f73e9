package dev.proofline.algebra.bn254;

import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Fp2;
import java.math.BigInteger;

/**
 * BN254 (also alt_bn128, circom's "bn128"): E: y^2 = x^3 + 3 over Fp, and the D-type sextic twist
 * E': y^2 = x^3 + 3/(9 + u) over Fp2 = Fp[u]/(u^2 + 1). Generators as in EIP-197 and snarkjs.
 */
public final class Bn254 {

    /** The curve parameter u (x in some texts): p = 36u^4 + 36u^3 + 24u^2 + 6u + 1. */
    public static final BigInteger U = new BigInteger("4965661367192848881");

    public static final Fp FP = Fp.INSTANCE;
    public static final Fr FR = Fr.INSTANCE;
    /** Shared Fp2 for constants; arithmetic takes its own with {@code forThread()}. */
    public static final Fp2 FP2 = new Fp2(FP);

    public static final WeierstrassCurve G1 = new WeierstrassCurve("BN254 G1", FP, FP.fromLong(3),
            FP.fromLong(1), FP.fromLong(2), FR, BigInteger.ONE);

    public static final WeierstrassCurve G2;

    static {
        long[] xi = FP2.of(BigInteger.valueOf(9), BigInteger.ONE);
        long[] b2 = FP2.newElement();
        FP2.forThread().inv(xi, 0, b2, 0);
        long[] three = FP2.of(BigInteger.valueOf(3), BigInteger.ZERO);
        FP2.forThread().mul(b2, 0, three, 0, b2, 0);
        long[] gx = FP2.of(
                new BigInteger("10857046999023057135944570762232829481370756359578518086990519993285655852781"),
                new BigInteger("11559732032986387107991004021392285783925812861821192530917403151452391805634"));
        long[] gy = FP2.of(
                new BigInteger("8495653923123431417604973247489272438418190587263600148770280649306958101930"),
                new BigInteger("4082367875863433681332203403145435568316851327593401208105741076214120093531"));
        // #E'(Fp2) = r (2p - r)
        BigInteger h2 = FP.modulus().shiftLeft(1).subtract(FR.modulus());
        G2 = new WeierstrassCurve("BN254 G2", FP2, b2, gx, gy, FR, h2);
    }

    private Bn254() {
    }
}
