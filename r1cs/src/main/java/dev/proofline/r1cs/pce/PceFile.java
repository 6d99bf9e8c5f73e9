package dev.proofline.r1cs.pce;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.BinFile;
import dev.proofline.r1cs.io.InputFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A PCE on disk, so that a circuit's matrices are extracted once. Layout (little-endian):
 * <pre>
 *   magic "PLNPCE\r\n" (8 bytes), u32 version (1), u32 curve (1 BN254, 2 BLS12-381),
 *   circuit digest (32 bytes, chosen by the caller: what identifies the circuit and its parameters),
 *   u32 wires, u32 public outputs, u32 public inputs, u32 private inputs, u32 constraints,
 *   u64 terms of A, B, C,
 *   for A, B, C: row starts (constraints + 1 u32), columns (terms u32), coefficients (terms x 4 u64,
 *   Montgomery form),
 *   SHA-256 of everything before (32 bytes).
 * </pre>
 * The file is memory-mapped and checked (size, checksum, digest, curve, every index) before use.
 */
public final class PceFile {

    private static final byte[] MAGIC = {'P', 'L', 'N', 'P', 'C', 'E', '\r', '\n'};
    private static final int VERSION = 1;
    private static final int HEADER = 8 + 4 + 4 + 32 + 5 * 4 + 3 * 8;

    private PceFile() {
    }

    /** Writes {@code r1cs} with its digest to {@code path} (through a temporary file, then a rename). */
    public static void write(Path path, R1cs r1cs, byte[] digest) throws IOException {
        if (digest.length != 32) {
            throw new IllegalArgumentException("digest must be 32 bytes");
        }
        R1cs.Matrix[] ms = {r1cs.a(), r1cs.b(), r1cs.c()};
        long size = HEADER;
        for (R1cs.Matrix m : ms) {
            size += 4L * (r1cs.constraintCount() + 1) + 4L * m.terms() + 32L * m.terms();
        }
        size += 32;
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (Arena arena = Arena.ofConfined();
                FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment s = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            MemorySegment.copy(MAGIC, 0, s, ValueLayout.JAVA_BYTE, 0, 8);
            s.set(BinFile.U32, 8, VERSION);
            s.set(BinFile.U32, 12, curveId(r1cs.curve()));
            MemorySegment.copy(digest, 0, s, ValueLayout.JAVA_BYTE, 16, 32);
            long p = 48;
            for (int v : new int[] {r1cs.wireCount(), r1cs.publicOutputCount(), r1cs.publicInputCount(),
                r1cs.privateInputCount(), r1cs.constraintCount()}) {
                s.set(BinFile.U32, p, v);
                p += 4;
            }
            for (R1cs.Matrix m : ms) {
                s.set(BinFile.U64, p, m.terms());
                p += 8;
            }
            for (R1cs.Matrix m : ms) {
                MemorySegment.copy(m.rowStart(), 0, s, BinFile.U32, p, m.rowStart().length);
                p += 4L * m.rowStart().length;
                MemorySegment.copy(m.columns(), 0, s, BinFile.U32, p, m.terms());
                p += 4L * m.terms();
                MemorySegment.copy(m.coefficients(), 0, s, BinFile.U64, p, m.coefficients().length);
                p += 8L * m.coefficients().length;
            }
            byte[] sum = sha256(s.asSlice(0, p));
            MemorySegment.copy(sum, 0, s, ValueLayout.JAVA_BYTE, p, 32);
            s.force();
        }
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Reads a PCE, rejecting (with a {@link FormatException} naming the file and the problem) a file
     * that is truncated or corrupt (checksum), of another version, or for another curve or circuit
     * (digest) than expected.
     */
    public static Pce read(Path path, PairingCurve curve, byte[] digest) {
        InputFiles.requireRegularFile(path);
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            return read(path, ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena), curve, digest);
        } catch (NoSuchFileException e) {
            throw new FormatException(path, null, "no such file");
        } catch (IOException e) {
            throw new FormatException(path, null, "cannot read: " + e.getMessage(), e);
        }
    }

    /** As {@link #read(Path, PairingCurve, byte[])}, from the bytes of a PCE file ({@code name} names it in errors). */
    public static Pce read(byte[] bytes, String name, PairingCurve curve, byte[] digest) {
        return read(Path.of(name), MemorySegment.ofArray(bytes), curve, digest);
    }

    private static Pce read(Path path, MemorySegment s, PairingCurve curve, byte[] digest) {
        long size = s.byteSize();
        if (size < HEADER + 32) {
            throw new FormatException(path, "header", "truncated: " + size + " bytes");
        }
        byte[] magic = s.asSlice(0, 8).toArray(ValueLayout.JAVA_BYTE);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new FormatException(path, "header", "not a PCE file");
        }
        int version = s.get(BinFile.U32, 8);
        if (version != VERSION) {
            throw new FormatException(path, "header", "unsupported PCE version " + version + " (supported: 1)");
        }
        // the sizes the header declares must add up to the file's length before anything else is
        // read: the checksum would otherwise read a file of any length to the end
        long p = 48;
        int[] h = new int[5];
        for (int i = 0; i < 5; i++) {
            h[i] = s.get(BinFile.U32, p);
            p += 4;
        }
        long[] terms = new long[3];
        for (int k = 0; k < 3; k++) {
            terms[k] = s.get(BinFile.U64, p);
            p += 8;
        }
        int wires = h[0];
        int rows = h[4];
        if (rows < 0 || rows == Integer.MAX_VALUE || wires < 1) {
            throw new FormatException(path, "sizes", "wires " + Integer.toUnsignedString(wires) + " and constraints "
                    + Integer.toUnsignedString(rows) + " out of range");
        }
        if (h[1] < 0 || h[2] < 0 || h[3] < 0 || (long) h[1] + h[2] + h[3] >= wires) {
            throw new FormatException(path, "sizes", "public outputs, public inputs and private inputs ("
                    + Integer.toUnsignedString(h[1]) + ", " + Integer.toUnsignedString(h[2]) + ", "
                    + Integer.toUnsignedString(h[3]) + ") do not fit in " + wires + " wires");
        }
        long need = p + 32;
        for (long t : terms) {
            if (t < 0 || t > Integer.MAX_VALUE / 4) {
                throw new FormatException(path, "sizes", "term count " + Long.toUnsignedString(t) + " out of range");
            }
            need += 4L * (rows + 1) + 36L * t;
        }
        if (need != size) {
            throw new FormatException(path, "sizes", "the header's sizes need " + need + " bytes, the file has " + size);
        }
        byte[] stored = s.asSlice(size - 32, 32).toArray(ValueLayout.JAVA_BYTE);
        if (!MessageDigest.isEqual(stored, sha256(s.asSlice(0, size - 32)))) {
            throw new FormatException(path, "checksum", "does not match the contents: the file is corrupt");
        }
        int cid = s.get(BinFile.U32, 12);
        if (cid != curveId(curve)) {
            throw new FormatException(path, "curve", "the file is for " + (cid == 1 ? "bn128" : cid == 2 ? "bls12381"
                    : "curve #" + Integer.toUnsignedString(cid)) + ", expected " + curve.snarkjsName());
        }
        byte[] d = s.asSlice(16, 32).toArray(ValueLayout.JAVA_BYTE);
        if (digest != null && !MessageDigest.isEqual(d, digest)) {
            throw new FormatException(path, "circuit digest", HexFormat.of().formatHex(d)
                    + " is not the expected circuit's " + HexFormat.of().formatHex(digest));
        }
        R1cs.Matrix[] ms = new R1cs.Matrix[3];
        String[] names = {"A", "B", "C"};
        for (int k = 0; k < 3; k++) {
            int t = (int) terms[k];
            int[] rs = new int[rows + 1];
            MemorySegment.copy(s, BinFile.U32, p, rs, 0, rows + 1);
            p += 4L * (rows + 1);
            int[] cols = new int[t];
            MemorySegment.copy(s, BinFile.U32, p, cols, 0, t);
            p += 4L * t;
            long[] coefs = new long[t * 4];
            MemorySegment.copy(s, BinFile.U64, p, coefs, 0, t * 4);
            p += 32L * t;
            check(path, names[k], rs, cols, coefs, t, wires, curve);
            ms[k] = new R1cs.Matrix(rs, cols, coefs);
        }
        return new Pce(new R1cs(curve, wires, h[1], h[2], h[3], wires, ms[0], ms[1], ms[2]));
    }

    private static void check(Path path, String name, int[] rs, int[] cols, long[] coefs, int terms, int wires,
            PairingCurve curve) {
        if (rs[0] != 0 || rs[rs.length - 1] != terms) {
            throw new FormatException(path, "matrix " + name, "row starts do not span the terms");
        }
        for (int i = 1; i < rs.length; i++) {
            if (rs[i] < rs[i - 1]) {
                throw new FormatException(path, "matrix " + name, "row starts decrease at row " + i);
            }
        }
        for (int e = 0; e < terms; e++) {
            if (cols[e] < 0 || cols[e] >= wires) {
                throw new FormatException(path, "matrix " + name, "term #" + e + " names wire " + cols[e]
                        + ", not below " + wires);
            }
            if (!curve.fr().isCanonical(coefs, e * 4)) {
                throw new FormatException(path, "matrix " + name, "term #" + e + ": coefficient not below r");
            }
        }
    }

    /**
     * The PCE from {@code path} when it holds this circuit; otherwise (missing, corrupt, another
     * circuit or version) {@code reason} hears why, the matrices are extracted again and the file is
     * rewritten.
     */
    public static Pce loadOrExtract(Path path, PairingCurve curve, byte[] digest, Supplier<R1cs> extract,
            Consumer<String> reason) throws IOException {
        try {
            return read(path, curve, digest);
        } catch (FormatException e) {
            reason.accept(e.getMessage() + "; extracting the constraint system again");
        }
        R1cs r1cs = extract.get();
        write(path, r1cs, digest);
        return new Pce(r1cs);
    }

    private static int curveId(PairingCurve c) {
        return c == PairingCurve.BN254 ? 1 : 2;
    }

    private static byte[] sha256(MemorySegment s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(s.asByteBuffer());
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
