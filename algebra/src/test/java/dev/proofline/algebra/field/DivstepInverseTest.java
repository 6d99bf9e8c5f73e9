package dev.proofline.algebra.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The divstep inversion against {@link BigInteger#modInverse} on every prime field, on inputs
 * chosen to stress it: powers of two (long runs of even steps), values next to p and to 2^64k,
 * runs of ones, small values, and uniform ones.
 */
class DivstepInverseTest {

    static List<BigInteger> inputs(BigInteger p, Random rnd) {
        List<BigInteger> xs = new ArrayList<>();
        int bits = p.bitLength();
        for (int k = 0; k < bits; k++) {
            BigInteger two = BigInteger.ONE.shiftLeft(k);
            xs.add(two.mod(p));
            xs.add(two.subtract(BigInteger.ONE).max(BigInteger.ONE).mod(p));
            xs.add(p.subtract(two.mod(p)).mod(p));
        }
        for (long s = 1; s < 64; s++) {
            xs.add(BigInteger.valueOf(s));
            xs.add(p.subtract(BigInteger.valueOf(s)));
        }
        xs.add(p.shiftRight(1));
        xs.add(p.add(BigInteger.ONE).shiftRight(1));
        for (int i = 0; i < 3000; i++) {
            BigInteger x = new BigInteger(bits, rnd).mod(p);
            xs.add(x);
            xs.add(x.shiftLeft(rnd.nextInt(200)).mod(p));                  // many low zero bits
            xs.add(new BigInteger(1 + rnd.nextInt(bits - 1), rnd).mod(p));   // shorter
        }
        xs.removeIf(x -> x.signum() == 0);
        return xs;
    }

    @Test
    void invertsLikeBigIntegerOnEveryField() {
        Random rnd = new Random(20261130);
        for (PrimeField f : PrimeFieldTest.FIELDS) {
            BigInteger p = f.modulus();
            DivstepInverse inverse = new DivstepInverse(p, f.limbs());
            long[] out = new long[f.limbs() + 2];
            for (BigInteger x : inputs(p, rnd)) {
                long[] in = new long[f.limbs() + 1];
                System.arraycopy(PrimeField.words(x, f.limbs()), 0, in, 1, f.limbs());
                out[0] = out[f.limbs() + 1] = 0x5a5a;
                inverse.inverse(in, 1, out, 1);
                long[] got = java.util.Arrays.copyOfRange(out, 1, 1 + f.limbs());
                assertArrayEquals(PrimeField.words(x.modInverse(p), f.limbs()), got, f.name() + ": 1/" + x);
                assertEquals(0x5a5a, out[0], "no write before the result");
                assertEquals(0x5a5a, out[f.limbs() + 1], "no write after the result");
            }
        }
    }

    @Test
    void zeroMapsToZero() {
        for (PrimeField f : PrimeFieldTest.FIELDS) {
            long[] out = new long[f.limbs()];
            java.util.Arrays.fill(out, -1);
            new DivstepInverse(f.modulus(), f.limbs()).inverse(new long[f.limbs()], 0, out, 0);
            assertArrayEquals(new long[f.limbs()], out, f.name());
        }
    }

    @Test
    void montgomeryInverseOfEveryFieldIsTheInverse() {
        Random rnd = new Random(7);
        for (PrimeField f : PrimeFieldTest.FIELDS) {
            for (int i = 0; i < 500; i++) {
                BigInteger x = new BigInteger(f.bits(), rnd).mod(f.modulus());
                if (x.signum() == 0) {
                    continue;
                }
                long[] a = f.fromBigInteger(x);
                long[] r = f.newElement();
                f.invVartime(a, 0, r, 0);
                assertEquals(x.modInverse(f.modulus()), f.toBigInteger(r, 0), f.name() + ": 1/" + x);
            }
        }
    }
}
