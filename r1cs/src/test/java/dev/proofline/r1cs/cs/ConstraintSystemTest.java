package dev.proofline.r1cs.cs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.pce.Pce;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The three constraint systems agree: the recorded matrices (columns remapped after interleaved
 * allocation) are satisfied by the proving assignment's witness, the PCE's a, b, c equal the enforce
 * path's element for element, the witness-only system gives the same assignment.
 */
class ConstraintSystemTest {

    /**
     * x^3 + x + 5 = out with out public, allocated AFTER private variables and constraints, and a
     * second public input y in the middle, to exercise the remapping of interleaved columns.
     */
    static final class Cubic implements Circuit {
        final long x;
        final boolean lie;

        Cubic(long x, boolean lie) {
            this.x = x;
            this.lie = lie;
        }

        @Override
        public void synthesize(ConstraintSystem cs) {
            PrimeField fr = cs.field();
            Variable vx = cs.alloc("x", () -> fr.fromLong(x));
            Variable x2 = cs.alloc("x^2", () -> fr.fromLong(x * x));
            cs.enforce("square", cs.lc().add(vx), cs.lc().add(vx), cs.lc().add(x2));
            Variable y = cs.allocInput("y", () -> fr.fromLong(7));
            Variable x3 = cs.alloc("x^3", () -> fr.fromLong(x * x * x));
            cs.namespace("cube", () -> cs.enforce("mul", cs.lc().add(x2), cs.lc().add(vx), cs.lc().add(x3)));
            Variable out = cs.allocInput("out", () -> fr.fromLong(x * x * x + x + 5 + (lie ? 1 : 0)));
            cs.enforce("sum", cs.lc().add(x3).add(vx).add(5, cs.one()), cs.lc().add(cs.one()), cs.lc().add(out));
            cs.enforce("y is 7", cs.lc().add(y).add(-7, cs.one()), cs.lc().add(cs.one()), cs.lc());
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void recordedMatricesFitTheAssignmentAndPceEqualsEnforce(PairingCurve curve) {
        Circuit c = new Cubic(3, false);
        ProvingAssignment.Result proving = ProvingAssignment.synthesize(curve, c);
        assertNull(proving.firstUnsatisfied());
        assertEquals(3, proving.inputs(), "1, y, out");
        assertEquals(List.of("1", "7", "35"), List.of(proving.witness().value(0).toString(),
                proving.witness().value(1).toString(), proving.witness().value(2).toString()));
        R1cs r1cs = RecordingSystem.record(curve, c);
        assertEquals(4, r1cs.constraintCount());
        assertEquals(6, r1cs.wireCount());
        assertEquals(2, r1cs.publicCount());
        assertEquals(-1, r1cs.firstUnsatisfied(proving.witness()), "the remapped columns fit the witness");

        Pce.Evaluation e = new Pce(r1cs).evaluate(proving.witness());
        assertArrayEquals(proving.a(), e.a());
        assertArrayEquals(proving.b(), e.b());
        assertArrayEquals(proving.c(), e.c());

        Witness w = WitnessSystem.witness(curve, c);
        assertArrayEquals(proving.witness().words(), w.words());

        R1cs back = R1csFile.read(R1csFile.write(r1cs), "cubic.r1cs");
        assertEquals(-1, back.firstUnsatisfied(w));
        assertArrayEquals(r1cs.a().columns(), back.a().columns());
        assertArrayEquals(r1cs.c().coefficients(), back.c().coefficients());
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void anUnsatisfiedConstraintIsNamedWithItsNamespace(PairingCurve curve) {
        ProvingAssignment.Result r = ProvingAssignment.synthesize(curve, new Cubic(3, true));
        assertEquals("sum", r.firstUnsatisfied());
        Circuit nested = cs -> {
            Variable v = cs.alloc("v", () -> cs.field().fromLong(2));
            cs.namespace("outer", () -> cs.namespace("inner",
                    () -> cs.enforce("v is 3", cs.lc().add(v), cs.lc().add(cs.one()), cs.lc().add(3, cs.one()))));
        };
        assertEquals("outer/inner/v is 3", ProvingAssignment.synthesize(curve, nested).firstUnsatisfied());
    }

    /**
     * Random circuits: each step allocates an input or an auxiliary variable (random values) or
     * enforces a random constraint over existing variables with random coefficients, many of them
     * +-1; c is made to hold by a fresh variable. PCE equals enforce on every element.
     */
    @Property(tries = 40)
    void pceEqualsEnforceOnRandomCircuitShapes(@ForAll @IntRange(min = 1, max = 300) int steps,
            @ForAll long seed, @ForAll boolean bls) {
        PairingCurve curve = bls ? PairingCurve.BLS12_381 : PairingCurve.BN254;
        Circuit c = cs -> {
            Random rnd = new Random(seed);
            PrimeField fr = cs.field();
            List<Variable> vars = new ArrayList<>(List.of(cs.one()));
            for (int s = 0; s < steps; s++) {
                int kind = rnd.nextInt(4);
                if (kind == 0) {
                    long v = rnd.nextLong();
                    vars.add(cs.allocInput("in" + s, () -> fr.fromBigInteger(BigInteger.valueOf(v))));
                } else if (kind == 1) {
                    long v = rnd.nextLong();
                    vars.add(cs.alloc("aux" + s, () -> fr.fromBigInteger(BigInteger.valueOf(v))));
                } else {
                    long[] va = fr.newElement();
                    long[] vb = fr.newElement();
                    LinearCombination a = randomLc(cs, vars, rnd, va);
                    LinearCombination b = randomLc(cs, vars, rnd, vb);
                    // c = a*b, held by a new variable
                    Variable prod = cs.alloc("prod" + s, () -> {
                        long[] r = fr.newElement();
                        fr.mul(va, 0, vb, 0, r, 0);
                        return r;
                    });
                    vars.add(prod);
                    cs.enforce("c" + s, a, b, cs.lc().add(prod));
                }
            }
        };
        ProvingAssignment.Result r = ProvingAssignment.synthesize(curve, c);
        assertNull(r.firstUnsatisfied());
        R1cs r1cs = RecordingSystem.record(curve, c);
        assertEquals(-1, r1cs.firstUnsatisfied(r.witness()));
        assertArrayEquals(r.witness().words(), WitnessSystem.witness(curve, c).words());
        Pce.Evaluation e = new Pce(r1cs).evaluate(WitnessSystem.witness(curve, c));
        assertArrayEquals(r.a(), e.a());
        assertArrayEquals(r.b(), e.b());
        assertArrayEquals(r.c(), e.c());
        assertTrue(r.densityA().length() <= r1cs.wireCount());
    }

    /** A random combination; its value (when the system computes values) is summed into {@code value}. */
    private static LinearCombination randomLc(ConstraintSystem cs, List<Variable> vars, Random rnd, long[] value) {
        PrimeField fr = cs.field();
        LinearCombination lc = cs.lc();
        int terms = rnd.nextInt(5);
        for (int k = 0; k < terms; k++) {
            Variable v = vars.get(rnd.nextInt(vars.size()));
            long[] coef = switch (rnd.nextInt(3)) {
                case 0 -> fr.one();
                case 1 -> {
                    long[] m = fr.one();
                    fr.neg(m, 0, m, 0);
                    yield m;
                }
                default -> fr.fromBigInteger(new BigInteger(200, rnd));
            };
            lc.add(coef, 0, v);
            if (cs.needsValues()) {
                long[] t = fr.newElement();
                fr.mul(coef, 0, cs.value(v), 0, t, 0);
                fr.add(value, 0, t, 0, value, 0);
            }
        }
        return lc;
    }
}
