package dev.proofline.r1cs.gadgets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.Node;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.RecordingSystem;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Poseidon natively and in circuits against circomlibjs's buildPoseidon. */
class PoseidonTest {

    record Case(BigInteger[] inputs, BigInteger out) {
    }

    private static List<Case> circomlibjs(String seed, int perWidth) {
        JsonNode j = Node.scriptJson("gadgets/poseidon.cjs", "hash", seed, Integer.toString(perWidth));
        List<Case> cases = new ArrayList<>();
        for (JsonNode c : j.get("cases")) {
            BigInteger[] in = new BigInteger[c.get("inputs").size()];
            for (int i = 0; i < in.length; i++) {
                in[i] = new BigInteger(c.get("inputs").get(i).asText());
            }
            cases.add(new Case(in, new BigInteger(c.get("out").asText())));
        }
        return cases;
    }

    /** The hash in a circuit of private inputs, its output equated with a public input. */
    private static Circuit circuit(BigInteger[] inputs, BigInteger expected, BigInteger[] got) {
        return cs -> {
            Num[] in = new Num[inputs.length];
            for (int i = 0; i < inputs.length; i++) {
                in[i] = Num.alloc(cs, "in", inputs[i]);
            }
            Num out = Poseidon.hash(cs, in);
            if (cs.needsValues()) {
                got[0] = out.toBigInteger(cs);
            }
            Num.enforceEqual(cs, "out", out, Num.allocInput(cs, "expected", expected));
        };
    }

    @Test
    void nativeAndInCircuitHashesEqualCircomlibjs() {
        PairingCurve curve = PairingCurve.BN254;
        List<Case> cases = circomlibjs("proofline-poseidon", 4);
        assertEquals(16 * 6, cases.size());
        for (Case c : cases) {
            assertEquals(c.out, Poseidon.hash(curve, c.inputs), c.inputs.length + " inputs");
        }
        // in circuits: the edge cases and one random case per input count
        for (int k = 0; k < cases.size(); k++) {
            if (k % 6 > 2) {
                continue;
            }
            Case c = cases.get(k);
            BigInteger[] got = new BigInteger[1];
            Harness.Run run = Harness.satisfied(curve, circuit(c.inputs, c.out, got));
            assertEquals(c.out, got[0]);
            int t = c.inputs.length + 1;
            int rp = PoseidonParameters.of(curve, c.inputs.length).partialRounds();
            assertEquals(3 * (8 * t + rp - 1) + 1, run.constraints(), "S-boxes and the output check");
            if (k % 6 == 2) {
                Harness.tamperingIsDetected(run, 30, k, c.inputs.length);
                Harness.unsatisfied(curve, circuit(c.inputs, c.out.add(BigInteger.ONE), new BigInteger[1]));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void inCircuitEqualsNativeOnBothCurvesWithCosts(PairingCurve curve) {
        PrimeField fr = curve.fr();
        Random rnd = new Random(curve.ordinal());
        for (int n = 1; n <= 16; n++) {
            BigInteger[] in = new BigInteger[n];
            for (int i = 0; i < n; i++) {
                in[i] = new BigInteger(fr.bits() + 64, rnd).mod(fr.modulus());
            }
            BigInteger want = Poseidon.hash(curve, in);
            BigInteger[] got = new BigInteger[1];
            int[] cost = new int[1];
            Circuit c = cs -> {
                Num[] x = new Num[in.length];
                for (int i = 0; i < in.length; i++) {
                    x[i] = Num.alloc(cs, "in", in[i]);
                }
                int before = cs instanceof RecordingSystem r ? r.constraintCount() : 0;
                Num out = Poseidon.hash(cs, x);
                if (cs instanceof RecordingSystem r) {
                    cost[0] = r.constraintCount() - before;
                }
                if (cs.needsValues()) {
                    got[0] = out.toBigInteger(cs);
                }
                Num.enforceEqual(cs, "out", out, Num.allocInput(cs, "expected", want));
            };
            Harness.Run run = Harness.satisfied(curve, c);
            assertEquals(want, got[0]);
            Harness.report("Poseidon(" + n + "), t = " + (n + 1), curve, cost[0]);
            if (n == 2 || n == 16) {
                Harness.tamperingIsDetected(run, 40, n, n);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void constantInputsAreFreeAndMixedInputsWork(PairingCurve curve) {
        BigInteger a = BigInteger.valueOf(7);
        BigInteger b = BigInteger.valueOf(11);
        BigInteger want = Poseidon.hash(curve, a, b);
        int[] cost = new int[1];
        Harness.satisfied(curve, cs -> {
            Num out = Poseidon.hash(cs, Num.constant(cs, a), Num.constant(cs, b));
            assertEquals(want, out.toBigInteger(cs));
            if (cs instanceof RecordingSystem r) {
                cost[0] = r.constraintCount();
            }
        });
        assertEquals(0, cost[0]);
        Harness.satisfied(curve, cs -> {
            Num out = Poseidon.hash(cs, Num.constant(cs, a), Num.alloc(cs, "b", b));
            if (cs instanceof RecordingSystem r) {
                cost[0] = r.constraintCount();
            }
            Num.enforceEqual(cs, "out", out, Num.constant(cs, want));
        });
        assertEquals(3 * (8 * 3 + 57 - 2), cost[0], "two constant S-boxes in the first round");
        // linear-combination inputs
        BigInteger sum = a.add(b);
        Harness.satisfied(curve, cs -> {
            Num x = Num.alloc(cs, "a", a);
            Num y = Num.alloc(cs, "b", b);
            Num out = Poseidon.hash(cs, x.add(cs, y), x.sub(cs, y));
            Num.enforceEqual(cs, "out", out, Num.constant(cs, Poseidon.hash(curve, sum, a.subtract(b))));
        });
    }
}
