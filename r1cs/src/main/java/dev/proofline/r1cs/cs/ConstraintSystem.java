package dev.proofline.r1cs.cs;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import java.util.function.Supplier;

/**
 * What a circuit sees while it is synthesized: rank-1 constraints a * b = c over linear combinations
 * of variables. Values are scalar-field elements in Montgomery form (4 words). A system that does not
 * need values ({@link #needsValues()} false: the recording system) never calls the value suppliers, so
 * circuits compute values only inside them.
 *
 * <p>Names and namespaces only label errors ("sha256/round 3/add: ...") and never change the
 * constraints.
 */
public interface ConstraintSystem {

    PairingCurve curve();

    default PrimeField field() {
        return curve().fr();
    }

    /** The constant 1 (input 0). */
    Variable one();

    /** A private variable. */
    Variable alloc(String name, Supplier<long[]> value);

    /** A public input. */
    Variable allocInput(String name, Supplier<long[]> value);

    /** Enforces a * b = c. */
    void enforce(String name, LinearCombination a, LinearCombination b, LinearCombination c);

    /** Whether values are computed (false while only the shape of the circuit is recorded). */
    boolean needsValues();

    /** The value of a variable, Montgomery form; only when {@link #needsValues()}. */
    long[] value(Variable v);

    /** Enters a namespace; {@link #popNamespace} leaves it. */
    void pushNamespace(String name);

    void popNamespace();

    /** Whether constraints are kept (false for the witness-only system, whose {@link #lc()} ignores terms). */
    default boolean needsConstraints() {
        return true;
    }

    /**
     * A new empty linear combination over this system's field. Where constraints are not kept it
     * ignores its terms: circuits compute values from values ({@link #value}), never by evaluating a
     * linear combination.
     */
    default LinearCombination lc() {
        return needsConstraints() ? new LinearCombination(field()) : LinearCombination.ignoring(field());
    }

    /** Runs {@code body} inside a namespace. */
    default void namespace(String name, Runnable body) {
        pushNamespace(name);
        try {
            body.run();
        } finally {
            popNamespace();
        }
    }
}
