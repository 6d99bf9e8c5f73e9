package dev.proofline.r1cs.cs;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.Witness;

/**
 * Synthesis for the assignment only: variables get their values, {@code enforce} does nothing and
 * linear combinations ignore their terms (the PCE computes a, b, c from the recorded matrices).
 */
public final class WitnessSystem extends AbstractSystem {

    public WitnessSystem(PairingCurve curve) {
        super(curve, true);
    }

    /** The full assignment (1, inputs, auxiliary variables) of {@code circuit}. */
    public static Witness witness(PairingCurve curve, Circuit circuit) {
        WitnessSystem cs = new WitnessSystem(curve);
        circuit.synthesize(cs);
        return new Witness(curve, cs.canonicalAssignment());
    }

    @Override
    public void enforce(String name, LinearCombination a, LinearCombination b, LinearCombination c) {
    }

    @Override
    public boolean needsConstraints() {
        return false;
    }

    /** Inputs, the constant 1 included. */
    public int inputCount() {
        return inputCount;
    }
}
