package dev.proofline.cuda;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The driver contract on the machine's own driver ({@code libcuda.so.1}, or the library named by
 * {@value CudaDriver#LIBRARY_PROPERTY}); every test skips, with the reason printed, where there is no
 * usable driver or device.
 */
class GpuDriverTest extends DriverContractTest {

    private static CudaDriver driver;
    private static String unavailable;

    @BeforeAll
    static void loadDriver() {
        switch (CudaDriver.load()) {
            case CudaDriver.Available(CudaDriver d) -> {
                driver = d;
                System.out.println("GPU tests on " + d + ": " + d.devices());
            }
            case CudaDriver.Unavailable(String reason) -> {
                unavailable = reason;
                System.out.println("SKIPPED (GPU tests): " + reason);
            }
        }
    }

    @Override
    CudaDriver driver() {
        if (driver == null) {
            Assumptions.abort("no usable CUDA driver: " + unavailable);
        }
        return driver;
    }

    @Test
    void aFatbinKernelRuns() {
        Assumptions.assumeTrue(device.computeMajor() >= 7 && device.computeMajor() * 10 + device.computeMinor() >= 75,
                "the fatbin needs compute capability 7.5 or newer");
        int n = 70_000;
        try (Arena arena = Arena.ofConfined();
                Module module = context.loadModule(resource("vec_add_u32.fatbin"));
                DeviceBuffer a = context.allocate(4L * n);
                DeviceBuffer b = context.allocate(4L * n);
                DeviceBuffer out = context.allocate(4L * n);
                Stream stream = context.createStream()) {
            runVecAdd(arena, module, a, b, out, stream, n, 128);
        }
    }
}
