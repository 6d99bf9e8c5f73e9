package dev.proofline.groth16;

import dev.proofline.algebra.Parallel;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.BinFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * a = A w and b = B w on the key's domain from the key's coefficient section, and c = a b pointwise
 * (Montgomery form), into vectors on the heap ({@code long[]}) or in native memory (the same words in
 * the {@code long[]} layout). The evaluation is written once, over a {@link Target} of either kind, so
 * that both give the same vectors.
 */
final class Coefficients {

    /** Elements per task of the pointwise loops. */
    private static final int CHUNK = 1 << 14;

    private Coefficients() {
    }

    /** a, b, c into the first domain-size elements of heap vectors; whatever they held there is overwritten. */
    static void abc(ProvingKey key, Witness witness, long[] a, long[] b, long[] c) {
        PrimeField fr = key.curve().fr();
        int n = key.domainSize();
        int words = fr.limbs();
        Arrays.fill(a, 0, n * words, 0L);
        Arrays.fill(b, 0, n * words, 0L);
        evaluate(key, witness, new Heap(a, b));
        // c = a b
        Parallel.chunks(n, CHUNK, (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                fr.mul(a, i * words, b, i * words, c, i * words);
            }
        });
    }

    /** As {@link #abc(ProvingKey, Witness, long[], long[], long[])} into native vectors. */
    static void abc(ProvingKey key, Witness witness, MemorySegment a, MemorySegment b, MemorySegment c) {
        PrimeField fr = key.curve().fr();
        int n = key.domainSize();
        long end = Prover.NativeWorkspace.vectorBytes(key);
        a.asSlice(0, end).fill((byte) 0);
        b.asSlice(0, end).fill((byte) 0);
        evaluate(key, witness, new Native(a, b));
        // c = a b, a chunk at a time through the heap
        Parallel.chunks(n, CHUNK, (lo, hi) -> {
            int len = (hi - lo) * 4;
            long[] x = new long[len];
            long[] y = new long[len];
            MemorySegment.copy(a, ValueLayout.JAVA_LONG, lo * 32L, x, 0, len);
            MemorySegment.copy(b, ValueLayout.JAVA_LONG, lo * 32L, y, 0, len);
            for (int i = 0; i < len; i += 4) {
                fr.mul(x, i, y, i, x, i);
            }
            MemorySegment.copy(x, 0, c, ValueLayout.JAVA_LONG, lo * 32L, len);
        });
    }

    /** The vectors a and b that the evaluation adds its terms into. */
    private sealed interface Target {
        /**
         * Element {@code at} of a ({@code matrix} 0) or b (otherwise) += {@code term}; {@code scratch} is
         * four words of the calling thread's own.
         */
        void add(PrimeField fr, int matrix, int at, long[] term, long[] scratch);
    }

    /** a and b on the heap: the term is added in place. */
    private record Heap(long[] a, long[] b) implements Target {
        @Override
        public void add(PrimeField fr, int matrix, int at, long[] term, long[] scratch) {
            long[] out = matrix == 0 ? a : b;
            fr.add(out, at * 4, term, 0, out, at * 4);
        }
    }

    /** a and b in native memory: the element is read into {@code scratch}, added to, and written back. */
    private record Native(MemorySegment a, MemorySegment b) implements Target {
        @Override
        public void add(PrimeField fr, int matrix, int at, long[] term, long[] scratch) {
            MemorySegment out = matrix == 0 ? a : b;
            long o = at * 32L;
            MemorySegment.copy(out, ValueLayout.JAVA_LONG, o, scratch, 0, 4);
            fr.add(scratch, 0, term, 0, scratch, 0);
            MemorySegment.copy(scratch, 0, out, ValueLayout.JAVA_LONG, o, 4);
        }
    }

    /**
     * a or b (by the matrix) [constraint] += value * w[signal] over all coefficients. The value is stored as the
     * Montgomery form of (coefficient R), so one Montgomery product with the canonical witness value
     * gives the Montgomery form of coefficient * w. In parallel when the key lists each matrix in
     * constraint order (ranges cut where the constraint changes, so no two threads share one).
     */
    private static void evaluate(ProvingKey key, Witness witness, Target target) {
        MemorySegment coefs = key.coefficients();
        long[] w = witness.words();
        PrimeField fr = key.curve().fr();
        int[] cut = cuts(key);
        int words = ProvingKey.COEFFICIENT_WORDS;
        IntStream.range(0, cut.length - 1).parallel().forEach(p -> {
            long[] v = new long[4];
            long[] t = new long[4];
            long[] scratch = new long[4];
            int chunk = ProvingKey.COEFFICIENT_CHUNK;
            int[] rec = new int[Math.min(chunk, cut[p + 1] - cut[p]) * words];
            for (int start = cut[p]; start < cut[p + 1]; start += chunk) {
                int count = Math.min(chunk, cut[p + 1] - start);
                ProvingKey.copyCoefficients(coefs, start, count, rec);
                for (int at = 0; at < count * words; at += words) {
                    int s = rec[at + 2];
                    if ((w[s * 4] | w[s * 4 + 1] | w[s * 4 + 2] | w[s * 4 + 3]) == 0) {
                        continue;   // a zero value adds nothing (most of a bit-heavy witness)
                    }
                    ProvingKey.coefficientValue(rec, at, v);
                    fr.mul(v, 0, w, s * 4, t, 0);
                    target.add(fr, rec[at], rec[at + 1], t, scratch);
                }
            }
        });
    }

    /**
     * The key's coefficients cut into ranges for parallel evaluation (range p is [cut[p], cut[p + 1])):
     * several when the key lists each matrix in constraint order, cut where the constraint changes so
     * that no two ranges write one constraint; one range otherwise.
     */
    private static int[] cuts(ProvingKey key) {
        int to = key.coefficientCount();
        MemorySegment coefs = key.coefficients();
        int parts = key.coefficientsInConstraintOrder()
                ? Math.max(1, Math.min(4 * ForkJoinPool.getCommonPoolParallelism(), to / 4096)) : 1;
        int[] cut = new int[parts + 1];
        cut[parts] = to;
        for (int p = 1; p < parts; p++) {
            int i = Math.max(cut[p - 1], (int) ((long) to * p / parts));
            while (i > 0 && i < to && constraint(coefs, i - 1) == constraint(coefs, i)) {
                i++;
            }
            cut[p] = i;
        }
        return cut;
    }

    private static int constraint(MemorySegment coefs, int i) {
        return coefs.get(BinFile.U32, (long) i * ProvingKey.COEFFICIENT_BYTES + 4);
    }
}
