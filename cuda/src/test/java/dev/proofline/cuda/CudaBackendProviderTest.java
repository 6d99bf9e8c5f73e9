package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.BackendUnavailableException;
import dev.proofline.engine.groth16.BackendProvider;
import dev.proofline.engine.groth16.BackendProviders;
import dev.proofline.groth16.Prover;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CUDA backend as the engine finds it: registered for {@link java.util.ServiceLoader}, configured
 * by {@link BackendSettings} (on the fake driver), and its system properties overriding the settings.
 */
class CudaBackendProviderTest {

    private static final byte[] IMAGE = "fake kernels".getBytes(StandardCharsets.US_ASCII);
    private static final List<String> PROPERTIES = List.of(CudaDriver.LIBRARY_PROPERTY, CudaBackend.DEVICES_PROPERTY,
            CudaBackend.G2_PROPERTY, CudaBackend.ABC_PROPERTY, CudaBackend.LANES_PROPERTY);

    @TempDir
    Path tmp;

    private FakeCuda fake;
    private final Map<String, String> before = new java.util.HashMap<>();

    @BeforeEach
    void noProperties() {
        fake = FakeCuda.get();
        fake.reset();
        for (String p : PROPERTIES) {
            before.put(p, System.getProperty(p));
            System.clearProperty(p);
        }
    }

    @AfterEach
    void restore() {
        fake.reset();
        for (String p : PROPERTIES) {
            if (before.get(p) == null) {
                System.clearProperty(p);
            } else {
                System.setProperty(p, before.get(p));
            }
        }
    }

    @Test
    void theCudaModuleRegistersItsProvider() {
        BackendProviders installed = BackendProviders.installed();
        assertEquals(List.of("cpu", "cuda"), installed.all().stream().map(BackendProvider::name).toList());
        BackendProvider cuda = installed.named("cuda").orElseThrow();
        assertInstanceOf(CudaBackendProvider.class, cuda);
        assertTrue(cuda.accelerator(), "auto tries it before the CPU");
        assertFalse(installed.named("cpu").orElseThrow().accelerator());
    }

    @Test
    void theConfiguredDriversDevicesAreListed() {
        BackendSettings settings = BackendSettings.builder().driverLibrary(fake.library().toString()).build();
        assertEquals(new BackendProvider.Available("driver 13.0 (" + fake.library() + "), 2 devices", List.of(
                "cuda:0  Proofline Fake GPU A  8.0 GiB  compute 9.0  132 SMs",
                "cuda:1  Proofline Fake GPU B  4.0 GiB  compute 8.6  84 SMs")),
                new CudaBackendProvider().availability(settings));
    }

    @Test
    void theLibraryPropertyOverridesTheConfiguredLibrary() {
        Path missing = tmp.resolve("libcuda.so.1");
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, missing.toString());
        BackendSettings settings = BackendSettings.builder().driverLibrary(fake.library().toString()).build();
        assertEquals(new BackendProvider.Unavailable(missing + " not found"),
                new CudaBackendProvider().availability(settings));
        BackendUnavailableException e = assertThrows(BackendUnavailableException.class,
                () -> new CudaBackendProvider().open(settings));
        assertEquals(missing + " not found", e.getMessage());
    }

    @Test
    void aMissingDriverMakesTheBackendUnavailableWithTheLoadersReason() {
        Path missing = tmp.resolve("nowhere/libcuda.so.1");
        BackendSettings settings = BackendSettings.builder().driverLibrary(missing.toString()).build();
        BackendUnavailableException e = assertThrows(BackendUnavailableException.class,
                () -> new CudaBackendProvider().open(settings));
        assertEquals(missing + " not found", e.getMessage());
    }

    @Test
    void theConfiguredSettingsChooseTheDevicesBInG2AndLanes() {
        BackendSettings settings = BackendSettings.builder().devices(0).g2OnDevice(false)
                .driverLibrary(fake.library().toString()).build();
        List<String> why = new ArrayList<>();
        try (CudaBackend gpu = CudaBackend.open(settings, IMAGE, why::add)
                .orElseThrow(() -> new AssertionError("unavailable: " + why))) {
            assertEquals(1, gpu.deviceCount());
            assertFalse(gpu.accelerators().getFirst().g2(), "B in G2 on the CPU, as configured");
            assertEquals("CUDA backend on 1 GPU(s): Proofline Fake GPU A", gpu.summary());
        }
        try (CudaBackend gpu = CudaBackend.open(BackendSettings.builder()
                .driverLibrary(fake.library().toString()).build(), IMAGE, why::add).orElseThrow()) {
            assertTrue(gpu.accelerators().getFirst().g2(), "B in G2 on the device by default");
        }
        try (CudaBackend gpu = CudaBackend.open(BackendSettings.builder().devices(0).lanesPerDevice(3)
                .driverLibrary(fake.library().toString()).build(), IMAGE, why::add).orElseThrow()) {
            assertEquals(3, gpu.deviceCount(), "each lane a device of the engine's");
            assertEquals(3, gpu.lanesPerDevice());
            assertEquals(1, gpu.gpus().size(), "one GPU");
            assertEquals(3, gpu.accelerators().stream().distinct().count(), "an accelerator a lane");
            assertEquals("CUDA backend on 1 GPU(s): Proofline Fake GPU A, 3 lanes each", gpu.summary());
            assertTrue(gpu.devices().get(2).startsWith("cuda:0 lane 2 Proofline Fake GPU A,"), gpu.devices().get(2));
        }
        assertTrue(CudaBackend.open(BackendSettings.builder().devices(1)
                .driverLibrary(fake.library().toString()).build(), IMAGE, why::add).isEmpty());
        assertTrue(why.getLast().startsWith("cuda:1 Proofline Fake GPU B has compute capability 8.6"), why.getLast());
    }

    @Test
    void eachPropertyOverridesItsSettingWhenSet() {
        BackendSettings configured = new BackendSettings(List.of(2), true, true, "/opt/nvidia/libcuda.so.1", 1);
        assertEquals(configured, CudaPropertyOverrides.apply(configured, Map.<String, String>of()::get));
        assertEquals(new BackendSettings(List.of(), true, true, CudaDriver.DEFAULT_LIBRARY, 1),
                CudaPropertyOverrides.apply(BackendSettings.defaults(), Map.<String, String>of()::get),
                "no library configured: the default one");
        Map<String, String> set = Map.of(CudaBackend.DEVICES_PROPERTY, "1, 0", CudaBackend.G2_PROPERTY, "false",
                CudaBackend.ABC_PROPERTY, "false", CudaDriver.LIBRARY_PROPERTY, " /tmp/libfake.so ",
                CudaBackend.LANES_PROPERTY, " 2 ");
        assertEquals(new BackendSettings(List.of(1, 0), false, false, "/tmp/libfake.so", 2),
                CudaPropertyOverrides.apply(configured, set::get));
        Map<String, String> blank = Map.of(CudaBackend.DEVICES_PROPERTY, " ", CudaBackend.G2_PROPERTY, "",
                CudaBackend.ABC_PROPERTY, " ", CudaDriver.LIBRARY_PROPERTY, "", CudaBackend.LANES_PROPERTY, "");
        assertEquals(configured, CudaPropertyOverrides.apply(configured, blank::get), "blank counts as unset");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CudaPropertyOverrides.apply(
                configured, Map.of(CudaBackend.DEVICES_PROPERTY, "0,x")::get));
        assertTrue(e.getMessage().startsWith(CudaBackend.DEVICES_PROPERTY + " = \"0,x\""), e.getMessage());
        for (String lanes : new String[] {"0", "17", "two"}) {
            IllegalArgumentException l = assertThrows(IllegalArgumentException.class, () -> CudaPropertyOverrides.apply(
                    configured, Map.of(CudaBackend.LANES_PROPERTY, lanes)::get));
            assertTrue(l.getMessage().startsWith(CudaBackend.LANES_PROPERTY + " = \"" + lanes + "\""), l.getMessage());
        }
    }
}
