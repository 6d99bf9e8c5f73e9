package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.encoding.PointEncodingException;
import dev.proofline.algebra.encoding.SnarkjsBinaryCodec;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.io.R1csFile;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * {@code zkey new}: the phase-2 key before any contribution, from a circuit and a prepared powers of
 * tau, byte for byte as snarkjs writes it (the computation is deterministic). With L_c the Lagrange
 * basis of the domain (size n, the smallest power of two above nConstraints + nPublic) at the
 * ceremony's tau, and a_j, b_j, c_j the columns of the matrices (one row added per public signal
 * w_0..w_nPublic, with w_i in A):
 * <pre>
 *   A_j  = sum_c a_cj L_c(tau) G1          B1_j = sum_c b_cj L_c(tau) G1     B2_j = sum_c b_cj L_c(tau) G2
 *   IC_j = sum_c (a_cj beta + b_cj alpha + c_cj) L_c(tau) G1                 (j public)
 *   C_j  = the same sum                                                      (j private; delta = 1 here)
 *   H_i  = l_(2i+1)(tau) G1, l the Lagrange basis of the domain of size 2n   (the odd points)
 * </pre>
 * delta and gamma are the generators until a contribution changes delta. The circuit hash (section
 * 10) is BLAKE2b-512 over the header points, and each point section preceded by its point count
 * (u32, big-endian), in snarkjs's order: IC, H, C, A, B1, B2, every point uncompressed; H is hashed
 * as (tau^(i+n) - tau^i) G1 from the powers, which fixes the ceremony's tau for the circuit.
 * Sections are written in snarkjs's order: 1, 2, 4, 3, 9, 8, 5, 6, 7, 10.
 */
public final class InitialKey {

    static final int TAU_G1 = 0;
    static final int TAU_G2 = 1;
    static final int ALPHA_TAU_G1 = 2;
    static final int BETA_TAU_G1 = 3;
    /** snarkjs hashes the H points in chunks of this many. */
    private static final int H_HASH_CHUNK = 1 << 14;

    private InitialKey() {
    }

    /**
     * Writes the key for {@code r1cs} from {@code ptau} (prepared) to {@code out}; returns the circuit hash.
     * Resumable: a run that stops before it is done (a crash, an error) leaves the sections it finished in
     * {@code <out>.partial}, and the next run on the same inputs keeps them.
     */
    public static byte[] create(Path r1csPath, Path ptauPath, Path out, Consumer<String> log) throws IOException {
        R1cs cs = R1csFile.read(r1csPath);
        try (PtauFile ptau = PtauFile.open(ptauPath)) {
            Work work = new Work(log, work(cs));
            byte[] hash = create(cs, r1csPath, ptau, out, log, work, Leftovers.identity("zkey new", r1csPath, ptau.path()));
            work.finish();
            return hash;
        }
    }

    /** The power of the circuit's domain: the smallest power of two above nConstraints + nPublic. */
    static int domainPower(R1cs cs) {
        long rows = (long) cs.constraintCount() + cs.publicCount();
        return (rows == 0 ? 0 : 63 - Long.numberOfLeadingZeros(rows)) + 1;
    }

    /**
     * The work of a key, a unit a point (G2's {@link Work#G2}): each basis point read from the ptau
     * (n each of tau G1, tau G2, alpha, beta), each term of the sums (a multiplication or an addition:
     * A's and the public rows', B's twice for B1 and B2, every one once more for IC or C), each H point.
     */
    static double work(R1cs cs) {
        double n = Math.pow(2, domainPower(cs));
        return (3 + Work.G2) * n + sectionWork(cs, A) + sectionWork(cs, B1) + sectionWork(cs, B2)
                + sectionWork(cs, C) + n;
    }

    /** A point section's share of {@link #work}: its terms (IC's counted with C's, which sums over the same). */
    private static double sectionWork(R1cs cs, int section) {
        double a = cs.a().terms();
        double b = cs.b().terms();
        double c = cs.c().terms();
        int rows = cs.publicCount() + 1;
        return switch (section) {
            case A -> a + rows;
            case B1 -> b;
            case B2 -> Work.G2 * b;
            case C -> a + b + c + rows;
            default -> 0;
        };
    }

    /**
     * Writes the key, counting its work in {@code work} (which it does not finish); {@code identity}: the
     * run is resumable and was started for that ({@link PtauWriter#resumable}), null: it is not.
     */
    static byte[] create(R1cs cs, Path r1csPath, PtauFile ptau, Path out, Consumer<String> log, Work work,
            String identity) throws IOException {
        PairingCurve curve = ptau.curve();
        if (cs.curve() != curve) {
            throw new IllegalArgumentException(r1csPath + ": the circuit is on " + cs.curve().snarkjsName()
                    + ", " + ptau.path() + " on " + curve.snarkjsName());
        }
        int nPublic = cs.publicCount();
        int power = domainPower(cs);
        if (power > ptau.power()) {
            throw ptau.error(PtauFile.HEADER, "power " + ptau.power() + " is too small for " + r1csPath + ": "
                    + cs.constraintCount() + " constraints and " + nPublic + " public signals need 2^" + power);
        }
        if (!ptau.hasPhase2()) {
            throw ptau.error(PtauFile.LAGRANGE_TAU_G1, "missing: run `powersoftau prepare phase2` on it first");
        }
        int n = 1 << power;
        if (n - 1 > H_HASH_CHUNK && power == ptau.power()) {
            // snarkjs's circuit hash then covers bytes past section 2 (its last chunk is a whole one)
            throw new UnsupportedOperationException(ptau.path() + ": a circuit of domain 2^" + power + " needs a"
                    + " powers of tau of a larger power here (snarkjs hashes bytes past section 2 at this size)");
        }
        // the kernels' warm-up, if the sums will want them, beside the reading of the bases
        Multiplications.prepare(curve, false, (long) cs.a().terms() + cs.b().terms() + cs.c().terms());
        Blake2b hash = new Blake2b();
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        try (PtauWriter w = PtauWriter.resumable(out, "zkey", 10, identity)) {
            Sections s = new Sections(w, hash, cs, work, log);
            if (!w.resuming(log)) {
                w.begin(1);
                w.u32(1);   // Groth16
                w.end();
            }
            header(w, hash, curve, ptau, cs, n, g1, g2);
            log.accept("header written");
            if (!w.finished(4)) {
                coefficients(w, cs, curve.fr());
                log.accept("coefficients written: " + (cs.a().terms() + cs.b().terms() + nPublic + 1));
            }

            // Each section's terms are gathered just before it is computed and dropped after it, and each
            // Lagrange basis is decoded only while a section needs it: IC and C sum over tau, alpha tau and
            // beta tau in G1, A and B1 over tau in G1, B2 over tau in G2. At 2^24 that holds about half the
            // memory of all terms and all four bases at once (docs/setup.md, "Memory each step needs").
            long[][] bases = new long[4][];
            boolean icAndCLeft = !w.finished(3) || !w.finished(8);
            if (icAndCLeft || !w.finished(5) || !w.finished(6)) {
                decodeBases(ptau, curve, bases, n, work, TAU_G1);
            }
            if (icAndCLeft) {
                decodeBases(ptau, curve, bases, n, work, ALPHA_TAU_G1, BETA_TAU_G1);
            }
            PointSums[] icAndC = icAndCLeft ? sums(cs, nPublic, IC, C) : null;
            if (s.kept(3, g1, -1)) {
                writeSums(w, 3, hash, g1, icAndC[IC].evaluate(curve, false, bases,
                        curve.fr().modulus(), work::add), icAndC[IC].outputs());
                log.accept("IC computed");
            }
            if (!w.finished(9)) {
                writeH(w, ptau, g1, n);
            }
            hashH(hash, ptau, g1, n);
            work.add(n);
            log.accept(w.finished(9) ? "H: kept from the earlier run" : "H written");
            if (s.kept(8, g1, C)) {
                section(w, hash, g1, curve, bases, icAndC[C], 8, false, work, log, "C");
            }
            icAndC = null;
            bases[ALPHA_TAU_G1] = null;
            bases[BETA_TAU_G1] = null;
            if (s.kept(5, g1, A)) {
                section(w, hash, g1, curve, bases, sums(cs, nPublic, A)[A], 5, false, work, log, "A");
            }
            if (s.kept(6, g1, B1)) {
                section(w, hash, g1, curve, bases, sums(cs, nPublic, B1)[B1], 6, false, work, log, "B1");
            }
            bases[TAU_G1] = null;
            if (s.kept(7, g2, B2)) {
                decodeBases(ptau, curve, bases, n, work, TAU_G2);
                section(w, hash, g2, curve, bases, sums(cs, nPublic, B2)[B2], 7, true, work, log, "B2");
            }
            byte[] circuitHash = hash.digest();
            w.begin(10);
            w.write(circuitHash);
            w.u32(0);
            w.end();
            w.commit();
            return circuitHash;
        }
    }

    /** The point sections of a resumed run: a finished one is hashed again from the file, not computed. */
    private record Sections(PtauWriter w, Blake2b hash, R1cs cs, Work work, Consumer<String> log) {

        /**
         * False where section {@code type} was finished by an earlier run: then its count and points are
         * hashed again from what that run wrote, and its work ({@code section}, -1: none) counted as done.
         * True where it is still to be computed.
         */
        boolean kept(int type, PointBytes g, int section) throws IOException {
            if (!w.kept(type, NAMES.get(type), log)) {
                return true;
            }
            MemorySegment bytes = w.finishedSection(type);
            int count = Math.toIntExact(bytes.byteSize() / g.size());
            hash.update(ByteBuffer.allocate(4).order(ByteOrder.BIG_ENDIAN).putInt(count).array());
            PowersOfTau.hashUncompressed(bytes, g, count, hash);
            if (section >= 0) {
                work.add((long) sectionWork(cs, section));
            }
            return false;
        }
    }

    /** The point sections' names, by section type, as the log names them. */
    private static final java.util.Map<Integer, String> NAMES = java.util.Map.of(3, "IC", 5, "A", 6, "B1", 7, "B2",
            8, "C");

    /** Section 2, and its points hashed; where an earlier run finished it, hashed only. */
    private static void header(PtauWriter w, Blake2b hash, PairingCurve curve, PtauFile ptau, R1cs cs, int n,
            PointBytes g1, PointBytes g2) throws IOException {
        boolean write = !w.finished(2);
        if (write) {
            w.begin(2);
            w.u32(curve.fp().byteLength());
            for (long x : curve.fp().modulusWords()) {
                w.u64(x);
            }
            w.u32(32);
            for (long x : curve.fr().modulusWords()) {
                w.u64(x);
            }
            w.u32(cs.wireCount());
            w.u32(cs.publicCount());
            w.u32(n);
        }
        long[] alpha = decode(ptau, PtauFile.ALPHA_TAU_G1, curve.g1Group(), 0, 1);
        long[] beta1 = decode(ptau, PtauFile.BETA_TAU_G1, curve.g1Group(), 0, 1);
        long[] beta2 = decode(ptau, PtauFile.BETA_G2, curve.g2Group(), 0, 1);
        long[] gen1 = curve.g1().generator();
        long[] gen2 = curve.g2().generator();
        // alpha1, beta1, beta2, gamma2, delta1, delta2
        long[][] points = {alpha, beta1, beta2, gen2, gen1, gen2};
        boolean[] isG2 = {false, false, true, true, false, true};
        for (int i = 0; i < points.length; i++) {
            PointBytes g = isG2[i] ? g2 : g1;
            if (write) {
                byte[] b = new byte[g.size()];
                g.stored(points[i], 0, b, 0);
                w.write(b);
            }
            hash.update(g.uncompressed(points[i], 0));
        }
        if (write) {
            w.end();
        }
    }

    /** Section 4: A's and B's terms, constraint by constraint, then w_i in A for the public rows; values coef R^2. */
    private static void coefficients(PtauWriter w, R1cs cs, PrimeField fr) throws IOException {
        int nPublic = cs.publicCount();
        w.begin(4);
        w.u32(cs.a().terms() + cs.b().terms() + nPublic + 1);
        R1cs.Matrix[] ab = {cs.a(), cs.b()};
        long[] v = new long[4];
        for (int row = 0; row < cs.constraintCount(); row++) {
            for (int k = 0; k < 2; k++) {
                R1cs.Matrix m = ab[k];
                for (int e = m.rowStart()[row]; e < m.rowStart()[row + 1]; e++) {
                    fr.toMontgomery(m.coefficients(), e * 4, v, 0);
                    record(w, k, row, m.columns()[e], v);
                }
            }
        }
        fr.toMontgomery(fr.one(), 0, v, 0);
        for (int s = 0; s <= nPublic; s++) {
            record(w, 0, cs.constraintCount() + s, s, v);
        }
        w.end();
    }

    private static void record(PtauWriter w, int matrix, int row, int signal, long[] value) throws IOException {
        w.u32(matrix);
        w.u32(row);
        w.u32(signal);
        for (long x : value) {
            w.u64(x);
        }
    }

    /** The sums of a key's point sections, by index into what {@link #sums} returns. */
    private static final int IC = 0;
    private static final int C = 1;
    private static final int A = 2;
    private static final int B1 = 3;
    private static final int B2 = 4;

    /** The terms of the sums named (IC, C, A, B1, B2), at their index; the others null. */
    private static PointSums[] sums(R1cs cs, int nPublic, int... wanted) {
        int nVars = cs.wireCount();
        int[] outputs = {nPublic + 1, nVars - nPublic - 1, nVars, nVars, nVars};
        PointSums[] s = new PointSums[5];
        for (int k : wanted) {
            s[k] = new PointSums(outputs[k]);
        }
        visit(cs, nPublic, s, true);
        for (int k : wanted) {
            s[k].seal();
        }
        visit(cs, nPublic, s, false);
        return s;
    }

    /** Decodes the Lagrange bases named (of the domain n) into {@code bases}, counting their points in {@code work}. */
    private static void decodeBases(PtauFile ptau, PairingCurve curve, long[][] bases, int n, Work work,
            int... kinds) {
        int[] lagrange = {PtauFile.LAGRANGE_TAU_G1, PtauFile.LAGRANGE_TAU_G2, PtauFile.LAGRANGE_ALPHA_TAU_G1,
            PtauFile.LAGRANGE_BETA_TAU_G1};
        for (int k : kinds) {
            CurveGroup group = k == TAU_G2 ? curve.g2Group() : curve.g1Group();
            bases[k] = decode(ptau, lagrange[k], group, n - 1L, n);
            work.add((long) n * Work.weight(k == TAU_G2));
        }
    }

    /** Computes one point section of the key from its sums over {@code bases}, writes and hashes it. */
    private static void section(PtauWriter w, Blake2b hash, PointBytes g, PairingCurve curve, long[][] bases,
            PointSums sums, int type, boolean g2, Work work, Consumer<String> log, String name) throws IOException {
        int weight = Work.weight(g2);
        writeSums(w, type, hash, g, sums.evaluate(curve, g2, bases,
                curve.fr().modulus(), terms -> work.add(terms * weight)), sums.outputs());
        log.accept(name + " computed: " + sums.outputs() + " points");
    }

    private static void visit(R1cs cs, int nPublic, PointSums[] s, boolean counting) {
        PrimeField fr = cs.curve().fr();
        R1cs.Matrix[] m = {cs.a(), cs.b(), cs.c()};
        // the basis an A, B, C term brings to IC or C: beta tau, alpha tau, tau
        int[] mixed = {BETA_TAU_G1, ALPHA_TAU_G1, TAU_G1};
        boolean mixedWanted = s[IC] != null || s[C] != null;
        // the matrices whose terms a wanted sum takes: A's, B's, C's
        boolean[] read = {mixedWanted || s[A] != null, mixedWanted || s[B1] != null || s[B2] != null, mixedWanted};
        long[] k = new long[4];
        for (int row = 0; row < cs.constraintCount(); row++) {
            for (int which = 0; which < 3; which++) {
                if (!read[which]) {
                    continue;
                }
                for (int e = m[which].rowStart()[row]; e < m[which].rowStart()[row + 1]; e++) {
                    int j = m[which].columns()[e];
                    if (!counting) {
                        fr.fromMontgomery(m[which].coefficients(), e * 4, k, 0);
                    }
                    if (which == 0) {
                        term(s[A], j, TAU_G1, row, k, counting);
                    } else if (which == 1) {
                        term(s[B1], j, TAU_G1, row, k, counting);
                        term(s[B2], j, TAU_G2, row, k, counting);
                    }
                    if (j <= nPublic) {
                        term(s[IC], j, mixed[which], row, k, counting);
                    } else {
                        term(s[C], j - nPublic - 1, mixed[which], row, k, counting);
                    }
                }
            }
        }
        long[] one = {1, 0, 0, 0};
        for (int j = 0; j <= nPublic; j++) {
            term(s[A], j, TAU_G1, cs.constraintCount() + j, one, counting);
            term(s[IC], j, BETA_TAU_G1, cs.constraintCount() + j, one, counting);
        }
    }

    private static void term(PointSums s, int output, int basis, int row, long[] k, boolean counting) {
        if (s == null) {
            return;   // a section not gathered in this pass
        }
        if (counting) {
            s.count(output);
        } else {
            s.add(output, basis, row, k, 0);
        }
    }

    /** Writes a point section from affine points, and hashes its count (u32, big-endian) and its points uncompressed. */
    private static void writeSums(PtauWriter w, int type, Blake2b hash, PointBytes g, long[] affine, int count)
            throws IOException {
        w.begin(type);
        hash.update(ByteBuffer.allocate(4).order(ByteOrder.BIG_ENDIAN).putInt(count).array());
        int aw = g.curve().affineWidth();
        int chunk = 1 << 12;
        byte[] stored = new byte[chunk * g.size()];
        byte[] plain = new byte[chunk * g.size()];
        for (int from = 0; from < count; from += chunk) {
            int m = Math.min(chunk, count - from);
            for (int i = 0; i < m; i++) {
                g.stored(affine, (from + i) * aw, stored, i * g.size());
                g.uncompressed(affine, (from + i) * aw, plain, i * g.size());
            }
            w.write(stored, 0, m * g.size());
            hash.update(plain, 0, m * g.size());
        }
        w.end();
    }

    /** Section 9: the odd points of the Lagrange basis of the domain 2n, as the ptau stores them. */
    private static void writeH(PtauWriter w, PtauFile ptau, PointBytes g1, int n) throws IOException {
        w.begin(9);
        MemorySegment domain = ptau.section(PtauFile.LAGRANGE_TAU_G1).asSlice((2L * n - 1) * g1.size(),
                2L * n * g1.size());
        byte[] buf = new byte[g1.size()];
        for (long i = 0; i < n; i++) {
            MemorySegment.copy(domain, ValueLayout.JAVA_BYTE, (2 * i + 1) * g1.size(), buf, 0, buf.length);
            w.write(buf);
        }
        w.end();
    }

    /**
     * The hash of H: the count n - 1, then (tau^(i+n) - tau^i) G1 for i below n - 1, or below n when
     * n - 1 is more than one chunk (snarkjs hashes whole chunks then).
     */
    private static void hashH(Blake2b hash, PtauFile ptau, PointBytes g1, int n) {
        hash.update(ByteBuffer.allocate(4).order(ByteOrder.BIG_ENDIAN).putInt(n - 1).array());
        int count = n - 1 > H_HASH_CHUNK ? n : n - 1;
        WeierstrassCurve c = g1.curve();
        int aw = c.affineWidth();
        int jw = c.jacobianWidth();
        for (int from = 0; from < count; from += H_HASH_CHUNK) {
            int m = Math.min(H_HASH_CHUNK, count - from);
            long[] low = decode(ptau, PtauFile.TAU_G1, ptau.curve().g1Group(), from, m);
            long[] high = decode(ptau, PtauFile.TAU_G1, ptau.curve().g1Group(), (long) from + n, m);
            long[] diff = new long[m * jw];
            long[] affine = new long[m * aw];
            int tasks = Math.max(1, Math.min(m / 256, Runtime.getRuntime().availableProcessors() * 4));
            IntStream.range(0, tasks).parallel().forEach(t -> {
                PointArithmetic pa = c.arithmetic();
                long[] neg = new long[aw];
                int lo = m * t / tasks;
                int hi = m * (t + 1) / tasks;
                for (int i = lo; i < hi; i++) {
                    pa.fromAffine(high, i * aw, diff, i * jw);
                    pa.negAffine(low, i * aw, neg, 0);
                    pa.addMixed(diff, i * jw, neg, 0, diff, i * jw);
                }
                pa.batchToAffine(diff, lo * jw, affine, lo * aw, hi - lo);
            });
            byte[] plain = new byte[m * g1.size()];
            for (int i = 0; i < m; i++) {
                g1.uncompressed(affine, i * aw, plain, i * g1.size());
            }
            hash.update(plain);
        }
    }

    /** {@code count} points of a section from point {@code from}, checked to be on the curve. */
    static long[] decode(PtauFile ptau, int type, CurveGroup group, long from, int count) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(group).withoutSubgroupCheck();
        MemorySegment seg = ptau.section(type);
        try {
            return codec.decodeAll(seg, from * codec.pointBytes(), count);
        } catch (PointEncodingException e) {
            throw ptau.error(type, e.getMessage());
        }
    }

}
