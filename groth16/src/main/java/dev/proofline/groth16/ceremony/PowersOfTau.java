package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The first phase of the ceremony, on .ptau files that snarkjs reads and writes: a new accumulator
 * (every power of tau is the generator), a contribution (each point multiplied by the contributor's
 * tau^i, alpha tau^i or beta tau^i), and a beacon (a contribution whose secrets come from a public
 * random value). The transcript follows snarkjs: the response hash is BLAKE2b-512 of the previous
 * challenge, every new point compressed and the public key uncompressed; the next challenge is
 * BLAKE2b-512 of the response hash and every new point uncompressed.
 */
public final class PowersOfTau {

    /** Points multiplied per parallel step, and the sections' order for the hashes. */
    private static final int CHUNK = 1 << 12;
    static final int[] SECTIONS = {PtauFile.TAU_G1, PtauFile.TAU_G2, PtauFile.ALPHA_TAU_G1,
        PtauFile.BETA_TAU_G1, PtauFile.BETA_G2};

    private PowersOfTau() {
    }

    /** Writes a new accumulator of 2^power; returns the first challenge hash. */
    public static byte[] newAccumulator(PairingCurve curve, int power, Path out) throws IOException {
        int max = curve.fr().twoAdicity() - 1;
        if (power < 1 || power > max) {
            throw new IllegalArgumentException("power must be in 1.." + max + " for " + curve.snarkjsName());
        }
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        byte[] one1 = new byte[g1.size()];
        byte[] one2 = new byte[g2.size()];
        g1.stored(curve.g1().generator(), 0, one1, 0);
        g2.stored(curve.g2().generator(), 0, one2, 0);
        try (PtauWriter w = new PtauWriter(out, 7)) {
            w.header(curve, power);
            long[] counts = counts(power);
            for (int s = 0; s < 5; s++) {
                w.begin(SECTIONS[s]);
                byte[] one = SECTIONS[s] == PtauFile.TAU_G2 || SECTIONS[s] == PtauFile.BETA_G2 ? one2 : one1;
                for (long i = 0; i < counts[s]; i++) {
                    w.write(one);
                }
                w.end();
            }
            w.contributions(curve, List.of());
            w.commit();
        }
        return firstChallenge(curve, power);
    }

    /**
     * The challenge before the first contribution: BLAKE2b of the empty input's BLAKE2b and every
     * point of a new accumulator of 2^power, uncompressed.
     */
    public static byte[] firstChallenge(PairingCurve curve, int power) {
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        byte[] one1 = g1.uncompressed(curve.g1().generator(), 0);
        byte[] one2 = g2.uncompressed(curve.g2().generator(), 0);
        Blake2b h = new Blake2b().update(new Blake2b().digest());
        long n = 1L << power;
        repeat(h, one1, 2 * n - 1);
        repeat(h, one2, n);
        repeat(h, one1, n);
        repeat(h, one1, n);
        h.update(one2);
        return h.digest();
    }

    private static void repeat(Blake2b h, byte[] p, long times) {
        int per = Math.max(1, (1 << 16) / p.length);
        byte[] block = new byte[per * p.length];
        for (int i = 0; i < per; i++) {
            System.arraycopy(p, 0, block, i * p.length, p.length);
        }
        long left = times;
        while (left > 0) {
            int k = (int) Math.min(per, left);
            h.update(block, 0, k * p.length);
            left -= k;
        }
    }

    /** The result of a contribution: its response hash and the new challenge. */
    public record Result(byte[] responseHash, byte[] nextChallenge) {
    }

    /** Contributes secrets drawn from the system's secure source and {@code entropy} to {@code in}. */
    public static Result contribute(Path in, Path out, String name, String entropy, Consumer<String> log)
            throws IOException {
        try (PtauFile ptau = PtauFile.open(in)) {
            byte[] challenge = lastChallenge(ptau);
            try (ContributionKey key = ContributionKey.fromRng(ptau.curve(), challenge,
                    ContributionKey.randomStream(entropy))) {
                return apply(ptau, out, key, challenge, name, Contribution.CONTRIBUTION, 0, null, null, log);
            }
        }
    }

    /**
     * Applies a beacon: secrets from SHA-256 iterated 2^iterationsExp times over {@code beaconHashHex}
     * (hexadecimal, 1 to 255 bytes; the exponent 10 to 63), as snarkjs does, so anyone can recompute them.
     * Resumable, as its secrets are public: a run that stops leaves the sections it finished in
     * {@code <out>.partial}, and the next run on the same input with the same beacon and name keeps them.
     */
    public static Result beacon(Path in, Path out, String name, String beaconHashHex, int iterationsExp,
            Consumer<String> log) throws IOException {
        byte[] beacon = beaconHash(beaconHashHex);
        if (iterationsExp < 10 || iterationsExp > 63) {
            throw new IllegalArgumentException("the iteration exponent must be in 10..63, not " + iterationsExp);
        }
        String identity = Leftovers.identity(Leftovers.parameters("powersoftau beacon", name, beacon, iterationsExp),
                in);
        try (PtauFile ptau = PtauFile.open(in)) {
            byte[] challenge = lastChallenge(ptau);
            try (ContributionKey key = ContributionKey.fromRng(ptau.curve(), challenge,
                    ContributionKey.beaconStream(beacon, iterationsExp))) {
                return apply(ptau, out, key, challenge, name, Contribution.BEACON, iterationsExp, beacon, identity,
                        log);
            }
        }
    }

    static byte[] beaconHash(String hex) {
        String h = hex.startsWith("0x") ? hex.substring(2) : hex;
        byte[] b;
        try {
            b = HexFormat.of().parseHex(h);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the beacon hash must be hexadecimal: " + hex);
        }
        if (b.length == 0 || b.length > 255) {
            throw new IllegalArgumentException("the beacon hash must be 1 to 255 bytes, not " + b.length);
        }
        return b;
    }

    static byte[] lastChallenge(PtauFile ptau) {
        if (ptau.power() != ptau.ceremonyPower()) {
            throw ptau.error(PtauFile.HEADER, "reduced to power " + ptau.power() + " of a ceremony of power "
                    + ptau.ceremonyPower() + ": contributions go to the ceremony's own file");
        }
        List<Contribution> cs = ptau.contributions();
        return cs.isEmpty() ? firstChallenge(ptau.curve(), ptau.power()) : cs.getLast().nextChallenge();
    }

    /**
     * Writes the contribution of {@code key} to {@code out}; {@code identity}: the run is resumable and
     * for that ({@link PtauWriter#resumable}), null: it is not (a contribution of secrets, which no file
     * may keep). A section an earlier run finished is hashed again from the file, not computed.
     */
    private static Result apply(PtauFile ptau, Path out, ContributionKey key, byte[] challenge, String name,
            int type, int exp, byte[] beacon, String identity, Consumer<String> log) throws IOException {
        PairingCurve curve = ptau.curve();
        PrimeField fr = curve.fr();
        Blake2b response = new Blake2b().update(challenge);
        long[][] first = new long[5][];
        MemorySegment[] written = new MemorySegment[5];
        try (PtauWriter w = PtauWriter.resumable(out, "ptau", 7, identity)) {
            if (!w.resuming(log)) {
                w.header(curve, ptau.power());
            }
            long[] counts = counts(ptau.power());
            long[] one = fr.one();
            long[][] factors = {one, one, key.alpha(), key.beta(), key.beta()};
            double total = 0;
            for (int s = 0; s < 5; s++) {
                total += counts[s] * weight(SECTIONS[s]);
            }
            Work work = new Work(log, total);
            for (int s = 0; s < 5; s++) {
                int type0 = SECTIONS[s];
                PointBytes g = group(curve, type0);
                int weight = weight(type0);
                int keep = type0 == PtauFile.TAU_G1 || type0 == PtauFile.TAU_G2 ? 1 : 0;
                if (w.kept(type0, PtauFile.NAMES.get(type0), log)) {
                    written[s] = w.finishedSection(type0);
                    first[s] = new long[g.curve().affineWidth()];
                    g.fromStored(written[s], (long) keep * g.size(), first[s], 0);
                    hashPoints(written[s], g, counts[s], response, null, true);
                    work.add(counts[s] * weight);
                    continue;
                }
                w.begin(type0);
                long at = w.sectionStart();
                first[s] = multiply(curve, ptau.section(type0), g, counts[s], factors[s], key.tau(), fr, w, response,
                        keep, m -> work.add(weight * m));
                w.end();
                written[s] = w.mapWritten(at, counts[s] * g.size());
                log.accept("contributed to " + PtauFile.NAMES.get(type0) + ": " + counts[s] + " points");
            }
            byte[] partial = response.state();
            response.update(PtauWriter.publicKey(curve, key.publicKey(), true));
            byte[] responseHash = response.digest();
            Blake2b next = new Blake2b().update(responseHash);
            for (int s = 0; s < 5; s++) {
                hashUncompressed(written[s], group(curve, SECTIONS[s]), counts[s], next);
            }
            byte[] nextChallenge = next.digest();
            if (!w.finished(PtauFile.CONTRIBUTIONS)) {
                List<Contribution> cs = new ArrayList<>(ptau.contributions());
                cs.add(new Contribution(first[0], first[1], first[2], first[3], first[4], key.publicKey(), partial,
                        nextChallenge, type, name, exp, beacon));
                w.contributions(curve, cs);
            }
            w.commit();
            work.finish();
            return new Result(responseHash, nextChallenge);
        }
    }

    /**
     * Writes point i of {@code in} times factor tau^i for i < count, feeding their compressed forms
     * to {@code hash}; returns the new point at {@code keep}.
     */
    /** A section's work a point: a multiplication in G2 costs about three in G1. */
    private static int weight(int type) {
        return Work.weight(type == PtauFile.TAU_G2 || type == PtauFile.BETA_G2);
    }

    private static long[] multiply(PairingCurve curve, MemorySegment in, PointBytes g, long count, long[] factor, long[] tau,
            PrimeField fr, PtauWriter w, Blake2b hash, int keep, java.util.function.LongConsumer work) throws IOException {
        WeierstrassCurve c = g.curve();
        int aw = c.affineWidth();
        long[] kept = null;
        long[] t = factor.clone();
        long[] scalars = new long[CHUNK * 4];
        for (long base = 0; base < count; base += CHUNK) {
            int m = (int) Math.min(CHUNK, count - base);
            for (int i = 0; i < m; i++) {
                System.arraycopy(t, 0, scalars, i * 4, 4);
                fr.mul(t, 0, tau, 0, t, 0);
            }
            long[] out = new long[m * aw];
            long from = base;
            int tasks = Math.max(1, Math.min(m / 64, Runtime.getRuntime().availableProcessors() * 4));
            IntStream.range(0, tasks).parallel().forEach(k -> {
                int lo = (int) ((long) m * k / tasks);
                int hi = (int) ((long) m * (k + 1) / tasks);
                Multiplications mm = Multiplications.of(curve, c == curve.g2(), count);
                PointArithmetic pa = mm.scalar().arithmetic();
                int jw = c.jacobianWidth();
                byte[] raw = new byte[g.size()];
                long[] p = new long[aw];
                long[] jac = new long[(hi - lo) * jw];
                for (int i = lo; i < hi; i++) {
                    MemorySegment.copy(in, ValueLayout.JAVA_BYTE, (from + i) * g.size(), raw, 0, raw.length);
                    g.fromStored(raw, 0, p, 0);
                    pa.fromAffine(p, 0, jac, (i - lo) * jw);
                    mm.mul(jac, (i - lo) * jw, fr.toBigInteger(scalars, i * 4));
                }
                mm.flush();
                pa.batchToAffine(jac, 0, out, lo * aw, hi - lo);
            });
            java.util.Arrays.fill(scalars, 0L);
            work.accept(m);
            byte[] stored = new byte[m * g.size()];
            byte[] compressed = new byte[m * g.compressedSize()];
            for (int i = 0; i < m; i++) {
                g.stored(out, i * aw, stored, i * g.size());
                g.compressed(out, i * aw, compressed, i * g.compressedSize());
            }
            w.write(stored);
            hash.update(compressed);
            if (keep >= base && keep < base + m) {
                kept = java.util.Arrays.copyOfRange(out, (int) (keep - base) * aw, (int) (keep - base + 1) * aw);
            }
        }
        java.util.Arrays.fill(t, 0L);
        return kept;
    }

    /** Feeds the uncompressed form of {@code count} stored points to {@code hash}. */
    static void hashUncompressed(MemorySegment seg, PointBytes g, long count, Blake2b hash) {
        try {
            hashUncompressed(seg, g, count, hash, null);
        } catch (IOException e) {
            throw new AssertionError("no output to fail", e);
        }
    }

    /** As {@link #hashUncompressed(MemorySegment, PointBytes, long, Blake2b)}, writing that form to {@code out} too (unless null). */
    static void hashUncompressed(MemorySegment seg, PointBytes g, long count, Blake2b hash, java.io.OutputStream out)
            throws IOException {
        hashPoints(seg, g, count, hash, out, false);
    }

    /**
     * Feeds {@code count} stored points to {@code hash} uncompressed, or {@code compressed} (as a response
     * holds them), and writes that form to {@code out} too (unless null).
     */
    private static void hashPoints(MemorySegment seg, PointBytes g, long count, Blake2b hash, java.io.OutputStream out,
            boolean compressed) throws IOException {
        int aw = g.curve().affineWidth();
        int size = compressed ? g.compressedSize() : g.size();
        byte[] raw = new byte[g.size()];
        long[] p = new long[aw];
        byte[] block = new byte[Math.min((int) count, CHUNK) * size];
        for (long base = 0; base < count; base += CHUNK) {
            int m = (int) Math.min(CHUNK, count - base);
            for (int i = 0; i < m; i++) {
                MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, (base + i) * g.size(), raw, 0, raw.length);
                g.fromStored(raw, 0, p, 0);
                if (compressed) {
                    g.compressed(p, 0, block, i * size);
                } else {
                    g.uncompressed(p, 0, block, i * size);
                }
            }
            hash.update(block, 0, m * size);
            if (out != null) {
                out.write(block, 0, m * size);
            }
        }
    }

    /** The points of each section of {@link #SECTIONS} in a ceremony of 2^power. */
    static long[] counts(int power) {
        long n = 1L << power;
        return new long[] {2 * n - 1, n, n, n, 1};
    }

    /** The encodings of the points of a section (G2 for tau G2 and beta G2, G1 otherwise). */
    static PointBytes group(PairingCurve curve, int section) {
        boolean isG2 = section == PtauFile.TAU_G2 || section == PtauFile.BETA_G2;
        return new PointBytes(isG2 ? curve.g2() : curve.g1(), curve.fp());
    }
}
