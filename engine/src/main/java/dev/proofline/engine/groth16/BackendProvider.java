package dev.proofline.engine.groth16;

import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.BackendUnavailableException;
import java.util.List;

/**
 * A kind of prover backend ({@link DeviceBackend}), found through {@link java.util.ServiceLoader} ({@code META-INF/services/
 * dev.proofline.engine.groth16.BackendProvider}): the engine's module registers the CPU's, a backend's own
 * module (such as {@code proofline-cuda}) registers its own. Nothing above the engine names a backend's
 * classes; it asks {@link BackendProviders} by name.
 */
public interface BackendProvider {

    /** The name configurations use ({@code engine.backend = "cuda"}) and {@code proofline devices} prints. */
    String name();

    /** The name in log lines ("CUDA" in "CUDA backend unavailable (...)"). */
    default String title() {
        return name();
    }

    /** Whether {@code auto} tries it before the CPU: a backend with devices of its own. */
    boolean accelerator();

    /**
     * Whether this machine offers the backend, without opening it: what it would prove on, or why not.
     * Cheap enough for a listing ({@code proofline devices}); never throws for a missing driver.
     */
    Availability availability(BackendSettings settings);

    /**
     * Opens the backend on what {@code settings} names. {@link BackendProviders#open} runs it through
     * {@link DeviceBackendAdapter} with the engine's prover (randomness, listener); the caller closes it
     * after the engine that uses it.
     *
     * @throws BackendUnavailableException with the one-line reason when it cannot be used here
     */
    DeviceBackend<?> open(BackendSettings settings) throws BackendUnavailableException;

    /** What {@link #availability} finds. */
    sealed interface Availability permits Available, Unavailable {
    }

    /**
     * The backend can be used.
     *
     * @param summary one line: the driver, the number of devices ("driver 13.0 (libcuda.so.1), 2 devices")
     * @param devices one line a device, for a listing
     */
    record Available(String summary, List<String> devices) implements Availability {
        public Available {
            devices = List.copyOf(devices);
        }
    }

    /** The backend cannot be used here, and why, in one line. */
    record Unavailable(String reason) implements Availability {
    }
}
