package dev.proofline.r1cs.cs;

import dev.proofline.algebra.field.PrimeField;
import java.util.Arrays;

/**
 * sum_k c_k v_k over variables of one constraint system, built by appending terms. Coefficients are
 * scalar-field elements in Montgomery form (4 words each); a term with coefficient 1 or -1 is marked
 * so that evaluation can add or subtract without multiplying. Repeated variables are kept as separate
 * terms (their sum is what counts). Mutable; not thread-safe.
 */
public final class LinearCombination {

    /** Term kinds. */
    public static final byte PLUS_ONE = 1;
    public static final byte MINUS_ONE = -1;
    public static final byte GENERAL = 0;

    private final PrimeField fr;
    private final boolean ignored;
    private int[] vars = new int[4];
    private long[] coefs = new long[16];
    private byte[] kinds = new byte[4];
    private int n;

    public LinearCombination(PrimeField fr) {
        this(fr, false);
    }

    private LinearCombination(PrimeField fr, boolean ignored) {
        this.fr = fr;
        this.ignored = ignored;
    }

    /**
     * A combination that ignores every term: what a system that records no constraints (the
     * witness-only system) hands out, so that building constraints costs nothing there.
     */
    public static LinearCombination ignoring(PrimeField fr) {
        return new LinearCombination(fr, true);
    }

    public PrimeField field() {
        return fr;
    }

    public int size() {
        return n;
    }

    /** Encoded variable of term k (see {@link Variable#encoded}). */
    public int variable(int k) {
        return vars[k];
    }

    public byte kind(int k) {
        return kinds[k];
    }

    /** The coefficients, 4 words per term, Montgomery form; shared, do not modify. */
    public long[] coefficients() {
        return coefs;
    }

    private void grow() {
        if (n == vars.length) {
            vars = Arrays.copyOf(vars, n * 2);
            kinds = Arrays.copyOf(kinds, n * 2);
            coefs = Arrays.copyOf(coefs, n * 8);
        }
    }

    private static final java.util.Map<PrimeField, long[]> MINUS_ONE_BY_FIELD = new java.util.concurrent.ConcurrentHashMap<>();

    /** -1 in Montgomery form, computed once per field. */
    private static long[] minusOne(PrimeField fr) {
        return MINUS_ONE_BY_FIELD.computeIfAbsent(fr, f -> {
            long[] m = f.one();
            f.neg(m, 0, m, 0);
            return m;
        });
    }

    private LinearCombination term(Variable v, byte kind, long[] c, int ci) {
        if (ignored) {
            return this;
        }
        grow();
        vars[n] = v.encoded();
        kinds[n] = kind;
        if (kind == PLUS_ONE) {
            fr.setOne(coefs, n * 4);
        } else if (kind == MINUS_ONE) {
            System.arraycopy(minusOne(fr), 0, coefs, n * 4, 4);
        } else {
            System.arraycopy(c, ci, coefs, n * 4, 4);
        }
        n++;
        return this;
    }

    /** + v */
    public LinearCombination add(Variable v) {
        return term(v, PLUS_ONE, null, 0);
    }

    /** - v */
    public LinearCombination sub(Variable v) {
        return term(v, MINUS_ONE, null, 0);
    }

    /** + c v, c in Montgomery form at {@code c[ci..ci+4)}. */
    public LinearCombination add(long[] c, int ci, Variable v) {
        if (ignored || fr.isZero(c, ci)) {
            return this;
        }
        if (fr.isOne(c, ci)) {
            return add(v);
        }
        if (fr.eq(c, ci, minusOne(fr), 0)) {
            return sub(v);
        }
        return term(v, GENERAL, c, ci);
    }

    /** + c v for a small integer c (negative allowed). */
    public LinearCombination add(long c, Variable v) {
        if (ignored) {
            return this;
        }
        if (c == 1) {
            return add(v);
        }
        if (c == -1) {
            return sub(v);
        }
        long[] x = fr.fromBigInteger(java.math.BigInteger.valueOf(c));
        return add(x, 0, v);
    }

    /** + every term of {@code other}. */
    public LinearCombination add(LinearCombination other) {
        for (int k = 0; k < other.n; k++) {
            term(Variable.decode(other.vars[k]), other.kinds[k], other.coefs, k * 4);
        }
        return this;
    }

    /** - every term of {@code other}. */
    public LinearCombination sub(LinearCombination other) {
        long[] neg = new long[4];
        for (int k = 0; k < other.n; k++) {
            Variable v = Variable.decode(other.vars[k]);
            switch (other.kinds[k]) {
                case PLUS_ONE -> sub(v);
                case MINUS_ONE -> add(v);
                default -> {
                    fr.neg(other.coefs, k * 4, neg, 0);
                    term(v, GENERAL, neg, 0);
                }
            }
        }
        return this;
    }

    /** + c * every term of {@code other} (c Montgomery). */
    public LinearCombination addScaled(long[] c, int ci, LinearCombination other) {
        if (ignored) {
            return this;
        }
        long[] t = new long[4];
        for (int k = 0; k < other.n; k++) {
            fr.mul(c, ci, other.coefs, k * 4, t, 0);
            add(t, 0, Variable.decode(other.vars[k]));
        }
        return this;
    }
}
