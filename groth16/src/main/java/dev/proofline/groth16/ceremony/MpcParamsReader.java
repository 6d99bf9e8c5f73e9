package dev.proofline.groth16.ceremony;

import dev.proofline.r1cs.io.FormatException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads MPC parameters ({@link BellmanParams} gives the format) in order from a mapped file, each
 * field named in its errors with the file: a count that runs past the end says so, a point that is
 * not on its curve says where.
 */
final class MpcParamsReader {

    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final Path file;
    private final MemorySegment m;
    private long pos;

    MpcParamsReader(Path file, MemorySegment m) {
        this.file = file;
        this.m = m;
    }

    long position() {
        return pos;
    }

    long remaining() {
        return m.byteSize() - pos;
    }

    FormatException error(String field, String problem) {
        return new FormatException(file, field, problem);
    }

    long skip(long n, String field) {
        if (n > remaining()) {
            throw error(field, "truncated: needs " + n + " bytes at byte " + pos + ", the file has "
                    + remaining() + " left");
        }
        long at = pos;
        pos += n;
        return at;
    }

    int u32(String field) {
        return m.get(BE_INT, skip(4, field));
    }

    byte[] bytes(int n, String field) {
        return m.asSlice(skip(n, field), n).toArray(ValueLayout.JAVA_BYTE);
    }

    long[] point(PointBytes g, String field) {
        long[] p = new long[g.curve().affineWidth()];
        pointAt(g, skip(g.size(), field), field, p, 0);
        return p;
    }

    void pointAt(PointBytes g, long at, String field, long[] p, int off) {
        byte[] b = m.asSlice(at, g.size()).toArray(ValueLayout.JAVA_BYTE);
        if (!g.fromUncompressed(b, 0, p, off)) {
            throw error(field, "not a point of " + g.curve().name() + " (byte " + at + ")");
        }
    }

    /** A count that must be {@code expected}, then that many points: returns where they start. */
    long points(PointBytes g, long expected, String field) {
        long count = points(g, field);
        if (count != expected) {
            throw error(field, count + " points, the key needs " + expected);
        }
        return pos - count * g.size();
    }

    /** A count, then that many points, skipped: returns the count. */
    long points(PointBytes g, String field) {
        long count = Integer.toUnsignedLong(u32(field + " count"));
        skip(count * g.size(), field);
        return count;
    }

    /**
     * The count of contributions and their records, to the end of the file: plain contributions with
     * no name, since the format keeps no names or beacon parameters.
     */
    List<KeyContribution> contributions(PointBytes g1, PointBytes g2) {
        long count = Integer.toUnsignedLong(u32("number of contributions"));
        long each = 3L * g1.size() + g2.size() + 64;
        if (count > remaining() / each) {
            throw error("contributions", "truncated: declares " + count + ", room for " + remaining() / each);
        }
        List<KeyContribution> cs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String at = "contribution #" + (i + 1) + " ";
            long[] deltaAfter = point(g1, at + "delta after");
            long[] s = point(g1, at + "s G1");
            long[] sx = point(g1, at + "d s G1");
            long[] spx = point(g2, at + "d s' G2");
            byte[] transcript = bytes(64, at + "transcript");
            cs.add(new KeyContribution(deltaAfter, s, sx, spx, transcript, KeyContribution.CONTRIBUTION, null, 0,
                    null));
        }
        if (remaining() != 0) {
            throw error("contributions", remaining() + " bytes after the last one");
        }
        return cs;
    }
}
