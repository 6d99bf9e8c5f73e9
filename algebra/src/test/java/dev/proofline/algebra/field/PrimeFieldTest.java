package dev.proofline.algebra.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple3;

/**
 * Every prime field's Montgomery arithmetic against java.math.BigInteger, the independent reference:
 * the same property on each of the four fields.
 */
class PrimeFieldTest {

    static final List<PrimeField> FIELDS = List.of(
            dev.proofline.algebra.bn254.Fp.INSTANCE, dev.proofline.algebra.bn254.Fr.INSTANCE,
            dev.proofline.algebra.bls12381.Fp.INSTANCE, dev.proofline.algebra.bls12381.Fr.INSTANCE);

    /** Values biased to the edges: 0, 1, q-1, q-2, small, and near powers of two, plus uniform. */
    static Arbitrary<BigInteger> value(PrimeField f) {
        BigInteger q = f.modulus();
        Arbitrary<BigInteger> uniform = Arbitraries.bigIntegers().between(BigInteger.ZERO, q.subtract(BigInteger.ONE));
        Arbitrary<BigInteger> edge = Arbitraries.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO,
                q.subtract(BigInteger.ONE), q.subtract(BigInteger.TWO), BigInteger.ONE.shiftLeft(64),
                BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE), q.shiftRight(1));
        return Arbitraries.frequencyOf(Tuple.of(4, uniform), Tuple.of(1, edge));
    }

    @Provide
    Arbitrary<Tuple3<PrimeField, BigInteger, BigInteger>> pairs() {
        return Arbitraries.of(FIELDS).flatMap(f -> value(f).tuple2().map(t -> Tuple.of(f, t.get1(), t.get2())));
    }

    @Property(tries = 2000)
    void arithmeticMatchesBigInteger(@ForAll("pairs") Tuple3<PrimeField, BigInteger, BigInteger> in) {
        PrimeField f = in.get1();
        BigInteger q = f.modulus();
        BigInteger x = in.get2();
        BigInteger y = in.get3();
        long[] a = f.fromBigInteger(x);
        long[] b = f.fromBigInteger(y);
        long[] r = f.newElement();
        f.mul(a, 0, b, 0, r, 0);
        assertEquals(x.multiply(y).mod(q), f.toBigInteger(r, 0), "mul");
        f.sqr(a, 0, r, 0);
        assertEquals(x.multiply(x).mod(q), f.toBigInteger(r, 0), "sqr");
        f.add(a, 0, b, 0, r, 0);
        assertEquals(x.add(y).mod(q), f.toBigInteger(r, 0), "add");
        f.sub(a, 0, b, 0, r, 0);
        assertEquals(x.subtract(y).mod(q), f.toBigInteger(r, 0), "sub");
        f.dbl(a, 0, r, 0);
        assertEquals(x.shiftLeft(1).mod(q), f.toBigInteger(r, 0), "dbl");
        f.neg(a, 0, r, 0);
        assertEquals(x.negate().mod(q), f.toBigInteger(r, 0), "neg");
        f.inv(a, 0, r, 0);
        assertEquals(x.signum() == 0 ? BigInteger.ZERO : x.modInverse(q), f.toBigInteger(r, 0), "inv");
        long[] v = f.newElement();
        f.invVartime(a, 0, v, 0);
        assertArrayEquals(r, v, "invVartime: the same words as inv");
        assertEquals(x.signum() == 0 ? 0 : (x.modPow(q.shiftRight(1), q).equals(BigInteger.ONE) ? 1 : -1),
                f.legendre(a, 0), "legendre");
    }

    @Property(tries = 600)
    void aliasedOperandsGiveTheSameResult(@ForAll("pairs") Tuple3<PrimeField, BigInteger, BigInteger> in) {
        PrimeField f = in.get1();
        long[] a = f.fromBigInteger(in.get2());
        long[] b = f.fromBigInteger(in.get3());
        long[] expected = f.newElement();
        f.mul(a, 0, b, 0, expected, 0);
        long[] ab = new long[2 * f.width()];
        f.copy(a, 0, ab, 0);
        f.copy(b, 0, ab, f.width());
        f.mul(ab, 0, ab, f.width(), ab, 0);
        assertTrue(f.eq(expected, 0, ab, 0));
        f.sub(a, 0, b, 0, expected, 0);
        long[] c = a.clone();
        f.sub(c, 0, b, 0, c, 0);
        assertTrue(f.eq(expected, 0, c, 0));
    }

    @Property(tries = 600)
    void squareRootsSquareBackAndNonSquaresHaveNone(@ForAll("pairs") Tuple3<PrimeField, BigInteger, BigInteger> in) {
        PrimeField f = in.get1();
        long[] a = f.fromBigInteger(in.get2());
        long[] r = f.newElement();
        boolean square = f.sqrt(a, 0, r, 0);
        assertEquals(f.legendre(a, 0) >= 0, square);
        if (square) {
            f.sqr(r, 0, r, 0);
            assertTrue(f.eq(a, 0, r, 0));
        }
    }

    @Property(tries = 400)
    void encodingsRoundTrip(@ForAll("pairs") Tuple3<PrimeField, BigInteger, BigInteger> in) {
        PrimeField f = in.get1();
        BigInteger x = in.get2();
        long[] a = f.fromBigInteger(x);
        int len = f.byteLength();
        byte[] le = new byte[len];
        f.toBytesLE(a, 0, le, 0);
        byte[] be = new byte[len];
        f.toBytesBE(a, 0, be, 0);
        byte[] fromBigInteger = new byte[len];
        byte[] raw = x.toByteArray();
        int copy = Math.min(raw.length, len);
        System.arraycopy(raw, raw.length - copy, fromBigInteger, len - copy, copy);
        assertArrayEquals(fromBigInteger, be, "big-endian bytes equal BigInteger's");
        for (int i = 0; i < len; i++) {
            assertEquals(be[i], le[len - 1 - i], "little-endian is big-endian reversed");
        }
        long[] r = f.newElement();
        f.fromBytesLE(le, 0, r, 0);
        assertTrue(f.eq(a, 0, r, 0));
        f.fromBytesBE(be, 0, r, 0);
        assertTrue(f.eq(a, 0, r, 0));
        byte[] mont = new byte[len];
        f.toMontgomeryBytesLE(a, 0, mont, 0);
        f.fromMontgomeryBytesLE(mont, 0, r, 0);
        assertTrue(f.eq(a, 0, r, 0));
        // Montgomery bytes are x*R mod q
        BigInteger rr = BigInteger.ONE.shiftLeft(64 * f.limbs());
        byte[] rev = new byte[len];
        for (int i = 0; i < len; i++) {
            rev[i] = mont[len - 1 - i];
        }
        assertEquals(x.multiply(rr).mod(f.modulus()), new BigInteger(1, rev));
        assertEquals(x, new BigInteger(f.toDecimal(a, 0)));
        assertTrue(f.eq(a, 0, f.fromDecimal(x.toString()), 0));
    }

    @Property(tries = 50)
    void batchInverseMatchesSingleInverses(@ForAll("pairs") Tuple3<PrimeField, BigInteger, BigInteger> in) {
        PrimeField f = in.get1();
        Random rnd = new Random(in.get2().longValue());
        int n = 1 + rnd.nextInt(20);
        long[] v = f.newVector(n);
        for (int i = 0; i < n; i++) {
            BigInteger x = rnd.nextInt(4) == 0 ? BigInteger.ZERO : new BigInteger(f.bits() + 8, rnd);
            f.fromBigInteger(x, v, i * f.width());
        }
        long[] r = f.newVector(n);
        f.batchInverse(v, 0, r, 0, n);
        long[] single = f.newElement();
        for (int i = 0; i < n; i++) {
            f.inv(v, i * f.width(), single, 0);
            assertTrue(f.eq(single, 0, r, i * f.width()), "element " + i);
        }
    }

    @org.junit.jupiter.api.Test
    void nonCanonicalInputsAreRejected() {
        for (PrimeField f : FIELDS) {
            int len = f.byteLength();
            byte[] be = new byte[len];
            byte[] q = f.modulus().toByteArray();
            System.arraycopy(q, Math.max(0, q.length - len), be, len - Math.min(q.length, len), Math.min(q.length, len));
            long[] r = f.newElement();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.fromBytesBE(be, 0, r, 0));
            assertTrue(e.getMessage().contains("modulus"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> f.fromDecimal(f.modulus().toString()));
            assertThrows(IllegalArgumentException.class, () -> f.fromDecimal("-1"));
            assertThrows(IllegalArgumentException.class, () -> f.fromDecimal("12a"));
            assertFalse(f.isCanonical(f.modulusWords(), 0));
        }
    }
}
