package dev.proofline.algebra.testing;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Points for tests, made without the code under test. */
public final class TestPoints {

    private TestPoints() {
    }

    /** k G, affine, by the double-and-add of PointArithmetic (the reference multiplication). */
    public static long[] multipleOfGenerator(WeierstrassCurve c, BigInteger k) {
        PointArithmetic pa = c.arithmetic();
        long[] j = new long[c.jacobianWidth()];
        pa.mulAffine(c.generator(), 0, k, j, 0);
        long[] a = new long[c.affineWidth()];
        pa.toAffine(j, 0, a, 0);
        return a;
    }

    /** k P, affine, by double-and-add. */
    public static long[] multiple(WeierstrassCurve c, long[] affine, BigInteger k) {
        PointArithmetic pa = c.arithmetic();
        long[] j = new long[c.jacobianWidth()];
        pa.mulAffine(affine, 0, k, j, 0);
        long[] a = new long[c.affineWidth()];
        pa.toAffine(j, 0, a, 0);
        return a;
    }

    /**
     * A point of E(F) that is not a known multiple of the generator: x from SHA-256(seed, counter)
     * (each Fp component), incremented (c0 += 1) until x^3 + b is a square; y is one root. For a group
     * with a large cofactor this is, with overwhelming probability, outside the subgroup.
     */
    public static long[] hashToCurvePoint(WeierstrassCurve c, String seed) {
        Field f = c.field().forThread();
        boolean g2 = f instanceof Fp2;
        PrimeField fp = g2 ? ((Fp2) f).base() : (PrimeField) f;
        BigInteger p = fp.modulus();
        int w = fp.limbs();
        long[] pt = new long[c.affineWidth()];
        BigInteger c0 = hash(seed + ":c0").mod(p);
        BigInteger c1 = g2 ? hash(seed + ":c1").mod(p) : BigInteger.ZERO;
        long[] rhs = f.newElement();
        long[] b = c.b();
        for (int i = 0; i < 1000; i++, c0 = c0.add(BigInteger.ONE).mod(p)) {
            fp.fromBigInteger(c0, pt, 0);
            if (g2) {
                fp.fromBigInteger(c1, pt, w);
            }
            f.sqr(pt, 0, rhs, 0);
            f.mul(rhs, 0, pt, 0, rhs, 0);
            f.add(rhs, 0, b, 0, rhs, 0);
            if (g2) {
                if (((Fp2) f).sqrt(rhs, 0, pt, f.width())) {
                    return pt;
                }
            } else {
                // p = 3 mod 4 for both curves: a square's root is rhs^((p+1)/4)
                BigInteger r = fp.toBigInteger(rhs, 0);
                BigInteger y = r.modPow(p.add(BigInteger.ONE).shiftRight(2), p);
                if (y.multiply(y).mod(p).equals(r)) {
                    fp.fromBigInteger(y, pt, w);
                    return pt;
                }
            }
        }
        throw new IllegalStateException("no point found");
    }

    /** A BigInteger from SHA-256 of the text, two blocks (512 bits). */
    public static BigInteger hash(String text) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] a = md.digest((text + "/0").getBytes(StandardCharsets.UTF_8));
            byte[] b = md.digest((text + "/1").getBytes(StandardCharsets.UTF_8));
            byte[] both = new byte[64];
            System.arraycopy(a, 0, both, 0, 32);
            System.arraycopy(b, 0, both, 32, 32);
            return new BigInteger(1, both);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
