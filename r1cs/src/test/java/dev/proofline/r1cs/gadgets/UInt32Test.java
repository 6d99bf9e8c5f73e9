package dev.proofline.r1cs.gadgets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ConstraintSystem;
import java.util.Random;
import java.util.function.BiFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** 32-bit words against Java's int arithmetic, with their costs. */
class UInt32Test {

    /** Enforces every bit of w equal to the constant. */
    private static void enforceValue(ConstraintSystem cs, UInt32 w, int expected) {
        for (int i = 0; i < 32; i++) {
            Bit.enforceEqual(cs, "bit " + i, w.bit(i), Bit.constant(((expected >>> i) & 1) != 0));
        }
    }

    /**
     * Runs op on an allocated word and a word that is allocated or constant; checks the value on
     * the proving assignment and the recorded cost; the wrong result fails.
     */
    private static int check(PairingCurve curve, int x, int y, boolean yConstant,
            TriOp op, BiFunction<Integer, Integer, Integer> reference, boolean everyBitUsed) {
        int expected = reference.apply(x, y);
        int[] cost = new int[1];
        Circuit c = cs -> {
            UInt32 a = UInt32.alloc(cs, "a", x);
            UInt32 b = yConstant ? UInt32.constant(y) : UInt32.alloc(cs, "b", y);
            int before = count(cs);
            UInt32 r = op.apply(cs, a, b);
            if (cs instanceof dev.proofline.r1cs.cs.RecordingSystem) {
                cost[0] = count(cs) - before;
            }
            if (cs.needsValues()) {
                assertEquals(expected, r.value());
            }
            enforceValue(cs, r, expected);
        };
        Harness.Run run = Harness.satisfied(curve, c);
        if (everyBitUsed) {
            Harness.tamperingIsDetected(run, 40, x, yConstant ? 32 : 64);
        }
        Harness.unsatisfied(curve, cs -> {
            UInt32 a = UInt32.alloc(cs, "a", x);
            UInt32 b = yConstant ? UInt32.constant(y) : UInt32.alloc(cs, "b", y);
            enforceValue(cs, op.apply(cs, a, b), expected ^ 0x10000);
        });
        return cost[0];
    }

    interface TriOp {
        UInt32 apply(ConstraintSystem cs, UInt32 a, UInt32 b);
    }

    private static int count(ConstraintSystem cs) {
        return cs instanceof dev.proofline.r1cs.cs.RecordingSystem r ? r.constraintCount() : 0;
    }

    private static int recordedCost(PairingCurve curve, int x, int y, boolean yConstant, TriOp op,
            BiFunction<Integer, Integer, Integer> ref) {
        return check(curve, x, y, yConstant, op, ref, true);
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void bitwiseOperationsRotationsAndShifts(PairingCurve curve) {
        Random rnd = new Random(32);
        for (int k = 0; k < 6; k++) {
            int x = rnd.nextInt();
            int y = rnd.nextInt();
            int n = rnd.nextInt(32);
            assertEquals(32, recordedCost(curve, x, y, false, (cs, a, b) -> a.xor(cs, b), (p, q) -> p ^ q));
            assertEquals(0, recordedCost(curve, x, y, true, (cs, a, b) -> a.xor(cs, b), (p, q) -> p ^ q));
            assertEquals(32, recordedCost(curve, x, y, false, (cs, a, b) -> a.and(cs, b), (p, q) -> p & q));
            assertEquals(0, recordedCost(curve, x, y, true, (cs, a, b) -> a.and(cs, b), (p, q) -> p & q));
            assertEquals(0, recordedCost(curve, x, y, true, (cs, a, b) -> a.not(), (p, q) -> ~p));
            assertEquals(0, recordedCost(curve, x, y, true, (cs, a, b) -> a.rotr(n), (p, q) -> Integer.rotateRight(p, n)));
            assertEquals(0, recordedCost(curve, x, y, true, (cs, a, b) -> a.shr(n), (p, q) -> p >>> n));
            // a shift leaves constant zeros: XOR with them is free
            // (b's low bits are shifted out and stay unconstrained but for booleanity)
            assertEquals(32 - n, check(curve, x, y, false, (cs, a, b) -> a.xor(cs, b.shr(n)),
                    (p, q) -> p ^ (q >>> n), false));
            assertEquals(32, recordedCost(curve, x, y, false, (cs, a, b) -> UInt32.ch(cs, a, b, b.not()),
                    (p, q) -> (p & q) | (~p & ~q)));
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void addManyIsTheSumModulo2To32(PairingCurve curve) {
        Random rnd = new Random(7);
        for (int n = 1; n <= 8; n++) {
            final int operands = n;
            for (int kk = 0; kk < 3; kk++) {
                final int k = kk;
                int[] values = new int[operands];
                boolean[] constant = new boolean[operands];
                long max = 0;
                boolean anyVariable = false;
                int sum = 0;
                for (int i = 0; i < operands; i++) {
                    values[i] = k == 0 ? -1 : rnd.nextInt();
                    constant[i] = k == 2 && i % 2 == 1;
                    sum += values[i];
                    max += constant[i] ? Integer.toUnsignedLong(values[i]) : 0xffff_ffffL;
                    anyVariable |= !constant[i];
                }
                int expected = sum;
                int[] cost = new int[1];
                Circuit c = cs -> {
                    UInt32[] ws = new UInt32[operands];
                    for (int i = 0; i < operands; i++) {
                        ws[i] = constant[i] ? UInt32.constant(values[i]) : UInt32.alloc(cs, "w", values[i]);
                    }
                    int before = count(cs);
                    UInt32 r = UInt32.addMany(cs, ws);
                    if (cs instanceof dev.proofline.r1cs.cs.RecordingSystem) {
                        cost[0] = count(cs) - before;
                    }
                    if (cs.needsValues()) {
                        assertEquals(expected, r.value());
                    }
                    enforceValue(cs, r, expected);
                };
                Harness.Run run = Harness.satisfied(curve, c);
                int inputBits = 0;
                for (boolean isConstant : constant) {
                    inputBits += isConstant ? 0 : 32;
                }
                Harness.tamperingIsDetected(run, 60, operands * 10 + k, inputBits);
                int bits = anyVariable ? Math.max(32, 64 - Long.numberOfLeadingZeros(max)) : 0;
                assertEquals(anyVariable ? bits + 1 : 0, cost[0], operands + " operands");
                if (k == 1) {
                    Harness.report("UInt32.addMany, " + operands + " variable operands", curve, cost[0]);
                }
                Harness.unsatisfied(curve, cs -> {
                    UInt32[] ws = new UInt32[operands];
                    for (int i = 0; i < operands; i++) {
                        ws[i] = constant[i] ? UInt32.constant(values[i]) : UInt32.alloc(cs, "w", values[i]);
                    }
                    enforceValue(cs, UInt32.addMany(cs, ws), expected + 1);
                });
            }
        }
    }
}
