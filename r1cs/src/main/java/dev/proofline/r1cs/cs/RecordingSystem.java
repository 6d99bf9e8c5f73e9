package dev.proofline.r1cs.cs;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.R1cs;
import java.util.Arrays;

/**
 * Records a circuit's constraints without values into A, B, C in compressed sparse rows. Inputs and
 * auxiliary variables may be allocated in any interleaving with the constraints: terms are recorded
 * with their variables tagged by kind, and {@link #r1cs()} remaps them to the final columns
 * (1, inputs, then auxiliary variables) once the input count is known.
 */
public final class RecordingSystem extends AbstractSystem {

    private final Matrix[] m = {new Matrix(), new Matrix(), new Matrix()};
    private int constraints;

    public RecordingSystem(PairingCurve curve) {
        super(curve, false);
    }

    /** The constraint system of {@code circuit}. */
    public static R1cs record(PairingCurve curve, Circuit circuit) {
        RecordingSystem cs = new RecordingSystem(curve);
        circuit.synthesize(cs);
        return cs.r1cs();
    }

    @Override
    public void enforce(String name, LinearCombination a, LinearCombination b, LinearCombination c) {
        m[0].row(a);
        m[1].row(b);
        m[2].row(c);
        constraints++;
    }

    /**
     * The recorded system in circom's wire order: all inputs but the constant count as public inputs
     * (no outputs, no private inputs).
     */
    public R1cs r1cs() {
        int wires = inputCount + auxCount;
        return new R1cs(curve, wires, 0, inputCount - 1, 0, wires, m[0].build(inputCount), m[1].build(inputCount),
                m[2].build(inputCount));
    }

    public int constraintCount() {
        return constraints;
    }

    /** One matrix, rows appended, columns as encoded variables until built. */
    private static final class Matrix {
        private int[] rowStart = new int[1024];
        private int rows;
        private int[] cols = new int[1024];
        private long[] coefs = new long[4096];
        private int n;

        void row(LinearCombination lc) {
            if (rows + 2 > rowStart.length) {
                rowStart = Arrays.copyOf(rowStart, rowStart.length * 2);
            }
            rowStart[rows++] = n;
            int k = lc.size();
            if (n + k > cols.length) {
                int cap = Math.max(cols.length * 2, n + k);
                cols = Arrays.copyOf(cols, cap);
                coefs = Arrays.copyOf(coefs, cap * 4);
            }
            long[] cs = lc.coefficients();
            for (int i = 0; i < k; i++) {
                cols[n] = lc.variable(i);
                System.arraycopy(cs, i * 4, coefs, n * 4, 4);
                n++;
            }
        }

        R1cs.Matrix build(int inputs) {
            int[] rs = Arrays.copyOf(rowStart, rows + 1);
            rs[rows] = n;
            int[] c = new int[n];
            for (int i = 0; i < n; i++) {
                c[i] = Variable.column(cols[i], inputs);
            }
            return new R1cs.Matrix(rs, c, Arrays.copyOf(coefs, n * 4));
        }
    }
}
