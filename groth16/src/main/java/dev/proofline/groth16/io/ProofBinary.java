package dev.proofline.groth16.io;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.encoding.BigEndianCodec;
import dev.proofline.algebra.encoding.PointEncodingException;
import dev.proofline.groth16.Proof;
import java.util.Arrays;

/**
 * The compact binary form of a proof: A, B, C compressed and concatenated, big-endian, with the
 * flag bits of each curve's usual compressed format (zcash/bellman for BLS12-381, gnark-crypto for
 * BN254): 128 bytes on BN254 (32 + 64 + 32), 192 on BLS12-381 (48 + 96 + 48). The curve is not
 * encoded; the reader knows it from the key.
 */
public final class ProofBinary {

    private ProofBinary() {
    }

    public static int length(PairingCurve curve) {
        return 2 * BigEndianCodec.of(curve.g1Group()).compressedBytes()
                + BigEndianCodec.of(curve.g2Group()).compressedBytes();
    }

    public static byte[] encode(Proof p) {
        BigEndianCodec g1 = BigEndianCodec.of(p.curve().g1Group());
        BigEndianCodec g2 = BigEndianCodec.of(p.curve().g2Group());
        byte[] a = g1.compress(p.a(), 0);
        byte[] b = g2.compress(p.b(), 0);
        byte[] c = g1.compress(p.c(), 0);
        byte[] out = new byte[a.length + b.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        System.arraycopy(c, 0, out, a.length + b.length, c.length);
        return out;
    }

    /**
     * Whether {@code bytes} are a binary proof for {@code curve} rather than a proof.json: exactly
     * {@link #length} bytes, not starting as JSON does ('{' or white space). A compressed point's first
     * byte carries its format's flag bits, which no valid encoding sets as '{' (0x7b) or white space
     * does; and a proof.json of real points is far longer than 192 bytes.
     */
    public static boolean isBinaryProof(byte[] bytes, PairingCurve curve) {
        if (bytes.length != length(curve)) {
            return false;
        }
        byte first = bytes[0];
        return first != '{' && first != ' ' && first != '\t' && first != '\n' && first != '\r';
    }

    /** Decodes and checks (on the curve, in the subgroup) a proof for {@code curve}. */
    public static Proof decode(PairingCurve curve, byte[] in) {
        BigEndianCodec g1 = BigEndianCodec.of(curve.g1Group());
        BigEndianCodec g2 = BigEndianCodec.of(curve.g2Group());
        int n1 = g1.compressedBytes();
        int n2 = g2.compressedBytes();
        if (in.length != 2 * n1 + n2) {
            throw new IllegalArgumentException("binary " + curve.snarkjsName() + " proof: expected " + (2 * n1 + n2)
                    + " bytes, got " + in.length);
        }
        try {
            long[] a = g1.decompress(Arrays.copyOfRange(in, 0, n1));
            long[] b = g2.decompress(Arrays.copyOfRange(in, n1, n1 + n2));
            long[] c = g1.decompress(Arrays.copyOfRange(in, n1 + n2, in.length));
            return new Proof(curve, a, b, c);
        } catch (PointEncodingException e) {
            throw new IllegalArgumentException("binary " + curve.snarkjsName() + " proof: " + e.getMessage(), e);
        }
    }
}
