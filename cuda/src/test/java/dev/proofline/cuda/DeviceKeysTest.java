package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keys resident on a device, shared by its lanes, on the fake driver: a key is uploaded once
 * however many lanes acquire it, a key a lane holds is never freed to make room (the others are, least
 * recently used first), a held key cannot be forgotten, and a lane lets go of its key on every path.
 */
class DeviceKeysTest {

    private static final long GIB = 1L << 30;

    @TempDir
    Path tmp;

    private final FakeCuda fake = FakeCuda.get();

    @AfterEach
    void reset() {
        fake.reset();
    }

    @Test
    void heldKeysStayWhenRoomIsMadeAndTheOthersGoLeastRecentlyUsedFirst() throws Exception {
        fake.reset();
        fake.loadTestKernels();
        PairingCurve curve = PairingCurve.BN254;
        ProvingKey[] keys = new ProvingKey[3];
        for (int i = 0; i < keys.length; i++) {
            Path zkey = tmp.resolve("k" + i + ".zkey");
            DevSetup.run(RecordingSystem.record(curve, MerklePost.instance(curve, 2, 2, 10 + i)), zkey, new Random(i));
            keys[i] = ZkeyFile.open(zkey);
        }
        try (Context context = fake.driver().devices().getFirst().retainPrimaryContext();
                Module module = context.loadModule("fake kernels".getBytes(StandardCharsets.US_ASCII));
                CudaMsm msm = new CudaMsm(context, module, MsmGroup.g1(curve));
                DeviceKeys device = new DeviceKeys()) {
            int[] uploads = {0};
            java.util.function.Function<ProvingKey, DeviceKeys.Resident> upload = k -> {
                uploads[0]++;
                long[] one = curve.g1().generator().clone();
                long[] affine = java.util.Arrays.copyOf(one, curve.g1().affineWidth());
                return new DeviceKeys.Resident(msm.upload(affine), msm.upload(affine), msm.upload(affine),
                        msm.upload(affine), null, 4L * 8 * affine.length);
            };
            DeviceKeys.Resident first = device.acquire(keys[0], upload);
            assertSame(first, device.acquire(keys[0], upload), "a second lane gets the same copy");
            assertEquals(1, uploads[0]);
            device.release(first);
            device.release(first);
            assertThrows(IllegalStateException.class, () -> device.release(first), "released more than acquired");
            DeviceKeys.Resident second = device.acquire(keys[1], upload);
            DeviceKeys.Resident third = device.acquire(keys[2], upload);
            device.release(third);
            assertEquals(3, device.residentKeys());
            assertEquals(List.of("k0.zkey", "k1.zkey", "k2.zkey"), names(device));

            // more than the device has: every key no lane holds is freed (k0, then k2), k1 stays, and the
            // allocation's error comes through
            CudaException e = assertThrows(CudaException.class,
                    () -> device.withRoom(keys[2], () -> context.allocate(64 * GIB)));
            assertEquals("CUDA_ERROR_OUT_OF_MEMORY", e.errorName());
            assertEquals(List.of("k1.zkey", "k2.zkey"), names(device), "k2 is the one the allocation is for");
            assertEquals(1, device.evictions());

            assertThrows(IllegalStateException.class, () -> device.forget(keys[1]), "a lane holds it");
            device.release(second);
            device.forget(keys[1]);
            assertEquals(List.of("k2.zkey"), names(device));
            assertTrue(device.residentBytes() > 0);
        } finally {
            for (ProvingKey k : keys) {
                k.close();
            }
        }
    }

    /**
     * A lane lets go of its key when its sums end, whether they succeed or fail: the key can then be
     * forgotten (a held key cannot).
     */
    @Test
    void aLaneLetsGoOfItsKeyWhenItsSumsSucceedOrFail() throws Exception {
        fake.reset();
        fake.loadTestKernels();
        PairingCurve curve = PairingCurve.BN254;
        MerklePost circuit = MerklePost.instance(curve, 2, 2, 31);
        Path zkey = tmp.resolve("held.zkey");
        DevSetup.run(RecordingSystem.record(curve, circuit), zkey, new Random(31));
        try (ProvingKey key = ZkeyFile.open(zkey);
                Context context = fake.driver().devices().getFirst().retainPrimaryContext();
                GpuAccelerator lane = new GpuAccelerator(context, "fake kernels".getBytes(StandardCharsets.US_ASCII),
                        true, false);
                Arena arena = Arena.ofShared()) {
            long vb = Prover.NativeWorkspace.vectorBytes(key);
            Prover.NativeWorkspace ws = new Prover.NativeWorkspace(arena.allocate(vb, 8), arena.allocate(vb, 8),
                    arena.allocate(vb, 8), arena.allocate(Prover.NativeWorkspace.witnessBytes(key), 8));
            Prover.create().prepare(key, WitnessSystem.witness(curve, circuit), ws, -1, false);
            assertTrue(lane.sums(key, ws).hasB2(), "four G1 sums and B in G2");
            assertEquals(1, lane.residentKeys());
            lane.forget(key);
            assertEquals(0, lane.residentKeys(), "let go after sums that succeeded");

            Prover.NativeWorkspace shortWitness = new Prover.NativeWorkspace(ws.a(), ws.b(), ws.c(), arena.allocate(8, 8));
            assertThrows(IndexOutOfBoundsException.class, () -> lane.sums(key, shortWitness), "a witness buffer too short");
            assertEquals(1, lane.residentKeys(), "uploaded before the failure");
            lane.forget(key);
            assertEquals(0, lane.residentKeys(), "let go after sums that failed");
        }
    }

    private static List<String> names(DeviceKeys device) {
        return device.footprints().stream().map(f -> f.substring(0, f.indexOf(' '))).toList();
    }
}
