package dev.proofline.groth16.io;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.encoding.PointEncodingException;
import dev.proofline.algebra.encoding.SnarkjsBinaryCodec;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.io.BinFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Map;

/**
 * snarkjs's Groth16 proving key (.zkey, version 1), memory-mapped. Sections: 1 header (u32 protocol,
 * 1 = Groth16), 2 Groth16 header (u32 n8q, q, u32 n8r, r, u32 nVars, u32 nPublic, u32 domainSize,
 * alpha1, beta1, beta2, gamma2, delta1, delta2), 3 IC (nPublic + 1 G1), 4 coefficients (u32 count,
 * then records), 5 A (nVars G1), 6 B1 (nVars G1), 7 B2 (nVars G2), 8 C (nVars - nPublic - 1 G1),
 * 9 H (domainSize G1); 10 (contributions) and any others are skipped. Points are affine, each
 * coordinate little-endian in Montgomery form, (0, 0) for infinity.
 */
public final class ZkeyFile {

    private static final Map<Integer, String> SECTIONS = Map.ofEntries(Map.entry(1, "header"),
            Map.entry(2, "Groth16 header"), Map.entry(3, "IC"), Map.entry(4, "coefficients"), Map.entry(5, "A"),
            Map.entry(6, "B1"), Map.entry(7, "B2"), Map.entry(8, "C"), Map.entry(9, "H"),
            Map.entry(10, "contributions"));

    /** How much of the large point sections is checked when a key is opened. */
    public enum PointCheck {
        /**
         * Every point is checked to be on its curve, with canonical coordinates (a few seconds for a
         * key of a million points, in parallel). Subgroup membership is checked only for the single
         * points of the header: a point outside the subgroup in a vector would give a proof that
         * fails its verification, which the prover performs before returning any proof.
         */
        ON_CURVE,
        /** The vectors are not checked (a key already checked, e.g. by an earlier open of the same file). */
        NONE
    }

    private ZkeyFile() {
    }

    /** Opens and checks a key (points on the curve). */
    public static ProvingKey open(Path path) {
        return open(path, PointCheck.ON_CURVE);
    }

    public static ProvingKey open(Path path, PointCheck check) {
        Arena arena = Arena.ofShared();
        try {
            return read(BinFile.open(path, "zkey", 1, SECTIONS, arena), arena, check);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Reads a key from bytes ({@code name} names it in errors); the key holds {@code bytes}, which must
     * not change while it is used.
     */
    public static ProvingKey read(byte[] bytes, String name, PointCheck check) {
        Arena arena = Arena.ofConfined();
        try {
            return read(BinFile.parse(Path.of(name), MemorySegment.ofArray(bytes), "zkey", 1, SECTIONS), arena, check);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    private static ProvingKey read(BinFile f, Arena arena, PointCheck check) {
        BinFile.Reader h1 = f.reader(1);
        int protocol = h1.u32("protocol");
        if (protocol != 1) {
            String name = switch (protocol) {
                case 2 -> " (PLONK)";
                case 10 -> " (FFLONK)";
                default -> "";
            };
            throw f.error(1, "protocol is " + protocol + name + ", this is not a Groth16 key (protocol 1)");
        }
        BinFile.Reader h = f.reader(2);
        int n8q = h.u32("n8q (bytes per base field element)", 1, 64);
        BigInteger q = h.integer(n8q, "q (base field prime)");
        PairingCurve curve = PairingCurve.byBaseModulus(q).orElseThrow(() -> f.error(2,
                "q = " + q + " is not the base field of BN254 (bn128) or BLS12-381 (bls12381)"));
        if (n8q != curve.fp().byteLength()) {
            throw f.error(2, "n8q is " + n8q + ", expected " + curve.fp().byteLength() + " for " + curve.snarkjsName());
        }
        int n8r = h.u32("n8r (bytes per scalar)", 1, 64);
        BigInteger r = h.integer(n8r, "r (scalar field prime)");
        if (!r.equals(curve.fr().modulus())) {
            throw f.error(2, "r = " + r + " is not the scalar field of " + curve.snarkjsName());
        }
        if (n8r != 32) {
            throw f.error(2, "n8r is " + n8r + ", expected 32");
        }
        int nVars = h.u32("nVars", 1, Integer.MAX_VALUE / 8);
        int nPublic = h.u32("nPublic", 0, nVars - 1L);
        int domainSize = h.u32("domainSize", 1, 1L << curve.fr().twoAdicity());
        if (Integer.bitCount(domainSize) != 1) {
            throw f.error(2, "domainSize " + domainSize + " is not a power of two");
        }
        int log = Integer.numberOfTrailingZeros(domainSize);
        if (log >= 31) {
            throw f.error(2, "domainSize 2^" + log + " is larger than this prover supports (2^30)");
        }
        CurveGroup g1 = curve.g1Group();
        CurveGroup g2 = curve.g2Group();
        long[] alpha1 = point(f, 2, h, g1, "alpha1");
        long[] beta1 = point(f, 2, h, g1, "beta1");
        long[] beta2 = point(f, 2, h, g2, "beta2");
        long[] gamma2 = point(f, 2, h, g2, "gamma2");
        long[] delta1 = point(f, 2, h, g1, "delta1");
        long[] delta2 = point(f, 2, h, g2, "delta2");
        if (h.remaining() != 0) {
            throw f.error(2, h.remaining() + " bytes after delta2, the section should end there");
        }
        int g1b = SnarkjsBinaryCodec.of(g1).pointBytes();
        int g2b = SnarkjsBinaryCodec.of(g2).pointBytes();

        MemorySegment icSeg = f.section(3, (long) (nPublic + 1) * g1b, (nPublic + 1) + " G1 points").data();
        long[] ic;
        try {
            ic = SnarkjsBinaryCodec.of(g1).decodeAll(icSeg, 0, nPublic + 1);
        } catch (PointEncodingException e) {
            throw f.error(3, e.getMessage());
        }

        // coefficients
        BinFile.Reader cr = f.reader(4);
        int nCoef = cr.u32("number of coefficients", 0, Integer.MAX_VALUE);
        long expected = 4 + (long) nCoef * ProvingKey.COEFFICIENT_BYTES;
        if (cr.data().byteSize() != expected) {
            throw f.error(4, "is " + cr.data().byteSize() + " bytes, expected " + expected + " for " + nCoef
                    + " coefficients");
        }
        MemorySegment coefs = cr.data().asSlice(4);
        boolean ordered = checkCoefficients(f, coefs, nCoef, domainSize, nVars, curve.fr());

        MemorySegment a = points(f, 5, (long) nVars, g1, check);
        MemorySegment b1 = points(f, 6, (long) nVars, g1, check);
        MemorySegment b2 = points(f, 7, (long) nVars, g2, check);
        MemorySegment c = points(f, 8, (long) nVars - nPublic - 1, g1, check);
        MemorySegment hs = points(f, 9, domainSize, g1, check);
        return new ProvingKey(f.path(), arena, curve, nVars, nPublic, log, alpha1, beta1, beta2,
                gamma2, delta1, delta2, ic, coefs, nCoef, ordered, a, b1, b2, c, hs);
    }

    private static long[] point(BinFile f, int section, BinFile.Reader h, CurveGroup g, String name) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        long at = h.skip(codec.pointBytes(), name);
        try {
            return codec.decode(h.data(), at);
        } catch (PointEncodingException e) {
            throw f.error(section, name + ": " + e.getMessage());
        }
    }

    private static MemorySegment points(BinFile f, int section, long n, CurveGroup g, PointCheck check) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g).withoutSubgroupCheck();
        MemorySegment data = f.section(section, n * codec.pointBytes(), n + " " + g.label() + " points").data();
        if (check == PointCheck.ON_CURVE) {
            try {
                codec.validateAll(data, 0, n);
            } catch (PointEncodingException e) {
                throw f.error(section, e.getMessage());
            }
        }
        return data;
    }

    /**
     * Checks every record (matrix 0 or 1, constraint below the domain size, signal below nVars, value
     * below r); returns whether the records come in non-decreasing constraint order (as snarkjs writes
     * them: each constraint's A and B terms together).
     */
    private static boolean checkCoefficients(BinFile f, MemorySegment coefs, int n, int domainSize, int nVars,
            PrimeField fr) {
        boolean ordered = true;
        long lastConstraint = -1;
        long[] v = new long[4];
        int words = ProvingKey.COEFFICIENT_WORDS;
        int chunk = ProvingKey.COEFFICIENT_CHUNK;
        int[] w = new int[Math.min(n, chunk) * words];
        for (int start = 0; start < n; start += chunk) {
            int count = Math.min(chunk, n - start);
            ProvingKey.copyCoefficients(coefs, start, count, w);
            for (int r = 0; r < count; r++) {
                int i = start + r;
                int at = r * words;
                int m = w[at];
                long constraint = Integer.toUnsignedLong(w[at + 1]);
                long signal = Integer.toUnsignedLong(w[at + 2]);
                if (m != 0 && m != 1) {
                    throw f.error(4, "coefficient #" + i + ": matrix is " + Integer.toUnsignedString(m)
                            + ", must be 0 (A) or 1 (B)");
                }
                if (constraint >= domainSize) {
                    throw f.error(4, "coefficient #" + i + ": constraint " + constraint
                            + " is not below the domain size " + domainSize);
                }
                if (signal >= nVars) {
                    throw f.error(4, "coefficient #" + i + ": signal " + signal + " is not below nVars " + nVars);
                }
                ProvingKey.coefficientValue(w, at, v);
                if (!fr.isCanonical(v, 0)) {
                    throw f.error(4, "coefficient #" + i + ": value is not below r");
                }
                if (constraint < lastConstraint) {
                    ordered = false;
                }
                lastConstraint = constraint;
            }
        }
        return ordered;
    }
}
