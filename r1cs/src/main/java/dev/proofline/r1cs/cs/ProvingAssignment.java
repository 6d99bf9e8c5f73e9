package dev.proofline.r1cs.cs;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.Witness;
import java.util.BitSet;

/**
 * The enforce path: synthesis with values, each constraint's linear combinations evaluated as it is
 * enforced into a, b, c (Montgomery form, one element per constraint), and the variables used in A
 * and in B recorded (density). The first unsatisfied constraint (a b != c) is remembered by name.
 */
public final class ProvingAssignment extends AbstractSystem {

    /** What synthesis produced: the assignment, a, b, c, and the density of A and B by column. */
    public record Result(Witness witness, int inputs, int constraints, long[] a, long[] b, long[] c,
            BitSet densityA, BitSet densityB, String firstUnsatisfied) {
    }

    private final Words a = new Words();
    private final Words b = new Words();
    private final Words c = new Words();
    private final BitSet inA = new BitSet();
    private final BitSet auxA = new BitSet();
    private final BitSet inB = new BitSet();
    private final BitSet auxB = new BitSet();
    private final long[] t = new long[4];
    private final long[] x = new long[4];
    private String firstUnsatisfied;

    public ProvingAssignment(PairingCurve curve) {
        super(curve, true);
    }

    /** Synthesizes {@code circuit} on a new proving assignment. */
    public static Result synthesize(PairingCurve curve, Circuit circuit) {
        ProvingAssignment cs = new ProvingAssignment(curve);
        circuit.synthesize(cs);
        return cs.result();
    }

    @Override
    public void enforce(String name, LinearCombination la, LinearCombination lb, LinearCombination lc) {
        long[] va = new long[4];
        long[] vb = new long[4];
        long[] vc = new long[4];
        evaluate(la, va, t);
        if (lb == la) {
            System.arraycopy(va, 0, vb, 0, 4); // a square: the same combination twice
        } else {
            evaluate(lb, vb, t);
        }
        evaluate(lc, vc, t);
        a.add(va);
        b.add(vb);
        c.add(vc);
        mark(la, inA, auxA);
        mark(lb, inB, auxB);
        if (firstUnsatisfied == null) {
            fr.mul(va, 0, vb, 0, x, 0);
            if (!fr.eq(x, 0, vc, 0)) {
                firstUnsatisfied = where(name);
            }
        }
    }

    private static void mark(LinearCombination lc, BitSet in, BitSet ax) {
        for (int k = 0; k < lc.size(); k++) {
            int code = lc.variable(k);
            if (code >= 0) {
                in.set(code);
            } else {
                ax.set(-1 - code);
            }
        }
    }

    public Result result() {
        BitSet da = columns(inA, auxA);
        BitSet db = columns(inB, auxB);
        return new Result(new Witness(curve, canonicalAssignment()), inputCount, a.size(), a.trimmed(), b.trimmed(),
                c.trimmed(), da, db, firstUnsatisfied);
    }

    private BitSet columns(BitSet in, BitSet ax) {
        BitSet out = (BitSet) in.clone();
        for (int i = ax.nextSetBit(0); i >= 0; i = ax.nextSetBit(i + 1)) {
            out.set(inputCount + i);
        }
        return out;
    }
}
