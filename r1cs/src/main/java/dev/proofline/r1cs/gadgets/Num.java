package dev.proofline.r1cs.gadgets;

import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.LinearCombination;
import dev.proofline.r1cs.cs.Variable;
import java.math.BigInteger;
import java.util.function.Supplier;

/**
 * A field element in a circuit: a linear combination of variables with its value. Sums and scalings
 * are free (they only build linear combinations); products, selections and bit decompositions cost
 * constraints. Immutable: the linear combination is shared by every Num and constraint that uses
 * it and is never changed after construction.
 *
 * <p>{@link #value()} is the Montgomery value while the system computes values and null otherwise.
 */
public final class Num {

    private final LinearCombination lc;
    private final long[] value;
    /** Non-null iff the Num is a constant (then {@code value} equals it). */
    private final long[] constant;
    /** Non-null iff the Num is exactly this variable. */
    private final Variable var;

    private Num(LinearCombination lc, long[] value, long[] constant) {
        this.lc = lc;
        this.value = value;
        this.constant = constant;
        this.var = null;
    }

    private Num(ConstraintSystem cs, Variable v, long[] value) {
        this.lc = cs.lc().add(v);
        this.value = value;
        this.constant = null;
        this.var = v;
    }

    /** A private variable; {@code value} is called only when the system computes values. */
    public static Num alloc(ConstraintSystem cs, String name, Supplier<long[]> value) {
        Variable v = cs.alloc(name, value);
        return new Num(cs, v, cs.needsValues() ? cs.value(v) : null);
    }

    /** A public input. */
    public static Num allocInput(ConstraintSystem cs, String name, Supplier<long[]> value) {
        Variable v = cs.allocInput(name, value);
        return new Num(cs, v, cs.needsValues() ? cs.value(v) : null);
    }

    /** A private variable with an integer value (reduced mod r). */
    public static Num alloc(ConstraintSystem cs, String name, BigInteger value) {
        return alloc(cs, name, () -> cs.field().fromBigInteger(value));
    }

    /** A public input with an integer value (reduced mod r). */
    public static Num allocInput(ConstraintSystem cs, String name, BigInteger value) {
        return allocInput(cs, name, () -> cs.field().fromBigInteger(value));
    }

    /** An existing variable. */
    public static Num of(ConstraintSystem cs, Variable v) {
        return new Num(cs, v, cs.needsValues() ? cs.value(v) : null);
    }

    /**
     * A linear combination with its value (null when values are not computed); the caller hands it
     * over and must not change it afterwards.
     */
    public static Num of(LinearCombination lc, long[] value) {
        return new Num(lc, value, null);
    }

    /** A constant (Montgomery). */
    public static Num constant(ConstraintSystem cs, long[] montgomery) {
        long[] c = montgomery.clone();
        LinearCombination lc = cs.lc();
        if (!cs.field().isZero(c, 0)) {
            lc.add(c, 0, cs.one());
        }
        return new Num(lc, c, c);
    }

    public static Num constant(ConstraintSystem cs, BigInteger value) {
        return constant(cs, cs.field().fromBigInteger(value));
    }

    public static Num zero(ConstraintSystem cs) {
        return constant(cs, Consts.of(cs).zero);
    }

    /** The linear combination; shared, do not modify. */
    public LinearCombination lc() {
        return lc;
    }

    /** The Montgomery value (shared, do not modify), or null when values are not computed. */
    public long[] value() {
        return value;
    }

    /** The canonical value, or null when values are not computed. */
    public BigInteger toBigInteger(ConstraintSystem cs) {
        return value == null ? null : cs.field().toBigInteger(value, 0);
    }

    public boolean isConstant() {
        return constant != null;
    }

    /** this + o: free. */
    public Num add(ConstraintSystem cs, Num o) {
        PrimeField fr = cs.field();
        long[] v = null;
        if (value != null && o.value != null) {
            v = fr.newElement();
            fr.add(value, 0, o.value, 0, v, 0);
        }
        if (constant != null && o.constant != null) {
            return constant(cs, v);
        }
        return new Num(cs.lc().add(lc).add(o.lc), v, null);
    }

    /** this - o: free. */
    public Num sub(ConstraintSystem cs, Num o) {
        PrimeField fr = cs.field();
        long[] v = null;
        if (value != null && o.value != null) {
            v = fr.newElement();
            fr.sub(value, 0, o.value, 0, v, 0);
        }
        if (constant != null && o.constant != null) {
            return constant(cs, v);
        }
        return new Num(cs.lc().add(lc).sub(o.lc), v, null);
    }

    /** c this, c Montgomery: free. */
    public Num scale(ConstraintSystem cs, long[] c) {
        PrimeField fr = cs.field();
        long[] v = null;
        if (value != null) {
            v = fr.newElement();
            fr.mul(value, 0, c, 0, v, 0);
        }
        if (constant != null) {
            return constant(cs, v);
        }
        return new Num(cs.lc().addScaled(c, 0, lc), v, null);
    }

    /** a b: one constraint (free when an operand is constant). */
    public static Num mul(ConstraintSystem cs, Num a, Num b) {
        if (a.constant != null) {
            return b.scale(cs, a.constant);
        }
        if (b.constant != null) {
            return a.scale(cs, b.constant);
        }
        PrimeField fr = cs.field();
        long[] v = null;
        if (cs.needsValues()) {
            v = fr.newElement();
            fr.mul(a.value, 0, b.value, 0, v, 0);
        }
        long[] pv = v;
        Variable p = cs.alloc("mul", () -> pv);
        cs.enforce("mul", a.lc, b.lc, cs.lc().add(p));
        return new Num(cs, p, v);
    }

    /** this^2: one constraint. */
    public Num square(ConstraintSystem cs) {
        return mul(cs, this, this);
    }

    /**
     * This Num as a single variable: itself when its linear combination is one variable with
     * coefficient 1, otherwise a new variable and one constraint.
     */
    public Variable toVariable(ConstraintSystem cs) {
        if (var != null) {
            return var;
        }
        long[] v = value;
        Variable x = cs.alloc("num", () -> v);
        cs.enforce("num", lc, cs.lc().add(cs.one()), cs.lc().add(x));
        return x;
    }

    /** Exposes this Num as a new public input equal to it: one constraint. */
    public Num inputize(ConstraintSystem cs, String name) {
        long[] v = value;
        Variable x = cs.allocInput(name, () -> v);
        cs.enforce(name, lc, cs.lc().add(cs.one()), cs.lc().add(x));
        return new Num(cs, x, v);
    }

    /** a = b: one constraint. */
    public static void enforceEqual(ConstraintSystem cs, String name, Num a, Num b) {
        cs.enforce(name, cs.lc().add(a.lc).sub(b.lc), cs.lc().add(cs.one()), cs.lc());
    }

    /** bit ? ifTrue : ifFalse: one constraint bit (ifTrue - ifFalse) = r - ifFalse. */
    public static Num select(ConstraintSystem cs, Bit bit, Num ifTrue, Num ifFalse) {
        if (bit.isConstant()) {
            return bit.value() ? ifTrue : ifFalse;
        }
        PrimeField fr = cs.field();
        long[] v = null;
        if (cs.needsValues()) {
            v = (bit.value() ? ifTrue.value : ifFalse.value).clone();
        }
        long[] rv = v;
        Variable r = cs.alloc("select", () -> rv);
        cs.enforce("select", bit.lc(cs), cs.lc().add(ifTrue.lc).sub(ifFalse.lc),
                cs.lc().add(r).sub(ifFalse.lc));
        return new Num(cs, r, v);
    }

    /**
     * (x, y) when {@code swap} is 0, (y, x) when it is 1: one constraint, swap (y - x) = d, then
     * left = x + d and right = y - d are free.
     */
    public static Num[] conditionalSwap(ConstraintSystem cs, Bit swap, Num x, Num y) {
        if (swap.isConstant()) {
            return swap.value() ? new Num[] {y, x} : new Num[] {x, y};
        }
        PrimeField fr = cs.field();
        long[] d = null;
        long[] l = null;
        long[] r = null;
        if (cs.needsValues()) {
            d = fr.newElement();
            if (swap.value()) {
                fr.sub(y.value, 0, x.value, 0, d, 0);
            }
            l = fr.newElement();
            r = fr.newElement();
            fr.add(x.value, 0, d, 0, l, 0);
            fr.sub(y.value, 0, d, 0, r, 0);
        }
        long[] dv = d;
        Variable dd = cs.alloc("swap", () -> dv);
        cs.enforce("swap", swap.lc(cs), cs.lc().add(y.lc).sub(x.lc), cs.lc().add(dd));
        return new Num[] {new Num(cs.lc().add(x.lc).add(dd), l, null), new Num(cs.lc().add(y.lc).sub(dd), r, null)};
    }

    /** The element the bits make, least significant first: free (no constraint). */
    public static Num fromBitsLe(ConstraintSystem cs, Bit[] bits) {
        Consts k = Consts.of(cs);
        PrimeField fr = k.fr;
        if (bits.length > fr.bits()) {
            throw new IllegalArgumentException(bits.length + " bits do not fit the field");
        }
        Terms t = new Terms(cs);
        boolean allConstant = true;
        for (int i = 0; i < bits.length; i++) {
            t.bit(bits[i], i);
            allConstant &= bits[i].isConstant();
        }
        long[] v = null;
        if (allConstant || cs.needsValues()) {
            v = fr.newElement();
            for (int i = 0; i < bits.length; i++) {
                if (bits[i].value()) {
                    fr.add(v, 0, k.pow2, 4 * i, v, 0);
                }
            }
        }
        return allConstant ? constant(cs, v) : new Num(t.done(), v, null);
    }

    /**
     * The n lowest bits of this element, least significant first: n allocated bits (n constraints)
     * and one packing constraint, so the element must be below 2^n. n must be below the field's bit
     * length so that the bits are unique; see {@link #toBitsLeStrict} for all of them.
     */
    public Bit[] toBitsLe(ConstraintSystem cs, int n) {
        PrimeField fr = cs.field();
        if (n < 1 || n >= fr.bits()) {
            throw new IllegalArgumentException("n must be in [1, " + (fr.bits() - 1) + "]: " + n);
        }
        return allocBitsAndPack(cs, n);
    }

    private Bit[] allocBitsAndPack(ConstraintSystem cs, int n) {
        BigInteger x = cs.needsValues() ? cs.field().toBigInteger(value, 0) : null;
        Bit[] bits = new Bit[n];
        Terms packed = new Terms(cs);
        for (int i = 0; i < n; i++) {
            bits[i] = Bit.alloc(cs, "bit", x != null && x.testBit(i));
            packed.bit(bits[i], i);
        }
        cs.enforce("pack", packed.done(), cs.lc().add(cs.one()), lc);
        return bits;
    }

    /**
     * All bits of this element, least significant first, as its canonical value: field-bits
     * allocated bits, one packing constraint, and a comparison with r - 1 that rules out the other
     * representation (x + r) where it fits (about one constraint per bit more).
     */
    public Bit[] toBitsLeStrict(ConstraintSystem cs) {
        PrimeField fr = cs.field();
        int n = fr.bits();
        Bit[] bits = allocBitsAndPack(cs, n);
        enforceAtMost(cs, bits, fr.modulus().subtract(BigInteger.ONE));
        return bits;
    }

    /**
     * Enforces that the bits (least significant first) make an integer at most {@code c}, which
     * must have as many bits: from the top, a run of 1s of c sets "equal so far" to the AND of the
     * run's bits (and the previous run's result); at a 0 of c, "equal so far" forbids a 1.
     */
    static void enforceAtMost(ConstraintSystem cs, Bit[] bits, BigInteger c) {
        int n = bits.length;
        if (c.bitLength() > n) {
            return;
        }
        Bit equalSoFar = Bit.TRUE;
        java.util.ArrayList<Bit> run = new java.util.ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            if (c.testBit(i)) {
                run.add(bits[i]);
                continue;
            }
            // a trailing run of 1s needs no AND: nothing below it can exceed c
            for (Bit b : run) {
                equalSoFar = Bit.and(cs, equalSoFar, b);
            }
            run.clear();
            // equal so far, and c has a 0 here: the bit must be 0
            cs.enforce("at most", equalSoFar.lc(cs), bits[i].lc(cs), cs.lc());
        }
    }
}
