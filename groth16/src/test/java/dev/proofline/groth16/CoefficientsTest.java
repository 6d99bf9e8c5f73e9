package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** a, b, c from the key's coefficients: the same words in heap vectors as in native ones. */
class CoefficientsTest {

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void heapAndNativeVectorsHoldTheSameWords(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        Witness w = WtnsFile.read(fx.wtns());
        try (ProvingKey key = ZkeyFile.open(fx.zkey()); Arena arena = Arena.ofConfined()) {
            int words = (int) Prover.Workspace.words(key);
            long bytes = Prover.NativeWorkspace.vectorBytes(key);
            // both holding an earlier proof's words, which must not show through
            long[][] heap = new long[3][words + 16];
            MemorySegment[] off = new MemorySegment[3];
            for (int v = 0; v < 3; v++) {
                Arrays.fill(heap[v], 0x5c5c5c5c5c5c5c5cL);
                off[v] = arena.allocate(bytes + 128, 64).fill((byte) 0x5c);
            }
            Coefficients.abc(key, w, heap[0], heap[1], heap[2]);
            Coefficients.abc(key, w, off[0], off[1], off[2]);
            for (int v = 0; v < 3; v++) {
                assertArrayEquals(Arrays.copyOf(heap[v], words), off[v].asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG),
                        "abc".charAt(v) + " on " + curve);
            }
        }
    }
}
