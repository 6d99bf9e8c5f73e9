package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The three ways a .ptau ceremony writes a point of one group (G1 or G2), from our affine layout:
 * <ul>
 *   <li>stored ("LEM"): the affine words little-endian, Montgomery form; infinity all zeros;
 *   <li>uncompressed, what the challenge hashes cover: x then y, each canonical big-endian (an Fp2
 *       element as c1 then c0); infinity all zeros, no flag bits;
 *   <li>compressed, what the response hash covers: x as above with 0x80 set in the first byte when y
 *       is "negative" (its last nonzero component, c1 before c0, above (p-1)/2); infinity is 0x40
 *       then zeros.
 * </ul>
 * These are wasmcurves' {@code LEMtoU} and {@code LEMtoC}; they differ from the zcash and gnark
 * encodings in their flags. Instances are immutable.
 */
final class PointBytes {

    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final WeierstrassCurve curve;
    private final PrimeField fp;
    private final int degree;
    private final int n8;
    private final int limbs;

    PointBytes(WeierstrassCurve curve, PrimeField fp) {
        this.curve = curve;
        this.fp = fp;
        this.degree = curve.coordinateWidth() / fp.limbs();
        this.n8 = fp.byteLength();
        this.limbs = fp.limbs();
    }

    WeierstrassCurve curve() {
        return curve;
    }

    /** Bytes of a stored or uncompressed point. */
    int size() {
        return 2 * degree * n8;
    }

    int compressedSize() {
        return degree * n8;
    }

    void uncompressed(long[] p, int pi, byte[] out, int off) {
        PointArithmetic pa = curve.arithmetic();
        if (pa.isInfinityAffine(p, pi)) {
            java.util.Arrays.fill(out, off, off + size(), (byte) 0);
            return;
        }
        coordinate(p, pi, out, off);
        coordinate(p, pi + degree * limbs, out, off + degree * n8);
    }

    byte[] uncompressed(long[] p, int pi) {
        byte[] out = new byte[size()];
        uncompressed(p, pi, out, 0);
        return out;
    }

    void compressed(long[] p, int pi, byte[] out, int off) {
        PointArithmetic pa = curve.arithmetic();
        if (pa.isInfinityAffine(p, pi)) {
            java.util.Arrays.fill(out, off, off + compressedSize(), (byte) 0);
            out[off] = 0x40;
            return;
        }
        coordinate(p, pi, out, off);
        if (isNegative(p, pi + degree * limbs)) {
            out[off] |= (byte) 0x80;
        }
    }

    /** ffjavascript's sign of a coordinate: its last nonzero component above (p-1)/2. */
    boolean isNegative(long[] y, int yi) {
        for (int c = degree - 1; c >= 0; c--) {
            if (!fp.isZero(y, yi + c * limbs) || c == 0) {
                return fp.isLexicographicallyLarge(y, yi + c * limbs);
            }
        }
        throw new AssertionError();
    }

    private void coordinate(long[] p, int pi, byte[] out, int off) {
        for (int s = 0; s < degree; s++) {
            fp.toBytesBE(p, pi + (degree - 1 - s) * limbs, out, off + s * n8);
        }
    }

    /**
     * Reads a coordinate as {@link #uncompressed} writes it (big-endian, c1 before c0) into {@code p} at
     * {@code pi}; false where a component is not below the field's modulus.
     */
    boolean readCoordinate(byte[] in, int off, long[] p, int pi) {
        for (int s = 0; s < degree; s++) {
            try {
                fp.fromBytesBE(in, off + s * n8, p, pi + (degree - 1 - s) * limbs);
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads an uncompressed point (all zeros: infinity) into {@code p}; false where a coordinate is not
     * below the modulus or the point is not on the curve.
     */
    boolean fromUncompressed(byte[] in, int off, long[] p, int pi) {
        boolean zero = true;
        for (int i = 0; i < size() && zero; i++) {
            zero = in[off + i] == 0;
        }
        if (zero) {
            java.util.Arrays.fill(p, pi, pi + curve.affineWidth(), 0L);
            return true;
        }
        return readCoordinate(in, off, p, pi) && readCoordinate(in, off + degree * n8, p, pi + degree * limbs)
                && curve.arithmetic().isOnCurveAffine(p, pi);
    }

    /** The stored form: the affine words, little-endian. */
    void stored(long[] p, int pi, byte[] out, int off) {
        int w = curve.affineWidth();
        for (int i = 0; i < w; i++) {
            long x = p[pi + i];
            for (int b = 0; b < 8; b++) {
                out[off + 8 * i + b] = (byte) (x >>> (8 * b));
            }
        }
    }

    /** The stored form read from a (mapped) section at byte {@code off}. */
    void fromStored(MemorySegment in, long off, long[] p, int pi) {
        int w = curve.affineWidth();
        for (int i = 0; i < w; i++) {
            p[pi + i] = in.get(LE_LONG, off + 8L * i);
        }
    }

    void fromStored(byte[] in, int off, long[] p, int pi) {
        int w = curve.affineWidth();
        for (int i = 0; i < w; i++) {
            long x = 0;
            for (int b = 7; b >= 0; b--) {
                x = x << 8 | (in[off + 8 * i + b] & 0xff);
            }
            p[pi + i] = x;
        }
    }
}
