package dev.proofline.algebra.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.Samples;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.Node;
import dev.proofline.algebra.testing.TestPoints;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.BigRange;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The snarkjs .zkey/.ptau point layout: little-endian Montgomery coordinates, infinity all zeros. */
class SnarkjsBinaryCodecTest {

    @Property(tries = 60)
    void roundTripsMultiplesOfTheGenerator(@ForAll CurveGroup g,
            @ForAll @BigRange(min = "0", max = "200000000000000000000000000000000000000000000000000000000000000000000000000000") BigInteger k) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        long[] p = TestPoints.multipleOfGenerator(g.curve(), k);
        byte[] bytes = codec.encode(p, 0);
        assertEquals(codec.pointBytes(), bytes.length);
        assertArrayEquals(p, codec.decode(bytes));
        MemorySegment seg = MemorySegment.ofArray(new byte[bytes.length + 13]);
        codec.encode(p, 0, seg, 13);
        assertArrayEquals(p, codec.decode(seg, 13));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void layoutIsLittleEndianMontgomeryComponentsInSnarkjsOrder(CurveGroup g) {
        // x.c0, x.c1, y.c0, y.c1 (or x, y), each (v * 2^(8 n8)) mod p in n8 little-endian bytes
        PrimeField fp = g.baseField();
        int n8 = fp.byteLength();
        BigInteger rMont = BigInteger.ONE.shiftLeft(8 * n8);
        long[] p = TestPoints.multipleOfGenerator(g.curve(), BigInteger.valueOf(987654321));
        ByteBuffer want = ByteBuffer.allocate(2 * n8 * g.degree()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 2 * g.degree(); i++) {
            BigInteger v = fp.toBigInteger(p, i * fp.limbs()).multiply(rMont).mod(fp.modulus());
            want.put(littleEndian(v, n8));
        }
        assertArrayEquals(want.array(), SnarkjsBinaryCodec.of(g).encode(p, 0));
        assertEquals(2 * g.degree() * (g == CurveGroup.BN254_G1 || g == CurveGroup.BN254_G2 ? 32 : 48),
                SnarkjsBinaryCodec.of(g).pointBytes());
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void infinityIsAllZeros(CurveGroup g) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        long[] inf = new long[g.curve().affineWidth()];
        byte[] bytes = codec.encode(inf, 0);
        assertArrayEquals(new byte[codec.pointBytes()], bytes);
        assertTrue(g.curve().arithmetic().isInfinityAffine(codec.decode(bytes), 0));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsWrongLength(CurveGroup g) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        byte[] ok = codec.encode(g.curve().generator(), 0);
        assertMessage("expected " + codec.pointBytes() + " bytes, got " + (ok.length - 1),
                () -> codec.decode(Arrays.copyOf(ok, ok.length - 1)));
        assertMessage("expected " + codec.pointBytes() + " bytes, got " + (ok.length + 1),
                () -> codec.decode(Arrays.copyOf(ok, ok.length + 1)));
        assertMessage("need " + codec.pointBytes() + " bytes at offset 1",
                () -> codec.decode(MemorySegment.ofArray(ok), 1));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsComponentsNotBelowTheModulus(CurveGroup g) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        PrimeField fp = g.baseField();
        int n8 = fp.byteLength();
        for (int i = 0; i < 2 * g.degree(); i++) {
            byte[] bytes = codec.encode(g.curve().generator(), 0);
            System.arraycopy(littleEndian(fp.modulus(), n8), 0, bytes, i * n8, n8);
            assertMessage(g.displayName() + " point: coordinate " + g.componentName(i)
                    + " is not below the field modulus", () -> codec.decode(bytes));
        }
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsPointsOffTheCurve(CurveGroup g) {
        long[] p = g.curve().generator();
        int w = g.curve().coordinateWidth();
        g.curve().field().add(p, w, g.curve().field().one(), 0, p, w);   // y + 1
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        byte[] bytes = codec.encode(p, 0);
        assertMessage(g.displayName() + " point is not on the curve", () -> codec.decode(bytes));
        assertMessage(g.displayName() + " point is not on the curve", () -> codec.withoutSubgroupCheck().decode(bytes));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsPointsOutsideTheSubgroupUnlessTheCheckIsSkipped(CurveGroup g) {
        long[] q = TestPoints.hashToCurvePoint(g.curve(), "snarkjs-outside");
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        byte[] bytes = codec.encode(q, 0);
        if (g.curve().cofactor().equals(BigInteger.ONE)) {
            assertArrayEquals(q, codec.decode(bytes));     // BN254 G1: every curve point is in G1
            return;
        }
        assertTrue(codec.checksSubgroup());
        assertMessage(g.displayName() + " point is not in the subgroup of order r", () -> codec.decode(bytes));
        assertArrayEquals(q, codec.withoutSubgroupCheck().decode(bytes));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void bulkDecodeFillsAFlatVectorAndNamesTheBadPoint(CurveGroup g) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        int n = 5, aw = g.curve().affineWidth(), pb = codec.pointBytes(), off = 7;
        long[] points = new long[n * aw];
        for (int i = 0; i < n; i++) {
            long[] p = i == 2 ? new long[aw] : TestPoints.multipleOfGenerator(g.curve(), BigInteger.valueOf(1000 + i));
            System.arraycopy(p, 0, points, i * aw, aw);
        }
        MemorySegment seg = MemorySegment.ofArray(new byte[off + n * pb]);
        codec.encodeAll(points, 0, n, seg, off);
        assertArrayEquals(points, codec.decodeAll(seg, off, n));
        long[] into = new long[3 + n * aw];
        codec.decodeAll(seg, off, n, into, 3);
        assertArrayEquals(points, Arrays.copyOfRange(into, 3, into.length));
        for (int i = 0; i < n; i++) {
            assertArrayEquals(Arrays.copyOfRange(points, i * aw, (i + 1) * aw), codec.decode(seg, off + (long) i * pb));
        }
        // corrupt point #3's y
        seg.set(java.lang.foreign.ValueLayout.JAVA_BYTE, off + 3L * pb + pb - 20,
                (byte) (seg.get(java.lang.foreign.ValueLayout.JAVA_BYTE, off + 3L * pb + pb - 20) ^ 1));
        assertMessage(g.displayName() + " point #3 is not on the curve", () -> codec.decodeAll(seg, off, n));
        assertMessage("need " + (long) n * pb + " bytes", () -> codec.decodeAll(seg, off + 1, n));
    }

    /** Large vectors are checked in parallel chunks; the error still names the first bad point. */
    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void bulkDecodeOfManyPointsNamesTheLowestBadIndex(CurveGroup g) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        int n = 700, pb = codec.pointBytes();
        long[] points = Samples.generatorMultiples(g.curve(), n);
        MemorySegment seg = MemorySegment.ofArray(new byte[n * pb]);
        codec.encodeAll(points, 0, n, seg, 0);
        assertArrayEquals(points, codec.decodeAll(seg, 0, n));
        for (int bad : new int[] {650, 300}) {   // two chunks fail; the lower index is reported
            long at = (long) bad * pb + pb - 20;
            seg.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at,
                    (byte) (seg.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at) ^ 1));
        }
        assertMessage(g.displayName() + " point #300 is not on the curve", () -> codec.decodeAll(seg, 0, n));
    }

    /**
     * With the subgroup checks eight at a time in the lanes: the same points pass, and the same first
     * bad point is named, whether it is outside the subgroup or off the curve and wherever it falls in
     * a group of eight, for decodeAll and for validateAll (which keeps no points).
     */
    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void bulkChecksInTheLanesNameTheSameFirstBadPoint(CurveGroup g) {
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(g);
        int n = 45, aw = g.curve().affineWidth(), pb = codec.pointBytes();
        long[] points = Samples.generatorMultiples(g.curve(), n);
        System.arraycopy(new long[aw], 0, points, 6 * aw, aw);      // the point at infinity among them
        MemorySegment seg = MemorySegment.ofArray(new byte[n * pb]);
        codec.encodeAll(points, 0, n, seg, 0);
        boolean outsideExists = !g.curve().cofactor().equals(BigInteger.ONE);
        long[] outside = outsideExists ? TestPoints.hashToCurvePoint(g.curve(), "codec-lanes") : null;
        assertEquals(outsideExists, dev.proofline.algebra.msm.LaneSubgroupCheck.of(g.subgroupCheck(), true) != null,
                "lanes for the groups whose points need a subgroup check");
        SnarkjsBinaryCodec.forceLanes = true;
        try {
            assertArrayEquals(points, codec.decodeAll(seg, 0, n));
            codec.validateAll(seg, 0, n);
            for (int bad : new int[] {0, 7, 13, 44}) {
                MemorySegment copy = MemorySegment.ofArray(seg.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                if (outsideExists) {
                    long[] one = Arrays.copyOf(outside, aw);
                    codec.encodeAll(one, 0, 1, copy, (long) bad * pb);
                    assertMessage(g.displayName() + " point #" + bad + " is not in the subgroup",
                            () -> codec.decodeAll(copy, 0, n));
                    assertMessage(g.displayName() + " point #" + bad + " is not in the subgroup",
                            () -> codec.validateAll(copy, 0, n));
                }
                // a later point off the curve: the earlier failure is still the one named
                long at = (long) Math.min(n - 1, bad + 3) * pb + pb - 20;
                copy.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at,
                        (byte) (copy.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at) ^ 1));
                int first = outsideExists ? bad : Math.min(n - 1, bad + 3);
                assertMessage(g.displayName() + " point #" + first + " is not ", () -> codec.decodeAll(copy, 0, n));
            }
        } finally {
            SnarkjsBinaryCodec.forceLanes = false;
        }
    }

    // ------------------------------------------------------------ files written by snarkjs itself

    /**
     * snarkjs writes a new .ptau with every tau/alpha/beta = 1 (src/powersoftau_new.js writes
     * curve.G1.oneAffine / G2.oneAffine), so each point there is the generator, byte for byte; after a
     * contribution they are random subgroup points.
     */
    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void readsPowersOfTauFilesWrittenBySnarkjs(String curve, @TempDir Path dir) throws IOException {
        CurveGroup g1 = curve.equals("bn128") ? CurveGroup.BN254_G1 : CurveGroup.BLS12_381_G1;
        CurveGroup g2 = curve.equals("bn128") ? CurveGroup.BN254_G2 : CurveGroup.BLS12_381_G2;
        Path fresh = dir.resolve("fresh.ptau");
        Path contributed = dir.resolve("contributed.ptau");
        Node.snarkjs("powersoftau", "new", curve, "1", fresh.toString());
        Node.snarkjs("powersoftau", "contribute", fresh.toString(), contributed.toString(), "--name=test",
                "-e=some fixed entropy");

        SnarkjsBinaryCodec c1 = SnarkjsBinaryCodec.of(g1), c2 = SnarkjsBinaryCodec.of(g2);
        MemorySegment a = MemorySegment.ofArray(Files.readAllBytes(fresh));
        Map<Integer, long[]> sa = sections(a);
        assertEquals(g1.fieldBytes(), a.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, sa.get(1)[0]));
        byte[] gen1 = c1.encode(g1.curve().generator(), 0);
        byte[] gen2 = c2.encode(g2.curve().generator(), 0);
        int nTauG1 = 3, nTauG2 = 2;   // power 1: 2^2 - 1 and 2^1 points
        assertEquals((long) nTauG1 * gen1.length, sa.get(2)[1]);
        assertEquals((long) nTauG2 * gen2.length, sa.get(3)[1]);
        for (int i = 0; i < nTauG1; i++) {
            assertArrayEquals(gen1, a.asSlice(sa.get(2)[0] + (long) i * gen1.length, gen1.length).toArray(
                    java.lang.foreign.ValueLayout.JAVA_BYTE), "tauG1[" + i + "]");
        }
        for (int i = 0; i < nTauG2; i++) {
            assertArrayEquals(gen2, a.asSlice(sa.get(3)[0] + (long) i * gen2.length, gen2.length).toArray(
                    java.lang.foreign.ValueLayout.JAVA_BYTE), "tauG2[" + i + "]");
        }

        MemorySegment b = MemorySegment.ofArray(Files.readAllBytes(contributed));
        Map<Integer, long[]> sb = sections(b);
        long[] tauG1 = c1.decodeAll(b, sb.get(2)[0], nTauG1);      // full checks: on curve, in subgroup
        long[] tauG2 = c2.decodeAll(b, sb.get(3)[0], nTauG2);
        c1.decodeAll(b, sb.get(4)[0], 2);                           // alpha tau^i G1
        c1.decodeAll(b, sb.get(5)[0], 2);                           // beta tau^i G1
        c2.decodeAll(b, sb.get(6)[0], 1);                           // beta G2
        int aw1 = g1.curve().affineWidth(), aw2 = g2.curve().affineWidth();
        assertArrayEquals(g1.curve().generator(), Arrays.copyOf(tauG1, aw1), "tau^0 G1 = G1");
        assertArrayEquals(g2.curve().generator(), Arrays.copyOf(tauG2, aw2), "tau^0 G2 = G2");
        PointArithmetic pa = g1.curve().arithmetic();
        assertTrue(!pa.isInfinityAffine(tauG1, aw1) && !Arrays.equals(Arrays.copyOf(tauG1, aw1),
                Arrays.copyOfRange(tauG1, aw1, 2 * aw1)), "the contribution changed tau G1");
    }

    /**
     * Sections of an iden3 binary file (@iden3/binfileutils): magic (4), version u32, count u32, then
     * per section type u32, size u64, data. Returns type -> {data offset, size}.
     */
    private static Map<Integer, long[]> sections(MemorySegment f) {
        var u32 = java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        var u64 = java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        assertEquals("ptau", new String(f.asSlice(0, 4).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
        int count = f.get(u32, 8);
        Map<Integer, long[]> out = new HashMap<>();
        long pos = 12;
        for (int i = 0; i < count; i++) {
            int type = f.get(u32, pos);
            long size = f.get(u64, pos + 4);
            out.put(type, new long[] {pos + 12, size});
            pos += 12 + size;
        }
        return out;
    }

    static byte[] littleEndian(BigInteger v, int n) {
        byte[] be = v.toByteArray();
        byte[] le = new byte[n];
        for (int i = 0; i < n && i < be.length; i++) {
            le[i] = be[be.length - 1 - i];
        }
        return le;
    }

    static void assertMessage(String fragment, org.junit.jupiter.api.function.Executable call) {
        PointEncodingException e = assertThrows(PointEncodingException.class, call);
        assertTrue(e.getMessage().contains(fragment), "message \"" + e.getMessage() + "\" should contain \"" + fragment + "\"");
    }
}
