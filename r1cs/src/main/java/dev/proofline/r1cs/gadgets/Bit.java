package dev.proofline.r1cs.gadgets;

import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.LinearCombination;
import dev.proofline.r1cs.cs.Variable;

/**
 * A boolean in a circuit: a constant, a variable constrained to 0 or 1, or the negation of one
 * (1 - v, free). Immutable. Operations fold constants and negations, so they cost nothing when an
 * operand is constant; otherwise XOR, AND, OR and CH cost one constraint, MAJ two.
 *
 * <p>{@link #value()} is the bit's value: always for constants, and for variables while the system
 * computes values ({@link ConstraintSystem#needsValues()}); on a recording system it is meaningless
 * (false) and only ever flows into value suppliers, which that system never calls.
 */
public final class Bit {

    public static final Bit TRUE = new Bit(null, false, true);
    public static final Bit FALSE = new Bit(null, false, false);

    private final Variable var;
    private final boolean negated;
    private final boolean value;

    private Bit(Variable var, boolean negated, boolean value) {
        this.var = var;
        this.negated = negated;
        this.value = value;
    }

    public static Bit constant(boolean value) {
        return value ? TRUE : FALSE;
    }

    /** A private bit, b (1 - b) = 0: one constraint. */
    public static Bit alloc(ConstraintSystem cs, String name, boolean value) {
        Consts k = Consts.of(cs);
        Variable v = cs.alloc(name, value ? k.oneValue : k.zeroValue);
        enforceBoolean(cs, name, v);
        return new Bit(v, false, value);
    }

    /** A public input bit, b (1 - b) = 0: one constraint. */
    public static Bit allocInput(ConstraintSystem cs, String name, boolean value) {
        Consts k = Consts.of(cs);
        Variable v = cs.allocInput(name, value ? k.oneValue : k.zeroValue);
        enforceBoolean(cs, name, v);
        return new Bit(v, false, value);
    }

    /**
     * A bit over a variable the caller has already constrained to 0 or 1 (no constraint added);
     * {@code value} as for {@link #alloc}.
     */
    public static Bit ofBooleanVariable(Variable v, boolean value) {
        return new Bit(v, false, value);
    }

    private static void enforceBoolean(ConstraintSystem cs, String name, Variable v) {
        cs.enforce(name, cs.lc().add(v), cs.lc().add(cs.one()).sub(v), cs.lc());
    }

    public boolean isConstant() {
        return var == null;
    }

    /** The variable under this bit (null for a constant); the bit is 1 - it when {@link #isNegated()}. */
    public Variable variable() {
        return var;
    }

    public boolean isNegated() {
        return negated;
    }

    public boolean value() {
        return value;
    }

    /** Value of the underlying variable (the bit's value unless negated). */
    private boolean varValue() {
        return value ^ negated;
    }

    public Bit not() {
        if (var == null) {
            return value ? FALSE : TRUE;
        }
        return new Bit(var, !negated, !value);
    }

    /** The bit as a new linear combination (1 - v for a negated bit). */
    public LinearCombination lc(ConstraintSystem cs) {
        return new Terms(cs).bit(this, 0).done();
    }

    private boolean sameVariable(Bit o) {
        return var != null && o.var != null && var.encoded() == o.var.encoded();
    }

    /** a XOR b: one constraint (2a) b = a + b - c unless an operand is constant. */
    public static Bit xor(ConstraintSystem cs, Bit a, Bit b) {
        if (a.isConstant()) {
            return a.value ? b.not() : b;
        }
        if (b.isConstant()) {
            return b.value ? a.not() : a;
        }
        if (a.sameVariable(b)) {
            return constant(a.value ^ b.value);
        }
        Consts k = Consts.of(cs);
        boolean cv = a.varValue() ^ b.varValue();
        Variable c = cs.alloc("xor", cv ? k.oneValue : k.zeroValue);
        cs.enforce("xor", cs.lc().add(k.two, 0, a.var), cs.lc().add(b.var),
                cs.lc().add(a.var).add(b.var).sub(c));
        return new Bit(c, a.negated ^ b.negated, a.value ^ b.value);
    }

    /** a AND b: one constraint a b = c unless an operand is constant. */
    public static Bit and(ConstraintSystem cs, Bit a, Bit b) {
        if (a.isConstant()) {
            return a.value ? b : FALSE;
        }
        if (b.isConstant()) {
            return b.value ? a : FALSE;
        }
        if (a.sameVariable(b)) {
            return a.negated == b.negated ? a : FALSE;
        }
        Consts k = Consts.of(cs);
        boolean cv = a.value & b.value;
        Variable c = cs.alloc("and", cv ? k.oneValue : k.zeroValue);
        cs.enforce("and", a.lc(cs), b.lc(cs), cs.lc().add(c));
        return new Bit(c, false, cv);
    }

    /** a OR b = NOT(NOT a AND NOT b): one constraint. */
    public static Bit or(ConstraintSystem cs, Bit a, Bit b) {
        return and(cs, a.not(), b.not()).not();
    }

    /** a AND NOT b: one constraint. */
    public static Bit andNot(ConstraintSystem cs, Bit a, Bit b) {
        return and(cs, a, b.not());
    }

    /** a ? b : c (SHA-256's Ch): one constraint a (b - c) = r - c. */
    public static Bit ch(ConstraintSystem cs, Bit a, Bit b, Bit c) {
        if (a.isConstant()) {
            return a.value ? b : c;
        }
        if (b.isConstant() && c.isConstant()) {
            if (b.value == c.value) {
                return b;
            }
            return b.value ? a : a.not();
        }
        if (b.sameVariable(c) && b.negated == c.negated) {
            return b;
        }
        Consts k = Consts.of(cs);
        boolean rv = a.value ? b.value : c.value;
        Variable r = cs.alloc("ch", rv ? k.oneValue : k.zeroValue);
        LinearCombination bc = new Terms(cs).bit(b, 0).negBit(c, 0).done();
        LinearCombination rc = new Terms(cs).var(r).negBit(c, 0).done();
        cs.enforce("ch", a.lc(cs), bc, rc);
        return new Bit(r, false, rv);
    }

    /**
     * The majority of a, b, c (SHA-256's Maj): bc = b AND c, then a (b + c - 2bc) = maj - bc; two
     * constraints, one (AND or OR) when an operand is constant.
     */
    public static Bit maj(ConstraintSystem cs, Bit a, Bit b, Bit c) {
        if (a.isConstant()) {
            return a.value ? or(cs, b, c) : and(cs, b, c);
        }
        if (b.isConstant()) {
            return b.value ? or(cs, a, c) : and(cs, a, c);
        }
        if (c.isConstant()) {
            return c.value ? or(cs, a, b) : and(cs, a, b);
        }
        Bit bc = and(cs, b, c);
        Consts k = Consts.of(cs);
        boolean mv = (a.value & b.value) | (a.value & c.value) | (b.value & c.value);
        Variable m = cs.alloc("maj", mv ? k.oneValue : k.zeroValue);
        LinearCombination bxc = new Terms(cs).bit(b, 0).bit(c, 0).bit(bc, k.minusTwo, 0, k.two, 0).done();
        LinearCombination rhs = new Terms(cs).var(m).negBit(bc, 0).done();
        cs.enforce("maj", a.lc(cs), bxc, rhs);
        return new Bit(m, false, mv);
    }

    /** a = b: one constraint (a - b) 1 = 0 (unsatisfiable when both are different constants). */
    public static void enforceEqual(ConstraintSystem cs, String name, Bit a, Bit b) {
        cs.enforce(name, new Terms(cs).bit(a, 0).negBit(b, 0).done(), cs.lc().add(cs.one()), cs.lc());
    }

    @Override
    public String toString() {
        if (var == null) {
            return value ? "1" : "0";
        }
        return (negated ? "!" : "") + (var.input() ? "in" : "aux") + var.index();
    }
}
