package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.Variable;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A circuit written in Java, exported as circom's .r1cs and .wtns: snarkjs checks the pair, runs its
 * own Groth16 setup on it, and verifies our proof with its key.
 */
class JavaCircuitInteropTest {

    @TempDir
    Path tmp;

    /** A chain x_{i+1} = x_i^2 + i with two public inputs allocated between the constraints. */
    static final class Chain implements Circuit {
        private final int steps;

        /** 40 steps. */
        Chain() {
            this(40);
        }

        /** {@code steps} steps (more than 30), two coefficients each. */
        Chain(int steps) {
            this.steps = steps;
        }

        @Override
        public void synthesize(ConstraintSystem cs) {
            PrimeField fr = cs.field();
            Variable x = cs.alloc("x0", () -> fr.fromLong(3));
            for (int i = 0; i < steps; i++) {
                final Variable prev = x;
                final long k = i;
                if (i == 10 || i == 30) {
                    Variable in = cs.allocInput("checkpoint" + i, () -> cs.value(prev));
                    cs.enforce("checkpoint " + i, cs.lc().add(in), cs.lc().add(cs.one()), cs.lc().add(prev));
                }
                x = cs.alloc("x" + (i + 1), () -> {
                    long[] v = cs.value(prev);
                    fr.sqr(v, 0, v, 0);
                    fr.add(v, 0, fr.fromLong(k), 0, v, 0);
                    return v;
                });
                cs.enforce("step " + i, cs.lc().add(prev), cs.lc().add(prev), cs.lc().add(x).add(-k, cs.one()));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void snarkjsSetsUpOurCircuitAndVerifiesOurProof(PairingCurve curve) throws IOException {
        Chain circuit = new Chain();
        R1cs r1cs = RecordingSystem.record(curve, circuit);
        Witness w = WitnessSystem.witness(curve, circuit);
        assertEquals(-1, r1cs.firstUnsatisfied(w));
        Path r1csFile = tmp.resolve("chain.r1cs");
        Path wtnsFile = tmp.resolve("chain.wtns");
        Files.write(r1csFile, R1csFile.write(r1cs));
        Files.write(wtnsFile, WtnsFile.write(w));
        Node.snarkjs("wtns", "check", r1csFile.toString(), wtnsFile.toString());

        // a prepared powers of tau from the circom fixtures (2^10, enough for 42 + 3 rows)
        CircomFixtures.build(curve.snarkjsName(), "poseidon");
        Path ptau = CircomFixtures.cacheDir().resolve("ptau/" + curve.snarkjsName() + "_10.ptau");
        Path zkey = tmp.resolve("chain.zkey");
        Node.snarkjs("groth16", "setup", r1csFile.toString(), ptau.toString(), zkey.toString());
        Path vk = CircomFixtures.exportVk(zkey, tmp.resolve("vk.json"));

        try (ProvingKey key = ZkeyFile.open(zkey)) {
            assertEquals(2, key.publicCount());
            Proof proof = Prover.create().prove(key, w);
            Path proofJson = tmp.resolve("proof.json");
            Path publicJson = tmp.resolve("public.json");
            SnarkjsJson.write(proofJson, SnarkjsJson.proofJson(proof));
            List<String> signals = new ArrayList<>(w.publicSignals(key.publicCount()));
            SnarkjsJson.write(publicJson, SnarkjsJson.publicJson(signals));
            assertTrue(CircomFixtures.snarkjsVerifies(vk, publicJson, proofJson), "snarkjs verifies our proof");
        }
    }
}
