package dev.proofline.r1cs.gadgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.RecordingSystem;
import java.util.function.IntPredicate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every bit operation on every mix of operands (constants, two variables, their negations, the same
 * variable twice) and every assignment: the result's value, its truth table, and its cost.
 */
class BitTest {

    /** Operand k of 6 given variables a, b: 0, 1, a, !a, b, !b. */
    private static Bit operand(int k, Bit a, Bit b) {
        return switch (k) {
            case 0 -> Bit.FALSE;
            case 1 -> Bit.TRUE;
            case 2 -> a;
            case 3 -> a.not();
            case 4 -> b;
            default -> b.not();
        };
    }

    private static boolean operandValue(int k, boolean a, boolean b) {
        return switch (k) {
            case 0 -> false;
            case 1 -> true;
            case 2 -> a;
            case 3 -> !a;
            case 4 -> b;
            default -> !b;
        };
    }

    private static boolean constantOrSame(int... ks) {
        for (int k : ks) {
            if (k < 2) {
                return true;
            }
        }
        for (int i = 0; i < ks.length; i++) {
            for (int j = i + 1; j < ks.length; j++) {
                if (ks[i] / 2 == ks[j] / 2) {
                    return true;
                }
            }
        }
        return false;
    }

    interface Op {
        Bit apply(ConstraintSystem cs, Bit[] x);
    }

    interface Truth {
        boolean of(boolean[] x);
    }

    /**
     * Checks op on every choice of operands and values; returns the largest cost seen; the cost
     * must be 0 whenever {@code free} holds for the operand choice.
     */
    private static int check(PairingCurve curve, int arity, Op op, Truth truth, IntPredicate free) {
        int maxCost = 0;
        int choices = (int) Math.pow(6, arity);
        for (int choice = 0; choice < choices; choice++) {
            int[] ks = new int[arity];
            for (int i = 0, c = choice; i < arity; i++, c /= 6) {
                ks[i] = c % 6;
            }
            for (int va = 0; va < 2; va++) {
                for (int vb = 0; vb < 2; vb++) {
                    boolean a = va == 1;
                    boolean b = vb == 1;
                    boolean[] xs = new boolean[arity];
                    for (int i = 0; i < arity; i++) {
                        xs[i] = operandValue(ks[i], a, b);
                    }
                    boolean expected = truth.of(xs);
                    int[] cost = new int[1];
                    Circuit circuit = cs -> {
                        Bit ba = Bit.alloc(cs, "a", a);
                        Bit bb = Bit.alloc(cs, "b", b);
                        Bit[] ops = new Bit[arity];
                        for (int i = 0; i < arity; i++) {
                            ops[i] = operand(ks[i], ba, bb);
                        }
                        int before = cs instanceof RecordingSystem r ? r.constraintCount() : 0;
                        Bit out = op.apply(cs, ops);
                        if (cs instanceof RecordingSystem r) {
                            cost[0] = r.constraintCount() - before;
                        }
                        if (cs.needsValues() || out.isConstant()) {
                            assertEquals(expected, out.value(), "value");
                        }
                        Bit.enforceEqual(cs, "out", out, Bit.constant(expected));
                    };
                    Harness.satisfied(curve, circuit);
                    Circuit wrong = cs -> {
                        Bit ba = Bit.alloc(cs, "a", a);
                        Bit bb = Bit.alloc(cs, "b", b);
                        Bit[] ops = new Bit[arity];
                        for (int i = 0; i < arity; i++) {
                            ops[i] = operand(ks[i], ba, bb);
                        }
                        Bit.enforceEqual(cs, "out", op.apply(cs, ops), Bit.constant(!expected));
                    };
                    Harness.unsatisfied(curve, wrong);
                    if (free.test(choice)) {
                        assertEquals(0, cost[0], "free for operands " + java.util.Arrays.toString(ks));
                    }
                    maxCost = Math.max(maxCost, cost[0]);
                }
            }
        }
        return maxCost;
    }

    private static IntPredicate freeWhenConstantOrSame(int arity) {
        return choice -> {
            int[] ks = new int[arity];
            for (int i = 0, c = choice; i < arity; i++, c /= 6) {
                ks[i] = c % 6;
            }
            return constantOrSame(ks);
        };
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void binaryOperations(PairingCurve curve) {
        assertEquals(1, check(curve, 2, (cs, x) -> Bit.xor(cs, x[0], x[1]), x -> x[0] ^ x[1],
                freeWhenConstantOrSame(2)));
        assertEquals(1, check(curve, 2, (cs, x) -> Bit.and(cs, x[0], x[1]), x -> x[0] & x[1],
                freeWhenConstantOrSame(2)));
        assertEquals(1, check(curve, 2, (cs, x) -> Bit.or(cs, x[0], x[1]), x -> x[0] | x[1],
                freeWhenConstantOrSame(2)));
        assertEquals(1, check(curve, 2, (cs, x) -> Bit.andNot(cs, x[0], x[1]), x -> x[0] & !x[1],
                freeWhenConstantOrSame(2)));
        assertEquals(0, check(curve, 1, (cs, x) -> x[0].not(), x -> !x[0], c -> true));
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void chooseAndMajority(PairingCurve curve) {
        // ch is free when the selector is constant or both branches are constants
        assertEquals(1, check(curve, 3, (cs, x) -> Bit.ch(cs, x[0], x[1], x[2]), x -> x[0] ? x[1] : x[2],
                choice -> choice % 6 < 2 || (choice / 6 % 6 < 2 && choice / 36 < 2)));
        int maj = check(curve, 3, (cs, x) -> Bit.maj(cs, x[0], x[1], x[2]),
                x -> (x[0] ? 1 : 0) + (x[1] ? 1 : 0) + (x[2] ? 1 : 0) >= 2, c -> false);
        assertEquals(2, maj);
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void allocatedBitsMustBeBooleanAndNoPrivateValueIsFree(PairingCurve curve) {
        Circuit c = cs -> {
            Bit x = Bit.alloc(cs, "x", true);
            Bit y = Bit.alloc(cs, "y", false);
            Bit z = Bit.alloc(cs, "z", true);
            Bit r = Bit.maj(cs, Bit.xor(cs, x, y), Bit.ch(cs, y, x, z.not()), Bit.or(cs, x.not(), z));
            Bit.enforceEqual(cs, "r", r, Bit.TRUE);
        };
        Harness.Run run = Harness.satisfied(curve, c);
        Harness.tamperingIsDetected(run, 1000, 1, 3);
        assertTrue(run.constraints() >= 3);
    }
}
