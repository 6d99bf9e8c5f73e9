package dev.proofline.r1cs.cs;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Supplier;

/** Namespaces, variable numbering and (when needed) values, shared by the three systems. */
abstract class AbstractSystem implements ConstraintSystem {

    protected final PairingCurve curve;
    protected final PrimeField fr;
    private final Deque<String> path = new ArrayDeque<>();
    protected final Words inputs = new Words();
    protected final Words aux = new Words();
    protected int inputCount;
    protected int auxCount;
    private final boolean values;

    AbstractSystem(PairingCurve curve, boolean values) {
        this.curve = curve;
        this.fr = curve.fr();
        this.values = values;
        inputCount = 1;
        if (values) {
            inputs.add(fr.one());
        }
    }

    @Override
    public PairingCurve curve() {
        return curve;
    }

    @Override
    public Variable one() {
        return new Variable(0, true);
    }

    @Override
    public boolean needsValues() {
        return values;
    }

    @Override
    public Variable alloc(String name, Supplier<long[]> value) {
        if (values) {
            aux.add(get(name, value));
        }
        return new Variable(auxCount++, false);
    }

    @Override
    public Variable allocInput(String name, Supplier<long[]> value) {
        if (values) {
            inputs.add(get(name, value));
        }
        return new Variable(inputCount++, true);
    }

    private long[] get(String name, Supplier<long[]> value) {
        long[] v = value.get();
        if (v == null || v.length != 4 || !fr.isCanonical(v, 0)) {
            throw new IllegalStateException(where(name) + ": the value is missing or not a field element");
        }
        return v;
    }

    @Override
    public long[] value(Variable v) {
        if (!values) {
            throw new IllegalStateException("this constraint system does not compute values");
        }
        long[] out = new long[4];
        System.arraycopy(v.input() ? inputs.array() : aux.array(), v.index() * 4, out, 0, 4);
        return out;
    }

    @Override
    public void pushNamespace(String name) {
        path.addLast(name);
    }

    @Override
    public void popNamespace() {
        path.removeLast();
    }

    /** "ns1/ns2/name". */
    protected String where(String name) {
        if (path.isEmpty()) {
            return name;
        }
        return String.join("/", path) + "/" + name;
    }

    /** sum of the terms of lc over the current values, into r at 0 (Montgomery). */
    protected void evaluate(LinearCombination lc, long[] r, long[] t) {
        fr.setZero(r, 0);
        long[] in = inputs.array();
        long[] ax = aux.array();
        long[] cs = lc.coefficients();
        for (int k = 0; k < lc.size(); k++) {
            int code = lc.variable(k);
            long[] src = code >= 0 ? in : ax;
            int si = (code >= 0 ? code : -1 - code) * 4;
            switch (lc.kind(k)) {
                case LinearCombination.PLUS_ONE -> fr.add(r, 0, src, si, r, 0);
                case LinearCombination.MINUS_ONE -> fr.sub(r, 0, src, si, r, 0);
                default -> {
                    fr.mul(cs, k * 4, src, si, t, 0);
                    fr.add(r, 0, t, 0, r, 0);
                }
            }
        }
    }

    /** The full assignment, canonical: 1, the inputs, then the auxiliary variables. */
    protected long[] canonicalAssignment() {
        long[] w = new long[(inputCount + auxCount) * 4];
        for (int i = 0; i < inputCount; i++) {
            fr.fromMontgomery(inputs.array(), i * 4, w, i * 4);
        }
        for (int i = 0; i < auxCount; i++) {
            fr.fromMontgomery(aux.array(), i * 4, w, (inputCount + i) * 4);
        }
        return w;
    }
}
