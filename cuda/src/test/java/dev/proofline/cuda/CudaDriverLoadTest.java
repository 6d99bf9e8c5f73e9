package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How loading reports a driver that is missing, broken, without devices, or named by the property. */
class CudaDriverLoadTest {

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(CudaDriver.LIBRARY_PROPERTY);
    }

    private static String reason(CudaDriver.Availability a) {
        return assertInstanceOf(CudaDriver.Unavailable.class, a, "expected no driver").reason();
    }

    /** Whether a libcuda.so.1 is in the usual places or on LD_LIBRARY_PATH. */
    private static boolean libcudaInstalled() {
        List<String> dirs = new ArrayList<>(List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu",
                "/usr/lib/aarch64-linux-gnu", "/usr/lib/wsl/lib"));
        String ld = System.getenv("LD_LIBRARY_PATH");
        if (ld != null) {
            dirs.addAll(List.of(ld.split(":")));
        }
        return dirs.stream().filter(d -> !d.isEmpty()).anyMatch(d -> Files.exists(Path.of(d, CudaDriver.DEFAULT_LIBRARY)));
    }

    @Test
    void withoutTheNvidiaDriverTheReasonSaysSo() {
        Assumptions.assumeFalse(libcudaInstalled(), "this machine has libcuda.so.1");
        assertEquals("libcuda.so.1 not found: no NVIDIA driver on this machine", reason(CudaDriver.load(CudaDriver.DEFAULT_LIBRARY)));
        assertEquals("libcuda.so.1 not found: no NVIDIA driver on this machine", reason(CudaDriver.load()));
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("libcuda-missing.so");
        assertEquals(missing + " not found", reason(CudaDriver.load(missing.toString())));
    }

    @Test
    void aFileThatIsNotALibraryCannotBeLoaded() throws IOException {
        Path text = Files.writeString(dir.resolve("libcuda.so.1"), "not a shared object\n");
        String reason = reason(CudaDriver.load(text.toString()));
        assertEquals(text + " could not be loaded: not an ELF shared object", reason);
    }

    @Test
    void aLibraryWithoutTheDriverCallsIsNotADriver() {
        Path libjava = Path.of(System.getProperty("java.home"), "lib", "libjava.so");
        Assumptions.assumeTrue(Files.exists(libjava), "no " + libjava);
        assertEquals(libjava + " is not a usable CUDA driver: it has no cuGetErrorName", reason(CudaDriver.load(libjava.toString())));
    }

    @Test
    void aFailingCuInitIsTheReason() {
        FakeCuda fake = FakeCuda.get();
        try {
            fake.setInitResult(100);
            assertEquals("cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)",
                    reason(CudaDriver.load(fake.library().toString())));
            fake.setInitResult(999);
            assertEquals("cuInit: CUDA_ERROR_UNKNOWN (unknown error)", reason(CudaDriver.load(fake.library().toString())));
        } finally {
            fake.reset();
        }
    }

    @Test
    void aDriverWithoutDevicesIsUnavailable() {
        FakeCuda fake = FakeCuda.get();
        try {
            fake.setDeviceCount(0);
            assertEquals("no CUDA device (driver 13.0)", reason(CudaDriver.load(fake.library().toString())));
        } finally {
            fake.reset();
        }
    }

    @Test
    void thePropertyNamesTheLibrary() {
        FakeCuda fake = FakeCuda.get();
        fake.reset();
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, fake.library().toString());
        CudaDriver driver = assertInstanceOf(CudaDriver.Available.class, CudaDriver.load()).driver();
        assertEquals(fake.library().toString(), driver.library());
        assertEquals(2, driver.deviceCount());

        Path missing = dir.resolve("elsewhere/libcuda.so.1");
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, " " + missing + " ");
        assertEquals(missing + " not found", reason(CudaDriver.load()));
    }
}
