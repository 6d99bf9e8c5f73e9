package dev.proofline.cuda;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link CudaNtt} runs, independent of a device: the tables it uploads (made here, in Java, in the
 * Java layout) and the sequence of kernel launches of each transform, with their arguments in terms of
 * the buffers they address. The host test program runs the same sequence with the same per-thread
 * functions ({@code ntt.cuh}), so the launches are checked against the Java {@link Ntt} without a GPU.
 *
 * <p>Buffers ({@link Slot}): the vectors A, B, C (n elements each), the twiddles (n elements: the
 * tables of the stages one after another, stage s = w_(2^(s+1))^j for j < 2^s at element 2^s - 1, then
 * n^-1 at element n - 1) and the scale tables (2^b + 2^(logN-b) elements, b = logN / 2: low then
 * high, see {@link #scaleTables}).
 */
final class NttPlan {

    /** Threads a block of every NTT launch. */
    static final int BLOCK = 256;

    /** The device buffers a launch addresses. */
    enum Slot { A, B, C, TWIDDLES, SCALE }

    /** A kernel parameter. */
    sealed interface Arg {
    }

    /** A device pointer: element {@code element} of the buffer {@code slot}. */
    record Pointer(Slot slot, long element) implements Arg {
    }

    /** The null pointer. */
    record Null() implements Arg {
    }

    /** An {@code unsigned} parameter. */
    record U32(int value) implements Arg {
    }

    /** The most elements a thread block takes into shared memory, and stages it runs: 2^10 (32 KiB). */
    static final int MAX_BLOCK_LOG = 10;

    /** {@code ntt_block} modes: which steps it runs on its elements, in this order. */
    static final int BLOCK_DIF = 1;
    static final int BLOCK_SCALE = 2;
    static final int BLOCK_DIT = 4;

    /**
     * One launch of {@code pl_<field>_<kernel>}: {@code args} then the thread count (the last parameter
     * of every NTT kernel, an {@code unsigned long long}), in thread blocks of {@code block} threads.
     */
    record Launch(String kernel, List<Arg> args, long count, int block) {
        Launch {
            args = List.copyOf(args);
        }

        /** A launch in blocks of {@link #BLOCK} threads. */
        Launch(String kernel, List<Arg> args, long count) {
            this(kernel, args, count, BLOCK);
        }

        int blocks() {
            return (int) ((count + block - 1) / block);
        }
    }

    /** The transforms. */
    enum Op { FORWARD, INVERSE, COSET_FORWARD, COSET_INVERSE, EVALUATIONS_ON_COSET, QUOTIENT }

    private NttPlan() {
    }

    /** The fields with NTT kernels: the scalar fields of the two curves. */
    static String kernelPrefix(PrimeField f) {
        for (PairingCurve c : PairingCurve.values()) {
            if (c.fr().modulus().equals(f.modulus())) {
                return c == PairingCurve.BN254 ? "bn254_fr" : "bls12381_fr";
            }
        }
        throw new IllegalArgumentException("no CUDA NTT kernels for the " + f.name()
                + " (only the scalar fields of BN254 and BLS12-381)");
    }

    /** The entry point of a launch for a field prefix ({@link #kernelPrefix}). */
    static String entryPoint(String prefix, String kernel) {
        return "pl_" + prefix + "_" + kernel;
    }

    /** The kernel names (without the field prefix) of the NTT. */
    static final List<String> KERNELS = List.of("ntt_bit_reverse", "ntt_block", "ntt_reverse_tail", "ntt_scale", "ntt_h");

    /** Bits of the low scale table for a size: b = logN / 2. */
    static int lowBits(int logN) {
        return logN >>> 1;
    }

    /** Elements of the scale tables for a size. */
    static int scaleElements(int logN) {
        return (1 << lowBits(logN)) + (1 << (logN - lowBits(logN)));
    }

    /**
     * The launches of {@code op} on a domain of 2^logN: on A, or for {@link Op#QUOTIENT} on A, B and C
     * (each evaluated on the coset, then h into A).
     */
    static List<Launch> launches(Op op, int logN) {
        return launches(op, logN, MAX_BLOCK_LOG);
    }

    /**
     * As {@link #launches(Op, int)}, with at most maxBlockLog stages a launch, on groups of 2^maxBlockLog
     * elements in shared memory (1 .. {@link #MAX_BLOCK_LOG}; smaller ones let small sizes take several
     * launches, as large ones do).
     */
    static List<Launch> launches(Op op, int logN, int maxBlockLog) {
        if (maxBlockLog < 1 || maxBlockLog > MAX_BLOCK_LOG) {
            throw new IllegalArgumentException("block of 2^" + maxBlockLog + " elements");
        }
        int k = Math.min(logN, maxBlockLog);
        List<Launch> l = new ArrayList<>();
        switch (op) {
            case FORWARD -> forward(l, Slot.A, logN, k);
            case INVERSE -> {
                forward(l, Slot.A, logN, k);
                reverseTail(l, Slot.A, logN, new Pointer(Slot.TWIDDLES, (1L << logN) - 1));
            }
            case COSET_FORWARD -> {
                scale(l, Slot.A, logN);
                forward(l, Slot.A, logN, k);
            }
            case COSET_INVERSE -> {
                forward(l, Slot.A, logN, k);
                reverseTail(l, Slot.A, logN, new Null());
                scale(l, Slot.A, logN);
            }
            case EVALUATIONS_ON_COSET -> evaluationsOnCoset(l, Slot.A, logN, k);
            case QUOTIENT -> {
                evaluationsOnCoset(l, Slot.A, logN, k);
                evaluationsOnCoset(l, Slot.B, logN, k);
                evaluationsOnCoset(l, Slot.C, logN, k);
                l.add(new Launch("ntt_h", List.of(new Pointer(Slot.A, 0), new Pointer(Slot.B, 0), new Pointer(Slot.C, 0),
                        new Pointer(Slot.A, 0)), 1L << logN));
            }
        }
        return l;
    }

    /** Bit reversal, then the decimation-in-time stages, k at a time in shared memory. */
    private static void forward(List<Launch> l, Slot v, int logN, int k) {
        if (logN >= 2) {
            l.add(new Launch("ntt_bit_reverse", List.of(new Pointer(v, 0), new U32(logN)), 1L << logN));
        }
        for (int s0 = 0; s0 < logN; s0 += k) {
            block(l, v, logN, s0, Math.min(k, logN - s0), BLOCK_DIT);
        }
    }

    /**
     * Decimation in frequency (natural order in, bit-reversed out), the scaling, decimation in time,
     * without a permutation: the inverse stages from logN-1 down to k, k at a time in shared memory; then
     * one launch for the inverse stages k-1 .. 0, the scaling and the forward stages 0 .. k-1; then the
     * forward stages from k up, k at a time.
     */
    private static void evaluationsOnCoset(List<Launch> l, Slot v, int logN, int k) {
        if (logN == 0) {
            scale(l, v, logN);
            return;
        }
        List<int[]> upper = new ArrayList<>();     // {s0, stages} above the first k
        for (int s0 = k; s0 < logN; s0 += k) {
            upper.add(new int[] {s0, Math.min(k, logN - s0)});
        }
        for (int i = upper.size() - 1; i >= 0; i--) {
            block(l, v, logN, upper.get(i)[0], upper.get(i)[1], BLOCK_DIF);
        }
        block(l, v, logN, 0, k, BLOCK_DIF | BLOCK_SCALE | BLOCK_DIT);
        for (int[] u : upper) {
            block(l, v, logN, u[0], u[1], BLOCK_DIT);
        }
    }

    /** ntt_block over the stages s0 .. s0+k-1: n / 2^k groups of 2^k elements, 2^(k-1) threads each. */
    private static void block(List<Launch> l, Slot v, int logN, int s0, int k, int mode) {
        boolean scale = (mode & BLOCK_SCALE) != 0;
        int b = lowBits(logN);
        l.add(new Launch("ntt_block", List.of(new Pointer(v, 0), new Pointer(Slot.TWIDDLES, 0),
                scale ? new Pointer(Slot.SCALE, 0) : new Null(), scale ? new Pointer(Slot.SCALE, 1L << b) : new Null(),
                new U32(scale ? b : 0), new U32(s0), new U32(k), new U32(mode)), 1L << (logN - 1), 1 << (k - 1)));
    }

    private static void reverseTail(List<Launch> l, Slot v, int logN, Arg c) {
        l.add(new Launch("ntt_reverse_tail", List.of(new Pointer(v, 0), c, new U32(logN)), (1L << logN >>> 1) + 1));
    }

    private static void scale(List<Launch> l, Slot v, int logN) {
        int b = lowBits(logN);
        l.add(new Launch("ntt_scale", List.of(new Pointer(v, 0), new Pointer(Slot.SCALE, 0),
                new Pointer(Slot.SCALE, 1L << b), new U32(b)), 1L << logN));
    }

    // ---------------------------------------------------------------- tables

    /**
     * The twiddles of a domain, as the Java {@link Ntt} makes them: the stage tables one after another
     * (stage s: w^(j 2^(logN-1-s)) for j < 2^s, w = {@link RootsOfUnity#primitive}), then n^-1; n
     * elements.
     */
    static long[] twiddles(PrimeField f, int logN) {
        int w = f.width();
        int n = 1 << logN;
        long[] t = f.newVector(n);
        if (logN > 0) {
            long[] omega = RootsOfUnity.primitive(f, logN);
            int half = n >>> 1;
            long[] powers = f.newVector(half);
            long[] p = f.one();
            for (int j = 0; j < half; j++) {
                f.copy(p, 0, powers, j * w);
                f.mul(p, 0, omega, 0, p, 0);
            }
            for (int s = 0; s < logN; s++) {
                int shift = logN - 1 - s;
                int base = (1 << s) - 1;
                for (int j = 0; j < 1 << s; j++) {
                    System.arraycopy(powers, (j << shift) * w, t, (base + j) * w, w);
                }
            }
        }
        long[] nInv = f.fromLong(n);
        f.inv(nInv, 0, nInv, 0);
        f.copy(nInv, 0, t, (n - 1) * w);
        return t;
    }

    /**
     * The scale tables of {@code op} with the shift g (low then high, b = logN / 2, hb = logN - b), so
     * that the {@code ntt_scale} launch multiplies a_p by low[p mod 2^b] high[p >> b]:
     * <ul>
     * <li>coset forward, natural order, a_p *= g^p: low[lo] = g^lo, high[hi] = (g^(2^b))^hi;
     * <li>coset inverse, natural order, a_p *= n^-1 g^-p: the same with n^-1 g^-1 in place of g, times
     * n^-1 in high;
     * <li>evaluations on the coset (and the quotient), bit-reversed order, a_p *= n^-1 g^rev(p):
     * low[lo] = (g^(2^hb))^rev_b(lo), high[hi] = n^-1 g^rev_hb(hi).
     * </ul>
     * Empty for the transforms without scaling.
     */
    static long[] scaleTables(PrimeField f, int logN, Op op, long[] g, int gi) {
        int b = lowBits(logN);
        int hb = logN - b;
        long[] r = f.newElement();
        f.copy(g, gi, r, 0);
        long[] nInv = f.fromLong(1L << logN);
        f.inv(nInv, 0, nInv, 0);
        return switch (op) {
            case FORWARD, INVERSE -> new long[0];
            case COSET_FORWARD -> concat(powers(f, f.one(), r, 1 << b, false),
                    powers(f, f.one(), pow2(f, r, b), 1 << hb, false));
            case COSET_INVERSE -> {
                long[] rInv = f.newElement();
                f.inv(r, 0, rInv, 0);
                if (f.isZero(rInv, 0)) {
                    throw new IllegalArgumentException("coset shift is zero");
                }
                yield concat(powers(f, f.one(), rInv, 1 << b, false), powers(f, nInv, pow2(f, rInv, b), 1 << hb, false));
            }
            case EVALUATIONS_ON_COSET, QUOTIENT -> concat(powers(f, f.one(), pow2(f, r, hb), 1 << b, true),
                    powers(f, nInv, r, 1 << hb, true));
        };
    }

    /** r^(2^k). */
    private static long[] pow2(PrimeField f, long[] r, int k) {
        long[] x = r.clone();
        for (int i = 0; i < k; i++) {
            f.sqr(x, 0, x, 0);
        }
        return x;
    }

    /** table_i = c r^i for i < m, or c r^rev(i) (rev over log2 m bits) when bitReversed. */
    private static long[] powers(PrimeField f, long[] c, long[] r, int m, boolean bitReversed) {
        int w = f.width();
        long[] t = f.newVector(m);
        long[] p = c.clone();
        for (int i = 0; i < m; i++) {
            f.copy(p, 0, t, i * w);
            f.mul(p, 0, r, 0, p, 0);
        }
        if (bitReversed) {
            Ntt.bitReverse(t, w, Integer.numberOfTrailingZeros(m));
        }
        return t;
    }

    private static long[] concat(long[] x, long[] y) {
        long[] r = new long[x.length + y.length];
        System.arraycopy(x, 0, r, 0, x.length);
        System.arraycopy(y, 0, r, x.length, y.length);
        return r;
    }
}
