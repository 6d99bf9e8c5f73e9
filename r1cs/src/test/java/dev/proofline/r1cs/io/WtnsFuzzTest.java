package dev.proofline.r1cs.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.r1cs.Witness;

/**
 * .wtns from any bytes: a witness or a {@link FormatException}, and a witness read is written back
 * to the same values. Seeds: snarkjs witnesses in WtnsFuzzTestInputs/wtns (docs/reliability.md).
 */
class WtnsFuzzTest {

    @FuzzTest
    void wtns(byte[] bytes) {
        ReaderContract.returnsOrRejects(() -> WtnsFile.read(bytes, "fuzz.wtns"), FormatException.class)
                .ifPresent(w -> {
                    Witness again = WtnsFile.read(WtnsFile.write(w), "written.wtns");
                    assertArrayEquals(w.words(), again.words(), "a witness read and written back changed");
                });
    }
}
