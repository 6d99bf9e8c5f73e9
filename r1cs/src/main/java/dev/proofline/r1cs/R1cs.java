package dev.proofline.r1cs;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;

/**
 * A rank-1 constraint system: constraints (A w) (B w) = (C w) over the scalar field, each matrix in
 * compressed sparse rows (row = constraint; column = wire; coefficients in Montgomery form, 4 words
 * each). Wires are numbered as circom numbers them: 0 is the constant 1, then the public outputs, the
 * public inputs, the private inputs, then the internal wires.
 */
public final class R1cs {

    /** One matrix in CSR form: row i's terms are at [rowStart[i], rowStart[i+1]). */
    public record Matrix(int[] rowStart, int[] columns, long[] coefficients) {
        public int terms() {
            return columns.length;
        }
    }

    private final PairingCurve curve;
    private final int wires;
    private final int publicOutputs;
    private final int publicInputs;
    private final int privateInputs;
    private final long labels;
    private final Matrix a;
    private final Matrix b;
    private final Matrix c;

    public R1cs(PairingCurve curve, int wires, int publicOutputs, int publicInputs, int privateInputs, long labels,
            Matrix a, Matrix b, Matrix c) {
        this.curve = curve;
        this.wires = wires;
        this.publicOutputs = publicOutputs;
        this.publicInputs = publicInputs;
        this.privateInputs = privateInputs;
        this.labels = labels;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    public PairingCurve curve() {
        return curve;
    }

    public int wireCount() {
        return wires;
    }

    public int publicOutputCount() {
        return publicOutputs;
    }

    public int publicInputCount() {
        return publicInputs;
    }

    public int privateInputCount() {
        return privateInputs;
    }

    /** Public signals: outputs then public inputs (w_1 ..). */
    public int publicCount() {
        return publicOutputs + publicInputs;
    }

    public long labelCount() {
        return labels;
    }

    public int constraintCount() {
        return a.rowStart().length - 1;
    }

    public Matrix a() {
        return a;
    }

    public Matrix b() {
        return b;
    }

    public Matrix c() {
        return c;
    }

    /** The first constraint the witness violates, or -1 when it satisfies all of them. */
    public int firstUnsatisfied(Witness w) {
        if (w.curve() != curve) {
            throw new IllegalArgumentException("the witness is for " + w.curve().snarkjsName() + ", the constraint system for "
                    + curve.snarkjsName());
        }
        if (w.size() != wires) {
            throw new IllegalArgumentException("the witness has " + w.size() + " values, the constraint system "
                    + wires + " wires");
        }
        PrimeField fr = curve.fr();
        long[] mont = new long[w.size() * 4];
        for (int i = 0; i < w.size(); i++) {
            fr.toMontgomery(w.words(), i * 4, mont, i * 4);
        }
        long[] x = new long[4];
        long[] y = new long[4];
        long[] z = new long[4];
        long[] t = new long[4];
        for (int row = 0; row < constraintCount(); row++) {
            dot(fr, a, row, mont, x, t);
            dot(fr, b, row, mont, y, t);
            dot(fr, c, row, mont, z, t);
            fr.mul(x, 0, y, 0, x, 0);
            if (!fr.eq(x, 0, z, 0)) {
                return row;
            }
        }
        return -1;
    }

    private static void dot(PrimeField fr, Matrix m, int row, long[] w, long[] out, long[] t) {
        fr.setZero(out, 0);
        for (int k = m.rowStart()[row]; k < m.rowStart()[row + 1]; k++) {
            fr.mul(m.coefficients(), k * 4, w, m.columns()[k] * 4, t, 0);
            fr.add(out, 0, t, 0, out, 0);
        }
    }
}
