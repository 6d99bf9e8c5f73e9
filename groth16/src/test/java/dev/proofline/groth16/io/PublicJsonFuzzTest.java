package dev.proofline.groth16.io;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.r1cs.io.FormatException;

/** snarkjs public.json from any bytes: the signals or a {@link FormatException}. Seeds: PublicJsonFuzzTestInputs/signals. */
class PublicJsonFuzzTest {

    @FuzzTest
    void signals(byte[] bytes) {
        ReaderContract.returnsOrRejects(() -> SnarkjsJson.readPublic(bytes, "fuzz-public.json"), FormatException.class);
    }
}
