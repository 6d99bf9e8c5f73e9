package dev.proofline.algebra.encoding;

import static dev.proofline.algebra.encoding.SnarkjsBinaryCodecTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.TestPoints;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.BigRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** zcash (BLS12-381) and gnark-crypto (BN254) big-endian encodings. */
class BigEndianCodecTest {

    private static final HexFormat HEX = HexFormat.of();

    // Published generator encodings: Ethereum consensus-specs trusted_setup_4096.json g1_monomial[0] and
    // g2_monomial[0] (tau^0 times the generators), equal to the zcash/IETF compressed generators.
    private static final String BLS_G1_COMPRESSED =
            "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
    private static final String BLS_G2_COMPRESSED =
            "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
            + "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
    // Uncompressed: x then y, Fp2 as c1 then c0, no flags (the generator coordinates of the zcash
    // pairing README / IETF draft-irtf-cfrg-pairing-friendly-curves, section 4.2.1).
    private static final String BLS_G1_UNCOMPRESSED =
            "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
            + "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
    private static final String BLS_G2_UNCOMPRESSED =
            "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
            + "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
            + "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
            + "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";

    @Test
    void bls12381GeneratorsEncodeToThePublishedBytes() {
        check(CurveGroup.BLS12_381_G1, BLS_G1_COMPRESSED, BLS_G1_UNCOMPRESSED);
        check(CurveGroup.BLS12_381_G2, BLS_G2_COMPRESSED, BLS_G2_UNCOMPRESSED);
    }

    private static void check(CurveGroup g, String compressed, String uncompressed) {
        BigEndianCodec codec = BigEndianCodec.of(g);
        assertEquals(BigEndianCodec.Flags.ZCASH, codec.flags());
        long[] gen = g.curve().generator();
        assertEquals(compressed, HEX.formatHex(codec.compress(gen, 0)));
        assertEquals(uncompressed, HEX.formatHex(codec.encodeUncompressed(gen, 0)));
        assertArrayEquals(gen, codec.decode(HEX.parseHex(compressed)));
        assertArrayEquals(gen, codec.decode(HEX.parseHex(uncompressed)));
    }

    @Test
    void blsNegatedGeneratorSetsTheSignBitAndDecodesToMinusY() {
        // -G has y' = p - y; for the generators y is the smaller root, so -G carries the sign bit 0x20
        BigEndianCodec codec = BigEndianCodec.of(CurveGroup.BLS12_381_G1);
        byte[] neg = HEX.parseHex(BLS_G1_COMPRESSED);
        neg[0] |= 0x20;
        assertEquals("b7f1d3a7", HEX.formatHex(neg, 0, 4));
        long[] p = codec.decompress(neg);
        PrimeField fp = CurveGroup.BLS12_381_G1.baseField();
        BigInteger gy = new BigInteger("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1", 16);
        assertEquals(fp.modulus().subtract(gy), fp.toBigInteger(p, fp.limbs()));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void infinityEncodings(CurveGroup g) {
        BigEndianCodec codec = BigEndianCodec.of(g);
        long[] inf = new long[g.curve().affineWidth()];
        byte[] c = codec.compress(inf, 0);
        byte[] u = codec.encodeUncompressed(inf, 0);
        boolean zcash = codec.flags() == BigEndianCodec.Flags.ZCASH;
        assertEquals(zcash ? (byte) 0xc0 : (byte) 0x40, c[0]);            // compressed + infinity / gnark's 01
        assertEquals(zcash ? (byte) 0x40 : (byte) 0x00, u[0]);            // infinity flag / gnark: all zeros
        assertTrue(allZero(c, 1) && allZero(u, 1));
        PointArithmetic pa = g.curve().arithmetic();
        assertTrue(pa.isInfinityAffine(codec.decode(c), 0));
        assertTrue(pa.isInfinityAffine(codec.decode(u), 0));
    }

    @Property(tries = 60)
    void roundTripsAndFlagsFollowTheLexicographicRule(@ForAll CurveGroup g,
            @ForAll @BigRange(min = "1", max = "200000000000000000000000000000000000000000000000000000000000000000000000000000") BigInteger k) {
        BigEndianCodec codec = BigEndianCodec.of(g);
        long[] p = TestPoints.multipleOfGenerator(g.curve(), k);
        if (g.curve().arithmetic().isInfinityAffine(p, 0)) {
            return;
        }
        byte[] c = codec.compress(p, 0);
        byte[] u = codec.encodeUncompressed(p, 0);
        assertEquals(codec.compressedBytes(), c.length);
        assertEquals(codec.uncompressedBytes(), u.length);
        assertArrayEquals(p, codec.decompress(c));
        assertArrayEquals(p, codec.decodeUncompressed(u));
        assertArrayEquals(p, codec.decode(c));
        // expected bytes, from BigInteger: x (c1 then c0) big-endian, then the flags
        PrimeField fp = g.baseField();
        int n8 = fp.byteLength(), w = fp.limbs(), d = g.degree();
        BigInteger[] comp = new BigInteger[2 * d];
        for (int i = 0; i < 2 * d; i++) {
            comp[i] = fp.toBigInteger(p, i * w);
        }
        byte[] want = new byte[d * n8];
        for (int s = 0; s < d; s++) {
            System.arraycopy(bigEndian(comp[d - 1 - s], n8), 0, want, s * n8, n8);
        }
        BigInteger half = fp.modulus().subtract(BigInteger.ONE).shiftRight(1);
        BigInteger yDecides = d == 2 && comp[3].signum() != 0 ? comp[3] : comp[d];
        boolean largest = yDecides.compareTo(half) > 0;
        want[0] |= (byte) (codec.flags() == BigEndianCodec.Flags.ZCASH
                ? 0x80 | (largest ? 0x20 : 0)
                : (largest ? 0xc0 : 0x80));
        assertArrayEquals(want, c);
        // -P differs exactly in the sign
        long[] neg = new long[p.length];
        g.curve().arithmetic().negAffine(p, 0, neg, 0);
        byte[] cn = codec.compress(neg, 0);
        assertEquals(c[0] ^ (codec.flags() == BigEndianCodec.Flags.ZCASH ? 0x20 : 0x40), cn[0]);
        assertArrayEquals(neg, codec.decompress(cn));
    }

    @Test
    void bn254GeneratorsFollowGnarkFlags() {
        // G1 = (1, 2): 2 <= (p-1)/2, so the smallest-root code 10; x = 1 big-endian
        byte[] c = BigEndianCodec.of(CurveGroup.BN254_G1).compress(CurveGroup.BN254_G1.curve().generator(), 0);
        assertEquals("80" + "00".repeat(30) + "01", HEX.formatHex(c));
        byte[] u = BigEndianCodec.of(CurveGroup.BN254_G1).encodeUncompressed(CurveGroup.BN254_G1.curve().generator(), 0);
        assertEquals("00".repeat(31) + "01" + "00".repeat(31) + "02", HEX.formatHex(u));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsWrongLengths(CurveGroup g) {
        BigEndianCodec codec = BigEndianCodec.of(g);
        byte[] c = codec.compress(g.curve().generator(), 0);
        assertMessage("expected " + codec.compressedBytes() + " (compressed) or " + codec.uncompressedBytes()
                + " (uncompressed) bytes, got " + (c.length + 1), () -> codec.decode(Arrays.copyOf(c, c.length + 1)));
        assertMessage("expected " + codec.compressedBytes() + " bytes, got " + (c.length - 1),
                () -> codec.decompress(Arrays.copyOf(c, c.length - 1)));
        assertMessage("expected " + codec.uncompressedBytes() + " bytes, got " + c.length,
                () -> codec.decodeUncompressed(c));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsBadFlags(CurveGroup g) {
        BigEndianCodec codec = BigEndianCodec.of(g);
        boolean zcash = codec.flags() == BigEndianCodec.Flags.ZCASH;
        long[] gen = g.curve().generator();
        byte[] c = codec.compress(gen, 0);
        byte[] noFlag = c.clone();
        noFlag[0] &= 0x3f;
        assertMessage(g.displayName() + " point: compressed flag missing", () -> codec.decode(noFlag));
        byte[] infinityNotZero = codec.compress(new long[gen.length], 0);
        infinityNotZero[infinityNotZero.length - 1] = 1;
        assertMessage("infinity flag set but the remaining bits are not all zero", () -> codec.decode(infinityNotZero));
        byte[] u = codec.encodeUncompressed(gen, 0);
        byte[] uCompressed = u.clone();
        uCompressed[0] |= (byte) 0x80;
        assertMessage(zcash ? "compressed flag set on an uncompressed encoding" : "compression flags set on an uncompressed encoding",
                () -> codec.decode(uCompressed));
        if (zcash) {
            byte[] uSign = u.clone();
            uSign[0] |= 0x20;
            assertMessage("sign flag set on an uncompressed encoding", () -> codec.decode(uSign));
            byte[] infSign = codec.compress(new long[gen.length], 0);
            infSign[0] |= 0x20;
            assertMessage("infinity flag set but the remaining bits are not all zero", () -> codec.decode(infSign));
            // (0, 0) without the infinity flag is not a point
            assertMessage(g.displayName() + " point is not on the curve", () -> codec.decode(new byte[codec.uncompressedBytes()]));
        } else {
            byte[] gnarkInfinityUncompressed = u.clone();
            gnarkInfinityUncompressed[0] |= 0x40;
            assertMessage("compression flags set on an uncompressed encoding", () -> codec.decode(gnarkInfinityUncompressed));
        }
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsCoordinatesNotBelowTheModulus(CurveGroup g) {
        BigEndianCodec codec = BigEndianCodec.of(g);
        PrimeField fp = g.baseField();
        int n8 = fp.byteLength();
        byte[] pBytes = bigEndian(fp.modulus(), n8);
        // compressed: each x slot (c1 first for G2), flags kept
        for (int s = 0; s < g.degree(); s++) {
            byte[] c = codec.compress(g.curve().generator(), 0);
            byte flags = (byte) (c[0] & (codec.flags() == BigEndianCodec.Flags.ZCASH ? 0xe0 : 0xc0));
            System.arraycopy(pBytes, 0, c, s * n8, n8);
            if (s == 0) {
                c[0] |= flags;
            }
            String name = g.componentName(g.degree() - 1 - s);
            assertMessage("coordinate " + name + " is not below the field modulus", () -> codec.decode(c));
        }
        for (int s = 0; s < 2 * g.degree(); s++) {
            byte[] u = codec.encodeUncompressed(g.curve().generator(), 0);
            System.arraycopy(pBytes, 0, u, s * n8, n8);
            int coord = s / g.degree(), slot = s % g.degree();
            String name = g.componentName(coord * g.degree() + g.degree() - 1 - slot);
            assertMessage("coordinate " + name + " is not below the field modulus", () -> codec.decode(u));
        }
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsPointsOffTheCurve(CurveGroup g) {
        BigEndianCodec codec = BigEndianCodec.of(g);
        // uncompressed: y + 1
        long[] p = g.curve().generator();
        int w = g.curve().coordinateWidth();
        g.curve().field().add(p, w, g.curve().field().one(), 0, p, w);
        byte[] u = codec.encodeUncompressed(p, 0);
        assertMessage(g.displayName() + " point is not on the curve", () -> codec.decode(u));
        // compressed: an x with x^3 + b not a square (x.c0 = 1, 2, ... until one is found)
        PointArithmetic pa = g.curve().arithmetic();
        long[] q = new long[g.curve().affineWidth()];
        for (long x = 1; ; x++) {
            g.baseField().fromBigInteger(BigInteger.valueOf(x), q, 0);
            long[] rhs = g.curve().field().newElement();
            g.curve().field().sqr(q, 0, rhs, 0);
            g.curve().field().mul(rhs, 0, q, 0, rhs, 0);
            g.curve().field().add(rhs, 0, g.curve().b(), 0, rhs, 0);
            if (!isSquare(g, rhs)) {
                break;
            }
        }
        g.baseField().setOne(q, w);    // any y: the encoder only writes x and the sign of y
        assertTrue(!pa.isOnCurveAffine(q, 0));
        byte[] c = codec.compress(q, 0);
        assertMessage(g.displayName() + " point is not on the curve: x^3 + b has no square root", () -> codec.decode(c));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsPointsOutsideTheSubgroupUnlessTheCheckIsSkipped(CurveGroup g) {
        BigEndianCodec codec = BigEndianCodec.of(g);
        long[] q = TestPoints.hashToCurvePoint(g.curve(), "big-endian-outside");
        byte[] c = codec.compress(q, 0);
        byte[] u = codec.encodeUncompressed(q, 0);
        if (g.curve().cofactor().equals(BigInteger.ONE)) {
            assertArrayEquals(q, codec.decode(c));
            return;
        }
        assertMessage(g.displayName() + " point is not in the subgroup of order r", () -> codec.decode(c));
        assertMessage(g.displayName() + " point is not in the subgroup of order r", () -> codec.decode(u));
        assertArrayEquals(q, codec.withoutSubgroupCheck().decode(c));
        assertArrayEquals(q, codec.withoutSubgroupCheck().decode(u));
    }

    /** Euler's criterion: a^((q-1)/2) = 1 (for Fp2, the norm's Legendre symbol, computed with BigInteger). */
    private static boolean isSquare(CurveGroup g, long[] a) {
        PrimeField fp = g.baseField();
        BigInteger p = fp.modulus();
        BigInteger v = fp.toBigInteger(a, 0);
        if (g.degree() == 2) {
            BigInteger c1 = fp.toBigInteger(a, fp.limbs());
            v = v.multiply(v).add(c1.multiply(c1)).mod(p);    // N(c0 + c1 u) = c0^2 + c1^2
        }
        return v.signum() == 0 || v.modPow(p.subtract(BigInteger.ONE).shiftRight(1), p).equals(BigInteger.ONE);
    }

    static byte[] bigEndian(BigInteger v, int n) {
        byte[] be = v.toByteArray();
        byte[] out = new byte[n];
        int copy = Math.min(n, be.length);
        System.arraycopy(be, be.length - copy, out, n - copy, copy);
        return out;
    }

    private static boolean allZero(byte[] a, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
