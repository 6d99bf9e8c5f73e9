package dev.proofline.r1cs.gadgets;

import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.LinearCombination;
import dev.proofline.r1cs.cs.Variable;

/**
 * Builds one linear combination from bits and variables with power-of-two (or any) coefficients,
 * folding every constant part (constant bits, the 1 of a negated bit) into a single term on the
 * constant 1, added by {@link #done()}.
 */
final class Terms {

    private final ConstraintSystem cs;
    private final Consts k;
    private final PrimeField fr;
    private final LinearCombination lc;
    private final long[] constant;
    private boolean hasConstant;
    /** False on a system that keeps no constraints: then nothing is built. */
    private final boolean active;

    Terms(ConstraintSystem cs) {
        this.cs = cs;
        this.k = Consts.of(cs);
        this.fr = k.fr;
        this.lc = cs.lc();
        this.constant = new long[4];
        this.active = cs.needsConstraints();
    }

    /** + 2^i b. */
    Terms bit(Bit b, int i) {
        return bit(b, k.pow2, 4 * i, k.negPow2, 4 * i);
    }

    /** - 2^i b. */
    Terms negBit(Bit b, int i) {
        return bit(b, k.negPow2, 4 * i, k.pow2, 4 * i);
    }

    /** + c b, with -c given too (both Montgomery). */
    Terms bit(Bit b, long[] c, int ci, long[] negC, int nci) {
        if (!active) {
            return this;
        }
        if (b.isConstant()) {
            if (b.value()) {
                addConstant(c, ci);
            }
        } else if (b.isNegated()) {
            addConstant(c, ci);
            lc.add(negC, nci, b.variable());
        } else {
            lc.add(c, ci, b.variable());
        }
        return this;
    }

    /** + v. */
    Terms var(Variable v) {
        lc.add(v);
        return this;
    }

    /** + c v. */
    Terms var(long[] c, int ci, Variable v) {
        if (active) {
            lc.add(c, ci, v);
        }
        return this;
    }

    /** + c (times the constant 1). */
    Terms addConstant(long[] c, int ci) {
        if (!active) {
            return this;
        }
        fr.add(constant, 0, c, ci, constant, 0);
        hasConstant = true;
        return this;
    }

    /** + every term of {@code other} (its constant terms stay separate terms). */
    Terms lc(LinearCombination other) {
        lc.add(other);
        return this;
    }

    /** Whether terms are built (false where the system keeps no constraints). */
    boolean active() {
        return active;
    }

    LinearCombination done() {
        if (hasConstant && !fr.isZero(constant, 0)) {
            lc.add(constant, 0, cs.one());
        }
        return lc;
    }
}
