package dev.proofline.r1cs.pce;

import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.stream.IntStream;

/**
 * The pre-compiled constraint evaluator: a circuit's matrices A, B, C, recorded once, evaluated per
 * proof as sparse matrix-vector products a = A w, b = B w, c = C w (Montgomery form, one element per
 * constraint), in parallel over rows. Terms whose coefficient is 1 or -1 add or subtract without a
 * multiplication. The result equals the enforce path's element for element (field elements are
 * reduced, so the order of the sums does not matter).
 */
public final class Pce {

    private static final byte PLUS = 1;
    private static final byte MINUS = -1;
    private static final byte GENERAL = 0;
    /** Rows per parallel task. */
    private static final int ROWS_PER_TASK = 1 << 12;

    /** a, b, c for one witness. */
    public record Evaluation(long[] a, long[] b, long[] c) {
    }

    private final R1cs r1cs;
    private final byte[][] kinds;
    /** Per matrix and term: index of the coefficient in {@link #table} (general terms only). */
    private final int[][] coefIndex;
    /** The distinct general coefficients, 4 words each: circuits reuse few constants, so this is small and cached. */
    private final long[] table;
    /**
     * Per matrix (B, C) and row: the row of A with exactly the same terms, whose value it copies, or
     * -1. Squares (x * x) and S-boxes repeat a combination of A in B, often a long one.
     */
    private final int[][] sameAsA;
    /** The row kernel: both scalar fields are 4-limb fields with a spare top bit, which it needs. */
    private final Montgomery4Rows rowKernel;

    public Pce(R1cs r1cs) {
        this.r1cs = r1cs;
        PrimeField fr = r1cs.curve().fr();
        R1cs.Matrix[] ms = {r1cs.a(), r1cs.b(), r1cs.c()};
        kinds = new byte[3][];
        long[] minusOne = fr.newElement();
        fr.setOne(minusOne, 0);
        fr.neg(minusOne, 0, minusOne, 0);
        coefIndex = new int[3][];
        java.util.HashMap<Coef, Integer> distinct = new java.util.HashMap<>();
        long[] tbl = new long[64];
        for (int k = 0; k < 3; k++) {
            R1cs.Matrix m = ms[k];
            byte[] kd = new byte[m.terms()];
            int[] idx = new int[m.terms()];
            long[] cs = m.coefficients();
            for (int e = 0; e < kd.length; e++) {
                if (fr.isOne(cs, e * 4)) {
                    kd[e] = PLUS;
                } else if (fr.eq(cs, e * 4, minusOne, 0)) {
                    kd[e] = MINUS;
                } else {
                    kd[e] = GENERAL;
                    Coef key = new Coef(cs[e * 4], cs[e * 4 + 1], cs[e * 4 + 2], cs[e * 4 + 3]);
                    Integer at = distinct.get(key);
                    if (at == null) {
                        at = distinct.size();
                        distinct.put(key, at);
                        if ((at + 1) * 4 > tbl.length) {
                            tbl = java.util.Arrays.copyOf(tbl, tbl.length * 2);
                        }
                        System.arraycopy(cs, e * 4, tbl, at * 4, 4);
                    }
                    idx[e] = at;
                }
            }
            kinds[k] = kd;
            coefIndex[k] = idx;
        }
        table = java.util.Arrays.copyOf(tbl, distinct.size() * 4);
        sameAsA = new int[][] {null, repeatedRows(ms[0], kinds[0], coefIndex[0], ms[1], kinds[1], coefIndex[1]),
            repeatedRows(ms[0], kinds[0], coefIndex[0], ms[2], kinds[2], coefIndex[2])};
        rowKernel = new Montgomery4Rows(fr);
    }

    private record Coef(long w0, long w1, long w2, long w3) {
    }

    /** Rows with fewer terms are evaluated, not looked up. */
    private static final int MIN_REPEATED_TERMS = 3;

    /** For each row of m: the row of a with the same terms (columns, coefficients, in order), or -1. */
    private static int[] repeatedRows(R1cs.Matrix a, byte[] ka, int[] ia, R1cs.Matrix m, byte[] km, int[] im) {
        int rows = m.rowStart().length - 1;
        int[] out = new int[rows];
        java.util.Arrays.fill(out, -1);
        java.util.HashMap<Long, Integer> byHash = new java.util.HashMap<>();
        for (int r = 0; r < rows; r++) {
            if (a.rowStart()[r + 1] - a.rowStart()[r] >= MIN_REPEATED_TERMS) {
                byHash.putIfAbsent(rowHash(a, ka, ia, r), r);
            }
        }
        for (int r = 0; r < rows; r++) {
            if (m.rowStart()[r + 1] - m.rowStart()[r] < MIN_REPEATED_TERMS) {
                continue;
            }
            Integer candidate = byHash.get(rowHash(m, km, im, r));
            if (candidate != null && sameRow(a, ka, ia, candidate, m, km, im, r)) {
                out[r] = candidate;
            }
        }
        return out;
    }

    private static long rowHash(R1cs.Matrix m, byte[] k, int[] idx, int r) {
        long h = 1469598103934665603L;
        for (int e = m.rowStart()[r]; e < m.rowStart()[r + 1]; e++) {
            h = (h ^ m.columns()[e]) * 1099511628211L;
            h = (h ^ (k[e] == GENERAL ? idx[e] : -1 - k[e])) * 1099511628211L;
        }
        return h;
    }

    private static boolean sameRow(R1cs.Matrix a, byte[] ka, int[] ia, int ra, R1cs.Matrix m, byte[] km, int[] im,
            int rm) {
        int ea = a.rowStart()[ra];
        int em = m.rowStart()[rm];
        int n = a.rowStart()[ra + 1] - ea;
        if (n != m.rowStart()[rm + 1] - em) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (a.columns()[ea + i] != m.columns()[em + i] || ka[ea + i] != km[em + i]
                    || (ka[ea + i] == GENERAL && ia[ea + i] != im[em + i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Bytes its arrays hold on the heap (the matrices' rows, columns and coefficients, the term kinds,
     * coefficient indices and repeated-row tables): what a cache of PCEs pays for one.
     */
    public long heapBytes() {
        long bytes = table.length * 8L;
        R1cs.Matrix[] ms = {r1cs.a(), r1cs.b(), r1cs.c()};
        for (int k = 0; k < 3; k++) {
            R1cs.Matrix m = ms[k];
            bytes += m.rowStart().length * 4L + m.columns().length * 4L + m.coefficients().length * 8L;
            bytes += kinds[k].length + coefIndex[k].length * 4L;
            if (sameAsA[k] != null) {
                bytes += sameAsA[k].length * 4L;
            }
        }
        return bytes;
    }

    /** Number of distinct coefficients other than 1 and -1. */
    public int distinctCoefficients() {
        return table.length / 4;
    }

    public R1cs r1cs() {
        return r1cs;
    }

    /** Fraction of terms with coefficient +-1 (which skip the multiplication). */
    public double unitFraction() {
        long units = 0;
        long all = 0;
        for (byte[] kd : kinds) {
            for (byte b : kd) {
                units += b != GENERAL ? 1 : 0;
            }
            all += kd.length;
        }
        return all == 0 ? 0 : (double) units / all;
    }

    /** a, b, c for a full assignment (canonical values, as a {@link Witness} holds them). */
    public Evaluation evaluate(Witness w) {
        int rows = r1cs.constraintCount();
        Evaluation e = new Evaluation(new long[rows * 4], new long[rows * 4], new long[rows * 4]);
        evaluate(w, e.a(), e.b(), e.c());
        return e;
    }

    /**
     * a, b, c for a full assignment into the first {@code constraintCount} elements of the given
     * vectors (4 words each; the vectors may be longer, e.g. a prover's domain-size workspace).
     */
    public void evaluate(Witness w, long[] a, long[] b, long[] c) {
        evaluate(w, new long[w.size() * 4], a, b, c);
    }

    /**
     * As {@link #evaluate(Witness, long[], long[], long[])}, with {@code mont} (at least 4 words per
     * wire, overwritten) for the assignment in Montgomery form, e.g. a reused buffer.
     */
    public void evaluate(Witness w, long[] mont, long[] a, long[] b, long[] c) {
        toMontgomery(w, mont);
        evaluateMontgomery(mont, a, b, c);
    }

    /** The assignment in Montgomery form into {@code mont}, after checking that it fits the constraint system. */
    private void toMontgomery(Witness w, long[] mont) {
        if (w.curve() != r1cs.curve() || w.size() != r1cs.wireCount()) {
            throw new IllegalArgumentException("the witness (" + w.curve().snarkjsName() + ", " + w.size()
                    + " values) does not fit the constraint system (" + r1cs.curve().snarkjsName() + ", "
                    + r1cs.wireCount() + " wires)");
        }
        PrimeField fr = r1cs.curve().fr();
        int n = w.size();
        if (mont.length < n * 4L) {
            throw new IllegalArgumentException("the Montgomery buffer holds " + mont.length + " words, the witness needs "
                    + n * 4L);
        }
        long[] canon = w.words();
        IntStream.range(0, (n + ROWS_PER_TASK - 1) / ROWS_PER_TASK).parallel().forEach(t -> {
            for (int i = t * ROWS_PER_TASK, end = Math.min(n, i + ROWS_PER_TASK); i < end; i++) {
                fr.toMontgomery(canon, i * 4, mont, i * 4);
            }
        });
    }

    /** a, b, c for an assignment already in Montgomery form (4 words per wire). */
    public Evaluation evaluateMontgomery(long[] w) {
        int rows = r1cs.constraintCount();
        Evaluation e = new Evaluation(new long[rows * 4], new long[rows * 4], new long[rows * 4]);
        evaluateMontgomery(w, e.a(), e.b(), e.c());
        return e;
    }

    /** As {@link #evaluate(Witness, long[], long[], long[])} for an assignment in Montgomery form. */
    public void evaluateMontgomery(long[] w, long[] a, long[] b, long[] c) {
        int rows = r1cs.constraintCount();
        long need = rows * 4L;
        if (a.length < need || b.length < need || c.length < need) {
            throw new IllegalArgumentException("a, b, c need " + need + " words each for " + rows + " constraints");
        }
        R1cs.Matrix[] ms = {r1cs.a(), r1cs.b(), r1cs.c()};
        long[][] outs = {a, b, c};
        int tasks = (rows + ROWS_PER_TASK - 1) / ROWS_PER_TASK;
        // A first: rows of B and C that repeat a row of A copy its value
        IntStream.range(0, tasks).parallel().forEach(task -> evaluateRows(ms, outs, 0, task, rows, w));
        IntStream.range(0, tasks * 2).parallel().forEach(task -> evaluateRows(ms, outs, 1 + task % 2, task / 2,
                rows, w));
    }

    private void evaluateRows(R1cs.Matrix[] ms, long[][] outs, int k, int task, int rows, long[] w) {
        int lo = task * ROWS_PER_TASK;
        int hi = Math.min(rows, lo + ROWS_PER_TASK);
        int[] same = sameAsA[k];
        long[] a = outs[0];
        long[] out = outs[k];
        int r = lo;
        while (r < hi) {
            if (same != null && same[r] >= 0) {
                System.arraycopy(a, same[r] * 4, out, r * 4, 4);
                r++;
                continue;
            }
            int end = r + 1;
            while (end < hi && (same == null || same[end] < 0)) {
                end++;
            }
            rowKernel.rows(ms[k].rowStart(), ms[k].columns(), kinds[k], coefIndex[k], table, w, out, 0, r, end);
            r = end;
        }
    }

    /**
     * As {@link #evaluate(Witness, long[], long[], long[], long[])}, into native memory: a, b, c of the
     * circuit's constraints into the first {@code constraintCount} elements (32 bytes each, the words in
     * the {@code long[]} layout) of the segments, e.g. page-locked buffers that a GPU copies from. Each
     * task computes its rows in a small heap tile and copies the tile out.
     */
    public void evaluate(Witness w, long[] mont, MemorySegment a, MemorySegment b, MemorySegment c) {
        toMontgomery(w, mont);
        evaluateMontgomery(mont, a, b, c);
    }

    /** As {@link #evaluate(Witness, long[], MemorySegment, MemorySegment, MemorySegment)} for an assignment in Montgomery form. */
    public void evaluateMontgomery(long[] w, MemorySegment a, MemorySegment b, MemorySegment c) {
        int rows = r1cs.constraintCount();
        long need = rows * 32L;
        if (a.byteSize() < need || b.byteSize() < need || c.byteSize() < need) {
            throw new IllegalArgumentException("a, b, c need " + need + " bytes each for " + rows + " constraints");
        }
        R1cs.Matrix[] ms = {r1cs.a(), r1cs.b(), r1cs.c()};
        MemorySegment[] outs = {a, b, c};
        int tasks = (rows + ROWS_PER_TASK - 1) / ROWS_PER_TASK;
        // A first: rows of B and C that repeat a row of A copy its value
        IntStream.range(0, tasks).parallel().forEach(task -> evaluateTile(ms, outs, 0, task, rows, w));
        IntStream.range(0, tasks * 2).parallel().forEach(task -> evaluateTile(ms, outs, 1 + task % 2, task / 2,
                rows, w));
    }

    private void evaluateTile(R1cs.Matrix[] ms, MemorySegment[] outs, int k, int task, int rows, long[] w) {
        int lo = task * ROWS_PER_TASK;
        int hi = Math.min(rows, lo + ROWS_PER_TASK);
        long[] tile = new long[(hi - lo) * 4];
        int[] same = sameAsA[k];
        int r = lo;
        while (r < hi) {
            if (same != null && same[r] >= 0) {
                MemorySegment.copy(outs[0], ValueLayout.JAVA_LONG, same[r] * 32L, tile, (r - lo) * 4, 4);
                r++;
                continue;
            }
            int end = r + 1;
            while (end < hi && (same == null || same[end] < 0)) {
                end++;
            }
            rowKernel.rows(ms[k].rowStart(), ms[k].columns(), kinds[k], coefIndex[k], table, w, tile, lo, r, end);
            r = end;
        }
        MemorySegment.copy(tile, 0, outs[k], ValueLayout.JAVA_LONG, lo * 32L, tile.length);
    }

    /** Rows of B and C evaluated as copies of rows of A. */
    public long repeatedRowCount() {
        long n = 0;
        for (int k = 1; k < 3; k++) {
            for (int x : sameAsA[k]) {
                n += x >= 0 ? 1 : 0;
            }
        }
        return n;
    }
}
