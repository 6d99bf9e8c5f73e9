package dev.proofline.r1cs.pce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The PCE into native memory (the GPU backend's page-locked buffers) gives the words of the
 * {@code long[]} evaluation, over several tiles of rows (including B and C rows copied from A), and
 * leaves the bytes after the constraints alone.
 */
class PceNativeTest {

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void nativeSegmentsHoldTheArrayEvaluation(PairingCurve curve) {
        MerklePost c = MerklePost.sized(curve, 10_000, 8, 3);
        R1cs r1cs = RecordingSystem.record(curve, c);
        Witness w = WitnessSystem.witness(curve, c);
        Pce pce = new Pce(r1cs);
        int rows = r1cs.constraintCount();
        assertTrue(rows > 2 * (1 << 12), "several tiles of 4096 rows: " + rows);
        assertTrue(pce.repeatedRowCount() > 0, "some rows of B or C repeat a row of A");
        Pce.Evaluation expected = pce.evaluate(w);
        long bytes = rows * 32L + 64;
        try (Arena arena = Arena.ofShared()) { // the PCE writes from the common pool's threads
            MemorySegment a = arena.allocate(bytes, 64);
            MemorySegment b = arena.allocate(bytes, 64);
            MemorySegment cc = arena.allocate(bytes, 64);
            for (MemorySegment s : new MemorySegment[] {a, b, cc}) {
                s.fill((byte) 0x77);
            }
            pce.evaluate(w, new long[w.size() * 4], a, b, cc);
            assertArrayEquals(expected.a(), a.asSlice(0, rows * 32L).toArray(ValueLayout.JAVA_LONG));
            assertArrayEquals(expected.b(), b.asSlice(0, rows * 32L).toArray(ValueLayout.JAVA_LONG));
            assertArrayEquals(expected.c(), cc.asSlice(0, rows * 32L).toArray(ValueLayout.JAVA_LONG));
            assertEquals((byte) 0x77, a.get(ValueLayout.JAVA_BYTE, bytes - 1), "past the constraints: untouched");
            MemorySegment small = arena.allocate(rows * 32L - 32, 64);
            assertThrows(IllegalArgumentException.class,
                    () -> pce.evaluate(w, new long[w.size() * 4], a, small, cc));
        }
    }
}
