package dev.proofline.algebra.ntt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.Ffjs;
import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The roots of unity and the coset shift against ffjavascript's own tables and their definitions. */
class RootsOfUnityTest {

    static java.util.List<NttTest.Curve> curves() {
        return NttTest.curves();
    }

    @ParameterizedTest
    @MethodSource("curves")
    void rootsAreFfjavascriptsTable(NttTest.Curve c) {
        JsonNode k = Ffjs.vectors(c.ffjs(), "constants", 1, null);
        PrimeField f = c.fr();
        assertEquals(k.get("fr_two_adicity").asInt(), f.twoAdicity());
        assertEquals(new BigInteger(k.get("fr_nqr").asText()), f.smallestNonResidue(), "ffjavascript's nqr");
        JsonNode w = k.get("fr_w");
        assertEquals(f.twoAdicity() + 1, w.size());
        for (int i = 0; i <= f.twoAdicity(); i++) {
            assertEquals(new BigInteger(w.get(i).asText()), f.toBigInteger(RootsOfUnity.primitive(f, i), 0), "w[" + i + "]");
        }
        assertEquals(new BigInteger(k.get("fr_shift").asText()),
                f.toBigInteger(RootsOfUnity.snarkjsCosetShift(f, f.twoAdicity()), 0), "Fr.shift at the largest domain");
    }

    @ParameterizedTest
    @MethodSource("curves")
    void rootOfDomainKHasOrderExactlyTwoToTheK(NttTest.Curve c) {
        PrimeField f = c.fr();
        BigInteger q = f.modulus();
        for (int k = 0; k <= f.twoAdicity(); k++) {
            BigInteger w = f.toBigInteger(RootsOfUnity.primitive(f, k), 0);
            // w^(2^k) = 1 and, for k > 0, w^(2^(k-1)) = -1 != 1
            assertEquals(BigInteger.ONE, w.modPow(BigInteger.ONE.shiftLeft(k), q), "w^(2^k), k = " + k);
            if (k > 0) {
                assertNotEquals(BigInteger.ONE, w.modPow(BigInteger.ONE.shiftLeft(k - 1), q), "w^(2^(k-1)), k = " + k);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("curves")
    void snarkjsShiftMakesTheVanishingPolynomialMinusTwoOnTheCoset(NttTest.Curve c) {
        PrimeField f = c.fr();
        BigInteger q = f.modulus();
        // Z(X) = X^n - 1 on g*H is g^n - 1; with g a primitive 2n-th root, g^n = -1, so Z = -2
        for (int k = 0; k < f.twoAdicity(); k++) {
            BigInteger g = f.toBigInteger(RootsOfUnity.snarkjsCosetShift(f, k), 0);
            assertEquals(q.subtract(BigInteger.TWO), g.modPow(BigInteger.ONE.shiftLeft(k), q).subtract(BigInteger.ONE).mod(q),
                    "k = " + k);
        }
    }

    @ParameterizedTest
    @MethodSource("curves")
    void sizesBeyondTheTwoAdicityAreRejected(NttTest.Curve c) {
        PrimeField f = c.fr();
        assertThrows(IllegalArgumentException.class, () -> RootsOfUnity.primitive(f, f.twoAdicity() + 1));
        assertThrows(IllegalArgumentException.class, () -> RootsOfUnity.primitive(f, -1));
        assertThrows(IllegalArgumentException.class, () -> RootsOfUnity.snarkjsCosetShift(f, f.twoAdicity() + 1));
        assertThrows(IllegalArgumentException.class, () -> Ntt.of(f, f.twoAdicity() + 1));
    }
}
