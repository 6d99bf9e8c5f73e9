package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.cuda.CudaDriver;
import dev.proofline.cuda.FakeCuda;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevicesCommandTest {

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(CudaDriver.LIBRARY_PROPERTY);
    }

    private static String cpuLine() {
        int cores = Runtime.getRuntime().availableProcessors();
        return "cpu: available, " + cores + (cores == 1 ? " core" : " cores");
    }

    @Test
    void anUnavailableCudaBackendSaysWhy() {
        Path missing = dir.resolve("libcuda.so.1");
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, missing.toString());
        CliRun r = CliRun.of("devices");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(cpuLine(), "cuda: unavailable: " + missing + " not found"), r.out().lines().toList());
    }

    @Test
    void withoutAUsableDriverTheCudaLineIsTheLoadersReason() {
        // on a machine without the NVIDIA driver: "cuda: unavailable: libcuda.so.1 not found: no NVIDIA driver on this machine"
        CudaDriver.Availability a = CudaDriver.load(CudaDriver.DEFAULT_LIBRARY);
        Assumptions.assumeTrue(a instanceof CudaDriver.Unavailable, "this machine has a usable CUDA driver");
        CliRun r = CliRun.of("devices");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(cpuLine(), "cuda: unavailable: " + ((CudaDriver.Unavailable) a).reason()), r.out().lines().toList());
    }

    @Test
    void theFakeDriversDevicesAreListed() {
        FakeCuda fake = FakeCuda.get();
        fake.reset();
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, fake.library().toString());
        CliRun r = CliRun.of("devices");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(cpuLine(),
                "cuda: available, driver 13.0 (" + fake.library() + "), 2 devices",
                "  cuda:0  Proofline Fake GPU A  8.0 GiB  compute 9.0  132 SMs",
                "  cuda:1  Proofline Fake GPU B  4.0 GiB  compute 8.6  84 SMs"), r.out().lines().toList());
    }

    @Test
    void helpListsTheDevicesCommand() {
        CliRun r = CliRun.of("--help");
        assertTrue(r.out().contains("devices"), r.out());
    }
}
