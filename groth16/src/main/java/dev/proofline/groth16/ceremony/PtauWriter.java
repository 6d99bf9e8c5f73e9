package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Writes a .ptau (or, with its magic, a .zkey) file section by section into a temporary sibling,
 * which {@link #commit()} renames onto the target: a crash leaves the target as it was. Sections are
 * streamed (each one's size is patched in when it ends, after its bytes are on the disk), and sections
 * already written can be mapped back for hashing.
 *
 * <p>A {@linkplain #resumable resumable} writer keeps its temporary file when it is not committed (a
 * crash, an error), with a note of the step and input it was written for beside it; the same step on
 * the same input later keeps the sections that were finished ({@link #finished}) and goes on from
 * there, so that a crash costs at most the section under way.
 */
final class PtauWriter implements AutoCloseable {

    private final Path target;
    private final Leftovers leftovers;
    private final FileChannel ch;
    private final ByteBuffer buf = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private final Arena arena = Arena.ofShared();
    private final Set<Integer> finished = new LinkedHashSet<>();
    /** Where each finished section's bytes are in the temporary file: offset and length. */
    private final Map<Integer, long[]> finishedAt = new HashMap<>();
    private long sectionStart = -1;
    private boolean committed;

    PtauWriter(Path target, int sections) throws IOException {
        this(target, "ptau", sections);
    }

    /** A file of another iden3 kind ({@code magic}: four ASCII letters, e.g. "zkey"), version 1. */
    PtauWriter(Path target, String magic, int sections) throws IOException {
        this(target, magic, sections, null);
    }

    private PtauWriter(Path target, String magic, int sections, String identity) throws IOException {
        this.target = target.toAbsolutePath();
        this.leftovers = new Leftovers(this.target, identity);
        boolean resume = leftovers.earlier() != null;
        this.ch = resume
                ? FileChannel.open(leftovers.temp, StandardOpenOption.WRITE, StandardOpenOption.READ)
                : FileChannel.open(leftovers.temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE, StandardOpenOption.READ);
        byte[] head = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN)
                .put(magic.getBytes(StandardCharsets.US_ASCII)).putInt(1).putInt(sections).array();
        long keep = resume ? finishedSections(head) : 0;
        if (keep == 0) {
            finished.clear();
            finishedAt.clear();
            ch.truncate(0);
            buf.put(head);
        } else {
            ch.truncate(keep);
            ch.position(keep);
        }
        if (leftovers.resumable() && !resume) {
            leftovers.note(List.of());
        }
    }

    /**
     * A writer that resumes what an earlier, uncommitted writer for the same {@code identity} (the step
     * and its input, {@link Leftovers#identity}) left in the temporary file; null: an ordinary writer.
     */
    static PtauWriter resumable(Path target, String magic, int sections, String identity) throws IOException {
        return new PtauWriter(target, magic, sections, identity);
    }

    /**
     * Whether the section of this type was finished by an earlier run and is kept (the caller skips it);
     * if so, says so in {@code log}, as "{@code name}: kept from the earlier run".
     */
    boolean kept(int type, String name, Consumer<String> log) {
        boolean kept = finished(type);
        if (kept) {
            Leftovers.sayKept(log, name);
        }
        return kept;
    }

    /**
     * Whether the earlier run's header (section 1) is kept, which a resumed run's first line says; a
     * resumed run keeps at least its header.
     */
    boolean resuming(Consumer<String> log) {
        boolean resuming = finished(1);
        if (resuming) {
            leftovers.sayResuming(log);
        }
        return resuming;
    }

    /** Whether the section of this type was finished by an earlier run and is kept (the caller skips it). */
    boolean finished(int type) {
        return finished.contains(type);
    }

    /** The bytes of a section an earlier run finished ({@link #finished}), mapped for reading. */
    MemorySegment finishedSection(int type) throws IOException {
        long[] at = finishedAt.get(type);
        if (at == null) {
            throw new IllegalStateException("section " + type + " was not finished by an earlier run");
        }
        return mapWritten(at[0], at[1]);
    }

    /**
     * Reads the temporary file's header and whole sections (a size patched in and all its bytes there),
     * into {@link #finished}; returns the length they take, or 0 where the header is not {@code head}.
     */
    private long finishedSections(byte[] head) throws IOException {
        long size = ch.size();
        ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        if (size < 12 || ch.read(b, 0) != 12 || !java.util.Arrays.equals(b.array(), head)) {
            return 0;
        }
        long pos = 12;
        while (pos + 12 <= size) {
            b.clear();
            ch.read(b, pos);
            b.flip();
            int type = b.getInt();
            long length = b.getLong();
            if (length <= 0 || length > size - pos - 12 || finished.contains(type)) {
                break;
            }
            finished.add(type);
            finishedAt.put(type, new long[] {pos + 12, length});
            pos += 12 + length;
        }
        return pos;
    }

    /** Section 1 with ceremony power = power, as snarkjs writes it on every new file. */
    void header(PairingCurve curve, int power) throws IOException {
        begin(PtauFile.HEADER);
        u32(curve.fp().byteLength());
        long[] q = curve.fp().modulusWords();
        for (long w : q) {
            u64(w);
        }
        u32(power);
        u32(power);
        end();
    }

    void begin(int type) throws IOException {
        if (sectionStart >= 0) {
            throw new IllegalStateException("section not ended");
        }
        u32(type);
        u64(0);
        flush();
        sectionStart = ch.position();
    }

    void end() throws IOException {
        flush();
        if (leftovers.resumable()) {
            ch.force(false);   // the section's bytes on the disk before its size says it is whole
        }
        long end = ch.position();
        ByteBuffer size = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(end - sectionStart).flip();
        ch.write(size, sectionStart - 8);
        sectionStart = -1;
    }

    /** The file position where the current section's bytes begin. */
    long sectionStart() {
        return sectionStart;
    }

    void u32(int v) throws IOException {
        room(4);
        buf.putInt(v);
    }

    void u64(long v) throws IOException {
        room(8);
        buf.putLong(v);
    }

    void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            room(1);
            int n = Math.min(len, buf.remaining());
            buf.put(b, off, n);
            off += n;
            len -= n;
        }
    }

    /** Copies a section's bytes as they are. */
    void copy(MemorySegment data) throws IOException {
        flush();
        ch.write(data.asByteBuffer());
    }

    /** Maps bytes already written (a finished section), for reading. */
    MemorySegment mapWritten(long offset, long size) throws IOException {
        flush();
        return ch.map(FileChannel.MapMode.READ_ONLY, offset, size, arena);
    }

    private void room(int n) throws IOException {
        if (buf.remaining() < n) {
            flush();
        }
    }

    private void flush() throws IOException {
        buf.flip();
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
        buf.clear();
    }

    /** Writes section 7. */
    void contributions(PairingCurve curve, List<Contribution> cs) throws IOException {
        begin(PtauFile.CONTRIBUTIONS);
        u32(cs.size());
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        for (Contribution c : cs) {
            point(g1, c.tauG1());
            point(g2, c.tauG2());
            point(g1, c.alphaG1());
            point(g1, c.betaG1());
            point(g2, c.betaG2());
            write(publicKey(curve, c.key(), false));
            write(c.partialHash());
            write(c.nextChallenge());
            u32(c.type());
            byte[] params = parameters(c.name(), c.isBeacon(), c.iterationsExp(), c.beaconHash());
            u32(params.length);
            write(params);
        }
        end();
    }

    private void point(PointBytes g, long[] p) throws IOException {
        byte[] b = new byte[g.size()];
        g.stored(p, 0, b, 0);
        write(b);
    }

    /** The public key's nine points, stored (Montgomery) or uncompressed (as hashed). */
    static byte[] publicKey(PairingCurve curve, Contribution.PublicKey k, boolean uncompressed) {
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        byte[] out = new byte[6 * g1.size() + 3 * g2.size()];
        int at = 0;
        for (int i = 0; i < 3; i++) {
            for (long[] p : new long[][] {k.g1s()[i], k.g1sx()[i]}) {
                if (uncompressed) {
                    g1.uncompressed(p, 0, out, at);
                } else {
                    g1.stored(p, 0, out, at);
                }
                at += g1.size();
            }
        }
        for (int i = 0; i < 3; i++) {
            if (uncompressed) {
                g2.uncompressed(k.g2spx()[i], 0, out, at);
            } else {
                g2.stored(k.g2spx()[i], 0, out, at);
            }
            at += g2.size();
        }
        return out;
    }

    /**
     * The parameters of a contribution record (.ptau and .zkey alike): 1 the name (at most 64
     * characters), and for a beacon 2 the exponent, 3 the hash.
     */
    static byte[] parameters(String name, boolean beacon, int iterationsExp, byte[] beaconHash) {
        ByteBuffer b = ByteBuffer.allocate(600);
        if (name != null && !name.isEmpty()) {
            String n = name.length() > 64 ? name.substring(0, 64) : name;   // UTF-16 units, as snarkjs
            byte[] bytes = n.getBytes(StandardCharsets.UTF_8);
            int len = Math.min(255, bytes.length);
            b.put((byte) 1).put((byte) len).put(bytes, 0, len);
        }
        if (beacon) {
            b.put((byte) 2).put((byte) iterationsExp);
            b.put((byte) 3).put((byte) beaconHash.length).put(beaconHash);
        }
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    /** Renames the finished file onto the target. */
    void commit() throws IOException {
        flush();
        if (sectionStart >= 0) {
            throw new IllegalStateException("section not ended");
        }
        ch.force(true);
        ch.close();
        arena.close();
        leftovers.commit(target);
        committed = true;
    }

    @Override
    public void close() throws IOException {
        if (!committed) {
            if (leftovers.resumable()) {
                flush();
            }
            ch.close();
            arena.close();
            leftovers.abandon();
        }
    }
}
