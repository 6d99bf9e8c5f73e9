package dev.proofline.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link CudaCoefficients} on the fake driver, whose kernels run {@code abc.cuh} on the host: a key's
 * coefficients grouped by row and uploaded, then a, b, c of a witness computed on the device, equal word
 * for word to the CPU prover's ({@link Prover#prepare} without an accelerator), on both curves, for a
 * key whose coefficients are in constraint order (as snarkjs writes them) and for the same key with its
 * coefficient records shuffled (the grouping must not rely on the order).
 */
class FakeCoefficientsTest {

    private static final byte[] IMAGE = "fake kernels".getBytes(StandardCharsets.US_ASCII);

    private static FakeCuda fake;

    @TempDir
    Path tmp;

    @BeforeAll
    static void loadFake() {
        fake = FakeCuda.get();
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aBAndCFromTheDeviceEqualTheCpusInAnyCoefficientOrder(PairingCurve curve) throws Exception {
        fake.reset();
        fake.loadTestKernels();
        MerklePost circuit = MerklePost.instance(curve, 2, 4, 7);
        R1cs r1cs = RecordingSystem.record(curve, circuit);
        Path zkey = tmp.resolve("mp.zkey");
        DevSetup.run(r1cs, zkey, new Random(11));
        Witness w = WitnessSystem.witness(curve, circuit);
        byte[] bytes = Files.readAllBytes(zkey);
        try (ProvingKey ordered = ZkeyFile.open(zkey);
                ProvingKey shuffled = ZkeyFile.read(shuffleCoefficients(bytes, new Random(3)), "shuffled.zkey",
                        ZkeyFile.PointCheck.NONE)) {
            assertTrue(ordered.coefficientsInConstraintOrder());
            assertFalse(shuffled.coefficientsInConstraintOrder(), "the shuffle changed the order");
            long[][] expected = cpuAbc(ordered, w);
            assertAbc(expected, deviceAbc(ordered, w), curve + ", coefficients in constraint order");
            assertAbc(expected, deviceAbc(shuffled, w), curve + ", coefficients shuffled");
        }
        assertEquals(0, fake.liveDeviceAllocations(), "every device buffer freed");
    }

    private static void assertAbc(long[][] expected, long[][] actual, String what) {
        String[] names = {"a", "b", "c"};
        for (int v = 0; v < 3; v++) {
            assertArrayEquals(expected[v], actual[v], what + ": " + names[v]);
        }
    }

    /** a, b, c by the CPU prover into native memory, as the engine's pinned path computes them. */
    private static long[][] cpuAbc(ProvingKey key, Witness w) {
        try (Arena arena = Arena.ofShared()) {
            long vb = Prover.NativeWorkspace.vectorBytes(key);
            Prover.NativeWorkspace ws = new Prover.NativeWorkspace(arena.allocate(vb, 8), arena.allocate(vb, 8),
                    arena.allocate(vb, 8), arena.allocate(Prover.NativeWorkspace.witnessBytes(key), 8));
            Prover.Prepared p = Prover.create().prepare(key, w, ws, -1, false);
            assertFalse(p.abcLeftToDevice());
            return new long[][] {ws.a().toArray(JAVA_LONG), ws.b().toArray(JAVA_LONG), ws.c().toArray(JAVA_LONG)};
        }
    }

    /** a, b, c by the kernel from the key's grouped coefficients and the witness copied to the device. */
    private static long[][] deviceAbc(ProvingKey key, Witness w) {
        Device device = fake.driver().devices().getFirst();
        long vb = Prover.NativeWorkspace.vectorBytes(key);
        try (Context context = device.retainPrimaryContext();
                Module module = context.loadModule(IMAGE);
                CudaCoefficients coefficients = new CudaCoefficients(context, module);
                CudaCoefficients.Rows rows = CudaCoefficients.upload(key, context::allocate);
                Stream copies = context.createStream();
                Event witnessReady = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
                Event done = context.createEvent(CudaDriver.EVENT_DISABLE_TIMING);
                DeviceBuffer dw = context.allocate(Prover.NativeWorkspace.witnessBytes(key));
                DeviceBuffer a = context.allocate(vb);
                DeviceBuffer b = context.allocate(vb);
                DeviceBuffer c = context.allocate(vb);
                Arena arena = Arena.ofConfined()) {
            assertEquals(CudaCoefficients.deviceBytes(key), rows.bytes());
            // stale contents in the vectors: the kernel writes every element of the domain
            MemorySegment junk = arena.allocate(vb, 8);
            junk.fill((byte) 0x5a);
            for (DeviceBuffer v : new DeviceBuffer[] {a, b, c}) {
                v.copyFromHost(junk, 0);
            }
            long[] words = w.words();
            MemorySegment host = arena.allocate(8L * words.length, 8);
            MemorySegment.copy(words, 0, host, JAVA_LONG, 0, words.length);
            dw.copyFromHostAsync(host, 0, copies);
            witnessReady.record(copies);
            coefficients.launchAsync(key, rows, dw, witnessReady, a, b, c, done);
            coefficients.synchronize();
            long[][] out = new long[3][];
            DeviceBuffer[] vs = {a, b, c};
            for (int v = 0; v < 3; v++) {
                MemorySegment back = arena.allocate(vb, 8);
                vs[v].copyToHost(back, 0);
                out[v] = back.toArray(JAVA_LONG);
            }
            return out;
        }
    }

    /** The zkey with the records of its coefficient section (section 4) in a random order. */
    static byte[] shuffleCoefficients(byte[] zkey, Random rnd) {
        ByteBuffer bb = ByteBuffer.wrap(zkey).order(ByteOrder.LITTLE_ENDIAN);
        int sections = bb.getInt(8);
        int at = 12;
        for (int s = 0; s < sections; s++) {
            int type = bb.getInt(at);
            long size = bb.getLong(at + 4);
            int data = at + 12;
            if (type == 4) {
                int count = bb.getInt(data);
                int rec = ProvingKey.COEFFICIENT_BYTES;
                byte[] copy = zkey.clone();
                for (int i = count - 1; i > 0; i--) {
                    int j = rnd.nextInt(i + 1);
                    byte[] t = new byte[rec];
                    System.arraycopy(copy, data + 4 + i * rec, t, 0, rec);
                    System.arraycopy(copy, data + 4 + j * rec, copy, data + 4 + i * rec, rec);
                    System.arraycopy(t, 0, copy, data + 4 + j * rec, rec);
                }
                return copy;
            }
            at = Math.toIntExact(data + size);
        }
        throw new AssertionError("no coefficient section");
    }
}
