package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.field.PrimeField;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.pce.Pce;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A circom .r1cs is a PCE as it is: its products with snarkjs's witness satisfy a b = c row by row. */
class CircomPceTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"bn128, poseidon", "bls12381, poseidon", "bn128, multiplier"})
    void circomConstraintsEvaluatedByThePceHoldForSnarkjsWitness(String curve, String circuit) {
        Fixture fx = CircomFixtures.build(curve, circuit);
        R1cs r1cs = R1csFile.read(fx.r1cs());
        Witness w = WtnsFile.read(fx.wtns());
        Pce.Evaluation e = new Pce(r1cs).evaluate(w);
        PrimeField fr = r1cs.curve().fr();
        long[] ab = new long[4];
        int nonZero = 0;
        for (int row = 0; row < r1cs.constraintCount(); row++) {
            fr.mul(e.a(), row * 4, e.b(), row * 4, ab, 0);
            assertTrue(fr.eq(ab, 0, e.c(), row * 4), "row " + row);
            nonZero += fr.isZero(e.c(), row * 4) ? 0 : 1;
        }
        assertTrue(nonZero > 0, "not all products vanish");
        // a changed witness value breaks some row
        long[] words = w.words().clone();
        words[(w.size() - 1) * 4] ^= 1;
        Pce.Evaluation bad = new Pce(r1cs).evaluate(new Witness(w.curve(), words));
        int broken = 0;
        for (int row = 0; row < r1cs.constraintCount(); row++) {
            fr.mul(bad.a(), row * 4, bad.b(), row * 4, ab, 0);
            broken += fr.eq(ab, 0, bad.c(), row * 4) ? 0 : 1;
        }
        assertTrue(broken > 0, "the changed witness violates a row");
        assertEquals(-1, r1cs.firstUnsatisfied(w));
    }
}
