package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.r1cs.io.FormatException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Mutated proofs and public signals against snarkjs's verification key of circom's multiplier
 * circuit (bn128): a mutation is read or rejected as the readers promise, and the verifier accepts
 * it only when it reads back to the original proof and signals: 0 wrong proofs. An input is
 * proof.json, a 0 byte, then public.json (seed: the original pair, in VerifierFuzzTestInputs/verify).
 */
class VerifierFuzzTest {

    private static final VerificationKey KEY = SnarkjsJson.readVerificationKey(resource("multiplier-vk.json"),
            "multiplier-vk.json");
    private static final Proof PROOF = SnarkjsJson.readProof(resource("multiplier-proof.json"), "multiplier-proof.json",
            KEY.curve());
    private static final List<BigInteger> SIGNALS = SnarkjsJson.readPublic(resource("multiplier-public.json"),
            "multiplier-public.json");

    static {
        // the property below means something only if the original verifies
        if (!Verifier.verify(KEY, SIGNALS, PROOF)) {
            throw new IllegalStateException("the original multiplier proof does not verify");
        }
    }

    @FuzzTest
    void verify(byte[] bytes) {
        int split = indexOfZero(bytes);
        byte[] proofJson = Arrays.copyOfRange(bytes, 0, split < 0 ? bytes.length : split);
        byte[] publicJson = split < 0 ? new byte[0] : Arrays.copyOfRange(bytes, split + 1, bytes.length);
        Optional<Proof> proof = ReaderContract.returnsOrRejects(
                () -> SnarkjsJson.readProof(proofJson, "fuzz-proof.json", KEY.curve()), FormatException.class);
        Optional<List<BigInteger>> signals = ReaderContract.returnsOrRejects(
                () -> SnarkjsJson.readPublic(publicJson, "fuzz-public.json"), FormatException.class);
        if (proof.isEmpty() || signals.isEmpty()) {
            return;
        }
        Verifier.Result r = Verifier.check(KEY, signals.get(), proof.get());
        if (r.valid()) {
            assertEquals(PROOF, proof.get(), "a proof other than the original verified");
            assertEquals(SIGNALS, signals.get(), "the proof verified for other public signals");
        } else {
            assertTrue(r.reason() != null && !r.reason().isBlank(), "rejected without a reason");
        }
    }

    private static int indexOfZero(byte[] b) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] resource(String name) {
        try (InputStream in = VerifierFuzzTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
