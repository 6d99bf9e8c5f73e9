package dev.proofline.r1cs.gadgets;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.cs.ConstraintSystem;
import java.math.BigInteger;
import java.util.function.Supplier;

/**
 * Field constants the gadgets use on every call, computed once per curve: powers of two and their
 * negatives (Montgomery, 4 words each, flat), 0, 1, -1, 2, and value suppliers for 0 and 1.
 */
final class Consts {

    private static final Consts[] BY_CURVE = new Consts[PairingCurve.values().length];

    static {
        for (PairingCurve c : PairingCurve.values()) {
            BY_CURVE[c.ordinal()] = new Consts(c.fr());
        }
    }

    final PrimeField fr;
    /** 2^i at 4i, i = 0 .. bits. */
    final long[] pow2;
    /** -2^i at 4i. */
    final long[] negPow2;
    final long[] zero;
    final long[] one;
    final long[] minusOne;
    final long[] two;
    final long[] minusTwo;
    final Supplier<long[]> zeroValue;
    final Supplier<long[]> oneValue;

    private Consts(PrimeField fr) {
        this.fr = fr;
        int n = fr.bits() + 1;
        pow2 = new long[4 * n];
        negPow2 = new long[4 * n];
        for (int i = 0; i < n; i++) {
            fr.fromBigInteger(BigInteger.ONE.shiftLeft(i), pow2, 4 * i);
            fr.neg(pow2, 4 * i, negPow2, 4 * i);
        }
        zero = fr.newElement();
        one = fr.one();
        minusOne = fr.newElement();
        fr.neg(one, 0, minusOne, 0);
        two = fr.fromLong(2);
        minusTwo = fr.newElement();
        fr.neg(two, 0, minusTwo, 0);
        // the systems copy a value as they store it, so the same arrays may be handed out every time
        zeroValue = () -> zero;
        oneValue = () -> one;
    }

    static Consts of(ConstraintSystem cs) {
        return BY_CURVE[cs.curve().ordinal()];
    }

    static Consts of(PairingCurve curve) {
        return BY_CURVE[curve.ordinal()];
    }
}
