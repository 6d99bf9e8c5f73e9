package dev.proofline.r1cs.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proofline.algebra.testing.ReaderContract;
import dev.proofline.r1cs.R1cs;

/**
 * .r1cs from any bytes: a constraint system or a {@link FormatException}, and a system read (of
 * up to 2^20 wires) is written back to the same matrices. Seeds: circom's files in R1csFuzzTestInputs/r1cs.
 */
class R1csFuzzTest {

    @FuzzTest
    void r1cs(byte[] bytes) {
        ReaderContract.returnsOrRejects(() -> R1csFile.read(bytes, "fuzz.r1cs"), FormatException.class)
                // the writer allocates its label map, 8 bytes a wire, whatever the constraints: written
                // back only where that stays small (a file without the map may declare 2^29 wires)
                .filter(cs -> cs.wireCount() <= 1 << 20)
                .ifPresent(cs -> {
                    R1cs again = R1csFile.read(R1csFile.write(cs), "written.r1cs");
                    assertEquals(cs.wireCount(), again.wireCount());
                    assertEquals(cs.constraintCount(), again.constraintCount());
                    R1cs.Matrix[] before = {cs.a(), cs.b(), cs.c()};
                    R1cs.Matrix[] after = {again.a(), again.b(), again.c()};
                    for (int k = 0; k < 3; k++) {
                        assertArrayEquals(before[k].rowStart(), after[k].rowStart());
                        assertArrayEquals(before[k].columns(), after[k].columns());
                        assertArrayEquals(before[k].coefficients(), after[k].coefficients());
                    }
                });
    }
}
