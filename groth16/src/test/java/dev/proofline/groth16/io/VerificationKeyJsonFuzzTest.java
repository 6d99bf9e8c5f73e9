package dev.proofline.groth16.io;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.r1cs.io.FormatException;

/**
 * snarkjs verification_key.json from any bytes: a key or a {@link FormatException}. Seeds:
 * VerificationKeyJsonFuzzTestInputs/key.
 */
class VerificationKeyJsonFuzzTest {

    @FuzzTest
    void key(byte[] bytes) {
        ReaderContract.returnsOrRejects(() -> SnarkjsJson.readVerificationKey(bytes, "fuzz-vk.json"),
                FormatException.class);
    }
}
