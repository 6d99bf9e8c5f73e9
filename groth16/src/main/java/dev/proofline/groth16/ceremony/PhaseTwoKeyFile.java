package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.encoding.PointEncodingException;
import dev.proofline.algebra.encoding.SnarkjsBinaryCodec;
import dev.proofline.r1cs.io.BinFile;
import dev.proofline.r1cs.io.FormatException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A Groth16 .zkey as the phase-2 ceremony reads it, memory-mapped and checked on open: the header
 * (the curve from q and r, nVars, nPublic, a power-of-two domain, the six header points on the
 * curve and in the subgroup), every section's size, and section 10 (the circuit hash and the
 * contributions, their points checked as the header's). The point sections are checked by whoever
 * reads them. The file owns its mapping and unmaps it on {@link #close()}.
 */
final class PhaseTwoKeyFile implements AutoCloseable {

    static final int IC = 3;
    static final int COEFFICIENTS = 4;
    static final int A = 5;
    static final int B1 = 6;
    static final int B2 = 7;
    static final int C = 8;
    static final int H = 9;
    static final int CONTRIBUTIONS = 10;

    /** The sections' names, by type, as errors and logs name them. */
    static final Map<Integer, String> NAMES = Map.ofEntries(Map.entry(1, "header"),
            Map.entry(2, "Groth16 header"), Map.entry(IC, "IC"), Map.entry(COEFFICIENTS, "coefficients"),
            Map.entry(A, "A"), Map.entry(B1, "B1"), Map.entry(B2, "B2"), Map.entry(C, "C"), Map.entry(H, "H"),
            Map.entry(CONTRIBUTIONS, "contributions"));

    private final Arena arena;
    private final BinFile file;
    final PairingCurve curve;
    final int nVars;
    final int nPublic;
    final int domainSize;
    /** alpha1, beta1, beta2, gamma2, delta1, delta2 (affine). */
    final long[][] header;
    final byte[] circuitHash;
    final List<KeyContribution> contributions;

    private PhaseTwoKeyFile(Arena arena, BinFile file, PairingCurve curve, int nVars, int nPublic, int domainSize,
            long[][] header, byte[] circuitHash, List<KeyContribution> contributions) {
        this.arena = arena;
        this.file = file;
        this.curve = curve;
        this.nVars = nVars;
        this.nPublic = nPublic;
        this.domainSize = domainSize;
        this.header = header;
        this.circuitHash = circuitHash;
        this.contributions = contributions;
    }

    static PhaseTwoKeyFile open(Path path) {
        Arena arena = Arena.ofShared();
        try {
            BinFile f = BinFile.open(path, "zkey", 1, NAMES, arena);
            BinFile.Reader h1 = f.reader(1);
            int protocol = h1.u32("protocol");
            if (protocol != 1) {
                throw f.error(1, "protocol is " + protocol + ", this is not a Groth16 key (protocol 1)");
            }
            BinFile.Reader h = f.reader(2);
            int n8q = h.u32("n8q", 1, 64);
            BigInteger q = h.integer(n8q, "q");
            PairingCurve curve = PairingCurve.byBaseModulus(q).orElseThrow(() -> f.error(2,
                    "q = " + q + " is not the base field of BN254 (bn128) or BLS12-381 (bls12381)"));
            if (n8q != curve.fp().byteLength()) {
                throw f.error(2, "n8q is " + n8q + ", " + curve.snarkjsName() + " has " + curve.fp().byteLength());
            }
            int n8r = h.u32("n8r", 32, 32);
            BigInteger r = h.integer(n8r, "r");
            if (!r.equals(curve.fr().modulus())) {
                throw f.error(2, "r = " + r + " is not the scalar field of " + curve.snarkjsName());
            }
            int nVars = h.u32("nVars", 1, Integer.MAX_VALUE / 8);
            int nPublic = h.u32("nPublic", 0, nVars - 1L);
            int domainSize = h.u32("domainSize", 1, 1L << 30);
            if (Integer.bitCount(domainSize) != 1) {
                throw f.error(2, "domainSize " + domainSize + " is not a power of two");
            }
            CurveGroup g1 = curve.g1Group();
            CurveGroup g2 = curve.g2Group();
            String[] names = {"alpha1", "beta1", "beta2", "gamma2", "delta1", "delta2"};
            CurveGroup[] groups = {g1, g1, g2, g2, g1, g2};
            long[][] header = new long[6][];
            for (int i = 0; i < 6; i++) {
                header[i] = point(h, groups[i], names[i]);
            }
            if (h.remaining() != 0) {
                throw f.error(2, h.remaining() + " bytes after delta2");
            }
            long s1 = SnarkjsBinaryCodec.of(g1).pointBytes();
            long s2 = SnarkjsBinaryCodec.of(g2).pointBytes();
            f.section(IC, (nPublic + 1L) * s1, (nPublic + 1) + " G1 points");
            BinFile.Reader cr = f.reader(COEFFICIENTS);
            long nCoef = Integer.toUnsignedLong(cr.u32("number of coefficients"));
            if (cr.remaining() != nCoef * 44) {
                throw f.error(COEFFICIENTS, "is " + (cr.remaining() + 4) + " bytes, " + nCoef + " coefficients need "
                        + (4 + nCoef * 44));
            }
            f.section(A, nVars * s1, nVars + " G1 points");
            f.section(B1, nVars * s1, nVars + " G1 points");
            f.section(B2, nVars * s2, nVars + " G2 points");
            f.section(C, (long) (nVars - nPublic - 1) * s1, (nVars - nPublic - 1) + " G1 points");
            f.section(H, domainSize * s1, domainSize + " G1 points");
            BinFile.Reader c = f.reader(CONTRIBUTIONS);
            byte[] circuitHash = bytes(c, 64, "circuit hash");
            long count = Integer.toUnsignedLong(c.u32("count"));
            long least = 3 * s1 + s2 + 64 + 8;
            if (count > c.remaining() / least) {
                throw f.error(CONTRIBUTIONS, "declares " + count + " contributions, room for at most "
                        + c.remaining() / least);
            }
            List<KeyContribution> cs = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                cs.add(contribution(c, curve, "contribution #" + i + " "));
            }
            if (c.remaining() != 0) {
                throw f.error(CONTRIBUTIONS, c.remaining() + " bytes after contribution #" + count);
            }
            return new PhaseTwoKeyFile(arena, f, curve, nVars, nPublic, domainSize, header, circuitHash,
                    List.copyOf(cs));
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private static KeyContribution contribution(BinFile.Reader r, PairingCurve curve, String at) {
        long[] deltaAfter = point(r, curve.g1Group(), at + "deltaAfter");
        long[] g1s = point(r, curve.g1Group(), at + "g1_s");
        long[] g1sx = point(r, curve.g1Group(), at + "g1_sx");
        long[] g2spx = point(r, curve.g2Group(), at + "g2_spx");
        byte[] transcript = bytes(r, 64, at + "transcript");
        int type = r.u32(at + "type", 0, 1);
        long length = Integer.toUnsignedLong(r.u32(at + "parameter length"));
        if (length > r.remaining()) {
            throw r.error(at + "parameters: " + length + " bytes declared, " + r.remaining() + " left");
        }
        byte[] p = bytes(r, (int) length, at + "parameters");
        String name = null;
        int exp = 0;
        byte[] beacon = null;
        int last = 0;
        int i = 0;
        try {
            while (i < p.length) {
                int kind = p[i++] & 0xff;
                if (kind <= last) {
                    throw r.error(at + "parameters are not sorted (" + kind + " after " + last + ")");
                }
                last = kind;
                switch (kind) {
                    case 1 -> {
                        int len = p[i++] & 0xff;
                        name = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                                .decode(ByteBuffer.wrap(Arrays.copyOfRange(p, i, checked(p, i + len)))).toString();
                        i += len;
                    }
                    case 2 -> exp = p[i++] & 0xff;
                    case 3 -> {
                        int len = p[i++] & 0xff;
                        beacon = Arrays.copyOfRange(p, i, checked(p, i + len));
                        i += len;
                    }
                    default -> throw r.error(at + "unknown parameter " + kind);
                }
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            throw r.error(at + "parameters: truncated");
        } catch (CharacterCodingException e) {
            throw r.error(at + "name is not UTF-8");
        }
        if (type == KeyContribution.BEACON && (beacon == null || exp < 10 || exp > 63)) {
            throw r.error(at + "a beacon without a beacon hash or with an iteration exponent outside 10..63");
        }
        return new KeyContribution(deltaAfter, g1s, g1sx, g2spx, transcript, type, name, exp, beacon);
    }

    private static int checked(byte[] p, int end) {
        if (end > p.length) {
            throw new ArrayIndexOutOfBoundsException(end);
        }
        return end;
    }

    private static byte[] bytes(BinFile.Reader r, int n, String field) {
        long off = r.skip(n, field);
        return r.data().asSlice(off, n).toArray(ValueLayout.JAVA_BYTE);
    }

    private static long[] point(BinFile.Reader r, CurveGroup g, String field) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        long off = r.skip(codec.pointBytes(), field);
        try {
            return codec.decode(r.data(), off);
        } catch (PointEncodingException e) {
            throw r.error(field + ": " + e.getMessage());
        }
    }

    Path path() {
        return file.path();
    }

    MemorySegment section(int type) {
        return file.section(type).data();
    }

    /** Where a section's bytes start in the file. */
    long offset(int type) {
        return file.section(type).offset();
    }

    FormatException error(int type, String problem) {
        return file.error(type, problem);
    }

    @Override
    public void close() {
        arena.close();
    }
}
