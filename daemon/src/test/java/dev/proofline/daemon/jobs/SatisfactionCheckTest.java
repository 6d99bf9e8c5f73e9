package dev.proofline.daemon.jobs;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.pce.Pce;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The submit-time check, on snarkjs's own files for both curves. */
class SatisfactionCheckTest {

    @Test
    void snarkjsWitnessesSatisfyTheirCircuitAndAnyChangedValueDoesNot() throws Exception {
        for (String[] c : List.of(new String[] {"bn128", "poseidon"}, new String[] {"bls12381", "multiplier"})) {
            CircomFixtures.Fixture fx = CircomFixtures.build(c[0], c[1]);
            SatisfactionCheck check = new SatisfactionCheck(new Pce(R1csFile.read(fx.r1cs())));
            Witness w = WtnsFile.read(fx.wtns());
            check.check("ok", w);
            // every wire but the constant: each one changed alone breaks a constraint (circom keeps no
            // unconstrained wire in these circuits)
            for (int i = 1; i < w.size(); i++) {
                long[] words = w.words().clone();
                words[i * 4] ^= 1;
                Witness bad = new Witness(w.curve(), words);
                int wire = i;
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> check.check("partition 0", bad), c[1] + " wire " + wire);
                assertTrue(e.getMessage().startsWith("partition 0: the witness does not satisfy the circuit"),
                        e.getMessage());
            }
            long[] words = w.words().clone();
            words[0] = 2;
            assertThrows(IllegalArgumentException.class, () -> check.check("one", new Witness(w.curve(), words)));
        }
    }
}
