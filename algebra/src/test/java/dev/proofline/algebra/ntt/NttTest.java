package dev.proofline.algebra.ntt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.Ffjs;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The transforms against their definitions, evaluated with BigInteger (naive O(n^2) sums with a
 * root of unity derived here from Euler's criterion), and against ffjavascript's Fr.fft / Fr.ifft.
 */
class NttTest {

    /** A curve's scalar field and its name in ffjavascript. */
    record Curve(String ffjs, PrimeField fr) {
        @Override
        public String toString() {
            return ffjs;
        }
    }

    static List<Curve> curves() {
        return List.of(new Curve("bn128", dev.proofline.algebra.bn254.Fr.INSTANCE),
                new Curve("bls12381", dev.proofline.algebra.bls12381.Fr.INSTANCE));
    }

    static Stream<Arguments> curvesAndSmallLogs() {
        return curves().stream().flatMap(c -> Stream.of(0, 1, 2, 3, 4, 5, 7).map(k -> Arguments.of(c, k)));
    }

    // ---------------------------------------------------------------- references, in BigInteger

    /**
     * ffjavascript's primitive 2^k-th root: nqr^((q-1)/2^k) (= (nqr^t)^(2^(s-k))), nqr the smallest
     * non-residue from 2 up by Euler's criterion.
     */
    static BigInteger omega(PrimeField f, int k) {
        BigInteger q = f.modulus();
        BigInteger qm1 = q.subtract(BigInteger.ONE);
        BigInteger nqr = BigInteger.TWO;
        while (!nqr.modPow(qm1.shiftRight(1), q).equals(qm1)) {
            nqr = nqr.add(BigInteger.ONE);
        }
        return nqr.modPow(qm1.shiftRight(k), q);
    }

    /** sum_j a_j x^j (Horner). */
    static BigInteger evaluate(BigInteger[] a, BigInteger x, BigInteger q) {
        BigInteger acc = BigInteger.ZERO;
        for (int j = a.length - 1; j >= 0; j--) {
            acc = acc.multiply(x).add(a[j]).mod(q);
        }
        return acc;
    }

    /** out_i = scale * sum_j a_j (c * x^i)^j. */
    static BigInteger[] naive(BigInteger[] a, BigInteger x, BigInteger c, BigInteger scale, BigInteger q) {
        BigInteger[] out = new BigInteger[a.length];
        BigInteger xi = BigInteger.ONE;
        for (int i = 0; i < a.length; i++) {
            out[i] = evaluate(a, c.multiply(xi).mod(q), q).multiply(scale).mod(q);
            xi = xi.multiply(x).mod(q);
        }
        return out;
    }

    static BigInteger[] random(PrimeField f, int n, Random rnd) {
        BigInteger[] a = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            a[i] = new BigInteger(f.bits() + 16, rnd).mod(f.modulus());
        }
        return a;
    }

    static long[] toVector(PrimeField f, BigInteger[] a) {
        long[] v = f.newVector(a.length);
        for (int i = 0; i < a.length; i++) {
            f.fromBigInteger(a[i], v, i * f.width());
        }
        return v;
    }

    static BigInteger[] fromVector(PrimeField f, long[] v) {
        BigInteger[] a = new BigInteger[v.length / f.width()];
        for (int i = 0; i < a.length; i++) {
            a[i] = f.toBigInteger(v, i * f.width());
        }
        return a;
    }

    // ---------------------------------------------------------------- against the definitions

    @ParameterizedTest
    @MethodSource("curvesAndSmallLogs")
    void forwardAndInverseEqualTheNaiveDft(Curve c, int k) {
        PrimeField f = c.fr();
        BigInteger q = f.modulus();
        int n = 1 << k;
        BigInteger w = omega(f, k);
        BigInteger[] a = random(f, n, new Random(31L * k + 1));
        Ntt ntt = Ntt.of(f, k);
        assertEquals(w, f.toBigInteger(ntt.omega(), 0));

        long[] v = toVector(f, a);
        ntt.forward(v);
        assertArrayEquals(naive(a, w, BigInteger.ONE, BigInteger.ONE, q), fromVector(f, v), "forward");

        v = toVector(f, a);
        ntt.inverse(v);
        BigInteger nInv = BigInteger.valueOf(n).modInverse(q);
        assertArrayEquals(naive(a, w.modInverse(q), BigInteger.ONE, nInv, q), fromVector(f, v), "inverse");
    }

    @ParameterizedTest
    @MethodSource("curvesAndSmallLogs")
    void genericButterfliesEqualTheNaiveDft(Curve c, int k) {
        PrimeField f = c.fr();
        BigInteger[] a = random(f, 1 << k, new Random(77L * k + 5));
        Ntt ntt = new Ntt(f, k, ForkJoinPool.commonPool(), new Butterflies.Generic(f));
        long[] v = toVector(f, a);
        ntt.forward(v);
        assertArrayEquals(naive(a, omega(f, k), BigInteger.ONE, BigInteger.ONE, f.modulus()), fromVector(f, v));
    }

    /** The fused loops at the small sizes where {@link Ntt#of} picks the field's own methods (no vector kernel). */
    @ParameterizedTest
    @MethodSource("curvesAndSmallLogs")
    void fusedButterfliesEqualTheNaiveDftAndItsInverse(Curve c, int k) {
        PrimeField f = c.fr();
        BigInteger q = f.modulus();
        BigInteger[] a = random(f, 1 << k, new Random(91L * k + 3));
        Ntt ntt = new Ntt(f, k, ForkJoinPool.commonPool(), new Montgomery4Butterflies(f));
        long[] v = toVector(f, a);
        ntt.forward(v);
        assertArrayEquals(naive(a, omega(f, k), BigInteger.ONE, BigInteger.ONE, q), fromVector(f, v), "forward");
        v = toVector(f, a);
        ntt.inverse(v);
        BigInteger nInv = BigInteger.ONE.shiftLeft(k).modInverse(q);
        assertArrayEquals(naive(a, omega(f, k).modInverse(q), BigInteger.ONE, nInv, q), fromVector(f, v), "inverse");
    }

    @ParameterizedTest
    @MethodSource("curvesAndSmallLogs")
    void cosetForwardEvaluatesAtShiftedPointsAndCosetInverseUndoesIt(Curve c, int k) {
        PrimeField f = c.fr();
        BigInteger q = f.modulus();
        Random rnd = new Random(1000L + k);
        BigInteger[] a = random(f, 1 << k, rnd);
        BigInteger w = omega(f, k);
        Ntt ntt = Ntt.of(f, k);
        // a random shift, and snarkjs's: a primitive 2^(k+1)-th root (nqr^((q-1)/2^(k+1)))
        BigInteger[] shifts = {new BigInteger(f.bits() - 1, rnd).add(BigInteger.TWO), omega(f, k + 1)};
        for (BigInteger g : shifts) {
            long[] gm = f.fromBigInteger(g);
            long[] v = toVector(f, a);
            ntt.cosetForward(v, gm, 0);
            assertArrayEquals(naive(a, w, g, BigInteger.ONE, q), fromVector(f, v), "values at g w^i, g = " + g);
            ntt.cosetInverse(v, gm, 0);
            assertArrayEquals(a, fromVector(f, v), "coset inverse");
        }
        assertEquals(omega(f, k + 1), f.toBigInteger(RootsOfUnity.snarkjsCosetShift(f, k), 0));
    }

    @ParameterizedTest
    @MethodSource("curvesAndSmallLogs")
    void evaluationsOnHBecomeEvaluationsOnTheCoset(Curve c, int k) {
        PrimeField f = c.fr();
        BigInteger q = f.modulus();
        Random rnd = new Random(2000L + k);
        BigInteger[] coeffs = random(f, 1 << k, rnd);
        BigInteger w = omega(f, k);
        BigInteger[] onH = naive(coeffs, w, BigInteger.ONE, BigInteger.ONE, q);
        BigInteger[] shifts = {new BigInteger(f.bits() - 1, rnd).add(BigInteger.TWO), omega(f, k + 1)};
        List<Ntt> impls = List.of(Ntt.of(f, k), new Ntt(f, k, ForkJoinPool.commonPool(), new Butterflies.Generic(f)),
                new Ntt(f, k, ForkJoinPool.commonPool(), new Montgomery4Butterflies(f)),
                new Ntt(f, k, ForkJoinPool.commonPool(), new Montgomery4Butterflies(f, true)));
        for (Ntt ntt : impls) {
            for (BigInteger g : shifts) {
                long[] v = toVector(f, onH);
                ntt.evaluationsOnCoset(v, f.fromBigInteger(g), 0);
                // p(g w^i) = sum_j coeffs_j (g w^i)^j
                assertArrayEquals(naive(coeffs, w, g, BigInteger.ONE, q), fromVector(f, v), "g = " + g);
            }
        }
    }

    @Property(tries = 60)
    void inverseUndoesForward(@ForAll("curve") Curve c, @ForAll @IntRange(max = 10) int k, @ForAll long seed) {
        PrimeField f = c.fr();
        BigInteger[] a = random(f, 1 << k, new Random(seed));
        Ntt ntt = Ntt.of(f, k);
        long[] v = toVector(f, a);
        ntt.forward(v);
        ntt.inverse(v);
        assertArrayEquals(a, fromVector(f, v), "inverse(forward(a))");
        ntt.inverse(v);
        ntt.forward(v);
        assertArrayEquals(a, fromVector(f, v), "forward(inverse(a))");
    }

    @Provide
    Arbitrary<Curve> curve() {
        return Arbitraries.of(curves());
    }

    @ParameterizedTest
    @MethodSource("curves")
    void largeTransformIsCorrectWhenSplitAcrossThreads(Curve c) {
        PrimeField f = c.fr();
        BigInteger q = f.modulus();
        int k = 16;
        int n = 1 << k;
        BigInteger[] a = random(f, n, new Random(16));
        BigInteger w = omega(f, k);
        ForkJoinPool pool = new ForkJoinPool(3); // more threads than this machine may have: forces splitting
        ForkJoinPool single = new ForkJoinPool(1);
        try {
            Ntt ntt = Ntt.of(f, k, pool);
            long[] v = toVector(f, a);
            ntt.forward(v);
            long[] serial = toVector(f, a);
            new Ntt(f, k, single, new Butterflies.Generic(f)).forward(serial);
            assertArrayEquals(serial, v, "parallel fused = single-threaded generic");
            for (int i : new int[] {0, 1, 2, 12345, n / 2, n - 1}) {
                assertEquals(evaluate(a, w.modPow(BigInteger.valueOf(i), q), q), f.toBigInteger(v, i * f.width()),
                        "value at w^" + i);
            }
            ntt.inverse(v);
            assertArrayEquals(a, fromVector(f, v), "round trip");

            // the prover's path: values on H to values on g*H, against the two-step definition
            long[] g = RootsOfUnity.snarkjsCosetShift(f, k);
            long[] direct = toVector(f, a);
            ntt.evaluationsOnCoset(direct, g, 0);
            long[] twoStep = toVector(f, a);
            ntt.inverse(twoStep);
            ntt.cosetForward(twoStep, g, 0);
            assertArrayEquals(twoStep, direct, "evaluationsOnCoset = cosetForward(inverse)");
            // and back: interpolate from g*H, evaluate on H
            ntt.cosetInverse(direct, g, 0);
            ntt.forward(direct);
            assertArrayEquals(a, fromVector(f, direct), "forward(cosetInverse) gives back the values on H");
        } finally {
            pool.shutdown();
            single.shutdown();
        }
    }

    // ---------------------------------------------------------------- against ffjavascript

    static Stream<Arguments> curvesAndFixtureLogs() {
        return curves().stream().flatMap(c -> Stream.of(1, 4, 8, 10).map(k -> Arguments.of(c, k)));
    }

    @ParameterizedTest
    @MethodSource("curvesAndFixtureLogs")
    void forwardAndInverseEqualFfjavascriptFftAndIfft(Curve c, int k) {
        PrimeField f = c.fr();
        JsonNode fx = Ffjs.vectors(c.ffjs(), "ntt", 100 + k, k);
        int n = 1 << k;
        assertEquals(k, fx.get("log_n").asInt());
        assertEquals(new BigInteger(fx.get("omega").asText()), f.toBigInteger(Ntt.of(f, k).omega(), 0), "omega");
        BigInteger[] in = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            in[i] = new BigInteger(fx.get("input").get(i).asText());
        }
        long[] fwd = toVector(f, in);
        Ntt.of(f, k).forward(fwd);
        long[] inv = toVector(f, in);
        Ntt.of(f, k).inverse(inv);
        for (int i = 0; i < n; i++) {
            assertEquals(fx.get("fft").get(i).asText(), f.toDecimal(fwd, i * f.width()), "fft[" + i + "]");
            assertEquals(fx.get("ifft").get(i).asText(), f.toDecimal(inv, i * f.width()), "ifft[" + i + "]");
        }
    }

    // ---------------------------------------------------------------- bit reversal, sizes

    @Test
    void bitReversalSwapsEachIndexWithItsMirror() {
        for (int logN = 0; logN <= 12; logN++) {
            int n = 1 << logN;
            int width = 3;
            long[] v = new long[n * width];
            for (int i = 0; i < v.length; i++) {
                v[i] = i;
            }
            Ntt.bitReverse(v, width, logN);
            for (int i = 0; i < n; i++) {
                String bits = logN == 0 ? "" : String.format("%" + logN + "s", Integer.toBinaryString(i)).replace(' ', '0');
                int mirror = logN == 0 ? 0 : Integer.parseInt(new StringBuilder(bits).reverse().toString(), 2);
                for (int l = 0; l < width; l++) {
                    assertEquals((long) mirror * width + l, v[i * width + l], "logN " + logN + ", element " + i);
                }
            }
        }
    }

    @Test
    void domainsTooLargeForAJavaArrayAreRejectedBeforeAllocating() {
        PrimeField fr = dev.proofline.algebra.bls12381.Fr.INSTANCE; // two-adicity 32, but 4 * 2^29 longs > 2^31
        for (int k = 29; k <= fr.twoAdicity(); k++) {
            int log = k;
            assertThrows(IllegalArgumentException.class, () -> Ntt.of(fr, log));
        }
    }

    @ParameterizedTest
    @MethodSource("curves")
    void vectorsTooShortAreRejected(Curve c) {
        Ntt ntt = Ntt.of(c.fr(), 3);
        assertThrows(IllegalArgumentException.class, () -> ntt.forward(c.fr().newVector(7)));
        assertThrows(IllegalArgumentException.class, () -> ntt.inverse(c.fr().newVector(7)));
        assertThrows(IllegalArgumentException.class, () -> ntt.cosetForward(new long[1], c.fr().one(), 0));
    }

    @ParameterizedTest
    @MethodSource("curves")
    void aLongerVectorIsTransformedInItsFirstElementsAndKeepsItsTail(Curve c) {
        PrimeField f = c.fr();
        BigInteger[] a = random(f, 1 << 6, new Random(11));
        BigInteger[] tail = random(f, 5, new Random(12));
        BigInteger[] both = java.util.stream.Stream.concat(java.util.Arrays.stream(a), java.util.Arrays.stream(tail))
                .toArray(BigInteger[]::new);
        long[] exact = toVector(f, a);
        long[] longer = toVector(f, both);
        Ntt ntt = Ntt.of(f, 6);
        ntt.evaluationsOnCoset(exact, RootsOfUnity.snarkjsCosetShift(f, 6), 0);
        ntt.evaluationsOnCoset(longer, RootsOfUnity.snarkjsCosetShift(f, 6), 0);
        assertArrayEquals(exact, java.util.Arrays.copyOf(longer, exact.length));
        assertArrayEquals(tail, java.util.Arrays.copyOfRange(fromVector(f, longer), a.length, both.length));
    }
}
