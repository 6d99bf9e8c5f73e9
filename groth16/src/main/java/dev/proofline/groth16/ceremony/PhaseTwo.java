package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.encoding.PointEncodingException;
import dev.proofline.algebra.encoding.SnarkjsBinaryCodec;
import dev.proofline.algebra.field.PrimeField;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The second phase of the ceremony on a .zkey, as snarkjs does it: a contribution multiplies delta
 * (delta1, delta2 in the header) by a secret d and divides the points that carry 1/delta (C, the L
 * of the paper, and H) by it, and appends its record to section 10 (see {@link KeyContribution}):
 * <pre>
 *   d, s G1 drawn from the contribution's ChaCha stream      (in that order)
 *   transcript = BLAKE2b(circuit hash || earlier public keys || s G1 || d s G1)
 *   s' G2      = a point drawn from ChaCha seeded by the transcript
 *   delta' = d delta,  C_j' = C_j / d,  H_i' = H_i / d,  and the proof of knowledge (s, d s, d s')
 * </pre>
 * A beacon takes its stream from the beacon hash, so it is deterministic. Output sections are
 * written in order 1 to 10; the secret is overwritten once the file is written (its scalar
 * multiples go through {@link BigInteger}, which cannot be wiped).
 */
public final class PhaseTwo {

    private static final int CHUNK = 1 << 14;

    /** What snarkjs prints after a contribution: the circuit hash and the contribution's hash. */
    public record Result(byte[] circuitHash, byte[] contributionHash) {
    }

    private PhaseTwo() {
    }

    /** Contributes a secret drawn from the system's secure source mixed with {@code entropy}. */
    public static Result contribute(Path in, Path out, String name, String entropy, Consumer<String> log)
            throws IOException {
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(in)) {
            return apply(key, out, ContributionKey.randomStream(entropy), KeyContribution.CONTRIBUTION, name, 0,
                    null, null, log);
        }
    }

    /**
     * A contribution from a public beacon: SHA-256 iterated 2^iterationsExp times over the hash seeds it.
     * Resumable, as its secret is public: a run that stops leaves the sections it finished in
     * {@code <out>.partial}, and the next run on the same input with the same beacon and name keeps them.
     */
    public static Result beacon(Path in, Path out, String name, String beaconHashHex, int iterationsExp,
            Consumer<String> log) throws IOException {
        byte[] beacon = PowersOfTau.beaconHash(beaconHashHex);
        if (iterationsExp < 10 || iterationsExp > 63) {
            throw new IllegalArgumentException("the iteration exponent must be in 10..63, not " + iterationsExp);
        }
        String identity = Leftovers.identity(Leftovers.parameters("zkey beacon", name, beacon, iterationsExp), in);
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(in)) {
            return apply(key, out, ContributionKey.beaconStream(beacon, iterationsExp), KeyContribution.BEACON,
                    name, iterationsExp, beacon, identity, log);
        }
    }

    /** The transcript hash before the next contribution's own points: circuit hash and earlier keys. */
    static Blake2b transcriptBefore(PairingCurve curve, byte[] circuitHash, List<KeyContribution> earlier) {
        Blake2b h = new Blake2b().update(circuitHash);
        for (KeyContribution c : earlier) {
            c.hashPublicKey(h, curve);
        }
        return h;
    }

    /**
     * Writes the contribution of the secret drawn from {@code rng} to {@code out}; {@code identity}: the
     * run is resumable and for that ({@link PtauWriter#resumable}), null: it is not (a contribution of a
     * secret, which no file may keep).
     */
    private static Result apply(PhaseTwoKeyFile key, Path out, ChaChaStream rng, int type, String name, int exp,
            byte[] beacon, String identity, Consumer<String> log) throws IOException {
        PairingCurve curve = key.curve;
        PrimeField fr = curve.fr();
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        long[] d = ChaChaSampler.element(fr, rng);
        long[] dInv = fr.newElement();
        try {
            KeyContribution mine = contribution(curve, key.circuitHash, key.contributions, key.header[4], d, rng)
                    .withParameters(type, name, exp, beacon);
            long[] delta1 = mine.deltaAfter();
            long[] delta2 = ContributionKey.times(curve.g2(), key.header[5], fr, d);
            List<KeyContribution> all = new ArrayList<>(key.contributions);
            all.add(mine);
            fr.inv(d, 0, dInv, 0);
            // the kernels' warm-up, if there are points enough for them, beside the copying of sections
            Multiplications.prepare(curve, false, (key.section(PhaseTwoKeyFile.C).byteSize()
                    + key.section(PhaseTwoKeyFile.H).byteSize()) / g1.size());
            try (PtauWriter w = PtauWriter.resumable(out, "zkey", 10, identity)) {
                w.resuming(log);
                headers(w, key, delta1, delta2);
                copySections(w, key, PhaseTwoKeyFile.IC, PhaseTwoKeyFile.COEFFICIENTS, PhaseTwoKeyFile.A,
                        PhaseTwoKeyFile.B1, PhaseTwoKeyFile.B2);
                Work work = new Work(log, (double) (key.section(PhaseTwoKeyFile.C).byteSize()
                        + key.section(PhaseTwoKeyFile.H).byteSize()) / g1.size());
                for (int type0 : new int[] {PhaseTwoKeyFile.C, PhaseTwoKeyFile.H}) {
                    if (w.kept(type0, PhaseTwoKeyFile.NAMES.get(type0), log)) {
                        work.add(key.section(type0).byteSize() / g1.size());
                        continue;
                    }
                    w.begin(type0);
                    Multiplications.Scalar k = Multiplications.of(curve, false, 0).recodeBoth(fr.toBigInteger(dInv, 0));
                    try {
                        multiply(key, type0, g1, k, w, work);
                    } finally {
                        k.wipe();
                    }
                    w.end();
                    log.accept("divided section " + type0 + " by the secret");
                }
                if (!w.finished(PhaseTwoKeyFile.CONTRIBUTIONS)) {
                    writeContributions(w, curve, key.circuitHash, all);
                }
                w.commit();
                work.finish();
            }
            return new Result(key.circuitHash, mine.hash(curve));
        } finally {
            Arrays.fill(d, 0L);
            Arrays.fill(dInv, 0L);
        }
    }

    /**
     * The record of a contribution of the secret d after {@code earlier}, with no name: s G1 drawn from
     * {@code rng}, d s G1, the transcript, d s' G2 with s' G2 drawn from it, and delta1 times d.
     */
    static KeyContribution contribution(PairingCurve curve, byte[] circuitHash, List<KeyContribution> earlier,
            long[] delta1, long[] d, ChaChaStream rng) {
        PrimeField fr = curve.fr();
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        long[] g1s = ChaChaSampler.g1(curve, rng);
        long[] g1sx = ContributionKey.times(curve.g1(), g1s, fr, d);
        Blake2b t = transcriptBefore(curve, circuitHash, earlier);
        byte[] transcript = t.update(g1.uncompressed(g1s, 0)).update(g1.uncompressed(g1sx, 0)).digest();
        long[] g2sp = ChaChaSampler.g2(curve, ChaChaStream.seededBy(transcript));
        long[] g2spx = ContributionKey.times(curve.g2(), g2sp, fr, d);
        long[] deltaAfter = ContributionKey.times(curve.g1(), delta1, fr, d);
        return new KeyContribution(deltaAfter, g1s, g1sx, g2spx, transcript, KeyContribution.CONTRIBUTION, null, 0,
                null);
    }

    /** Copies {@code key}'s sections of these types as they are, but those an earlier run finished. */
    static void copySections(PtauWriter w, PhaseTwoKeyFile key, int... types) throws IOException {
        for (int type : types) {
            if (!w.finished(type)) {
                w.begin(type);
                w.copy(key.section(type));
                w.end();
            }
        }
    }

    /**
     * Sections 1 and 2 of a key with a new delta: the old key's header with delta1 and delta2 replaced;
     * either one that an earlier run finished is kept.
     */
    static void headers(PtauWriter w, PhaseTwoKeyFile key, long[] delta1, long[] delta2) throws IOException {
        PointBytes g1 = new PointBytes(key.curve.g1(), key.curve.fp());
        PointBytes g2 = new PointBytes(key.curve.g2(), key.curve.fp());
        if (!w.finished(1)) {
            w.begin(1);
            w.u32(1);
            w.end();
        }
        if (w.finished(2)) {
            return;
        }
        w.begin(2);
        MemorySegment h = key.section(2);
        w.copy(h.asSlice(0, h.byteSize() - g1.size() - g2.size()));
        point(w, g1, delta1);
        point(w, g2, delta2);
        w.end();
    }

    private static void point(PtauWriter w, PointBytes g, long[] p) throws IOException {
        byte[] b = new byte[g.size()];
        g.stored(p, 0, b, 0);
        w.write(b);
    }

    /**
     * Writes every point of a G1 section times k, checking each is on the curve (a point outside the
     * subgroup, which only a forged key holds, gives a point that {@code zkey verify} refuses).
     */
    private static void multiply(PhaseTwoKeyFile key, int type, PointBytes g, Multiplications.Scalar k, PtauWriter w,
            Work work) throws IOException {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(key.curve.g1Group()).withoutSubgroupCheck();
        MemorySegment seg = key.section(type);
        long count = seg.byteSize() / g.size();
        int aw = g.curve().affineWidth();
        for (long base = 0; base < count; base += CHUNK) {
            int m = (int) Math.min(CHUNK, count - base);
            long[] in;
            try {
                in = codec.decodeAll(seg, base * g.size(), m);
            } catch (PointEncodingException e) {
                throw key.error(type, "from point #" + base + ": " + e.getMessage());
            }
            long[] outAffine = timesEach(key.curve, in, m, k);
            byte[] stored = new byte[m * g.size()];
            for (int i = 0; i < m; i++) {
                g.stored(outAffine, i * aw, stored, i * g.size());
            }
            w.write(stored);
            work.add(m);
        }
    }

    /**
     * The m affine G1 points of {@code in} each times k, affine: split across the common pool's threads,
     * each converting its share to affine with one batched inversion.
     */
    static long[] timesEach(PairingCurve curve, long[] in, int m, Multiplications.Scalar k) {
        WeierstrassCurve c = curve.g1();
        int aw = c.affineWidth();
        int jw = c.jacobianWidth();
        long[] outAffine = new long[m * aw];
        int tasks = Math.max(1, Math.min(m / 32, Runtime.getRuntime().availableProcessors() * 4));
        IntStream.range(0, tasks).parallel().forEach(t -> {
            Multiplications mm = Multiplications.of(curve, false, m);
            PointArithmetic pa = mm.scalar().arithmetic();
            int lo = m * t / tasks;
            int hi = m * (t + 1) / tasks;
            long[] jac = new long[(hi - lo) * jw];
            for (int i = lo; i < hi; i++) {
                pa.fromAffine(in, i * aw, jac, (i - lo) * jw);
                mm.mul(jac, (i - lo) * jw, k);
            }
            mm.flush();
            pa.batchToAffine(jac, 0, outAffine, lo * aw, hi - lo);
        });
        return outAffine;
    }

    static void writeContributions(PtauWriter w, PairingCurve curve, byte[] circuitHash,
            List<KeyContribution> all) throws IOException {
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        w.begin(PhaseTwoKeyFile.CONTRIBUTIONS);
        w.write(circuitHash);
        w.u32(all.size());
        for (KeyContribution c : all) {
            point(w, g1, c.deltaAfter());
            point(w, g1, c.g1s());
            point(w, g1, c.g1sx());
            point(w, g2, c.g2spx());
            w.write(c.transcript());
            w.u32(c.type());
            byte[] params = PtauWriter.parameters(c.name(), c.isBeacon(), c.iterationsExp(), c.beaconHash());
            w.u32(params.length);
            w.write(params);
        }
        w.end();
    }
}
