package dev.proofline.r1cs.gadgets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ProvingAssignment;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import java.math.BigInteger;
import java.util.Random;

/** Runs a gadget circuit on the three systems and checks that they agree. */
final class Harness {

    private Harness() {
    }

    record Run(ProvingAssignment.Result proving, R1cs r1cs) {
        int constraints() {
            return r1cs.constraintCount();
        }

        Witness witness() {
            return proving.witness();
        }
    }

    /**
     * Synthesizes on the proving assignment (every constraint holds), records the R1CS (the same
     * number of constraints; the witness satisfies it) and computes the witness alone (the same
     * assignment).
     */
    static Run satisfied(PairingCurve curve, Circuit circuit) {
        ProvingAssignment.Result p = ProvingAssignment.synthesize(curve, circuit);
        assertNull(p.firstUnsatisfied(), "unsatisfied: " + p.firstUnsatisfied());
        R1cs r1cs = RecordingSystem.record(curve, circuit);
        assertEquals(p.constraints(), r1cs.constraintCount(), "recorded constraints");
        assertEquals(-1, r1cs.firstUnsatisfied(p.witness()), "the recorded R1CS rejects the witness");
        Witness w = WitnessSystem.witness(curve, circuit);
        assertArrayEquals(p.witness().words(), w.words(), "the witness-only system's assignment");
        return new Run(p, r1cs);
    }

    /** The proving assignment finds an unsatisfied constraint; returns its name. */
    static String unsatisfied(PairingCurve curve, Circuit circuit) {
        ProvingAssignment.Result p = ProvingAssignment.synthesize(curve, circuit);
        assertNotNull(p.firstUnsatisfied(), "a wrong witness satisfied the circuit");
        assertNotEquals(-1, RecordingSystem.record(curve, circuit).firstUnsatisfied(p.witness()));
        return p.firstUnsatisfied();
    }

    /**
     * Adds 1 to {@code tries} random private values of the witness past the first {@code skip} (the
     * circuit's own free inputs), one at a time: the R1CS must reject each, so no variable a gadget
     * allocates is left unconstrained.
     */
    static void tamperingIsDetected(Run run, int tries, long seed, int skip) {
        Witness w = run.witness();
        PrimeField fr = w.curve().fr();
        int first = run.proving().inputs() + skip;
        int n = w.size() - first;
        Random rnd = new Random(seed);
        for (int k = 0; k < Math.min(tries, n); k++) {
            int i = tries >= n ? first + k : first + rnd.nextInt(n);
            long[] words = w.words().clone();
            BigInteger v = w.value(i).add(BigInteger.ONE).mod(fr.modulus());
            System.arraycopy(PrimeField.words(v, 4), 0, words, 4 * i, 4);
            assertNotEquals(-1, run.r1cs().firstUnsatisfied(new Witness(w.curve(), words)),
                    "changing private value " + (i - first) + " went unnoticed");
        }
    }

    static void report(String what, PairingCurve curve, int constraints) {
        System.out.printf("[constraints] %-48s %-9s %,9d%n", what, curve.snarkjsName(), constraints);
    }
}
