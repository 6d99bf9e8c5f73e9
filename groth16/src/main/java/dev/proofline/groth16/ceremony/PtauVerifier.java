package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.encoding.PointEncodingException;
import dev.proofline.algebra.encoding.SnarkjsBinaryCodec;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.ntt.Ntt;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code powersoftau verify}: the checks of {@code snarkjs powersoftau verify}. Every contribution's
 * proofs of knowledge against the challenge before it (a beacon's key recomputed from its beacon),
 * and that its first points follow from the previous ones by its secrets; for the file's points:
 * each on the curve and in the subgroup, the powers consecutive (a random linear combination of
 * P_0..P_(n-2) against the same of P_1..P_(n-1), one pairing check per section), the first points
 * those of the last contribution, their hash its next challenge; and after prepare phase2 that each
 * domain's Lagrange points give the same sum as the powers for random coefficients. The coefficients
 * are 64-bit words from the secure source (snarkjs draws 32-bit ones): with every point in the
 * prime-order subgroup, a file that breaks a relation passes its check with probability at most
 * 2^-64. A failure is a {@link dev.proofline.r1cs.io.FormatException} naming the file and the section.
 */
public final class PtauVerifier {

    private static final int CHUNK = 1 << 16;
    /** The largest domain whose coefficients' transform fits one array (four words an element). */
    private static final int MAX_TRANSFORM = 28;

    private final PtauFile ptau;
    private final PairingCurve curve;
    private final Consumer<String> log;
    private final Work work;
    private final SecureRandom random = new SecureRandom();

    private PtauVerifier(PtauFile ptau, Consumer<String> log) {
        this.ptau = ptau;
        this.curve = ptau.curve();
        this.log = log;
        this.work = new Work(log, work(ptau.power(), ptau.hasPhase2()));
    }

    /**
     * The work of checking a file of 2^power: a unit a point read, checked and combined (a G2 point
     * {@link Work#G2}), for the 2n - 1 tau G1, n tau G2, alpha and beta points, and after prepare
     * phase2 for both the powers and the Lagrange points of each domain.
     */
    static double work(int power, boolean phase2) {
        double n = Math.pow(2, power);
        double total = 2 * n - 1 + Work.G2 * n + 2 * n;
        if (phase2) {
            for (int p = 0; p <= power + 1; p++) {
                total += 2 * Math.pow(2, p) * (p <= power ? 1 + Work.G2 + 2 : 1);
            }
        }
        return total;
    }

    /** Verifies the file; returns its contributions, first to last, for printing. */
    public static List<String> verify(Path path, Consumer<String> log) {
        try (PtauFile ptau = PtauFile.open(path)) {
            return new PtauVerifier(ptau, log).run();
        }
    }

    private record Prev(long[] tauG1, long[] tauG2, long[] alphaG1, long[] betaG1, long[] betaG2, byte[] challenge) {
    }

    private List<String> run() {
        List<Contribution> cs = ptau.contributions();
        if (cs.isEmpty()) {
            throw ptau.error(PtauFile.CONTRIBUTIONS, "no contribution: a new accumulator proves nothing");
        }
        long points = 1L << ptau.power();
        SnarkjsBinaryCodec.of(curve.g1Group()).startLanes(2 * points);   // for the sections after tau G1
        SnarkjsBinaryCodec.of(curve.g2Group()).startLanes(points);
        Prev initial = new Prev(curve.g1().generator(), curve.g2().generator(), curve.g1().generator(),
                curve.g1().generator(), curve.g2().generator(), PowersOfTau.firstChallenge(curve, ptau.ceremonyPower()));
        Prev prev = initial;
        String[] lines = new String[cs.size()];
        for (int i = 0; i < cs.size(); i++) {
            Contribution c = cs.get(i);
            checkContribution(i + 1, c, prev);
            byte[] response = Blake2b.fromState(c.partialHash())
                    .update(PtauWriter.publicKey(curve, c.key(), true)).digest();
            lines[i] = "#" + (i + 1) + " " + (c.name() == null ? "" : c.name()) + (c.isBeacon() ? " (beacon)" : "")
                    + "\n" + HexFormatting.hashBlock("Response hash:", response)
                    + "\n" + HexFormatting.hashBlock("Next challenge:", c.nextChallenge());
            prev = new Prev(c.tauG1(), c.tauG2(), c.alphaG1(), c.betaG1(), c.betaG2(), c.nextChallenge());
        }
        Contribution last = cs.getLast();
        byte[] lastResponse = Blake2b.fromState(last.partialHash())
                .update(PtauWriter.publicKey(curve, last.key(), true)).digest();
        Blake2b next = new Blake2b().update(lastResponse);
        long n = 1L << ptau.power();
        long[] g1 = curve.g1().generator();
        long[] g2 = curve.g2().generator();
        long[][] tau1 = powers(PtauFile.TAU_G1, curve.g1Group(), 2 * n - 1, next, 2);
        require(PtauFile.TAU_G1, sameRatio(tau1[0], tau1[1], g2, last.tauG2()), "the powers of tau are not consecutive");
        require(PtauFile.TAU_G1, eq(curve.g1(), tau1[2], g1), "the first point is not the generator");
        require(PtauFile.TAU_G1, eq(curve.g1(), tau1[3], last.tauG1()), "the second point is not the last contribution's");
        long[][] tau2 = powers(PtauFile.TAU_G2, curve.g2Group(), n, next, 2);
        require(PtauFile.TAU_G2, sameRatio(g1, last.tauG1(), tau2[0], tau2[1]), "the powers of tau are not consecutive");
        require(PtauFile.TAU_G2, eq(curve.g2(), tau2[2], g2), "the first point is not the generator");
        require(PtauFile.TAU_G2, eq(curve.g2(), tau2[3], last.tauG2()), "the second point is not the last contribution's");
        long[][] alpha = powers(PtauFile.ALPHA_TAU_G1, curve.g1Group(), n, next, 1);
        require(PtauFile.ALPHA_TAU_G1, sameRatio(alpha[0], alpha[1], g2, last.tauG2()), "the powers are not consecutive");
        require(PtauFile.ALPHA_TAU_G1, eq(curve.g1(), alpha[2], last.alphaG1()), "alpha G1 is not the last contribution's");
        long[][] beta = powers(PtauFile.BETA_TAU_G1, curve.g1Group(), n, next, 1);
        require(PtauFile.BETA_TAU_G1, sameRatio(beta[0], beta[1], g2, last.tauG2()), "the powers are not consecutive");
        require(PtauFile.BETA_TAU_G1, eq(curve.g1(), beta[2], last.betaG1()), "beta G1 is not the last contribution's");
        long[] betaG2 = decode(PtauFile.BETA_G2, curve.g2Group(), ptau.section(PtauFile.BETA_G2), 0, 1);
        PowersOfTau.hashUncompressed(ptau.section(PtauFile.BETA_G2), new PointBytes(curve.g2(), curve.fp()), 1, next);
        require(PtauFile.BETA_G2, eq(curve.g2(), betaG2, last.betaG2()), "beta G2 is not the last contribution's");
        byte[] challenge = next.digest();
        if (ptau.power() == ptau.ceremonyPower()) {
            require(PtauFile.CONTRIBUTIONS, Arrays.equals(challenge, last.nextChallenge()),
                    "the hash of the points is not the last contribution's next challenge");
        }
        log.accept("powers checked: 2^" + ptau.power() + ", " + cs.size() + " contribution(s)");
        if (ptau.hasPhase2()) {
            lagrange(PtauFile.TAU_G1, PtauFile.LAGRANGE_TAU_G1, curve.g1Group(), ptau.power() + 1);
            lagrange(PtauFile.TAU_G2, PtauFile.LAGRANGE_TAU_G2, curve.g2Group(), ptau.power());
            lagrange(PtauFile.ALPHA_TAU_G1, PtauFile.LAGRANGE_ALPHA_TAU_G1, curve.g1Group(), ptau.power());
            lagrange(PtauFile.BETA_TAU_G1, PtauFile.LAGRANGE_BETA_TAU_G1, curve.g1Group(), ptau.power());
            log.accept("phase-2 sections checked");
        }
        work.finish();
        return List.of(lines);
    }

    private void checkContribution(int id, Contribution c, Prev prev) {
        String at = "contribution #" + id + ": ";
        Contribution.PublicKey k = c.key();
        if (c.isBeacon()) {
            try (ContributionKey beacon = ContributionKey.fromRng(curve, prev.challenge(),
                    ContributionKey.beaconStream(c.beaconHash(), c.iterationsExp()))) {
                Contribution.PublicKey b = beacon.publicKey();
                for (int i = 0; i < 3; i++) {
                    require(PtauFile.CONTRIBUTIONS, eq(curve.g1(), k.g1s()[i], b.g1s()[i])
                            && eq(curve.g1(), k.g1sx()[i], b.g1sx()[i]) && eq(curve.g2(), k.g2spx()[i], b.g2spx()[i]),
                            at + "the key is not the one its beacon gives");
                }
            }
        }
        long[][] g2sp = new long[3][];
        String[] names = {"tau", "alpha", "beta"};
        for (int i = 0; i < 3; i++) {
            g2sp[i] = ContributionKey.g2sp(curve, i, prev.challenge(), k.g1s()[i], k.g1sx()[i]);
            require(PtauFile.CONTRIBUTIONS, sameRatio(k.g1s()[i], k.g1sx()[i], g2sp[i], k.g2spx()[i]),
                    at + "invalid proof of knowledge of " + names[i] + " (or it answers another challenge)");
        }
        require(PtauFile.CONTRIBUTIONS, sameRatio(prev.tauG1(), c.tauG1(), g2sp[0], k.g2spx()[0]),
                at + "tau G1 does not follow the previous contribution");
        require(PtauFile.CONTRIBUTIONS, sameRatio(k.g1s()[0], k.g1sx()[0], prev.tauG2(), c.tauG2()),
                at + "tau G2 does not follow the previous contribution");
        require(PtauFile.CONTRIBUTIONS, sameRatio(prev.alphaG1(), c.alphaG1(), g2sp[1], k.g2spx()[1]),
                at + "alpha G1 does not follow the previous contribution");
        require(PtauFile.CONTRIBUTIONS, sameRatio(prev.betaG1(), c.betaG1(), g2sp[2], k.g2spx()[2]),
                at + "beta G1 does not follow the previous contribution");
        require(PtauFile.CONTRIBUTIONS, sameRatio(k.g1s()[2], k.g1sx()[2], prev.betaG2(), c.betaG2()),
                at + "beta G2 does not follow the previous contribution");
    }

    /**
     * Reads and checks {@code count} points of a section, feeding them uncompressed to {@code hash};
     * returns {R1 = sum r_i P_i (i < count - 1), R2 = sum r_i P_(i+1)} (affine) and the first
     * {@code firsts} points.
     */
    private long[][] powers(int type, CurveGroup group, long count, Blake2b hash, int firsts) {
        WeierstrassCurve c = group.curve();
        PointArithmetic pa = c.arithmetic();
        MemorySegment seg = ptau.section(type);
        PointBytes bytes = new PointBytes(c, curve.fp());
        int aw = c.affineWidth();
        long[] r1 = new long[c.jacobianWidth()];
        long[] r2 = new long[c.jacobianWidth()];
        pa.setInfinity(r1, 0);
        pa.setInfinity(r2, 0);
        long[][] out = new long[2 + firsts][];
        Msm msm = Msm.on(c);
        int weight = Work.weight(group == curve.g2Group());
        for (long base = 0; base < count - 1; base += CHUNK) {
            int m = (int) Math.min(CHUNK, count - 1 - base);
            long[] pts = decode(type, group, seg, base, m + 1);
            if (base == 0) {
                for (int i = 0; i < firsts; i++) {
                    out[2 + i] = Arrays.copyOfRange(pts, i * aw, (i + 1) * aw);
                }
            }
            long[] scalars = scalars(randomWords(m), 0, m);
            pa.add(r1, 0, msm.multiply(pts, 0, scalars, 0, m), 0, r1, 0);
            pa.add(r2, 0, msm.multiply(pts, 1, scalars, 0, m), 0, r2, 0);
            work.add((long) weight * m);
        }
        PowersOfTau.hashUncompressed(seg, bytes, count, hash);
        work.add(weight);   // the last point, read only by the hash and the chunk before
        out[0] = new long[aw];
        out[1] = new long[aw];
        pa.toAffine(r1, 0, out[0], 0);
        pa.toAffine(r2, 0, out[1], 0);
        return out;
    }

    /**
     * Per domain 2^p: sum r_i tau^i G over the powers equals sum c_i L_i with c the transform of r. One
     * vector r of random 64-bit coefficients serves every domain, so the powers' sum grows from one
     * domain to the next and each power is read once; the powers were checked in the subgroup before,
     * here only on the curve. A domain's Lagrange points are summed a chunk at a time.
     */
    private void lagrange(int powersType, int lagrangeType, CurveGroup group, int maxPower) {
        WeierstrassCurve c = group.curve();
        PointArithmetic pa = c.arithmetic();
        PrimeField fr = curve.fr();
        Msm msm = Msm.on(c);
        SnarkjsBinaryCodec checked = SnarkjsBinaryCodec.of(group);
        SnarkjsBinaryCodec onCurve = checked.withoutSubgroupCheck();
        int w = Msm.SCALAR_WORDS;
        int weight = Work.weight(group == curve.g2Group());
        if (maxPower > MAX_TRANSFORM) {
            throw ptau.error(lagrangeType, "domain 2^" + maxPower + " is larger than this verifier transforms (2^"
                    + MAX_TRANSFORM + ")");
        }
        int top = 1 << maxPower;
        boolean lastIsZero = maxPower == ptau.power() + 1;   // tau G1 has 2n - 1 powers for a domain of 2n
        long[] r = randomWords(top);
        if (lastIsZero) {
            r[top - 1] = 0;
        }
        long[] lhs = new long[c.jacobianWidth()];
        pa.setInfinity(lhs, 0);
        int summed = 0;
        for (int p = 0; p <= maxPower; p++) {
            int n = 1 << p;
            int powers = lastIsZero && p == maxPower ? n - 1 : n;
            int first = summed;
            addSum(lhs, msm, powersType, onCurve, first, powers - first, (from, m) -> scalars(r, first + from, m));
            summed = powers;
            long[] t = new long[w * n];
            long[] canonical = new long[w];
            for (int i = 0; i < n; i++) {
                canonical[0] = r[i];
                fr.toMontgomery(canonical, 0, t, w * i);
            }
            if (p > 0) {
                Ntt.of(fr, p).forward(t);
            }
            long[] rhs = new long[c.jacobianWidth()];
            pa.setInfinity(rhs, 0);
            addSum(rhs, msm, lagrangeType, checked, n - 1L, n, (from, m) -> Msm.canonicalScalars(fr, t, from, m));
            require(lagrangeType, pa.equal(lhs, 0, rhs, 0),
                    "the points of domain 2^" + p + " are not the Lagrange basis of the powers of tau");
            work.add(2L * n * weight);
        }
    }

    /** The scalars of points {@code from .. from + count} of a sum, counted from its first point. */
    private interface ChunkScalars {
        long[] of(int from, int count);
    }

    /**
     * Adds to acc (Jacobian) the sum of points {@code first .. first + count} of a section times their
     * scalars, decoded and checked by {@code codec} a chunk at a time.
     */
    private void addSum(long[] acc, Msm msm, int type, SnarkjsBinaryCodec codec, long first, int count,
            ChunkScalars scalars) {
        PointArithmetic pa = msm.curve().arithmetic();
        for (int from = 0; from < count; from += CHUNK) {
            int m = Math.min(CHUNK, count - from);
            long[] pts = decode(type, codec, ptau.section(type), first + from, m);
            pa.add(acc, 0, msm.multiply(pts, 0, scalars.of(from, m), 0, m), 0, acc, 0);
        }
    }

    /** Random 64-bit words from the secure source: the coefficients of the random linear combinations. */
    private long[] randomWords(int count) {
        long[] words = new long[count];
        byte[] bytes = new byte[8 * Math.min(count, CHUNK)];
        for (int from = 0; from < count; from += CHUNK) {
            int m = Math.min(CHUNK, count - from);
            random.nextBytes(bytes);
            ByteBuffer.wrap(bytes, 0, 8 * m).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(words, from, m);
        }
        return words;
    }

    /** The MSM's scalars for words {@code from .. from + count}, each a 64-bit coefficient. */
    private static long[] scalars(long[] words, int from, int count) {
        long[] scalars = new long[Msm.SCALAR_WORDS * count];
        for (int i = 0; i < count; i++) {
            scalars[Msm.SCALAR_WORDS * i] = words[from + i];
        }
        return scalars;
    }

    private long[] decode(int type, CurveGroup group, MemorySegment seg, long from, int count) {
        return decode(type, SnarkjsBinaryCodec.of(group), seg, from, count);
    }

    private long[] decode(int type, SnarkjsBinaryCodec codec, MemorySegment seg, long from, int count) {
        try {
            return codec.decodeAll(seg, from * codec.pointBytes(), count);   // checked in parallel
        } catch (PointEncodingException e) {
            throw ptau.error(type, "from point #" + from + ": " + e.getMessage());
        }
    }

    private boolean sameRatio(long[] a1, long[] b1, long[] a2, long[] b2) {
        PointArithmetic p1 = curve.g1().arithmetic();
        PointArithmetic p2 = curve.g2().arithmetic();
        if (p1.isInfinityAffine(a1, 0) || p1.isInfinityAffine(b1, 0) || p2.isInfinityAffine(a2, 0)
                || p2.isInfinityAffine(b2, 0)) {
            return false;
        }
        long[] negB1 = new long[b1.length];
        p1.negAffine(b1, 0, negB1, 0);
        // e(a1, b2) = e(b1, a2)
        return curve.pairing().pairingProductIsOne(new long[][] {a1, negB1}, new long[][] {b2, a2});
    }

    private static boolean eq(WeierstrassCurve c, long[] a, long[] b) {
        return Arrays.equals(a, b) || (c.arithmetic().isInfinityAffine(a, 0) && c.arithmetic().isInfinityAffine(b, 0));
    }

    private void require(int section, boolean ok, String problem) {
        if (!ok) {
            throw ptau.error(section, problem);
        }
    }
}
