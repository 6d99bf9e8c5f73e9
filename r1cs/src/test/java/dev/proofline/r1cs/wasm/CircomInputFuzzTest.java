package dev.proofline.r1cs.wasm;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import java.nio.charset.StandardCharsets;

/**
 * circom input JSON from any text: inputs or a {@link WitnessException}. Seeds: input.json files of
 * the interop circuits and inputs that reached the number and nesting limits, in
 * CircomInputFuzzTestInputs/input.
 */
class CircomInputFuzzTest {

    @FuzzTest
    void input(byte[] bytes) {
        String json = new String(bytes, StandardCharsets.UTF_8);
        ReaderContract.returnsOrRejects(() -> CircomInput.parse(json, "fuzz.json"), WitnessException.class);
    }
}
