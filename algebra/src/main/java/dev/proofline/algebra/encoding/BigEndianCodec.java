package dev.proofline.algebra.encoding;

import java.util.Arrays;

/**
 * Big-endian point encodings with flag bits in the top bits of the first byte, compressed (x only)
 * and uncompressed (x then y). Coordinates are canonical big-endian Fp elements of n8 bytes; an Fp2
 * element c0 + c1 u is written c1 then c0. Compressed: n8 bytes (G1) or 2 n8 (G2); uncompressed twice
 * that. The "sign" of y is whether y is the lexicographically largest of {y, -y} (see
 * {@link Validator#isLexicographicallyLargest}).
 *
 * <p><b>BLS12-381: the zcash/bellman format</b> (zcash pairing crate, src/bls12_381/README.md,
 * "Serialization"; also the IETF pairing-friendly-curves draft and Ethereum's BLS keys). p has 381
 * bits, leaving three flag bits in byte 0:
 * <ul>
 *   <li>bit 7 (0x80): compressed form;</li>
 *   <li>bit 6 (0x40): point at infinity, all other bits zero;</li>
 *   <li>bit 5 (0x20): compressed, not infinity, and y is lexicographically largest.</li>
 * </ul>
 * 48 / 96 bytes compressed (G1 / G2), 96 / 192 uncompressed. The generators compress to
 * 97f1d3a7... (G1) and 93e02b60... (G2).
 *
 * <p><b>BN254: gnark-crypto's format</b> (ecc/bn254/marshal.go). p has 254 bits, leaving only two
 * flag bits, so zcash's three cannot be used; the top two bits of byte 0 are one 2-bit code:
 * <ul>
 *   <li>00: uncompressed (x then y; infinity is all zeros, i.e. affine (0, 0));</li>
 *   <li>10 (0x80): compressed, y is the lexicographically smallest root;</li>
 *   <li>11 (0xc0): compressed, y is the lexicographically largest root;</li>
 *   <li>01 (0x40): compressed point at infinity, all other bits zero.</li>
 * </ul>
 * 32 / 64 bytes compressed (G1 / G2), 64 / 128 uncompressed. (arkworks uses yet another, little-endian
 * scheme; it is not supported here.)
 *
 * <p>Decoders check the length, the flags, that coordinates are below p, that the point is on the
 * curve, and (unless {@link #withoutSubgroupCheck()}) that it is in the subgroup of order r.
 * Instances are immutable and thread-safe.
 */
public final class BigEndianCodec {

    /** The flag scheme. */
    public enum Flags {
        /** zcash/bellman: compression 0x80, infinity 0x40, sign 0x20. */
        ZCASH,
        /** gnark-crypto BN254: 2-bit code 00 uncompressed, 10 / 11 compressed small / large y, 01 infinity. */
        GNARK
    }

    private static final int C_BIT = 0x80;
    private static final int I_BIT = 0x40;
    private static final int S_BIT = 0x20;
    private static final int GNARK_MASK = 0xc0;
    private static final int GNARK_UNCOMPRESSED = 0x00;
    private static final int GNARK_SMALLEST = 0x80;
    private static final int GNARK_LARGEST = 0xc0;
    private static final int GNARK_INFINITY = 0x40;

    private final CurveGroup group;
    private final Flags flags;
    private final boolean checkSubgroup;
    private final int n8;
    private final int limbs;

    private BigEndianCodec(CurveGroup group, Flags flags, boolean checkSubgroup) {
        this.group = group;
        this.flags = flags;
        this.checkSubgroup = checkSubgroup;
        this.n8 = group.fieldBytes();
        this.limbs = group.baseField().limbs();
    }

    /** zcash flags for BLS12-381, gnark-crypto flags for BN254; checks subgroup membership on decode. */
    public static BigEndianCodec of(CurveGroup group) {
        Flags f = switch (group) {
            case BLS12_381_G1, BLS12_381_G2 -> Flags.ZCASH;
            case BN254_G1, BN254_G2 -> Flags.GNARK;
        };
        return new BigEndianCodec(group, f, true);
    }

    /** The same codec without the subgroup check (trusted sources only; the curve equation is still checked). */
    public BigEndianCodec withoutSubgroupCheck() {
        return new BigEndianCodec(group, flags, false);
    }

    public CurveGroup group() {
        return group;
    }

    public Flags flags() {
        return flags;
    }

    public boolean checksSubgroup() {
        return checkSubgroup;
    }

    public int compressedBytes() {
        return group.degree() * n8;
    }

    public int uncompressedBytes() {
        return 2 * group.degree() * n8;
    }

    // ---------------------------------------------------------------- encode

    /** Compressed encoding of an affine point ((0, 0) = infinity). */
    public byte[] compress(long[] p, int pi) {
        byte[] out = new byte[compressedBytes()];
        Validator v = new Validator(group, false);
        if (v.pa.isInfinityAffine(p, pi)) {
            out[0] = (byte) (flags == Flags.ZCASH ? C_BIT | I_BIT : GNARK_INFINITY);
            return out;
        }
        writeCoordinate(p, pi, out, 0);
        boolean largest = v.isLexicographicallyLargest(p, pi + group.degree() * limbs);
        int flag = flags == Flags.ZCASH
                ? C_BIT | (largest ? S_BIT : 0)
                : (largest ? GNARK_LARGEST : GNARK_SMALLEST);
        out[0] |= (byte) flag;
        return out;
    }

    /** Uncompressed encoding of an affine point ((0, 0) = infinity). */
    public byte[] encodeUncompressed(long[] p, int pi) {
        byte[] out = new byte[uncompressedBytes()];
        if (group.curve().arithmetic().isInfinityAffine(p, pi)) {
            if (flags == Flags.ZCASH) {
                out[0] = (byte) I_BIT;
            }
            return out;   // gnark: all zeros
        }
        writeCoordinate(p, pi, out, 0);
        writeCoordinate(p, pi + group.degree() * limbs, out, compressedBytes());
        return out;
    }

    /** Writes one coordinate (Fp, or Fp2 as c1 then c0) big-endian. */
    private void writeCoordinate(long[] p, int pi, byte[] out, int off) {
        int d = group.degree();
        for (int s = 0; s < d; s++) {
            int component = d - 1 - s;
            group.baseField().toBytesBE(p, pi + component * limbs, out, off + s * n8);
        }
    }

    // ---------------------------------------------------------------- decode

    /** Decodes a compressed or uncompressed encoding, told apart by length (and checked against the flags). */
    public long[] decode(byte[] in) {
        if (in.length == compressedBytes()) {
            return decompress(in);
        }
        if (in.length == uncompressedBytes()) {
            return decodeUncompressed(in);
        }
        throw lengthError(in.length, compressedBytes() + " (compressed) or " + uncompressedBytes() + " (uncompressed)");
    }

    /** Decodes a compressed encoding into a new affine point. */
    public long[] decompress(byte[] in) {
        Validator v = new Validator(group, checkSubgroup);
        if (in.length != compressedBytes()) {
            throw lengthError(in.length, Integer.toString(compressedBytes()));
        }
        int b0 = in[0] & 0xff;
        boolean largest;
        if (flags == Flags.ZCASH) {
            if ((b0 & C_BIT) == 0) {
                throw v.error("compressed flag missing");
            }
            if ((b0 & I_BIT) != 0) {
                return infinity(v, in, b0 & ~(C_BIT | I_BIT));
            }
            largest = (b0 & S_BIT) != 0;
        } else {
            int code = b0 & GNARK_MASK;
            if (code == GNARK_UNCOMPRESSED) {
                throw v.error("compressed flag missing");
            }
            if (code == GNARK_INFINITY) {
                return infinity(v, in, b0 & ~GNARK_MASK);
            }
            largest = code == GNARK_LARGEST;
        }
        long[] r = new long[group.curve().affineWidth()];
        int yi = group.degree() * limbs;
        readCoordinate(v, in, 0, r, 0, 0);
        long[] rhs = v.f.newElement();
        v.curveRhs(r, 0, rhs, 0);
        if (!v.sqrt(rhs, 0, r, yi)) {
            throw new PointEncodingException(group.displayName()
                    + " point is not on the curve: x^3 + b has no square root for the encoded x");
        }
        if (v.isLexicographicallyLargest(r, yi) != largest) {
            v.f.neg(r, yi, r, yi);
        }
        v.requireValid(r, 0);
        return r;
    }

    /** Decodes an uncompressed encoding into a new affine point. */
    public long[] decodeUncompressed(byte[] in) {
        Validator v = new Validator(group, checkSubgroup);
        if (in.length != uncompressedBytes()) {
            throw lengthError(in.length, Integer.toString(uncompressedBytes()));
        }
        int b0 = in[0] & 0xff;
        long[] r = new long[group.curve().affineWidth()];
        if (flags == Flags.ZCASH) {
            if ((b0 & C_BIT) != 0) {
                throw v.error("compressed flag set on an uncompressed encoding");
            }
            if ((b0 & I_BIT) != 0) {
                return infinity(v, in, b0 & ~I_BIT);
            }
            if ((b0 & S_BIT) != 0) {
                throw v.error("sign flag set on an uncompressed encoding");
            }
        } else if ((b0 & GNARK_MASK) != GNARK_UNCOMPRESSED) {
            throw v.error("compression flags set on an uncompressed encoding");
        }
        readCoordinate(v, in, 0, r, 0, 0);
        readCoordinate(v, in, compressedBytes(), r, group.degree() * limbs, group.degree());
        if (flags == Flags.ZCASH && v.pa.isInfinityAffine(r, 0)) {
            // (0, 0) is not a curve point; zcash marks infinity with its flag instead
            throw new PointEncodingException(group.displayName() + " point is not on the curve");
        }
        v.requireValid(r, 0);
        return r;
    }

    private long[] infinity(Validator v, byte[] in, int firstByteRest) {
        if (firstByteRest != 0 || !allZero(in, 1)) {
            throw v.error("infinity flag set but the remaining bits are not all zero");
        }
        return new long[group.curve().affineWidth()];
    }

    /**
     * Reads one coordinate at byte offset off into r at ri; the flag bits of byte 0 (three for zcash,
     * two for gnark) are masked off first. firstComponent names components in messages.
     */
    private void readCoordinate(Validator v, byte[] in, int off, long[] r, int ri, int firstComponent) {
        int d = group.degree();
        byte[] buf = Arrays.copyOfRange(in, off, off + d * n8);
        if (off == 0) {
            buf[0] &= (byte) (flags == Flags.ZCASH ? 0x1f : 0x3f);
        }
        for (int s = 0; s < d; s++) {
            int component = d - 1 - s;
            try {
                group.baseField().fromBytesBE(buf, s * n8, r, ri + component * limbs);
            } catch (IllegalArgumentException e) {
                throw v.notCanonical(firstComponent + component);
            }
        }
    }

    private PointEncodingException lengthError(int got, String expected) {
        return new PointEncodingException(group.displayName() + " point: expected " + expected + " bytes, got " + got);
    }

    private static boolean allZero(byte[] in, int from) {
        for (int i = from; i < in.length; i++) {
            if (in[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
