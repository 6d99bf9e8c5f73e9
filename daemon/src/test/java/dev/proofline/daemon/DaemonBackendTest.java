package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.groth16.CpuDevice;
import dev.proofline.engine.groth16.DeviceBackendAdapter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's backend, from {@code [engine]}: found by name on the class path, the CUDA backend opened
 * with the configured devices, B in G2 and driver library, and {@code auto} proving on the CPU with one
 * line saying why when there is no GPU.
 */
class DaemonBackendTest {

    /** The CUDA driver's system property, which overrides {@code engine.driver_library}. */
    private static final String LIBRARY_PROPERTY = "proofline.cuda.library";

    @TempDir
    Path tmp;

    private String libraryBefore;

    @BeforeEach
    void noLibraryProperty() {
        libraryBefore = System.getProperty(LIBRARY_PROPERTY);
        System.clearProperty(LIBRARY_PROPERTY);
    }

    @AfterEach
    void restore() {
        if (libraryBefore != null) {
            System.setProperty(LIBRARY_PROPERTY, libraryBefore);
        }
    }

    private BackendSettings withoutDriver() {
        return DaemonConfig.parse("[engine]\ndriver_library = \"" + tmp.resolve("libcuda.so.1") + "\"\n", "d.toml")
                .engine().backendSettings();
    }

    @Test
    void autoProvesOnTheCpuAndSaysWhyInOneLine() {
        List<String> log = new ArrayList<>();
        assertInstanceOf(CpuDevice.class, assertInstanceOf(DeviceBackendAdapter.class,
                Daemon.backend("auto", withoutDriver(), log::add)).device());
        assertEquals(List.of("CUDA backend unavailable (" + tmp.resolve("libcuda.so.1") + " not found): proving on the CPU"),
                log);
    }

    @Test
    void cudaRefusesToStartWithoutAGpu() {
        DaemonConfig.ConfigException e = assertThrows(DaemonConfig.ConfigException.class,
                () -> Daemon.backend("cuda", withoutDriver(), s -> { }));
        assertEquals("engine.backend = \"cuda\": " + tmp.resolve("libcuda.so.1") + " not found", e.getMessage());
    }

    @Test
    void cpuNeverTries() {
        List<String> log = new ArrayList<>();
        assertInstanceOf(CpuDevice.class, assertInstanceOf(DeviceBackendAdapter.class,
                Daemon.backend("cpu", withoutDriver(), log::add)).device());
        assertEquals(List.of(), log);
    }

    @Test
    void theBackendSettingsComeFromTheEngineSection() {
        assertEquals(BackendSettings.defaults(), DaemonConfig.defaults().engine().backendSettings());
        DaemonConfig c = DaemonConfig.parse("[engine]\ndevices = [1, 0]\ng2_on_device = false\n"
                + "driver_library = \"/opt/nvidia/lib64/libcuda.so.1\"\nlanes_per_device = 3\n", "d.toml");
        assertEquals(new BackendSettings(List.of(1, 0), false, true, "/opt/nvidia/lib64/libcuda.so.1", 3),
                c.engine().backendSettings());
        assertEquals(new BackendSettings(List.of(), true, false, "", 1),
                DaemonConfig.parse("[engine]\nabc_on_device = false\n", "d.toml").engine().backendSettings());
        for (String lanes : new String[] {"0", "17"}) {
            DaemonConfig.ConfigException bad = assertThrows(DaemonConfig.ConfigException.class,
                    () -> DaemonConfig.parse("[engine]\nlanes_per_device = " + lanes + "\n", "d.toml"));
            assertTrue(bad.getMessage().contains("engine.lanes_per_device"), bad.getMessage());
        }
        DaemonConfig.ConfigException e = assertThrows(DaemonConfig.ConfigException.class,
                () -> DaemonConfig.parse("[engine]\ng2_on_device = \"yes\"\n", "d.toml"));
        assertEquals("d.toml:2: engine.g2_on_device: wrong type", e.getMessage().replaceFirst(": wrong type.*", ": wrong type"));
    }
}
