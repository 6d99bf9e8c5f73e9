package dev.proofline.groth16.io;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.r1cs.io.FormatException;

/** snarkjs proof.json from any bytes: a proof or a {@link FormatException}. Seeds: ProofJsonFuzzTestInputs/proof. */
class ProofJsonFuzzTest {

    @FuzzTest
    void proof(byte[] bytes) {
        ReaderContract.returnsOrRejects(() -> SnarkjsJson.readProof(bytes, "fuzz-proof.json", null), FormatException.class);
    }
}
