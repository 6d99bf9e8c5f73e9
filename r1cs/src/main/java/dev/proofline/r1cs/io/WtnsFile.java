package dev.proofline.r1cs.io;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.Witness;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Map;

/**
 * circom's witness file (.wtns, version 2): section 1 (header: u32 n8, the prime r in n8 bytes, u32
 * number of values), section 2 (the values, n8 bytes each, canonical little-endian).
 */
public final class WtnsFile {

    private static final Map<Integer, String> SECTIONS = Map.of(1, "header", 2, "witness values");

    private WtnsFile() {
    }

    /** Reads a witness; the file's prime must be the scalar field of a supported curve. */
    public static Witness read(Path path) {
        try (Arena arena = Arena.ofConfined()) {
            return read(BinFile.open(path, "wtns", 2, SECTIONS, arena));
        }
    }

    /** Reads a witness from bytes (a .wtns file received over the network); {@code name} names it in errors. */
    public static Witness read(byte[] bytes, String name) {
        return read(MemorySegment.ofArray(bytes), name);
    }

    /**
     * As {@link #read(byte[], String)} from a segment, e.g. a view of a received message's buffer, so that
     * a large witness is not copied before its values are.
     */
    public static Witness read(MemorySegment bytes, String name) {
        return read(BinFile.parse(Path.of(name), bytes, "wtns", 2, SECTIONS));
    }

    static Witness read(BinFile file) {
        BinFile.Reader h = file.reader(1);
        int n8 = h.u32("n8 (bytes per value)", 1, 64);
        BigInteger prime = h.integer(n8, "prime");
        int n = h.u32("number of values", 1, Integer.MAX_VALUE / Witness.WORDS);
        PairingCurve curve = PairingCurve.byScalarModulus(prime).orElseThrow(() -> file.error(1,
                "prime " + prime + " is not the scalar field of BN254 (bn128) or BLS12-381 (bls12381)"));
        if (n8 != 32) {
            throw file.error(1, "n8 is " + n8 + ", expected 32 for " + curve.snarkjsName());
        }
        MemorySegment data = file.section(2, (long) n * n8, n + " values of " + n8 + " bytes").data();
        long[] words = new long[n * Witness.WORDS];
        MemorySegment.copy(data, BinFile.U64, 0, words, 0, words.length);
        for (int i = 0; i < n; i++) {
            if (!curve.fr().isCanonical(words, i * Witness.WORDS)) {
                throw file.error(2, "value #" + i + " is not below the prime r");
            }
        }
        return new Witness(curve, words);
    }

    /** The bytes of a .wtns file (version 2) holding this witness. */
    public static byte[] write(Witness w) {
        int n = w.size();
        int n8 = 32;
        long headerSize = 4 + n8 + 4;
        long dataSize = (long) n * n8;
        MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(12 + 12 + headerSize + 12 + dataSize)]);
        long p = 0;
        for (byte b : new byte[] {'w', 't', 'n', 's'}) {
            out.set(ValueLayout.JAVA_BYTE, p++, b);
        }
        out.set(BinFile.U32, 4, 2);
        out.set(BinFile.U32, 8, 2);
        p = 12;
        out.set(BinFile.U32, p, 1);
        out.set(BinFile.U64, p + 4, headerSize);
        p += 12;
        out.set(BinFile.U32, p, n8);
        long[] r = w.curve().fr().modulusWords();
        for (int i = 0; i < 4; i++) {
            out.set(BinFile.U64, p + 4 + 8L * i, r[i]);
        }
        out.set(BinFile.U32, p + 4 + n8, n);
        p += headerSize;
        out.set(BinFile.U32, p, 2);
        out.set(BinFile.U64, p + 4, dataSize);
        p += 12;
        MemorySegment.copy(w.words(), 0, out, BinFile.U64, p, n * Witness.WORDS);
        return out.toArray(ValueLayout.JAVA_BYTE);
    }
}
