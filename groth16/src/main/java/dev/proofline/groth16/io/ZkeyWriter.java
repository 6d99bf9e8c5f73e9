package dev.proofline.groth16.io;

import dev.proofline.algebra.PairingCurve;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a snarkjs Groth16 .zkey (version 1) from its parts: the layout {@link ZkeyFile} reads, in
 * section order 1 to 10. Points are flat affine vectors in the curve's layout (their words are
 * written little-endian, which is snarkjs's Montgomery layout); coefficient records are given ready.
 */
public final class ZkeyWriter {

    /** The parts of a key. Section 10 (contributions) is written empty, with a zero circuit hash. */
    public record Parts(PairingCurve curve, int nVars, int nPublic, int domainSize, long[] alpha1, long[] beta1,
            long[] beta2, long[] gamma2, long[] delta1, long[] delta2, long[] ic, byte[] coefficients,
            int coefficientCount, long[] a, long[] b1, long[] b2, long[] c, long[] h) {
    }

    private ZkeyWriter() {
    }

    public static void write(Path path, Parts k) throws IOException {
        int n8q = k.curve().fp().byteLength();
        try (OutputStream raw = Files.newOutputStream(path);
                OutputStream out = new BufferedOutputStream(raw, 1 << 20)) {
            out.write(new byte[] {'z', 'k', 'e', 'y'});
            u32(out, 1);
            u32(out, 10);
            section(out, 1, 4);
            u32(out, 1);
            long header = 4 + n8q + 4 + 32 + 12 + 3 * 2L * n8q + 3 * 4L * n8q;
            section(out, 2, header);
            u32(out, n8q);
            words(out, k.curve().fp().modulusWords());
            u32(out, 32);
            words(out, k.curve().fr().modulusWords());
            u32(out, k.nVars());
            u32(out, k.nPublic());
            u32(out, k.domainSize());
            for (long[] p : new long[][] {k.alpha1(), k.beta1(), k.beta2(), k.gamma2(), k.delta1(), k.delta2()}) {
                words(out, p);
            }
            points(out, 3, k.ic());
            section(out, 4, 4 + (long) k.coefficients().length);
            u32(out, k.coefficientCount());
            out.write(k.coefficients());
            points(out, 5, k.a());
            points(out, 6, k.b1());
            points(out, 7, k.b2());
            points(out, 8, k.c());
            points(out, 9, k.h());
            section(out, 10, 64 + 4);
            out.write(new byte[64]);
            u32(out, 0);
        }
    }

    private static void section(OutputStream out, int type, long size) throws IOException {
        u32(out, type);
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(size);
        out.write(b.array());
    }

    private static void points(OutputStream out, int type, long[] flat) throws IOException {
        section(out, type, 8L * flat.length);
        words(out, flat);
    }

    private static void u32(OutputStream out, int v) throws IOException {
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
    }

    private static void words(OutputStream out, long[] w) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8 * 4096).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < w.length; i++) {
            if (!b.hasRemaining()) {
                out.write(b.array(), 0, b.position());
                b.clear();
            }
            b.putLong(w[i]);
        }
        out.write(b.array(), 0, b.position());
    }
}
