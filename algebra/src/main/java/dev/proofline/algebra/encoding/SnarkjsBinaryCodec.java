package dev.proofline.algebra.encoding;

import dev.proofline.algebra.msm.LaneSubgroupCheck;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * The uncompressed point layout of snarkjs .zkey and .ptau sections: the affine coordinates as
 * little-endian Montgomery-form Fp elements, n8 bytes each (32 for BN254, 48 for BLS12-381).
 * <ul>
 *   <li>G1: x, y (2 n8 bytes);</li>
 *   <li>G2: x.c0, x.c1, y.c0, y.c1 (4 n8 bytes), for x = x.c0 + x.c1 u;</li>
 *   <li>the point at infinity: all zeros (affine (0, 0), which is not on either curve).</li>
 * </ul>
 * Source: snarkjs src/zkey_utils.js readG1/readG2 read {@code 2 * F.n8} bytes and pass them to
 * ffjavascript's {@code G.fromRprLEM}, which (src/wasm_curve.js) returns the bytes unchanged as the
 * in-memory affine point: ffjavascript keeps field elements in Montgomery form, little-endian, with
 * R = 2^(8 n8), the same R as {@link dev.proofline.algebra.field.PrimeField} (64-bit limbs, 4 or 6 of
 * them); its F2 element is c0 then c1 (src/wasm_field2.js toObject), its zero affine point is all
 * zeros (wasmcurves {@code _zeroAffine}). {@code toRprLEM} writes the same layout.
 *
 * <p>So our affine {@code long[]} layout is this layout read as little-endian 64-bit words, and
 * decoding is a copy plus checks: each component below p, point on the curve, point in the subgroup
 * (unless {@link #withoutSubgroupCheck()}: for keys from a trusted source; the on-curve check stays).
 * Instances are immutable and thread-safe.
 */
public final class SnarkjsBinaryCodec {

    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final CurveGroup group;
    private final boolean checkSubgroup;
    private final int words;   // longs per affine point

    private SnarkjsBinaryCodec(CurveGroup group, boolean checkSubgroup) {
        this.group = group;
        this.checkSubgroup = checkSubgroup;
        this.words = group.curve().affineWidth();
    }

    /** The codec for a group, checking subgroup membership on decode. */
    public static SnarkjsBinaryCodec of(CurveGroup group) {
        return new SnarkjsBinaryCodec(group, true);
    }

    /** The same codec without the subgroup check (for trusted sources; still checks the curve equation). */
    public SnarkjsBinaryCodec withoutSubgroupCheck() {
        return new SnarkjsBinaryCodec(group, false);
    }

    public CurveGroup group() {
        return group;
    }

    public boolean checksSubgroup() {
        return checkSubgroup;
    }

    /** Bytes per point: 2 n8 for G1, 4 n8 for G2. */
    public int pointBytes() {
        return 8 * words;
    }

    // ---------------------------------------------------------------- encode

    /** The encoding of an affine point ((0, 0) = infinity). */
    public byte[] encode(long[] p, int pi) {
        byte[] out = new byte[pointBytes()];
        encode(p, pi, out, 0);
        return out;
    }

    public void encode(long[] p, int pi, byte[] out, int off) {
        encode(p, pi, MemorySegment.ofArray(out), off);
    }

    public void encode(long[] p, int pi, MemorySegment seg, long off) {
        for (int i = 0; i < words; i++) {
            seg.set(LE_LONG, off + 8L * i, p[pi + i]);
        }
    }

    /** Writes n affine points (a flat vector) one after another. */
    public void encodeAll(long[] points, int pi, int n, MemorySegment seg, long off) {
        for (int k = 0; k < n; k++) {
            encode(points, pi + k * words, seg, off + (long) k * pointBytes());
        }
    }

    // ---------------------------------------------------------------- decode

    /** Decodes exactly one point's bytes. */
    public long[] decode(byte[] in) {
        if (in.length != pointBytes()) {
            throw new PointEncodingException(group.displayName() + " point: expected " + pointBytes()
                    + " bytes, got " + in.length);
        }
        long[] r = new long[words];
        decode(MemorySegment.ofArray(in), 0, r, 0);
        return r;
    }

    /** Decodes the point at byte offset {@code off} of {@code in} into affine {@code r} at {@code ri}. */
    public void decode(byte[] in, int off, long[] r, int ri) {
        decode(MemorySegment.ofArray(in), off, r, ri);
    }

    public long[] decode(MemorySegment seg, long off) {
        long[] r = new long[words];
        decode(seg, off, r, 0);
        return r;
    }

    public void decode(MemorySegment seg, long off, long[] r, int ri) {
        requireBytes(seg, off, 1);
        Validator v = new Validator(group, checkSubgroup);
        read(seg, off, r, ri);
        v.requireCanonicalWords(r, ri);
        v.requireValid(r, ri);
    }

    /** Decodes n consecutive points into a new flat affine vector (n * affineWidth longs). */
    public long[] decodeAll(MemorySegment seg, long off, int n) {
        long[] r = new long[Math.multiplyExact(n, words)];
        decodeAll(seg, off, n, r, 0);
        return r;
    }

    /** Points per parallel task of {@link #decodeAll}: enough to amortise a task, few enough to spread. */
    private static final int DECODE_CHUNK = 256;

    /**
     * Decodes n consecutive points into the flat affine vector r from long offset ri, without
     * per-point objects. Each point is checked; a failure names its index (the lowest failing one).
     * The subgroup check costs a short scalar multiplication per point, the dominant cost for large
     * keys, so chunks of points are checked in parallel on the common fork-join pool.
     */
    public void decodeAll(MemorySegment seg, long off, int n, long[] r, int ri) {
        if (n < 0) {
            throw new IllegalArgumentException("negative count " + n);
        }
        requireBytes(seg, off, n);
        startLanes(n);
        int chunks = (n + DECODE_CHUNK - 1) / DECODE_CHUNK;
        PointEncodingException[] firstError = new PointEncodingException[chunks];
        IntConsumer chunk = c -> {
            try {
                decodeRange(seg, off, c * DECODE_CHUNK, Math.min(n, (c + 1) * DECODE_CHUNK), r, ri);
            } catch (PointEncodingException e) {
                firstError[c] = e;
            }
        };
        IntStream.range((int) aloneWhileWarming(chunks, c -> chunk.accept((int) c)), chunks).parallel().forEach(chunk);
        for (PointEncodingException e : firstError) {
            if (e != null) {
                throw e;
            }
        }
    }

    /**
     * Checks n consecutive points in memory as {@link #decodeAll} does, without keeping them: for a
     * large mapped key whose points are used in place. Chunks are checked in parallel on the common
     * fork-join pool; a failure names the lowest failing index.
     */
    public void validateAll(MemorySegment seg, long off, long n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative count " + n);
        }
        long need = Math.multiplyExact(n, (long) pointBytes());
        if (off < 0 || off > seg.byteSize() || seg.byteSize() - off < need) {
            throw new PointEncodingException(group.displayName() + " points: need " + need + " bytes at offset "
                    + off + ", only " + Math.max(0, seg.byteSize() - off) + " available");
        }
        startLanes(n);
        long chunks = (n + VALIDATE_CHUNK - 1) / VALIDATE_CHUNK;
        PointEncodingException[] first = new PointEncodingException[1];
        long[] firstChunk = {Long.MAX_VALUE};
        LongConsumer chunk = c -> {
            long[] buf = new long[words];
            long from = c * VALIDATE_CHUNK;
            long to = Math.min(n, from + VALIDATE_CHUNK);
            try {
                decodeRange(seg, off, from, to, buf, -1);
            } catch (PointEncodingException e) {
                synchronized (first) {
                    if (c < firstChunk[0]) {
                        firstChunk[0] = c;
                        first[0] = e;
                    }
                }
            }
        };
        LongStream.range(aloneWhileWarming(chunks, chunk), chunks).parallel().forEach(chunk);
        if (first[0] != null) {
            throw first[0];
        }
    }

    private static final long VALIDATE_CHUNK = 4096;

    /**
     * Checks chunks on the calling thread alone, from the first, while the lanes' warm-up runs; returns
     * how many it checked, the rest being for the pool. Checked on every core meanwhile, by the scalar
     * code, the points left the warm-up and the compiler one share of the cores among several, and the
     * lanes came late (docs/decisions/0028-ptau-verify-coefficients.md).
     */
    private long aloneWhileWarming(long chunks, LongConsumer chunk) {
        LaneSubgroupCheck lanes = checkSubgroup && !forceLanes ? lanes(group) : null;
        long c = 0;
        while (c < chunks && lanes != null && lanes.warming()) {
            chunk.accept(c++);
        }
        return c;
    }

    /**
     * Decodes and checks points from .. to - 1, on the calling thread, point k into r at
     * {@code ri + k * words}, or every point into r at 0 when ri is negative (checking only).
     */
    private void decodeRange(MemorySegment seg, long off, long from, long to, long[] r, int ri) {
        Validator v = new Validator(group, checkSubgroup);
        LaneSubgroupCheck lanes = !checkSubgroup ? null : forceLanes ? LaneSubgroupCheck.of(group.subgroupCheck(), true)
                : lanes(group);
        if (lanes != null && !lanes.ready()) {
            lanes = null;
        }
        long pb = pointBytes();
        // with the lanes, subgroup checks wait in groups of eight (a point not kept waits in buf)
        long[] buf = ri < 0 ? new long[8 * words] : r;
        long[] index = new long[8];
        int[] at = new int[8];
        int waiting = 0;
        for (long k = from; k < to; k++) {
            int dst = ri < 0 ? (lanes != null ? waiting * words : 0) : Math.toIntExact(ri + k * words);
            read(seg, off + k * pb, buf, dst);
            try {
                for (int i = 0, c = 2 * group.degree(); i < c; i++) {
                    if (!v.fp.isCanonical(buf, dst + i * v.fp.limbs())) {
                        throw new PointEncodingException(group.displayName() + " point #" + k + ": coordinate "
                                + group.componentName(i) + " is not below the field modulus");
                    }
                }
                v.requireOnCurve(buf, dst, k);
            } catch (PointEncodingException e) {
                for (int q = 0; q < waiting; q++) {     // an earlier point's failure comes first
                    v.requireInSubgroup(buf, at[q], index[q]);
                }
                throw e;
            }
            if (lanes == null) {
                v.requireInSubgroup(buf, dst, k);
            } else if (!v.pa.isInfinityAffine(buf, dst)) {
                index[waiting] = k;
                at[waiting++] = dst;
                if (waiting == 8) {
                    settle(lanes, v, buf, at, index, waiting);
                    waiting = 0;
                }
            }
        }
        if (waiting > 0) {
            settle(lanes, v, buf, at, index, waiting);
        }
    }

    /** The subgroup checks of the waiting points: in the lanes, and by the scalar check where they do not pass. */
    private static void settle(LaneSubgroupCheck lanes, Validator v, long[] buf, int[] at, long[] index, int n) {
        long pass = lanes.passing(buf, at, n);
        for (int q = 0; q < n; q++) {
            if ((pass >>> q & 1) == 0) {
                v.requireInSubgroup(buf, at[q], index[q]);
            }
        }
    }

    private static final ThreadLocal<java.util.Map<CurveGroup, java.util.Optional<LaneSubgroupCheck>>> LANES =
            ThreadLocal.withInitial(() -> new java.util.EnumMap<>(CurveGroup.class));

    /** This thread's lane check for the group, or null where there is none. */
    private static LaneSubgroupCheck lanes(CurveGroup group) {
        return LANES.get().computeIfAbsent(group, g -> java.util.Optional.ofNullable(
                LaneSubgroupCheck.of(g.subgroupCheck(), false))).orElse(null);
    }

    /** For tests: subgroup checks in the lanes from the first point, their kernels compiled or not. */
    static volatile boolean forceLanes;

    /** Points checked in one call from which the lanes' warm-up is worth starting. */
    private static final long LANES_FROM = 1 << 12;

    /**
     * Starts the warm-up of the lanes that check points of this group eight at a time, if calls are
     * to check at least that many points; a caller that knows it will check many points later starts
     * it ahead, so that the lanes are ready when they come (the calls start it themselves otherwise).
     */
    public void startLanes(long n) {
        if (checkSubgroup && n >= LANES_FROM) {
            LaneSubgroupCheck lanes = lanes(group);
            if (lanes != null) {
                lanes.warmUp();
            }
        }
    }

    private void read(MemorySegment seg, long off, long[] r, int ri) {
        for (int i = 0; i < words; i++) {
            r[ri + i] = seg.get(LE_LONG, off + 8L * i);
        }
    }

    private void requireBytes(MemorySegment seg, long off, int n) {
        long need = (long) n * pointBytes();
        if (off < 0 || off > seg.byteSize() || seg.byteSize() - off < need) {
            throw new PointEncodingException(group.displayName() + " point" + (n == 1 ? "" : "s") + ": need "
                    + need + " bytes at offset " + off + ", only " + Math.max(0, seg.byteSize() - off)
                    + " available");
        }
    }
}
