package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.encoding.PointEncodingException;
import dev.proofline.algebra.encoding.SnarkjsBinaryCodec;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.R1csFile;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code zkey verify}: whether a .zkey is the key of a circuit and a powers of tau after a chain of
 * valid contributions, with snarkjs's checks:
 * <ul>
 *   <li>each contribution's transcript follows the circuit hash and the keys before it; its proof of
 *       knowledge holds, e(s, d s') = e(d s, s'); its delta follows the previous one by the same d,
 *       e(delta_prev, d s') = e(delta_after, s'); a beacon's key is the one its hash and exponent give;
 *   <li>the key equals a fresh {@code zkey new} from the r1cs and the ptau where no contribution
 *       changes it: the curve, sizes, alpha, beta, gamma, the circuit hash, and sections 3 to 7 byte
 *       for byte; delta1 is the last contribution's delta, and delta2 has the same ratio to G2;
 *   <li>C and H are the fresh key's divided by delta: a random linear combination R of the fresh
 *       points and the same combination R' of the key's satisfy e(R, G2) = e(R', delta2).
 * </ul>
 * A refusal is a {@link FormatException} naming the file, the section and the problem.
 */
public final class ZkeyVerifier {

    /** Checks of H by its lower degrees, the full-width fallback, in this JVM (for tests). */
    static final java.util.concurrent.atomic.AtomicLong LOWER_DEGREE_CHECKS = new java.util.concurrent.atomic.AtomicLong();

    private final PhaseTwoKeyFile key;
    private final PairingCurve curve;
    private final SecureRandom random = new SecureRandom();

    private ZkeyVerifier(PhaseTwoKeyFile key) {
        this.key = key;
        this.curve = key.curve;
    }

    /** Verifies {@code zkey}; returns the lines snarkjs prints for a valid key (hashes, newest first). */
    public static List<String> verify(Path r1cs, Path ptau, Path zkey, Consumer<String> log) throws IOException {
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(zkey)) {
            ZkeyVerifier v = new ZkeyVerifier(key);
            long[] delta = v.chain();
            log.accept("the chain of " + key.contributions.size() + " contributions holds");
            R1cs cs = R1csFile.read(r1cs);
            // the fresh key's work, then two points combined for each of the key's C and H points
            long combined = 2 * (v.points(PhaseTwoKeyFile.C) + v.points(PhaseTwoKeyFile.H));
            Work work = new Work(log, InitialKey.work(cs) + combined);
            Path fresh = Files.createTempFile(zkey.toAbsolutePath().getParent(), ".zkey-verify-", ".zkey");
            try {
                try (PtauFile powers = PtauFile.open(ptau)) {
                    InitialKey.create(cs, r1cs, powers, fresh, log, work, null);
                }
                try (PhaseTwoKeyFile init = PhaseTwoKeyFile.open(fresh)) {
                    v.against(init, delta, work);
                }
            } finally {
                Files.deleteIfExists(fresh);
            }
            work.finish();
            return v.report();
        }
    }

    /** Checks section 10; returns delta G1 after the last contribution. */
    private long[] chain() {
        long[] delta = curve.g1().generator();
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        List<KeyContribution> cs = key.contributions;
        for (int i = 0; i < cs.size(); i++) {
            KeyContribution c = cs.get(i);
            String at = "contribution #" + (i + 1) + ": ";
            byte[] transcript = PhaseTwo.transcriptBefore(curve, key.circuitHash, cs.subList(0, i))
                    .update(g1.uncompressed(c.g1s(), 0)).update(g1.uncompressed(c.g1sx(), 0)).digest();
            require(PhaseTwoKeyFile.CONTRIBUTIONS, Arrays.equals(transcript, c.transcript()),
                    at + "the transcript does not follow the circuit hash and the contributions before it");
            long[] g2sp = ChaChaSampler.g2(curve, ChaChaStream.seededBy(c.transcript()));
            require(PhaseTwoKeyFile.CONTRIBUTIONS, sameRatio(c.g1s(), c.g1sx(), g2sp, c.g2spx()),
                    at + "the proof of knowledge of its secret does not hold");
            require(PhaseTwoKeyFile.CONTRIBUTIONS, sameRatio(delta, c.deltaAfter(), g2sp, c.g2spx()),
                    at + "delta does not follow the previous delta by the contribution's secret");
            if (c.isBeacon()) {
                ChaChaStream rng = ContributionKey.beaconStream(c.beaconHash(), c.iterationsExp());
                PrimeField fr = curve.fr();
                long[] d = ChaChaSampler.element(fr, rng);
                long[] s = ChaChaSampler.g1(curve, rng);
                boolean same = Arrays.equals(s, c.g1s())
                        && Arrays.equals(ContributionKey.times(curve.g1(), s, fr, d), c.g1sx());
                require(PhaseTwoKeyFile.CONTRIBUTIONS, same, at + "the beacon's key is not the one its hash gives");
            }
            delta = c.deltaAfter();
        }
        return delta;
    }

    /** The G1 points of a section of the key. */
    private long points(int type) {
        return key.section(type).byteSize() / SnarkjsBinaryCodec.of(curve.g1Group()).pointBytes();
    }

    private void against(PhaseTwoKeyFile init, long[] delta, Work work) {
        require(2, init.curve == curve, "the key is on " + curve.snarkjsName() + ", the circuit and ptau on "
                + init.curve.snarkjsName());
        require(2, init.nVars == key.nVars && init.nPublic == key.nPublic && init.domainSize == key.domainSize,
                "nVars, nPublic, domainSize are " + key.nVars + ", " + key.nPublic + ", " + key.domainSize
                        + "; the circuit's are " + init.nVars + ", " + init.nPublic + ", " + init.domainSize);
        String[] names = {"alpha1", "beta1", "beta2", "gamma2"};
        for (int i = 0; i < 4; i++) {
            require(2, Arrays.equals(init.header[i], key.header[i]), names[i] + " is not the ptau's / the circuit's");
        }
        require(2, Arrays.equals(delta, key.header[4]), "delta1 is not the last contribution's delta");
        require(2, sameRatio(curve.g1().generator(), delta, curve.g2().generator(), key.header[5]),
                "delta2 does not match delta1");
        require(PhaseTwoKeyFile.CONTRIBUTIONS, Arrays.equals(init.circuitHash, key.circuitHash),
                "the circuit hash is not the circuit's (another circuit or another ptau)");
        String[] sections = {"IC", "coefficients", "A", "B1", "B2"};
        for (int type = PhaseTwoKeyFile.IC; type <= PhaseTwoKeyFile.B2; type++) {
            require(type, init.section(type).mismatch(key.section(type)) == -1,
                    "differs from the key the circuit and the ptau give (" + sections[type - 3] + ")");
        }
        require(PhaseTwoKeyFile.C, divided(init, PhaseTwoKeyFile.C, false, work), "is not the circuit's divided by delta");
        // H point by point first (64-bit coefficients, as C): a key that snarkjs or Proofline made or
        // contributed to passes so; one imported from bellman's parameters differs at degree n - 1 and
        // needs the combination of its lower degrees only (full-width coefficients, a longer check)
        require(PhaseTwoKeyFile.H, divided(init, PhaseTwoKeyFile.H, false, work)
                || divided(init, PhaseTwoKeyFile.H, true, work), "is not the circuit's divided by delta");
    }

    /**
     * Whether a random combination of a section's points in this key is that of the fresh key's divided
     * by delta: of every point with 64-bit coefficients, or, {@code lowerDegrees} (H), of the tau^i
     * Z(tau) / delta for i below n - 1 moved to the key's basis.
     */
    private boolean divided(PhaseTwoKeyFile init, int type, boolean lowerDegrees, Work work) {
        long[][] r = combinations(init, type, lowerDegrees, work);
        return r == null || sameRatio(r[0], r[1], key.header[5], init.header[5]);
    }

    /** The same random combination of a section's points in the fresh key and in this one (null: both infinity). */
    private long[][] combinations(PhaseTwoKeyFile init, int type, boolean lowerDegrees, Work work) {
        WeierstrassCurve c = curve.g1();
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(curve.g1Group()).withoutSubgroupCheck();
        int size = codec.pointBytes();
        long count = key.section(type).byteSize() / size;
        if (count == 0) {
            return null;
        }
        PointArithmetic pa = c.arithmetic();
        long[] r1 = new long[c.jacobianWidth()];
        long[] r2 = new long[c.jacobianWidth()];
        pa.setInfinity(r1, 0);
        pa.setInfinity(r2, 0);
        Msm msm = Msm.on(c);
        if (lowerDegrees) {
            LOWER_DEGREE_CHECKS.incrementAndGet();
        }
        long[] hScalars = lowerDegrees ? hScalars((int) count) : null;
        int chunk = 1 << 16;
        for (long base = 0; base < count; base += chunk) {
            int m = (int) Math.min(chunk, count - base);
            long[] scalars = new long[4 * m];
            for (int i = 0; i < m; i++) {
                scalars[4 * i] = random.nextLong();
            }
            if (hScalars != null) {
                System.arraycopy(hScalars, (int) base * 4, scalars, 0, 4 * m);
            }
            MemorySegment a = init.section(type);
            MemorySegment b = key.section(type);
            try {
                codec.validateAll(b, base * size, m);
            } catch (PointEncodingException e) {
                throw key.error(type, "from point #" + base + ": " + e.getMessage());
            }
            pa.add(r1, 0, msm.multiply(a, base * size, scalars, 0, m), 0, r1, 0);
            pa.add(r2, 0, msm.multiply(b, base * size, scalars, 0, m), 0, r2, 0);
            if (!lowerDegrees) {   // the progress counts the first check of each section
                work.add(2L * m);
            }
        }
        if (pa.isInfinity(r1, 0) && pa.isInfinity(r2, 0)) {
            return null;
        }
        long[][] out = {new long[c.affineWidth()], new long[c.affineWidth()]};
        pa.toAffine(r1, 0, out[0], 0);
        pa.toAffine(r2, 0, out[1], 0);
        return out;
    }

    /**
     * Scalars for H (n points, the odd Lagrange points of the doubled domain over delta) that combine
     * them as random coefficients r_i would combine tau^i Z(tau) / delta for i &lt; n-1 only: the
     * forward transform of r_i (-2) w^i, w of order 2n, with r_(n-1) = 0, as snarkjs checks H. A key
     * imported from bellman's MPC parameters has no point of degree n-1 (a proof never uses it), so
     * it differs from the fresh key's there; canonical words, four a scalar.
     */
    private long[] hScalars(int n) {
        PrimeField fr = curve.fr();
        int log = Integer.numberOfTrailingZeros(n);
        int w = fr.width();
        long[] r = new long[n * w];
        long[] factor = fr.fromBigInteger(fr.modulus().subtract(BigInteger.TWO));
        long[] step = RootsOfUnity.primitive(fr, log + 1);
        for (int i = 0; i < n - 1; i++) {
            fr.mul(fr.fromLong(random.nextLong() >>> 1), 0, factor, 0, r, i * w);
            fr.mul(factor, 0, step, 0, factor, 0);
        }
        Ntt.of(fr, log).forward(r);
        long[] out = new long[4 * n];
        long[] t = new long[w];
        for (int i = 0; i < n; i++) {
            fr.fromMontgomery(r, i * w, t, 0);
            System.arraycopy(t, 0, out, 4 * i, Math.min(4, w));
        }
        return out;
    }

    private List<String> report() {
        List<String> lines = new ArrayList<>();
        lines.add(HexFormatting.hashBlock("Circuit Hash: ", key.circuitHash));
        for (int i = key.contributions.size() - 1; i >= 0; i--) {
            KeyContribution c = key.contributions.get(i);
            lines.add("-------------------------");
            lines.add(HexFormatting.hashBlock("contribution #" + (i + 1) + " " + (c.name() == null ? "" : c.name())
                    + ":", c.hash(curve)));
            if (c.isBeacon()) {
                lines.add("Beacon generator: " + HexFormatting.hex(c.beaconHash()));
                lines.add("Beacon iterations Exp: " + c.iterationsExp());
            }
        }
        lines.add("-------------------------");
        lines.add("ZKey Ok!");
        return lines;
    }

    /** e(a1, b2) = e(b1, a2), none of them infinity. */
    private boolean sameRatio(long[] a1, long[] b1, long[] a2, long[] b2) {
        PointArithmetic p1 = curve.g1().arithmetic();
        PointArithmetic p2 = curve.g2().arithmetic();
        if (p1.isInfinityAffine(a1, 0) || p1.isInfinityAffine(b1, 0) || p2.isInfinityAffine(a2, 0)
                || p2.isInfinityAffine(b2, 0)) {
            return false;
        }
        long[] negB1 = new long[b1.length];
        p1.negAffine(b1, 0, negB1, 0);
        return curve.pairing().pairingProductIsOne(new long[][] {a1, negB1}, new long[][] {b2, a2});
    }

    private void require(int section, boolean ok, String problem) {
        if (!ok) {
            throw key.error(section, problem);
        }
    }
}
