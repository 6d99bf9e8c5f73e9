package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.Fp2;
import dev.proofline.algebra.field.PrimeField;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A contribution made outside the .ptau format, as the ceremonies before snarkjs ran them (and snarkjs's
 * {@code powersoftau export challenge}, {@code challenge contribute} and {@code import response}):
 * <ul>
 *   <li>a challenge: the last response hash (64 bytes), then every point of the accumulator
 *       uncompressed, big-endian ({@link PointBytes}), in the sections' order: tau G1 (2^(power+1) - 1),
 *       tau G2, alpha tau G1, beta tau G1 (2^power each), beta G2 (one). Its BLAKE2b-512 is the
 *       current challenge hash;
 *   <li>a response: the hash of the challenge it answers, the new points compressed in the same order,
 *       then the contributor's public key (six G1 and three G2 points, uncompressed). Its BLAKE2b-512 is
 *       the response hash; importing it writes a .ptau whose new contribution records the key, that
 *       hash's state before the key, and the next challenge (the hash of the response hash and every
 *       new point uncompressed).
 * </ul>
 * Importing does not check the contribution (that is {@code powersoftau verify}'s work); a point that
 * is not on its curve, a response of the wrong size or one that answers another challenge is refused.
 */
public final class ChallengeResponse {

    /** Points handled at a time. */
    private static final int CHUNK = 1 << 12;
    private static final int[] SECTIONS = PowersOfTau.SECTIONS;
    /** The point of each section a contribution records: tau^1 for the tau sections, the first otherwise. */
    private static final int[] KEPT = {1, 1, 0, 0, 0};

    private ChallengeResponse() {
    }

    /**
     * Writes the challenge of the ptau's last contribution to {@code challenge}; returns its hash.
     * Resumable: a run that stops leaves the parts it finished (the last response hash, then each
     * section's points) in {@code <challenge>.partial}, and the next run on the same ptau keeps them,
     * hashing them again from that file.
     */
    public static byte[] exportChallenge(Path ptauPath, Path challenge, Consumer<String> log) throws IOException {
        String identity = Leftovers.identity("powersoftau export challenge", ptauPath);
        try (PtauFile ptau = PtauFile.open(ptauPath)) {
            byte[] current = PowersOfTau.lastChallenge(ptau);
            List<Contribution> cs = ptau.contributions();
            byte[] lastResponse = cs.isEmpty() ? new Blake2b().digest() : responseHash(ptau.curve(), cs.getLast());
            Blake2b hash = new Blake2b().update(lastResponse);
            return WholeFile.resumable(challenge, identity, log, out -> {
                out.part("last response hash", o -> {
                    o.write(lastResponse);
                    return null;
                });
                long[] counts = PowersOfTau.counts(ptau.power());
                for (int s = 0; s < SECTIONS.length; s++) {
                    PointBytes g = PowersOfTau.group(ptau.curve(), SECTIONS[s]);
                    String name = PtauFile.NAMES.get(SECTIONS[s]);
                    long count = counts[s];
                    MemorySegment section = ptau.section(SECTIONS[s]);
                    MemorySegment kept = out.part(name, o -> {
                        PowersOfTau.hashUncompressed(section, g, count, hash, o);
                        return null;
                    });
                    if (kept != null) {
                        hash(kept, hash);
                    } else {
                        log.accept("exported " + name + ": " + count + " points");
                    }
                }
                byte[] digest = hash.digest();
                if (!Arrays.equals(digest, current)) {
                    throw ptau.error(PtauFile.CONTRIBUTIONS, "its points do not hash to its last contribution's next"
                            + " challenge: the file was changed after it was written");
                }
                return digest;
            });
        }
    }

    /** Feeds {@code bytes} to {@code hash}, a block at a time. */
    static void hash(MemorySegment bytes, Blake2b hash) {
        byte[] block = new byte[1 << 16];
        for (long at = 0; at < bytes.byteSize(); at += block.length) {
            int n = (int) Math.min(block.length, bytes.byteSize() - at);
            MemorySegment.copy(bytes, java.lang.foreign.ValueLayout.JAVA_BYTE, at, block, 0, n);
            hash.update(block, 0, n);
        }
    }

    /** A contribution's response hash: its recorded state, continued with its public key uncompressed. */
    static byte[] responseHash(PairingCurve curve, Contribution c) {
        return Blake2b.fromState(c.partialHash()).update(PtauWriter.publicKey(curve, c.key(), true)).digest();
    }

    /**
     * Imports {@code response}, an answer to the challenge of {@code oldPtau}'s last contribution, as a
     * new contribution named {@code name} (may be null) in {@code newPtau}. Resumable: a run that stops
     * leaves the sections it finished in {@code <newPtau>.partial}, and the next run on the same files with
     * the same name keeps them (their compressed points are hashed again from the response, not decompressed).
     */
    public static PowersOfTau.Result importResponse(Path oldPtau, Path response, Path newPtau, String name,
            Consumer<String> log) throws IOException {
        String identity = Leftovers.identity(Leftovers.parameters("powersoftau import response", name, null, 0),
                oldPtau, response);
        try (PtauFile ptau = PtauFile.open(oldPtau)) {
            PairingCurve curve = ptau.curve();
            byte[] challenge = PowersOfTau.lastChallenge(ptau);
            PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
            PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
            long[] counts = PowersOfTau.counts(ptau.power());
            long keyBytes = 6L * g1.size() + 3L * g2.size();
            long expected = Blake2b.DIGEST_BYTES + keyBytes;
            for (int s = 0; s < SECTIONS.length; s++) {
                expected += counts[s] * PowersOfTau.group(curve, SECTIONS[s]).compressedSize();
            }
            long size = Files.size(response);
            if (size != expected) {
                throw new IllegalArgumentException(response + ": " + size + " bytes, where a response to a "
                        + curve.snarkjsName() + " ceremony of power " + ptau.power() + " has " + expected);
            }
            try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(response), 1 << 20)) {
                byte[] answered = in.readNBytes(Blake2b.DIGEST_BYTES);
                if (!Arrays.equals(answered, challenge)) {
                    throw new IllegalArgumentException(response + ": it answers the challenge "
                            + HexFormatting.hex(Arrays.copyOf(answered, 8)) + "..., not this ceremony's current one "
                            + HexFormatting.hex(Arrays.copyOf(challenge, 8)) + "... (" + oldPtau + ")");
                }
                Blake2b responseHash = new Blake2b().update(answered);
                long[][] kept = new long[SECTIONS.length][];
                MemorySegment[] written = new MemorySegment[SECTIONS.length];
                try (PtauWriter w = PtauWriter.resumable(newPtau, "ptau", 7, identity)) {
                    if (!w.resuming(log)) {
                        w.header(curve, ptau.power());
                    }
                    long at = Blake2b.DIGEST_BYTES;
                    for (int s = 0; s < SECTIONS.length; s++) {
                        PointBytes g = PowersOfTau.group(curve, SECTIONS[s]);
                        String sectionName = PtauFile.NAMES.get(SECTIONS[s]);
                        if (w.kept(SECTIONS[s], sectionName, log)) {
                            written[s] = w.finishedSection(SECTIONS[s]);
                            kept[s] = new long[g.curve().affineWidth()];
                            g.fromStored(written[s], (long) KEPT[s] * g.size(), kept[s], 0);
                            hashBytes(in, counts[s] * g.compressedSize(), responseHash);
                        } else {
                            w.begin(SECTIONS[s]);
                            long start = w.sectionStart();
                            kept[s] = importSection(in, response, at, g, counts[s], KEPT[s], w, responseHash);
                            w.end();
                            written[s] = w.mapWritten(start, counts[s] * g.size());
                            log.accept("imported " + sectionName + ": " + counts[s] + " points");
                        }
                        at += counts[s] * g.compressedSize();
                    }
                    byte[] partial = responseHash.state();
                    byte[] key = in.readNBytes((int) keyBytes);
                    responseHash.update(key);
                    Contribution.PublicKey publicKey = publicKey(curve, key, g1, g2, response, at);
                    byte[] hash = responseHash.digest();
                    Blake2b next = new Blake2b().update(hash);
                    for (int s = 0; s < SECTIONS.length; s++) {
                        PointBytes g = PowersOfTau.group(curve, SECTIONS[s]);
                        PowersOfTau.hashUncompressed(written[s], g, counts[s], next);
                    }
                    byte[] nextChallenge = next.digest();
                    if (!w.finished(PtauFile.CONTRIBUTIONS)) {
                        List<Contribution> cs = new ArrayList<>(ptau.contributions());
                        cs.add(new Contribution(kept[0], kept[1], kept[2], kept[3], kept[4], publicKey, partial,
                                nextChallenge, Contribution.CONTRIBUTION, name, 0, null));
                        w.contributions(curve, cs);
                    }
                    w.commit();
                    return new PowersOfTau.Result(hash, nextChallenge);
                }
            }
        }
    }

    /** Feeds the next {@code length} bytes of {@code in} to {@code hash}. */
    private static void hashBytes(InputStream in, long length, Blake2b hash) throws IOException {
        byte[] block = new byte[1 << 16];
        for (long left = length; left > 0; ) {
            int n = in.readNBytes(block, 0, (int) Math.min(block.length, left));
            if (n == 0) {
                throw new java.io.EOFException("the response ended early");
            }
            hash.update(block, 0, n);
            left -= n;
        }
    }

    /**
     * Reads {@code count} compressed points of one section, feeds them to {@code hash}, writes them in
     * the stored form; returns the one at {@code keep}.
     */
    private static long[] importSection(InputStream in, Path file, long at, PointBytes g, long count, int keep,
            PtauWriter w, Blake2b hash) throws IOException {
        int aw = g.curve().affineWidth();
        int cs = g.compressedSize();
        long[] p = new long[aw];
        long[] kept = null;
        for (long base = 0; base < count; base += CHUNK) {
            int m = (int) Math.min(CHUNK, count - base);
            byte[] compressed = in.readNBytes(m * cs);
            hash.update(compressed);
            byte[] stored = new byte[m * g.size()];
            for (int i = 0; i < m; i++) {
                decompress(g, compressed, i * cs, p, file, at + (base + i) * cs);
                g.stored(p, 0, stored, i * g.size());
                if (base + i == keep) {
                    kept = p.clone();
                }
            }
            w.write(stored);
        }
        return kept;
    }

    /** The compressed point at {@code off} of {@code in} (at byte {@code at} of {@code file}) into {@code p}. */
    static void decompress(PointBytes g, byte[] in, int off, long[] p, Path file, long at) {
        WeierstrassCurve curve = g.curve();
        int b0 = in[off] & 0xff;
        if ((b0 & 0x40) != 0) {
            for (int i = 1; i < g.compressedSize(); i++) {
                if (in[off + i] != 0) {
                    throw bad(file, at, "a point at infinity with nonzero bytes");
                }
            }
            Arrays.fill(p, 0, curve.affineWidth(), 0L);   // (0, 0): infinity in the affine layout
            return;
        }
        byte[] x = Arrays.copyOfRange(in, off, off + g.compressedSize());
        x[0] &= 0x3f;
        if (!g.readCoordinate(x, 0, p, 0)) {
            throw bad(file, at, "a coordinate not below the field's modulus");
        }
        Field f = curve.field();
        int yi = curve.coordinateWidth();
        long[] rhs = new long[yi];
        f.sqr(p, 0, rhs, 0);
        f.mul(rhs, 0, p, 0, rhs, 0);
        f.add(rhs, 0, curve.b(), 0, rhs, 0);
        boolean root = f instanceof Fp2 fp2 ? fp2.sqrt(rhs, 0, p, yi) : ((PrimeField) f).sqrt(rhs, 0, p, yi);
        if (!root) {
            throw bad(file, at, "not a point of " + curve.name() + " (x^3 + b has no square root)");
        }
        if (g.isNegative(p, yi) != ((b0 & 0x80) != 0)) {
            f.neg(p, yi, p, yi);
        }
    }

    private static IllegalArgumentException bad(Path file, long at, String what) {
        return new IllegalArgumentException(file + ", byte " + at + ": " + what);
    }

    /** The public key's nine points, uncompressed as the response holds them (at byte {@code at}). */
    private static Contribution.PublicKey publicKey(PairingCurve curve, byte[] key, PointBytes g1, PointBytes g2,
            Path file, long at) {
        long[][] g1s = new long[3][];
        long[][] g1sx = new long[3][];
        long[][] g2spx = new long[3][];
        int off = 0;
        for (int k = 0; k < 3; k++) {
            g1s[k] = uncompressed(g1, key, off, file, at);
            off += g1.size();
            g1sx[k] = uncompressed(g1, key, off, file, at);
            off += g1.size();
        }
        for (int k = 0; k < 3; k++) {
            g2spx[k] = uncompressed(g2, key, off, file, at);
            off += g2.size();
        }
        return new Contribution.PublicKey(g1s, g1sx, g2spx);
    }

    private static long[] uncompressed(PointBytes g, byte[] in, int off, Path file, long at) {
        long[] p = new long[g.curve().affineWidth()];
        if (!g.fromUncompressed(in, off, p, 0)) {
            throw bad(file, at + off, "a public key point that is not on " + g.curve().name());
        }
        return p;
    }
}
