package dev.proofline.r1cs.circuits;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.cs.ProvingAssignment;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.pce.Pce;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MerklePostTest {

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void everyPathLeadsToThePublicRootAndPceEqualsEnforce(PairingCurve curve) {
        MerklePost c = MerklePost.instance(curve, 5, 8, 42);
        ProvingAssignment.Result enforce = ProvingAssignment.synthesize(curve, c);
        assertNull(enforce.firstUnsatisfied(), "the instance satisfies its circuit");
        R1cs r1cs = RecordingSystem.record(curve, c);
        assertEquals(1 + 5, r1cs.publicCount(), "the root and five indices");
        Witness w = WitnessSystem.witness(curve, c);
        assertArrayEquals(enforce.witness().words(), w.words());
        assertEquals(-1, r1cs.firstUnsatisfied(w));
        Pce.Evaluation e = new Pce(r1cs).evaluate(w);
        assertArrayEquals(enforce.a(), e.a());
        assertArrayEquals(enforce.b(), e.b());
        assertArrayEquals(enforce.c(), e.c());
        assertEquals(c.root().toString(), w.value(1).toString(), "the first public input is the root");
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aWrongLeafBreaksTheRootConstraint(PairingCurve curve) {
        MerklePost good = MerklePost.instance(curve, 2, 6, 1);
        MerklePost other = MerklePost.instance(curve, 2, 6, 2);
        // same shape, different tree: the recorded matrices of one are not satisfied by the other's
        // witness once the public root is swapped in
        R1cs r1cs = RecordingSystem.record(curve, good);
        Witness w = WitnessSystem.witness(curve, other);
        long[] words = w.words().clone();
        System.arraycopy(WitnessSystem.witness(curve, good).words(), 4, words, 4, 4); // root of `good`
        assertTrue(r1cs.firstUnsatisfied(new Witness(curve, words)) >= 0);
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void sha256LeavesAreHashedInTheCircuit(PairingCurve curve) {
        MerklePost c = MerklePost.instance(curve, 2, 4, true, 9);
        ProvingAssignment.Result enforce = ProvingAssignment.synthesize(curve, c);
        assertNull(enforce.firstUnsatisfied());
        R1cs r1cs = RecordingSystem.record(curve, c);
        assertTrue(r1cs.constraintCount() > 2 * 25_000, "two SHA-256 compressions: " + r1cs.constraintCount());
        Witness w = WitnessSystem.witness(curve, c);
        assertEquals(-1, r1cs.firstUnsatisfied(w));
        Pce.Evaluation e = new Pce(r1cs).evaluate(w);
        assertArrayEquals(enforce.a(), e.a());
        assertArrayEquals(enforce.c(), e.c());
        // the plain-leaf instance of the same seed has other leaves, so another root
        assertTrue(!MerklePost.instance(curve, 2, 4, false, 9).root().equals(c.root()));
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void sizedReachesTheRequestedConstraintCount(PairingCurve curve) {
        MerklePost c = MerklePost.sized(curve, 20_000, 10, 3);
        int n = RecordingSystem.record(curve, c).constraintCount();
        assertTrue(n >= 20_000 && n < 20_000 + 3_000, n + " constraints for 20000 requested");
    }
}
