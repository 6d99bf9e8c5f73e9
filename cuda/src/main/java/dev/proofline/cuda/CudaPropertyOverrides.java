package dev.proofline.cuda;

import dev.proofline.engine.BackendSettings;
import java.util.function.Function;

/**
 * The CUDA backend's system properties, each overriding one of the configured {@link BackendSettings}
 * when set (so that one run can differ from the configuration file without editing it):
 * {@value CudaBackend#DEVICES_PROPERTY} the devices, {@value CudaBackend#G2_PROPERTY} B in G2 on the
 * device, {@value CudaBackend#ABC_PROPERTY} a, b, c on the device, {@value CudaDriver#LIBRARY_PROPERTY}
 * the driver library, {@value CudaBackend#LANES_PROPERTY} the lanes a device.
 */
final class CudaPropertyOverrides {

    private CudaPropertyOverrides() {
    }

    /**
     * {@code configured} with every property that {@code properties} sets (blank counts as unset).
     *
     * @throws IllegalArgumentException {@value CudaBackend#DEVICES_PROPERTY} is not a list of ordinals, or
     *     {@value CudaBackend#LANES_PROPERTY} not a number of lanes
     */
    static BackendSettings apply(BackendSettings configured, Function<String, String> properties) {
        String devices = properties.apply(CudaBackend.DEVICES_PROPERTY);
        String g2 = properties.apply(CudaBackend.G2_PROPERTY);
        String abc = properties.apply(CudaBackend.ABC_PROPERTY);
        String lanes = properties.apply(CudaBackend.LANES_PROPERTY);
        return new BackendSettings(
                isSet(devices) ? CudaBackend.parseDevices(devices) : configured.devices(),
                isSet(g2) ? Boolean.parseBoolean(g2.strip()) : configured.g2OnDevice(),
                isSet(abc) ? Boolean.parseBoolean(abc.strip()) : configured.abcOnDevice(),
                library(configured, properties),
                isSet(lanes) ? parseLanes(lanes) : configured.lanesPerDevice());
    }

    private static int parseLanes(String text) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1 && n <= BackendSettings.MAX_LANES) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(CudaBackend.LANES_PROPERTY + " = \"" + text + "\": expected a number of lanes,"
                + " 1 to " + BackendSettings.MAX_LANES);
    }

    /** The driver library to load: the property's, else the configured one, else {@value CudaDriver#DEFAULT_LIBRARY}. */
    static String library(BackendSettings configured, Function<String, String> properties) {
        String property = properties.apply(CudaDriver.LIBRARY_PROPERTY);
        if (isSet(property)) {
            return property.strip();
        }
        return configured.driverLibrary().isBlank() ? CudaDriver.DEFAULT_LIBRARY : configured.driverLibrary().strip();
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
