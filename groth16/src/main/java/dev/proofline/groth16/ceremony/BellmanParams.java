package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.RootsOfUnity;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A phase-2 key in the MPC parameters format of the bellman ceremony tools (phase2-bn254 and its
 * kin), as {@code snarkjs zkey export bellman} writes it and {@code snarkjs zkey import bellman}
 * reads it back after contributions made with those tools. Every point uncompressed (big-endian x
 * then y, infinity all zeros), every count a big-endian u32:
 * <pre>
 *   alpha1, beta1, beta2, gamma2, delta1, delta2
 *   IC:  count, points             the key's section 3
 *   H:   count n-1, points         tau^i Z(tau) / delta, i &lt; n-1 (the key keeps their Lagrange form)
 *   L:   count, points             the key's section 8 (C)
 *   A, B1 (G1), B2 (G2): count, points, each nVars
 *   circuit hash (64 bytes), count of contributions, each: delta after, s G1, d s G1, d s' G2,
 *   transcript (64 bytes)
 * </pre>
 * The key's H (section 9) holds the odd Lagrange points of the doubled domain, L'_(2i+1)(tau) / delta;
 * the forward transform of those, scaled by -2 w^i (w of order 2n), is the tau^i Z(tau) / delta of
 * the format, and the other way round on import (its last point, of degree n-1, is zero).
 * Contributions' names and beacon parameters are not in the format: an import keeps those of the
 * contributions the old key has, and names the new ones as asked. {@link BellmanContribution} adds a
 * contribution to parameters in this format.
 */
public final class BellmanParams {

    private static final int CHUNK = 1 << 14;

    private BellmanParams() {
    }

    /**
     * Writes the MPC parameters of {@code zkey} to {@code out}. Resumable: a run that stops leaves the parts
     * it finished (the six header points, IC, H, L, A, B1, B2, the contributions) in {@code <out>.partial},
     * and the next run on the same key keeps them.
     */
    public static void export(Path zkey, Path out, Consumer<String> log) throws IOException {
        String identity = Leftovers.identity("zkey export bellman", zkey);
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(zkey)) {
            PairingCurve curve = key.curve;
            PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
            PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
            WholeFile.resumable(out, identity, log, file -> {
                file.part("alpha1, beta1, beta2, gamma2, delta1, delta2", o -> {
                    PointBytes[] headerGroups = {g1, g1, g2, g2, g1, g2};
                    for (int i = 0; i < 6; i++) {
                        o.write(headerGroups[i].uncompressed(key.header[i], 0));
                    }
                    return null;
                });
                section(key, PhaseTwoKeyFile.IC, g1, file, log);
                int n = key.domainSize;
                int log2 = Integer.numberOfTrailingZeros(n);
                Work work = new Work(log, Work.transform(log2, true));
                MemorySegment keptH = file.part("H", o -> {
                    MemorySegment h = key.section(PhaseTwoKeyFile.H);
                    u32(o, n - 1);
                    byte[] bytes = new byte[GroupFft.OUT_CHUNK * g1.size()];
                    int aw = curve.g1().affineWidth();
                    int[] written = {0};
                    GroupFft.transform(curve, false, log2, false, null, new GroupFft.Geometric(
                            curve.fr().modulus().subtract(BigInteger.TWO), root(curve, log2 + 1)),
                            (j, dst, off) -> g1.fromStored(h, (long) j * g1.size(), dst, off),
                            (affine, count) -> {
                                int keep = Math.min(count, n - 1 - written[0]);   // not the last: zero degree n-1
                                for (int i = 0; i < keep; i++) {
                                    g1.uncompressed(affine, i * aw, bytes, i * g1.size());
                                }
                                o.write(bytes, 0, keep * g1.size());
                                written[0] += count;
                            }, work::add);
                    return null;
                });
                if (keptH == null) {
                    log.accept("exported H: " + (n - 1) + " points");
                }
                work.finish();
                section(key, PhaseTwoKeyFile.C, g1, file, log);
                section(key, PhaseTwoKeyFile.A, g1, file, log);
                section(key, PhaseTwoKeyFile.B1, g1, file, log);
                section(key, PhaseTwoKeyFile.B2, g2, file, log);
                file.part("contributions", o -> {
                    contributions(o, curve, key.circuitHash, key.contributions);
                    return null;
                });
                return null;
            });
        }
    }

    /** The root of unity of order 2^log as snarkjs's Fr.w[log], canonical. */
    private static BigInteger root(PairingCurve curve, int log) {
        PrimeField fr = curve.fr();
        return fr.toBigInteger(RootsOfUnity.primitive(fr, log), 0);
    }

    /** A key section's points, count first, uncompressed: a part of the file, kept where an earlier run wrote it. */
    private static void section(PhaseTwoKeyFile key, int type, PointBytes g, WholeFile.Out file, Consumer<String> log)
            throws IOException {
        MemorySegment seg = key.section(type);
        long count = seg.byteSize() / g.size();
        MemorySegment kept = file.part(NAMES.get(type), o -> {
            u32(o, (int) count);
            long[] p = new long[g.curve().affineWidth()];
            byte[] bytes = new byte[CHUNK * g.size()];
            for (long base = 0; base < count; base += CHUNK) {
                int m = (int) Math.min(CHUNK, count - base);
                for (int i = 0; i < m; i++) {
                    g.fromStored(seg, (base + i) * g.size(), p, 0);
                    g.uncompressed(p, 0, bytes, i * g.size());
                }
                o.write(bytes, 0, m * g.size());
            }
            return null;
        });
        if (kept == null) {
            log.accept("exported " + NAMES.get(type) + ": " + count + " points");
        }
    }

    private static final Map<Integer, String> NAMES = Map.of(PhaseTwoKeyFile.IC, "IC",
            PhaseTwoKeyFile.C, "L", PhaseTwoKeyFile.A, "A", PhaseTwoKeyFile.B1, "B1", PhaseTwoKeyFile.B2, "B2");

    static void u32(OutputStream o, int v) throws IOException {
        o.write(new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
    }

    /** The format's tail: the circuit hash, the count of contributions and each one's points and transcript. */
    static void contributions(OutputStream o, PairingCurve curve, byte[] circuitHash, List<KeyContribution> all)
            throws IOException {
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        o.write(circuitHash);
        u32(o, all.size());
        for (KeyContribution c : all) {
            o.write(g1.uncompressed(c.deltaAfter(), 0));
            o.write(g1.uncompressed(c.g1s(), 0));
            o.write(g1.uncompressed(c.g1sx(), 0));
            o.write(g2.uncompressed(c.g2spx(), 0));
            o.write(c.transcript());
        }
    }

    /**
     * Writes {@code newZkey}: {@code oldZkey} with delta, H and L from {@code mpcParams}, MPC parameters
     * that continue its chain of contributions (the same circuit hash, its contributions first, unchanged),
     * the new contributions named {@code name} (may be null). Like snarkjs, this does not check the new
     * contributions: {@code zkey verify} does. Returns the number of contributions added. Resumable: a run
     * that stops leaves the sections it finished in {@code <newZkey>.partial}, and the next run on the same
     * files with the same name keeps them.
     */
    public static int importParams(Path oldZkey, Path mpcParams, Path newZkey, String name, Consumer<String> log)
            throws IOException {
        String identity = Leftovers.identity(Leftovers.parameters("zkey import bellman", name, null, 0), oldZkey,
                mpcParams);
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(oldZkey); Arena arena = Arena.ofShared();
                FileChannel ch = FileChannel.open(mpcParams, StandardOpenOption.READ)) {
            PairingCurve curve = key.curve;
            PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
            PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
            MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            MpcParamsReader r = new MpcParamsReader(mpcParams, m);
            r.skip(2L * g1.size() + 2L * g2.size(), "alpha1, beta1, beta2, gamma2");
            long[] delta1 = r.point(g1, "delta1");
            long[] delta2 = r.point(g2, "delta2");
            int n = key.domainSize;
            long nVars = key.nVars;
            long nL = nVars - key.nPublic - 1;
            r.points(g1, key.nPublic + 1L, "IC");
            long hAt = r.points(g1, n - 1L, "H");
            long lAt = r.points(g1, nL, "L");
            r.points(g1, nVars, "A");
            r.points(g1, nVars, "B1");
            r.points(g2, nVars, "B2");
            byte[] circuitHash = r.bytes(64, "circuit hash");
            List<KeyContribution> cs = new ArrayList<>();
            for (KeyContribution c : r.contributions(g1, g2)) {
                KeyContribution old = cs.size() < key.contributions.size() ? key.contributions.get(cs.size()) : null;
                cs.add(old != null ? c.withParameters(old.type(), old.name(), old.iterationsExp(), old.beaconHash())
                        : c.withParameters(KeyContribution.CONTRIBUTION, name, 0, null));
            }
            if (!Arrays.equals(circuitHash, key.circuitHash)) {
                throw r.error("circuit hash", "is not the circuit hash of " + oldZkey
                        + ": these parameters are another circuit's");
            }
            if (cs.size() < key.contributions.size()) {
                throw r.error("contributions", cs.size() + ", fewer than the " + key.contributions.size() + " of "
                        + oldZkey);
            }
            for (int i = 0; i < key.contributions.size(); i++) {
                if (!same(curve, key.contributions.get(i), cs.get(i))) {
                    throw r.error("contribution #" + (i + 1), "is not the one " + oldZkey + " has");
                }
            }
            try (PtauWriter w = PtauWriter.resumable(newZkey, "zkey", 10, identity)) {
                w.resuming(log);
                PhaseTwo.headers(w, key, delta1, delta2);
                PhaseTwo.copySections(w, key, PhaseTwoKeyFile.IC, PhaseTwoKeyFile.COEFFICIENTS);
                Work work = new Work(log, Work.transform(Integer.numberOfTrailingZeros(n), true) + n);
                if (!w.kept(PhaseTwoKeyFile.H, "H", log)) {
                    w.begin(PhaseTwoKeyFile.H);
                    importH(curve, g1, r, hAt, n, w, work);
                    w.end();
                    log.accept("imported H: " + (n - 1) + " points");
                }
                work.finish();
                if (!w.kept(PhaseTwoKeyFile.C, "L", log)) {
                    w.begin(PhaseTwoKeyFile.C);
                    copyPoints(g1, r, lAt, nL, "L", w);
                    w.end();
                    log.accept("imported L: " + nL + " points");
                }
                PhaseTwo.copySections(w, key, PhaseTwoKeyFile.A, PhaseTwoKeyFile.B1, PhaseTwoKeyFile.B2);
                if (!w.finished(PhaseTwoKeyFile.CONTRIBUTIONS)) {
                    PhaseTwo.writeContributions(w, curve, key.circuitHash, cs);
                }
                w.commit();
            }
            return cs.size() - key.contributions.size();
        }
    }

    private static boolean same(PairingCurve curve, KeyContribution a, KeyContribution b) {
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        return Arrays.equals(g1.uncompressed(a.deltaAfter(), 0), g1.uncompressed(b.deltaAfter(), 0))
                && Arrays.equals(g1.uncompressed(a.g1s(), 0), g1.uncompressed(b.g1s(), 0))
                && Arrays.equals(g1.uncompressed(a.g1sx(), 0), g1.uncompressed(b.g1sx(), 0))
                && Arrays.equals(g2.uncompressed(a.g2spx(), 0), g2.uncompressed(b.g2spx(), 0))
                && Arrays.equals(a.transcript(), b.transcript());
    }

    /** H in the key's form: the n-1 points at {@code at}, and a zero one, scaled by -w^(-j)/2 and transformed back. */
    private static void importH(PairingCurve curve, PointBytes g1, MpcParamsReader r, long at, int n, PtauWriter w,
            Work work) throws IOException {
        BigInteger q = curve.fr().modulus();
        BigInteger minusHalf = q.subtract(BigInteger.TWO.modInverse(q));
        int log2 = Integer.numberOfTrailingZeros(n);
        int aw = curve.g1().affineWidth();
        byte[] bytes = new byte[GroupFft.OUT_CHUNK * g1.size()];
        GroupFft.transform(curve, false, log2, true, new GroupFft.Geometric(minusHalf,
                root(curve, log2 + 1).modInverse(q)), null, (j, dst, off) -> {
                    if (j < n - 1) {
                        r.pointAt(g1, at + (long) j * g1.size(), "H point #" + j, dst, off);
                    } else {
                        Arrays.fill(dst, off, off + aw, 0L);
                    }
                }, (affine, count) -> {
                    for (int i = 0; i < count; i++) {
                        g1.stored(affine, i * aw, bytes, i * g1.size());
                    }
                    w.write(bytes, 0, count * g1.size());
                }, work::add);
    }

    private static void copyPoints(PointBytes g, MpcParamsReader r, long at, long count, String what, PtauWriter w)
            throws IOException {
        long[] p = new long[g.curve().affineWidth()];
        byte[] bytes = new byte[CHUNK * g.size()];
        for (long base = 0; base < count; base += CHUNK) {
            int m = (int) Math.min(CHUNK, count - base);
            for (int i = 0; i < m; i++) {
                r.pointAt(g, at + (base + i) * g.size(), what + " point #" + (base + i), p, 0);
                g.stored(p, 0, bytes, i * g.size());
            }
            w.write(bytes, 0, m * g.size());
        }
    }
}
