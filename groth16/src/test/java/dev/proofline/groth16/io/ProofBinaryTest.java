package dev.proofline.groth16.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proofline.algebra.PairingCurve;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ProofBinary#isBinaryProof} tells a binary proof from a proof.json by the first byte: it relies on
 * no decodable binary proof starting as JSON can ('{' or white space), which is checked here against the
 * decoder itself rather than taken from the formats' descriptions.
 */
class ProofBinaryTest {

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void noDecodableProofStartsAsJsonDoes(PairingCurve curve) {
        int length = ProofBinary.length(curve);
        Random random = new Random(7);
        for (byte first : "{ \t\n\r".getBytes(StandardCharsets.US_ASCII)) {
            List<byte[]> candidates = new ArrayList<>();
            candidates.add(new byte[length]);                 // the rest all zero: the infinity encodings
            byte[] ones = new byte[length];
            Arrays.fill(ones, (byte) 0xff);
            candidates.add(ones);
            for (int i = 0; i < 200; i++) {
                byte[] b = new byte[length];
                random.nextBytes(b);
                candidates.add(b);
            }
            for (byte[] b : candidates) {
                b[0] = first;
                assertFalse(ProofBinary.isBinaryProof(b, curve));
                assertThrows(IllegalArgumentException.class, () -> ProofBinary.decode(curve, b),
                        () -> "decoded with first byte " + first + ": " + java.util.HexFormat.of().formatHex(b));
            }
        }
    }
}
