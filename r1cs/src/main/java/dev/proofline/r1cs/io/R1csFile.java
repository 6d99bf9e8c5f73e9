package dev.proofline.r1cs.io;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.R1cs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * circom's constraint-system file (.r1cs, version 1), memory-mapped while read. Section 1 (header):
 * u32 n8, the prime r (n8 bytes), u32 nWires, u32 nPubOut, u32 nPubIn, u32 nPrvIn, u64 nLabels,
 * u32 nConstraints. Section 2 (constraints): for each constraint the linear combinations A, B, C,
 * each a u32 term count then (u32 wire, coefficient in n8 canonical little-endian bytes) per term.
 * Section 3 (wire to label map) and the custom-gate sections are not needed and not read.
 */
public final class R1csFile {

    private static final Map<Integer, String> SECTIONS = Map.of(1, "header", 2, "constraints", 3, "wire to label map",
            4, "custom gates list", 5, "custom gates applications");

    private R1csFile() {
    }

    public static R1cs read(Path path) {
        try (Arena arena = Arena.ofConfined()) {
            return read(BinFile.open(path, "r1cs", 1, SECTIONS, arena));
        }
    }

    /**
     * The bytes of a .r1cs file (version 1) for {@code cs}: header, constraints (coefficients canonical),
     * and the identity wire-to-label map, so that circom's and snarkjs's tools read it.
     */
    public static byte[] write(R1cs cs) {
        PrimeField fr = cs.curve().fr();
        R1cs.Matrix[] ms = {cs.a(), cs.b(), cs.c()};
        long constraintBytes = 0;
        for (R1cs.Matrix m : ms) {
            constraintBytes += 4L * cs.constraintCount() + 36L * m.terms();
        }
        long headerBytes = 4 + 32 + 4 * 4 + 8 + 4;
        long mapBytes = 8L * cs.wireCount();
        long total = 12 + 12 + headerBytes + 12 + constraintBytes + 12 + mapBytes;
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(Math.toIntExact(total)).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {'r', '1', 'c', 's'}).putInt(1).putInt(3);
        b.putInt(1).putLong(headerBytes);
        b.putInt(32);
        for (long w : fr.modulusWords()) {
            b.putLong(w);
        }
        b.putInt(cs.wireCount()).putInt(cs.publicOutputCount()).putInt(cs.publicInputCount())
                .putInt(cs.privateInputCount()).putLong(cs.labelCount()).putInt(cs.constraintCount());
        b.putInt(2).putLong(constraintBytes);
        long[] c = new long[4];
        for (int row = 0; row < cs.constraintCount(); row++) {
            for (R1cs.Matrix m : ms) {
                int from = m.rowStart()[row];
                int to = m.rowStart()[row + 1];
                b.putInt(to - from);
                for (int e = from; e < to; e++) {
                    b.putInt(m.columns()[e]);
                    fr.fromMontgomery(m.coefficients(), e * 4, c, 0);
                    for (long w : c) {
                        b.putLong(w);
                    }
                }
            }
        }
        b.putInt(3).putLong(mapBytes);
        for (int i = 0; i < cs.wireCount(); i++) {
            b.putLong(i);
        }
        return b.array();
    }

    /** Reads a constraint system from bytes; {@code name} names it in errors. */
    public static R1cs read(byte[] bytes, String name) {
        return read(BinFile.parse(Path.of(name), MemorySegment.ofArray(bytes), "r1cs", 1, SECTIONS));
    }

    static R1cs read(BinFile f) {
        BinFile.Reader h = f.reader(1);
        int n8 = h.u32("n8 (bytes per coefficient)", 1, 64);
        BigInteger prime = h.integer(n8, "prime");
        PairingCurve curve = PairingCurve.byScalarModulus(prime).orElseThrow(() -> f.error(1,
                "prime " + prime + " is not the scalar field of BN254 (bn128) or BLS12-381 (bls12381)"));
        if (n8 != 32) {
            throw f.error(1, "n8 is " + n8 + ", expected 32 for " + curve.snarkjsName());
        }
        int nWires = h.u32("nWires", 1, Integer.MAX_VALUE / 4);
        int nPubOut = h.u32("nPubOut", 0, nWires - 1L);
        int nPubIn = h.u32("nPubIn", 0, nWires - 1L - nPubOut);
        int nPrvIn = h.u32("nPrvIn", 0, nWires - 1L - nPubOut - nPubIn);
        long nLabels = h.u64("nLabels");
        int nConstraints = h.u32("nConstraints", 0, Integer.MAX_VALUE - 1);
        if (h.remaining() != 0) {
            throw f.error(1, h.remaining() + " bytes after nConstraints, the header should end there");
        }
        // nWires is what every later stage allocates by (a key has points per wire): where the
        // wire-to-label map is present, its one u64 per wire must be there
        if (f.has(3) && f.section(3).data().byteSize() != 8L * nWires) {
            throw f.error(3, "is " + f.section(3).data().byteSize() + " bytes, expected " + 8L * nWires
                    + " (a label for each of nWires " + nWires + ")");
        }
        if (f.has(4) || f.has(5)) {
            throw f.error(4, "custom gates (PLONK) are not supported by Groth16");
        }
        BinFile.Reader r = f.reader(2);
        // each constraint holds at least its three term counts: the count is checked against the
        // section before anything is allocated for it
        if (nConstraints > r.remaining() / 12) {
            throw r.error("nConstraints " + nConstraints + " needs at least " + 12L * nConstraints
                    + " bytes, the section has " + r.remaining());
        }
        PrimeField fr = curve.fr();
        Builder[] m = {new Builder(nConstraints), new Builder(nConstraints), new Builder(nConstraints)};
        String[] names = {"A", "B", "C"};
        long[] v = new long[4];
        for (int row = 0; row < nConstraints; row++) {
            for (int k = 0; k < 3; k++) {
                String where = "constraint #" + row + " " + names[k];
                int terms = r.u32(where + ": term count", 0, nWires);
                m[k].startRow(row);
                for (int t = 0; t < terms; t++) {
                    int wire = r.u32(where + " term #" + t + ": wire");
                    if (wire < 0 || wire >= nWires) {
                        throw r.error(where + " term #" + t + ": wire " + Integer.toUnsignedString(wire)
                                + " is not below nWires " + nWires);
                    }
                    long at = r.skip(n8, where + " term #" + t + ": coefficient");
                    MemorySegment.copy(r.data(), BinFile.U64, at, v, 0, 4);
                    if (!fr.isCanonical(v, 0)) {
                        throw r.error(where + " term #" + t + ": coefficient is not below the prime");
                    }
                    m[k].add(wire, v, fr);
                }
            }
        }
        if (r.remaining() != 0) {
            throw r.error(r.remaining() + " bytes after the last of " + nConstraints + " constraints");
        }
        return new R1cs(curve, nWires, nPubOut, nPubIn, nPrvIn, nLabels, m[0].build(nConstraints),
                m[1].build(nConstraints), m[2].build(nConstraints));
    }

    /** Accumulates one matrix's rows in order. */
    private static final class Builder {
        private final int[] rowStart;
        private int[] cols = new int[16];
        private long[] coefs = new long[64];
        private int n;

        Builder(int rows) {
            rowStart = new int[rows + 1];
        }

        void startRow(int row) {
            rowStart[row] = n;
        }

        void add(int wire, long[] canonical, PrimeField fr) {
            if (n == cols.length) {
                cols = Arrays.copyOf(cols, Math.multiplyExact(n, 2));
                coefs = Arrays.copyOf(coefs, Math.multiplyExact(n, 8));
            }
            cols[n] = wire;
            fr.toMontgomery(canonical, 0, coefs, n * 4);
            n++;
        }

        R1cs.Matrix build(int rows) {
            rowStart[rows] = n;
            return new R1cs.Matrix(rowStart, Arrays.copyOf(cols, n), Arrays.copyOf(coefs, n * 4));
        }
    }
}
