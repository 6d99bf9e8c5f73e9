package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.WtnsFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * a, b, c from the key's coefficients: the same words in heap vectors as in native ones; a key with more
 * coefficients than the key's check and the evaluation read at a time proves what snarkjs verifies.
 */
class CoefficientsTest {

    @TempDir
    Path tmp;

    /** Steps of the chain circuit (two coefficients each). */
    private static final int STEPS = 6000;

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aKeyOfManyCoefficientsProvesWhatSnarkjsVerifies(PairingCurve curve) throws Exception {
        JavaCircuitInteropTest.Chain chain = new JavaCircuitInteropTest.Chain(STEPS);
        Witness w = WitnessSystem.witness(curve, chain);
        Path zkey = tmp.resolve("chain.zkey");
        DevSetup.run(RecordingSystem.record(curve, chain), zkey, new Random(11));
        try (ProvingKey key = ZkeyFile.open(zkey)) {
            assertTrue(key.coefficientCount() > 2 * STEPS, key.coefficientCount() + " coefficients");
            assertTrue(key.coefficientCount() > 2 * ProvingKey.COEFFICIENT_CHUNK, "more than two chunks");
            Proof proof = Prover.create().prove(key, w);
            Path vk = CircomFixtures.exportVk(zkey, tmp.resolve("vk.json"));
            Path proofJson = tmp.resolve("proof.json");
            Path pub = tmp.resolve("public.json");
            SnarkjsJson.write(proofJson, SnarkjsJson.proofJson(proof));
            SnarkjsJson.write(pub, SnarkjsJson.publicJson(w.publicSignals(key.publicCount())));
            assertTrue(CircomFixtures.snarkjsVerifies(vk, pub, proofJson), "snarkjs verifies the proof on " + curve);
        }
        // a bad record far past the check's first chunk is named by its index
        byte[] b = Files.readAllBytes(zkey);
        long c4 = FileRejectionTest.sectionOffset(zkey, "zkey", 4);
        int bad = 2 * STEPS - 7;
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt((int) (c4 + 4 + (long) bad * ProvingKey.COEFFICIENT_BYTES), 2);
        Path broken = tmp.resolve("broken.zkey");
        Files.write(broken, b);
        FormatException e = assertThrows(FormatException.class, () -> ZkeyFile.open(broken).close());
        assertTrue(e.getMessage().contains("coefficient #" + bad + ": matrix is 2"), e.getMessage());
    }

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
