package dev.proofline.groth16.io;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.io.FormatException;

/**
 * .zkey from any bytes, every point checked: a proving key or a {@link FormatException}. Seeds:
 * snarkjs keys of circom's multiplier circuit, one per curve, in ZkeyFuzzTestInputs/zkey.
 */
class ZkeyFuzzTest {

    @FuzzTest
    void zkey(byte[] bytes) {
        ReaderContract.returnsOrRejects(() -> {
            try (ProvingKey key = ZkeyFile.read(bytes, "fuzz.zkey", ZkeyFile.PointCheck.ON_CURVE)) {
                return key.curve();
            }
        }, FormatException.class);
    }
}
