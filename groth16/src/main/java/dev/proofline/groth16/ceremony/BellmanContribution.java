package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.io.FormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A contribution to MPC parameters ({@link BellmanParams} gives the format), as {@code snarkjs zkey
 * bellman contribute} makes it: the same secret d and record as a .zkey contribution ({@link PhaseTwo}),
 * applied to the other format.
 * <pre>
 *   delta1' = d delta1,  delta2' = d delta2,  H_i' = H_i / d,  L_j' = L_j / d
 *   the record appended: delta1', s G1, d s G1, d s' G2 and the transcript, which covers the circuit
 *   hash and the public keys of the records before it
 * </pre>
 * The other points are copied as they are. The format does not name its curve, so the contributor
 * does; parameters of another curve fail at their first point. The file's layout is read to its end
 * before any work, so a truncated file is refused at once; a point of H or L off the curve stops the
 * work, and no response is left. The secret is drawn from the system's secure source mixed with the
 * contributor's text, and overwritten once the file is written.
 */
public final class BellmanContribution {

    private static final int CHUNK = 1 << 14;

    private BellmanContribution() {
    }

    /** Writes {@code response}: {@code challenge} with a contribution added. Returns its hash, as snarkjs prints it. */
    public static byte[] contribute(PairingCurve curve, Path challenge, Path response, String entropy,
            Consumer<String> log) throws IOException {
        try (Arena arena = Arena.ofShared(); FileChannel ch = FileChannel.open(challenge, StandardOpenOption.READ)) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            Layout at = Layout.read(curve, new MpcParamsReader(challenge, m));
            return WholeFile.write(response, o -> write(curve, m, at, ContributionKey.randomStream(entropy), o, log));
        }
    }

    private static byte[] write(PairingCurve curve, MemorySegment m, Layout at, ChaChaStream rng, OutputStream o,
            Consumer<String> log) throws IOException {
        PrimeField fr = curve.fr();
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        long[] d = ChaChaSampler.element(fr, rng);
        long[] dInv = fr.newElement();
        Multiplications.Scalar k = null;
        try {
            KeyContribution mine = PhaseTwo.contribution(curve, at.circuitHash, at.contributions, at.delta1, d, rng);
            long[] delta2 = ContributionKey.times(curve.g2(), at.delta2, fr, d);
            fr.inv(d, 0, dInv, 0);
            k = Multiplications.of(curve, false, 0).recodeBoth(fr.toBigInteger(dInv, 0));

            copy(m, 0, 2L * g1.size() + 2L * g2.size(), o);   // alpha1, beta1, beta2, gamma2
            o.write(g1.uncompressed(mine.deltaAfter(), 0));
            o.write(g2.uncompressed(delta2, 0));
            copy(m, at.ic, at.h - at.ic, o);
            Work work = new Work(log, at.nH + at.nL);
            divide(curve, at.reader, at.h, at.nH, "H", k, o, work);
            log.accept("divided H by the secret: " + at.nH + " points");
            divide(curve, at.reader, at.l, at.nL, "L", k, o, work);
            work.finish();
            log.accept("divided L by the secret: " + at.nL + " points");
            copy(m, at.a, at.tail - at.a, o);   // A, B1, B2
            List<KeyContribution> all = new ArrayList<>(at.contributions);
            all.add(mine);
            BellmanParams.contributions(o, curve, at.circuitHash, all);
            return mine.hash(curve);
        } finally {
            if (k != null) {
                k.wipe();
            }
            Arrays.fill(d, 0L);
            Arrays.fill(dInv, 0L);
        }
    }

    /** The count at {@code at} and its G1 points each times k (one over the secret), uncompressed. */
    private static void divide(PairingCurve curve, MpcParamsReader r, long at, long count, String what,
            Multiplications.Scalar k, OutputStream o, Work work) throws IOException {
        PointBytes g = new PointBytes(curve.g1(), curve.fp());
        int aw = curve.g1().affineWidth();
        BellmanParams.u32(o, (int) count);
        for (long base = 0; base < count; base += CHUNK) {
            int n = (int) Math.min(CHUNK, count - base);
            long[] in = new long[n * aw];
            for (int i = 0; i < n; i++) {
                r.pointAt(g, at + 4 + (base + i) * g.size(), what + " point #" + (base + i), in, i * aw);
            }
            long[] out = PhaseTwo.timesEach(curve, in, n, k);
            byte[] bytes = new byte[n * g.size()];
            for (int i = 0; i < n; i++) {
                g.uncompressed(out, i * aw, bytes, i * g.size());
            }
            o.write(bytes);
            work.add(n);
        }
    }

    private static void copy(MemorySegment m, long from, long length, OutputStream o) throws IOException {
        byte[] buf = new byte[(int) Math.min(length, 1 << 20)];
        for (long done = 0; done < length; ) {
            int n = (int) Math.min(buf.length, length - done);
            MemorySegment.copy(m, ValueLayout.JAVA_BYTE, from + done, buf, 0, n);
            o.write(buf, 0, n);
            done += n;
        }
    }

    /**
     * Where each part of the parameters starts (the byte of a count), the points a contribution needs
     * and the records so far. Reading it checks the header's points, that each count fits the file and
     * the counts fit one key (IC and L share out A's variables; H is one short of a power of two), and
     * the records to the end of the file.
     */
    private record Layout(MpcParamsReader reader, long[] delta1, long[] delta2, long ic, long h, long nH, long l,
            long nL, long a, long tail, byte[] circuitHash, List<KeyContribution> contributions) {

        static Layout read(PairingCurve curve, MpcParamsReader r) {
            PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
            PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
            long alpha1 = r.skip(g1.size(), "alpha1");
            try {
                r.pointAt(g1, alpha1, "alpha1", new long[curve.g1().affineWidth()], 0);
            } catch (FormatException e) {
                throw r.error("alpha1", "not a point of " + curve.g1().name()
                        + ": are these parameters of another curve?");
            }
            r.point(g1, "beta1");
            r.point(g2, "beta2");
            r.point(g2, "gamma2");
            long[] delta1 = r.point(g1, "delta1");
            long[] delta2 = r.point(g2, "delta2");
            long ic = r.position();
            long nIC = r.points(g1, "IC");
            long h = r.position();
            long nH = r.points(g1, "H");
            long l = r.position();
            long nL = r.points(g1, "L");
            long a = r.position();
            long nA = r.points(g1, "A");
            long nB1 = r.points(g1, "B1");
            long nB2 = r.points(g2, "B2");
            long tail = r.position();
            byte[] circuitHash = r.bytes(64, "circuit hash");
            List<KeyContribution> contributions = r.contributions(g1, g2);
            if (nIC == 0 || nIC + nL != nA || nB1 != nA || nB2 != nA) {
                throw r.error("point counts", "IC " + nIC + ", L " + nL + ", A " + nA + ", B1 " + nB1 + ", B2 " + nB2
                        + " are not one key's: IC and L together are A's variables, as are B1 and B2");
            }
            if (Long.bitCount(nH + 1) != 1) {
                throw r.error("H", nH + " points, not one less than a power of two");
            }
            return new Layout(r, delta1, delta2, ic, h, nH, l, nL, a, tail, circuitHash, contributions);
        }
    }
}
