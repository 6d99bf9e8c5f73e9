package dev.proofline.algebra.msm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/** The signed-digit recoding, checked by rebuilding every scalar with BigInteger. */
class SignedDigitsTest {

    @Provide
    Arbitrary<BigInteger> scalars() {
        BigInteger top = BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);
        return Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.bigIntegers().between(BigInteger.ZERO, top)),
                Tuple.of(1, Arbitraries.of(BigInteger.ZERO, BigInteger.ONE, top,
                        Bn254.FR.modulus().subtract(BigInteger.ONE), Bn254.FR.modulus(),
                        Bls12381.FR.modulus().subtract(BigInteger.ONE), Bls12381.FR.modulus(),
                        BigInteger.ONE.shiftLeft(255), BigInteger.ONE.shiftLeft(16).subtract(BigInteger.ONE))));
    }

    @Property(tries = 3000)
    void digitsRebuildTheScalarModRAndStayWithinHalfTheWindow(@ForAll("scalars") BigInteger k,
            @ForAll @IntRange(min = 2, max = 16) int c, @ForAll boolean bls) {
        BigInteger r = bls ? Bls12381.FR.modulus() : Bn254.FR.modulus();
        int windows = SignedDigits.windows(r.bitLength(), c);
        char[][] digits = new char[windows][1];
        long[] words = SignedDigits.words(k);
        SignedDigits.recode(words, 0, 0, 1, SignedDigits.words(r), c, digits);
        BigInteger sum = BigInteger.ZERO;
        for (int w = windows - 1; w >= 0; w--) {
            int d = SignedDigits.decode(digits[w][0], c);
            assertTrue(d > -(1 << (c - 1)) && d <= 1 << (c - 1), "digit " + d + " in window " + w);
            sum = sum.shiftLeft(c).add(BigInteger.valueOf(d));
        }
        assertEquals(k.mod(r), sum);
    }

    @Property(tries = 300)
    void oneWindowRecodedAloneHasTheSameDigitsAsAllWindowsTogether(@ForAll("scalars") BigInteger k0,
            @ForAll("scalars") BigInteger k1, @ForAll("scalars") BigInteger k2,
            @ForAll @IntRange(min = 2, max = 16) int c, @ForAll boolean bls) {
        BigInteger r = bls ? Bls12381.FR.modulus() : Bn254.FR.modulus();
        long[] rw = SignedDigits.words(r);
        BigInteger[] ks = {k0, k1, k2};
        long[] scalars = new long[4 * ks.length];
        for (int i = 0; i < ks.length; i++) {
            System.arraycopy(SignedDigits.words(ks[i]), 0, scalars, 4 * i, 4);
        }
        int windows = SignedDigits.windows(r.bitLength(), c);
        char[][] all = new char[windows][ks.length];
        SignedDigits.recode(scalars, 0, 0, ks.length, rw, c, all);
        int[] reversed = {2, 1, 0};
        for (int w = 0; w < windows; w++) {
            char[] alone = new char[ks.length];
            SignedDigits.recodeWindow(scalars, 0, null, 0, ks.length, rw, c, w, alone);
            char[] viaIndex = new char[ks.length];
            SignedDigits.recodeWindow(scalars, 0, reversed, 1, ks.length, rw, c, w, viaIndex);
            for (int i = 0; i < ks.length; i++) {
                assertEquals((int) all[w][i], (int) alone[i], "window " + w + " of scalar " + ks[i]);
            }
            assertEquals(0, (int) viaIndex[0], "only the terms asked for are written");
            for (int i = 1; i < ks.length; i++) {
                assertEquals((int) all[w][reversed[i]], (int) viaIndex[i], "window " + w + " of term " + i
                        + " read through the index");
            }
        }
    }
}
