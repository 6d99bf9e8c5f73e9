package dev.proofline.r1cs.gadgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.RecordingSystem;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Field elements: bit decomposition and packing, products, selections, swaps. */
class NumTest {

    private static BigInteger random(PrimeField fr, Random rnd) {
        return new BigInteger(fr.bits() + 64, rnd).mod(fr.modulus());
    }

    /** Enforces the bits equal to the integer's bits. */
    private static void enforceBits(dev.proofline.r1cs.cs.ConstraintSystem cs, Bit[] bits, BigInteger v) {
        for (int i = 0; i < bits.length; i++) {
            Bit.enforceEqual(cs, "bit " + i, bits[i], Bit.constant(v.testBit(i)));
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void decompositionIntoNBitsAndPackingBack(PairingCurve curve) {
        PrimeField fr = curve.fr();
        Random rnd = new Random(3);
        for (int n : new int[] {1, 8, 64, 200, fr.bits() - 1}) {
            BigInteger v = new BigInteger(n, rnd);
            int[] cost = new int[1];
            Circuit c = cs -> {
                Num x = Num.alloc(cs, "x", v);
                int before = cs instanceof RecordingSystem r ? r.constraintCount() : 0;
                Bit[] bits = x.toBitsLe(cs, n);
                if (cs instanceof RecordingSystem r) {
                    cost[0] = r.constraintCount() - before;
                }
                enforceBits(cs, bits, v);
                Num back = Num.fromBitsLe(cs, bits);
                if (cs.needsValues()) {
                    assertEquals(v, back.toBigInteger(cs));
                }
                Num.enforceEqual(cs, "back", back, x);
            };
            Harness.Run run = Harness.satisfied(curve, c);
            Harness.tamperingIsDetected(run, 50, n, 1);
            assertEquals(n + 1, cost[0]);
            if (n == fr.bits() - 1) {
                Harness.report("Num.toBitsLe(" + n + ")", curve, cost[0]);
            }
            // a value of n + 1 bits has no n-bit decomposition
            BigInteger big = v.setBit(n);
            Harness.unsatisfied(curve, cs -> Num.alloc(cs, "x", big).toBitsLe(cs, n));
        }
        assertThrows(IllegalArgumentException.class,
                () -> RecordingSystem.record(curve, cs -> Num.alloc(cs, "x", BigInteger.ONE).toBitsLe(cs, fr.bits())));
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void strictDecompositionOfEveryElement(PairingCurve curve) {
        PrimeField fr = curve.fr();
        BigInteger r = fr.modulus();
        Random rnd = new Random(4);
        BigInteger[] values = {BigInteger.ZERO, BigInteger.ONE, r.subtract(BigInteger.ONE), r.subtract(BigInteger.TWO),
            BigInteger.ONE.shiftLeft(fr.bits() - 1), random(fr, rnd), random(fr, rnd)};
        int[] cost = new int[1];
        for (BigInteger v : values) {
            Circuit c = cs -> {
                Num x = Num.alloc(cs, "x", v);
                int before = cs instanceof RecordingSystem rs ? rs.constraintCount() : 0;
                Bit[] bits = x.toBitsLeStrict(cs);
                if (cs instanceof RecordingSystem rs) {
                    cost[0] = rs.constraintCount() - before;
                }
                assertEquals(fr.bits(), bits.length);
                enforceBits(cs, bits, v);
            };
            Harness.Run run = Harness.satisfied(curve, c);
            Harness.tamperingIsDetected(run, 60, v.hashCode(), 1);
        }
        Harness.report("Num.toBitsLeStrict (" + fr.bits() + " bits, < r)", curve, cost[0]);
    }

    /**
     * The comparison behind the strict decomposition, on bits of any integer: satisfied exactly
     * when the integer is at most r - 1 (x + r, the other decomposition of a small x, fails).
     */
    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void atMostRMinusOneRejectsTheOtherRepresentation(PairingCurve curve) {
        PrimeField fr = curve.fr();
        BigInteger r = fr.modulus();
        BigInteger limit = r.subtract(BigInteger.ONE);
        int n = fr.bits();
        Random rnd = new Random(5);
        BigInteger[] values = {BigInteger.ZERO, limit, r, r.add(BigInteger.valueOf(5)), BigInteger.ONE.shiftLeft(n).subtract(BigInteger.ONE),
            limit.subtract(BigInteger.ONE.shiftLeft(40)), limit.add(BigInteger.ONE.shiftLeft(40)),
            limit.xor(BigInteger.ONE.shiftLeft(n - 3)), new BigInteger(n, rnd), new BigInteger(n, rnd), new BigInteger(n, rnd)};
        for (BigInteger v : values) {
            Circuit c = cs -> {
                Bit[] bits = new Bit[n];
                for (int i = 0; i < n; i++) {
                    bits[i] = Bit.alloc(cs, "b", v.testBit(i));
                }
                Num.enforceAtMost(cs, bits, limit);
            };
            if (v.compareTo(limit) <= 0) {
                Harness.satisfied(curve, c);
            } else {
                Harness.unsatisfied(curve, c);
            }
        }
        // small limits, exhaustively
        for (int lim = 0; lim < 64; lim++) {
            for (int v = 0; v < 64; v++) {
                BigInteger l = BigInteger.valueOf(lim);
                int x = v;
                Circuit c = cs -> {
                    Bit[] bits = new Bit[6];
                    for (int i = 0; i < 6; i++) {
                        bits[i] = Bit.alloc(cs, "b", ((x >>> i) & 1) != 0);
                    }
                    Num.enforceAtMost(cs, bits, l);
                };
                if (v <= lim) {
                    Harness.satisfied(curve, c);
                } else {
                    Harness.unsatisfied(curve, c);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void productsSelectionsAndSwaps(PairingCurve curve) {
        PrimeField fr = curve.fr();
        Random rnd = new Random(6);
        BigInteger a = random(fr, rnd);
        BigInteger b = random(fr, rnd);
        BigInteger r = fr.modulus();
        for (boolean s : new boolean[] {false, true}) {
            Circuit c = cs -> {
                Num x = Num.alloc(cs, "a", a);
                Num y = Num.alloc(cs, "b", b);
                Bit bit = Bit.alloc(cs, "s", s);
                Num p = Num.mul(cs, x.add(cs, Num.constant(cs, BigInteger.TEN)), y);
                Num q = p.square(cs).sub(cs, x).scale(cs, fr.fromLong(3));
                Num sel = Num.select(cs, bit, x, y);
                Num[] sw = Num.conditionalSwap(cs, bit, x, y);
                BigInteger pv = a.add(BigInteger.TEN).multiply(b).mod(r);
                BigInteger qv = pv.multiply(pv).subtract(a).multiply(BigInteger.valueOf(3)).mod(r);
                if (cs.needsValues()) {
                    assertEquals(pv, p.toBigInteger(cs));
                    assertEquals(qv, q.toBigInteger(cs));
                    assertEquals(s ? a : b, sel.toBigInteger(cs));
                    assertEquals(s ? b : a, sw[0].toBigInteger(cs));
                    assertEquals(s ? a : b, sw[1].toBigInteger(cs));
                }
                Num.enforceEqual(cs, "q", q, Num.constant(cs, qv));
                Num.enforceEqual(cs, "sel", sel, Num.constant(cs, s ? a : b));
                Num.enforceEqual(cs, "left", sw[0], Num.constant(cs, s ? b : a));
                Num.enforceEqual(cs, "right", sw[1], Num.constant(cs, s ? a : b));
                Num out = q.inputize(cs, "q");
                Num.enforceEqual(cs, "q public", out, q);
                x.toVariable(cs);
                p.add(cs, y).toVariable(cs);
            };
            Harness.Run run = Harness.satisfied(curve, c);
            assertEquals(1, run.proving().inputs() - 1, "one public input");
            Harness.tamperingIsDetected(run, 100, 9, 3);
            Harness.unsatisfied(curve, cs -> {
                Num x = Num.alloc(cs, "a", a);
                Num y = Num.alloc(cs, "b", b);
                Num.enforceEqual(cs, "sel", Num.select(cs, Bit.alloc(cs, "s", s), x, y), Num.constant(cs, s ? b : a));
            });
        }
    }
}
