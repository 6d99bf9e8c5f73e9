package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.RootsOfUnity;
import dev.proofline.cuda.NttPlan.Launch;
import dev.proofline.cuda.NttPlan.Null;
import dev.proofline.cuda.NttPlan.Op;
import dev.proofline.cuda.NttPlan.Pointer;
import dev.proofline.cuda.NttPlan.Slot;
import dev.proofline.cuda.NttPlan.U32;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The launches and tables {@link CudaNtt} sends to a device, as intended. */
class NttPlanTest {

    private static Launch block(Slot v, int logN, int s0, int k, int mode) {
        boolean scale = mode == 7;
        return new Launch("ntt_block", List.of(new Pointer(v, 0), new Pointer(Slot.TWIDDLES, 0),
                scale ? new Pointer(Slot.SCALE, 0) : new Null(),
                scale ? new Pointer(Slot.SCALE, 1L << (logN / 2)) : new Null(), new U32(scale ? logN / 2 : 0), new U32(s0),
                new U32(k), new U32(mode)), 1L << (logN - 1), 1 << (k - 1));
    }

    private static Launch bitReverse(int logN) {
        return new Launch("ntt_bit_reverse", List.of(new Pointer(Slot.A, 0), new U32(logN)), 1L << logN);
    }

    @Test
    void forwardIsBitReversalThenTheStagesTenAtATime() {
        int dit = NttPlan.BLOCK_DIT;
        assertEquals(List.of(bitReverse(3), block(Slot.A, 3, 0, 3, dit)), NttPlan.launches(Op.FORWARD, 3));
        assertEquals(List.of(bitReverse(12), block(Slot.A, 12, 0, 10, dit), block(Slot.A, 12, 10, 2, dit)),
                NttPlan.launches(Op.FORWARD, 12));
        assertEquals(List.of(bitReverse(20), block(Slot.A, 20, 0, 10, dit), block(Slot.A, 20, 10, 10, dit)),
                NttPlan.launches(Op.FORWARD, 20));
        assertEquals(List.of(bitReverse(7), block(Slot.A, 7, 0, 3, dit), block(Slot.A, 7, 3, 3, dit),
                block(Slot.A, 7, 6, 1, dit)), NttPlan.launches(Op.FORWARD, 7, 3));
        assertEquals(List.of(block(Slot.A, 1, 0, 1, dit)), NttPlan.launches(Op.FORWARD, 1));
        assertEquals(List.of(), NttPlan.launches(Op.FORWARD, 0));
        assertEquals(512, NttPlan.launches(Op.FORWARD, 20).get(1).block());
        assertEquals(1024, NttPlan.launches(Op.FORWARD, 20).get(1).blocks());
        assertEquals(2, NttPlan.launches(Op.FORWARD, 12).get(2).block());
        assertEquals(1024, NttPlan.launches(Op.FORWARD, 12).get(2).blocks());
    }

    @Test
    void inverseAndCosetInverseEndWithTheReversedTail() {
        List<Launch> inv = NttPlan.launches(Op.INVERSE, 4);
        assertEquals(new Launch("ntt_reverse_tail", List.of(new Pointer(Slot.A, 0), new Pointer(Slot.TWIDDLES, 15),
                new U32(4)), 9), inv.getLast());
        assertEquals(3, inv.size());
        assertEquals(bitReverse(4), inv.getFirst());
        List<Launch> ci = NttPlan.launches(Op.COSET_INVERSE, 4);
        assertEquals(new Launch("ntt_reverse_tail", List.of(new Pointer(Slot.A, 0), new Null(), new U32(4)), 9),
                ci.get(2));
        assertEquals(new Launch("ntt_scale", List.of(new Pointer(Slot.A, 0), new Pointer(Slot.SCALE, 0),
                new Pointer(Slot.SCALE, 4), new U32(2)), 16), ci.getLast());
    }

    @Test
    void quotientTakesEachVectorToTheCosetThenFormsH() {
        int logN = 23;
        List<Launch> q = NttPlan.launches(Op.QUOTIENT, logN);
        assertEquals(3 * 5 + 1, q.size());
        for (int k = 0; k < 3; k++) {
            Slot v = Slot.values()[k];
            int at = k * 5;
            assertEquals(block(v, logN, 20, 3, NttPlan.BLOCK_DIF), q.get(at++));
            assertEquals(block(v, logN, 10, 10, NttPlan.BLOCK_DIF), q.get(at++));
            assertEquals(block(v, logN, 0, 10, 7), q.get(at++));
            assertEquals(block(v, logN, 10, 10, NttPlan.BLOCK_DIT), q.get(at++));
            assertEquals(block(v, logN, 20, 3, NttPlan.BLOCK_DIT), q.get(at++));
        }
        assertEquals(new Launch("ntt_h", List.of(new Pointer(Slot.A, 0), new Pointer(Slot.B, 0), new Pointer(Slot.C, 0),
                new Pointer(Slot.A, 0)), 1 << logN), q.getLast());
        assertEquals(List.of(block(Slot.A, 6, 0, 6, 7)), NttPlan.launches(Op.EVALUATIONS_ON_COSET, 6));
    }

    @Test
    void blocksCoverTheThreads() {
        assertEquals(1, new Launch("ntt_h", List.of(), 1).blocks());
        assertEquals(1, new Launch("ntt_h", List.of(), 256).blocks());
        assertEquals(2, new Launch("ntt_h", List.of(), 257).blocks());
        assertEquals(2049, NttPlan.launches(Op.INVERSE, 20).getLast().blocks()); // 2^19 + 1 threads
    }

    @Test
    void twiddlesAreTheStageTablesThenOneOverN() {
        for (PairingCurve c : PairingCurve.values()) {
            PrimeField f = c.fr();
            int logN = 6;
            int w = f.width();
            long[] t = NttPlan.twiddles(f, logN);
            assertEquals(64 * w, t.length);
            BigInteger q = f.modulus();
            for (int s = 0; s < logN; s++) {
                BigInteger root = f.toBigInteger(RootsOfUnity.primitive(f, s + 1), 0);
                for (int j = 0; j < 1 << s; j++) {
                    assertEquals(root.modPow(BigInteger.valueOf(j), q), f.toBigInteger(t, ((1 << s) - 1 + j) * w),
                            "stage " + s + " twiddle " + j);
                }
            }
            assertEquals(BigInteger.valueOf(64).modInverse(q), f.toBigInteger(t, 63 * w));
        }
    }

    @Test
    void scaleTablesGiveEveryPowerOnce() {
        PrimeField f = PairingCurve.BN254.fr();
        int logN = 5;
        int w = f.width();
        long[] g = f.fromLong(3);
        BigInteger q = f.modulus();
        BigInteger nInv = BigInteger.valueOf(32).modInverse(q);
        long[] natural = NttPlan.scaleTables(f, logN, Op.COSET_FORWARD, g, 0);
        long[] reversed = NttPlan.scaleTables(f, logN, Op.EVALUATIONS_ON_COSET, g, 0);
        assertEquals(NttPlan.scaleElements(logN) * w, natural.length);
        int b = NttPlan.lowBits(logN);
        for (int p = 0; p < 32; p++) {
            int rev = Integer.reverse(p) >>> (32 - logN);
            assertEquals(BigInteger.valueOf(3).modPow(BigInteger.valueOf(p), q), product(f, natural, p, b));
            assertEquals(BigInteger.valueOf(3).modPow(BigInteger.valueOf(rev), q).multiply(nInv).mod(q),
                    product(f, reversed, p, b));
        }
        assertArrayEquals(new long[0], NttPlan.scaleTables(f, logN, Op.FORWARD, g, 0));
    }

    private static BigInteger product(PrimeField f, long[] tables, int p, int b) {
        int w = f.width();
        BigInteger lo = f.toBigInteger(tables, (p & ((1 << b) - 1)) * w);
        BigInteger hi = f.toBigInteger(tables, ((1 << b) + (p >>> b)) * w);
        return lo.multiply(hi).mod(f.modulus());
    }

    @Test
    void onlyTheScalarFieldsHaveKernels() {
        assertEquals("bn254_fr", NttPlan.kernelPrefix(PairingCurve.BN254.fr()));
        assertEquals("bls12381_fr", NttPlan.kernelPrefix(PairingCurve.BLS12_381.fr()));
        assertThrows(IllegalArgumentException.class, () -> NttPlan.kernelPrefix(PairingCurve.BN254.fp()));
        assertEquals(10, KernelImage.NTT_ENTRY_POINTS.size());
        assertEquals("pl_bls12381_fr_ntt_block", NttPlan.entryPoint("bls12381_fr", "ntt_block"));
    }
}
