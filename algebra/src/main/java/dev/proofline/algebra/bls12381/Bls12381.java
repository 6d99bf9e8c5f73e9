package dev.proofline.algebra.bls12381;

import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Fp2;
import java.math.BigInteger;

/**
 * BLS12-381: E: y^2 = x^3 + 4 over Fp, and the M-type sextic twist E': y^2 = x^3 + 4(u + 1) over
 * Fp2 = Fp[u]/(u^2 + 1). Generators and cofactors as in the zcash/bellman specification (and the
 * IETF pairing-friendly-curves draft).
 */
public final class Bls12381 {

    /** The curve parameter x = -0xd201000000010000 (negative). */
    public static final BigInteger X = new BigInteger("-d201000000010000", 16);

    public static final Fp FP = Fp.INSTANCE;
    public static final Fr FR = Fr.INSTANCE;
    /** Shared Fp2 for constants; arithmetic takes its own with {@code forThread()}. */
    public static final Fp2 FP2 = new Fp2(FP);

    public static final WeierstrassCurve G1 = new WeierstrassCurve("BLS12-381 G1", FP, FP.fromLong(4),
            FP.fromBigInteger(hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb")),
            FP.fromBigInteger(hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1")),
            FR, hex("396c8c005555e1568c00aaab0000aaab"));

    public static final WeierstrassCurve G2 = new WeierstrassCurve("BLS12-381 G2", FP2,
            FP2.of(BigInteger.valueOf(4), BigInteger.valueOf(4)),
            FP2.of(hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
                    hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")),
            FP2.of(hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
                    hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")),
            FR, hex("5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5"));

    private Bls12381() {
    }

    private static BigInteger hex(String h) {
        return new BigInteger(h, 16);
    }
}
