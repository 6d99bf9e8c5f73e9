package dev.proofline.cuda;

import dev.proofline.engine.groth16.DeviceBackend;
import dev.proofline.engine.groth16.DeviceBackendContract;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The backend contract on the CUDA backend over the fake driver (both devices at compute 9.0, the test
 * kernels' bodies run on the host): the pinned path, with a, b, c from the PCE and, for keys proved from
 * their coefficients, on the device.
 */
class FakeCudaContractTest extends DeviceBackendContract {

    private static final byte[] IMAGE = "fake kernels".getBytes(StandardCharsets.US_ASCII);

    private FakeCuda fake;
    private String libraryBefore;

    @BeforeEach
    void fakeDriver() {
        fake = FakeCuda.get();
        fake.reset();
        fake.loadTestKernels();
        fake.setComputeCapability(1, 9, 0);
        libraryBefore = System.getProperty(CudaDriver.LIBRARY_PROPERTY);
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, fake.library().toString());
    }

    @AfterEach
    void restore() {
        fake.reset();
        if (libraryBefore == null) {
            System.clearProperty(CudaDriver.LIBRARY_PROPERTY);
        } else {
            System.setProperty(CudaDriver.LIBRARY_PROPERTY, libraryBefore);
        }
    }

    @Override
    protected DeviceBackend<?> open() {
        List<String> why = new ArrayList<>();
        return CudaBackend.open(List.of(), IMAGE, why::add).orElseThrow(() -> new AssertionError("unavailable: " + why));
    }
}
