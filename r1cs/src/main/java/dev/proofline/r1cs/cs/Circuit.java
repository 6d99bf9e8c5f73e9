package dev.proofline.r1cs.cs;

/**
 * A circuit written in Java: {@link #synthesize} allocates its variables and enforces its constraints
 * on whatever system it is given (proving, recording, witness-only), the same way every time, so that
 * the recorded matrices fit every later assignment.
 */
public interface Circuit {

    void synthesize(ConstraintSystem cs);
}
