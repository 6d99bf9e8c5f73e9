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
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A powers-of-tau file (.ptau, version 1) as snarkjs writes it, memory-mapped and checked on open:
 * the header (the base field's size and modulus, which name the curve; the power; the ceremony's
 * power), every point section's size against the power, and every contribution record (its points
 * on the curve and in the subgroup, its parameters well formed). The points of the big sections are
 * checked by whoever reads them ({@link PtauVerifier}). Sections:
 * <pre>
 *  1 header        u32 n8, q (n8 bytes), u32 power, u32 ceremony power
 *  2 tauG1         tau^i G1,        i < 2^(power+1) - 1
 *  3 tauG2         tau^i G2,        i < 2^power
 *  4 alphaTauG1    alpha tau^i G1,  i < 2^power
 *  5 betaTauG1     beta tau^i G1,   i < 2^power
 *  6 betaG2        beta G2
 *  7 contributions u32 count, then the records ({@link Contribution})
 * 12-15            after prepare phase2: sections 2-5 in the Lagrange basis of every domain
 *                  2^0 .. 2^power (and 2^(power+1) for section 12), one after another
 * </pre>
 * The file owns its mapping and unmaps it on {@link #close()}.
 */
public final class PtauFile implements AutoCloseable {

    static final int HEADER = 1;
    static final int TAU_G1 = 2;
    static final int TAU_G2 = 3;
    static final int ALPHA_TAU_G1 = 4;
    static final int BETA_TAU_G1 = 5;
    static final int BETA_G2 = 6;
    static final int CONTRIBUTIONS = 7;
    static final int LAGRANGE_TAU_G1 = 12;
    static final int LAGRANGE_TAU_G2 = 13;
    static final int LAGRANGE_ALPHA_TAU_G1 = 14;
    static final int LAGRANGE_BETA_TAU_G1 = 15;

    static final Map<Integer, String> NAMES = Map.ofEntries(Map.entry(HEADER, "header"), Map.entry(TAU_G1, "tauG1"),
            Map.entry(TAU_G2, "tauG2"), Map.entry(ALPHA_TAU_G1, "alphaTauG1"), Map.entry(BETA_TAU_G1, "betaTauG1"),
            Map.entry(BETA_G2, "betaG2"), Map.entry(CONTRIBUTIONS, "contributions"),
            Map.entry(LAGRANGE_TAU_G1, "lagrange tauG1"), Map.entry(LAGRANGE_TAU_G2, "lagrange tauG2"),
            Map.entry(LAGRANGE_ALPHA_TAU_G1, "lagrange alphaTauG1"),
            Map.entry(LAGRANGE_BETA_TAU_G1, "lagrange betaTauG1"));

    private final Arena arena;
    private final BinFile file;
    private final PairingCurve curve;
    private final int power;
    private final int ceremonyPower;
    private final List<Contribution> contributions;
    private final boolean phase2;

    private PtauFile(Arena arena, BinFile file, PairingCurve curve, int power, int ceremonyPower,
            List<Contribution> contributions, boolean phase2) {
        this.arena = arena;
        this.file = file;
        this.curve = curve;
        this.power = power;
        this.ceremonyPower = ceremonyPower;
        this.contributions = contributions;
        this.phase2 = phase2;
    }

    public static PtauFile open(Path path) {
        Arena arena = Arena.ofShared();
        try {
            BinFile f = BinFile.open(path, "ptau", 1, NAMES, arena);
            BinFile.Reader h = f.reader(HEADER);
            int n8 = h.u32("n8", 1, 1024);
            BigInteger q = h.integer(n8, "q");
            PairingCurve curve = PairingCurve.byBaseModulus(q).orElseThrow(() -> f.error(HEADER,
                    "q = " + q + " is not the base field of BN254 (bn128) or BLS12-381 (bls12381)"));
            if (n8 != curve.fp().byteLength()) {
                throw f.error(HEADER, "n8 is " + n8 + ", " + curve.snarkjsName() + " has " + curve.fp().byteLength());
            }
            int maxPower = curve.fr().twoAdicity() - 1;
            int power = h.u32("power", 1, maxPower);
            int ceremonyPower = h.u32("ceremony power", power, maxPower);
            if (h.remaining() != 0) {
                throw f.error(HEADER, h.remaining() + " bytes after the ceremony power");
            }
            long g1 = 2L * n8;
            long g2 = 4L * n8;
            long n = 1L << power;
            f.section(TAU_G1, (2 * n - 1) * g1, (2 * n - 1) + " G1 points for power " + power);
            f.section(TAU_G2, n * g2, n + " G2 points for power " + power);
            f.section(ALPHA_TAU_G1, n * g1, n + " G1 points for power " + power);
            f.section(BETA_TAU_G1, n * g1, n + " G1 points for power " + power);
            f.section(BETA_G2, g2, "one G2 point");
            List<Contribution> cs = contributions(f, curve);
            boolean phase2 = false;
            int[] lagrange = {LAGRANGE_TAU_G1, LAGRANGE_TAU_G2, LAGRANGE_ALPHA_TAU_G1, LAGRANGE_BETA_TAU_G1};
            for (int type : lagrange) {
                phase2 |= f.has(type);
            }
            if (phase2) {
                f.section(LAGRANGE_TAU_G1, (4 * n - 1) * g1, (4 * n - 1) + " G1 points for power " + power);
                f.section(LAGRANGE_TAU_G2, (2 * n - 1) * g2, (2 * n - 1) + " G2 points for power " + power);
                f.section(LAGRANGE_ALPHA_TAU_G1, (2 * n - 1) * g1, (2 * n - 1) + " G1 points for power " + power);
                f.section(LAGRANGE_BETA_TAU_G1, (2 * n - 1) * g1, (2 * n - 1) + " G1 points for power " + power);
            }
            return new PtauFile(arena, f, curve, power, ceremonyPower, List.copyOf(cs), phase2);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private static List<Contribution> contributions(BinFile f, PairingCurve curve) {
        BinFile.Reader r = f.reader(CONTRIBUTIONS);
        long count = Integer.toUnsignedLong(r.u32("count"));
        int g1 = 2 * curve.fp().byteLength();
        // 3 G1 and 2 G2 points, the key's 6 G1 and 3 G2 points, the hash state, the challenge, 2 u32s
        int record = 19 * g1 + Blake2b.STATE_BYTES + 64 + 8;
        if (count > r.remaining() / record) {
            throw f.error(CONTRIBUTIONS, "declares " + count + " contributions, room for at most "
                    + r.remaining() / record);
        }
        List<Contribution> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(contribution(f, r, curve, i + 1));
        }
        if (r.remaining() != 0) {
            throw f.error(CONTRIBUTIONS, r.remaining() + " bytes after contribution #" + count);
        }
        return out;
    }

    private static Contribution contribution(BinFile f, BinFile.Reader r, PairingCurve curve, int id) {
        String at = "contribution #" + id + " ";
        long[] tauG1 = point(f, r, curve.g1Group(), at + "tauG1");
        long[] tauG2 = point(f, r, curve.g2Group(), at + "tauG2");
        long[] alphaG1 = point(f, r, curve.g1Group(), at + "alphaG1");
        long[] betaG1 = point(f, r, curve.g1Group(), at + "betaG1");
        long[] betaG2 = point(f, r, curve.g2Group(), at + "betaG2");
        long[][] g1s = new long[3][];
        long[][] g1sx = new long[3][];
        long[][] g2spx = new long[3][];
        String[] secret = {"tau", "alpha", "beta"};
        for (int k = 0; k < 3; k++) {
            g1s[k] = point(f, r, curve.g1Group(), at + "key " + secret[k] + " g1_s");
            g1sx[k] = point(f, r, curve.g1Group(), at + "key " + secret[k] + " g1_sx");
        }
        for (int k = 0; k < 3; k++) {
            g2spx[k] = point(f, r, curve.g2Group(), at + "key " + secret[k] + " g2_spx");
        }
        byte[] partial = bytes(r, Blake2b.STATE_BYTES, at + "partial hash");
        byte[] next = bytes(r, 64, at + "next challenge");
        int type = r.u32(at + "type", 0, 1);
        long paramLength = Integer.toUnsignedLong(r.u32(at + "parameter length"));
        if (paramLength > r.remaining()) {
            throw r.error(at + "parameters: " + paramLength + " bytes declared, " + r.remaining() + " left");
        }
        byte[] params = bytes(r, (int) paramLength, at + "parameters");
        String name = null;
        int exp = 0;
        byte[] beacon = null;
        int last = 0;
        int p = 0;
        try {
            while (p < params.length) {
                int kind = params[p++] & 0xff;
                if (kind <= last) {
                    throw r.error(at + "parameters are not sorted (" + kind + " after " + last + ")");
                }
                last = kind;
                switch (kind) {
                    case 1 -> {
                        int len = params[p++] & 0xff;
                        name = utf8(r, at, params, p, len);
                        p += len;
                    }
                    case 2 -> exp = params[p++] & 0xff;
                    case 3 -> {
                        int len = params[p++] & 0xff;
                        beacon = java.util.Arrays.copyOfRange(params, p, p + len);
                        if (p + len > params.length) {
                            throw new ArrayIndexOutOfBoundsException();
                        }
                        p += len;
                    }
                    default -> throw r.error(at + "unknown parameter " + kind);
                }
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            throw r.error(at + "parameters: truncated");
        }
        if (type == Contribution.BEACON && (beacon == null || exp < 10 || exp > 63)) {
            throw r.error(at + "a beacon without a beacon hash or with an iteration exponent outside 10..63");
        }
        return new Contribution(tauG1, tauG2, alphaG1, betaG1, betaG2, new Contribution.PublicKey(g1s, g1sx, g2spx),
                partial, next, type, name, exp, beacon);
    }

    private static String utf8(BinFile.Reader r, String at, byte[] b, int off, int len) {
        if (off + len > b.length) {
            throw new ArrayIndexOutOfBoundsException();
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, off, len)).toString();
        } catch (CharacterCodingException e) {
            throw r.error(at + "name is not UTF-8");
        }
    }

    private static byte[] bytes(BinFile.Reader r, int n, String field) {
        long off = r.skip(n, field);
        return r.data().asSlice(off, n).toArray(ValueLayout.JAVA_BYTE);
    }

    private static long[] point(BinFile f, BinFile.Reader r, CurveGroup g, String field) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        long off = r.skip(codec.pointBytes(), field);
        try {
            return codec.decode(r.data(), off);
        } catch (PointEncodingException e) {
            throw r.error(field + ": " + e.getMessage());
        }
    }

    public Path path() {
        return file.path();
    }

    public PairingCurve curve() {
        return curve;
    }

    public int power() {
        return power;
    }

    public int ceremonyPower() {
        return ceremonyPower;
    }

    public List<Contribution> contributions() {
        return contributions;
    }

    /** Whether the Lagrange sections (12-15) of prepare phase2 are present. */
    public boolean hasPhase2() {
        return phase2;
    }

    /** A section's bytes (sizes were checked on open). */
    MemorySegment section(int type) {
        return file.section(type).data();
    }

    BinFile binFile() {
        return file;
    }

    FormatException error(int type, String problem) {
        return file.error(type, problem);
    }

    @Override
    public void close() {
        arena.close();
    }
}
