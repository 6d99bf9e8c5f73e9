package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link CudaNtt} on the fake driver, which has no NTT kernels (its modules resolve only its own test
 * kernel): what it can show is the host side up to the first launch (the twiddles uploaded, the
 * buffers allocated, the vector copied through pinned memory, the first kernel looked up by its
 * entry-point name), that a failure there is reported, and that closing frees everything. The launches
 * themselves are checked by {@link NttPlanTest} and run by {@link HostNttTest}.
 */
class FakeNttTest {

    private static FakeCuda fake;

    @BeforeAll
    static void loadFake() {
        fake = FakeCuda.get();
    }

    @Test
    void theFirstLaunchLooksUpTheFieldsBitReversalAndClosingFreesEverything() {
        fake.reset();
        PrimeField f = PairingCurve.BLS12_381.fr();
        Device device = fake.driver().devices().getFirst();
        try (Context context = device.retainPrimaryContext();
                Module module = context.loadModule("fake cubin, version 1".getBytes(StandardCharsets.US_ASCII))) {
            long streams = fake.liveStreams();
            long allocations = fake.liveDeviceAllocations();
            long pinned = fake.livePinnedAllocations();
            CudaNtt ntt = new CudaNtt(context, module);
            assertEquals(streams + 1, fake.liveStreams());
            long[] a = f.newVector(1 << 4);
            CudaException e = assertThrows(CudaException.class, () -> ntt.forward(f, 4, a));
            assertTrue(e.getMessage().startsWith("cuModuleGetFunction(pl_bls12381_fr_ntt_bit_reverse): CUDA_ERROR_NOT_FOUND"),
                    e.getMessage());
            // the twiddles and the vector on the device, the staging memory pinned
            assertEquals(allocations + 2, fake.liveDeviceAllocations());
            assertEquals(pinned + 1, fake.livePinnedAllocations());
            assertThrows(IllegalArgumentException.class, () -> ntt.forward(PairingCurve.BN254.fp(), 4, a));
            assertThrows(IllegalArgumentException.class, () -> ntt.forward(f, 5, a));
            ntt.close();
            ntt.close();
            assertEquals(allocations, fake.liveDeviceAllocations());
            assertEquals(pinned, fake.livePinnedAllocations());
            assertEquals(streams, fake.liveStreams());
            assertThrows(IllegalStateException.class, () -> ntt.forward(f, 4, a));
        }
    }
}
