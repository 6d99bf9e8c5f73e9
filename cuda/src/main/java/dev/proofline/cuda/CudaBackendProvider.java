package dev.proofline.cuda;

import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.BackendUnavailableException;
import dev.proofline.engine.groth16.BackendProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code cuda} backend's provider ({@code META-INF/services}): the engine and everything above it
 * find the CUDA backend through it, never by its classes. System properties override the configured
 * settings ({@link CudaPropertyOverrides}).
 */
public final class CudaBackendProvider implements BackendProvider {

    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public String title() {
        return "CUDA";
    }

    @Override
    public boolean accelerator() {
        return true;
    }

    /** The driver and every device it lists (usable by the kernels or not), or why there is no driver. */
    @Override
    public Availability availability(BackendSettings settings) {
        String library = CudaPropertyOverrides.library(settings, System::getProperty);
        return switch (CudaDriver.load(library)) {
            case CudaDriver.Unavailable(String reason) -> new Unavailable(reason);
            case CudaDriver.Available(CudaDriver driver) -> {
                try {
                    List<Device> devices = driver.devices();
                    List<String> lines = new ArrayList<>(devices.size());
                    for (Device d : devices) {
                        lines.add(String.format(Locale.ROOT, "cuda:%d  %s  %.1f GiB  compute %s  %d SMs", d.ordinal(),
                                d.name(), d.totalMemory() / (double) (1L << 30), d.computeCapability(),
                                d.multiprocessors()));
                    }
                    yield new Available("driver " + driver.versionString() + " (" + driver.library() + "), "
                            + devices.size() + (devices.size() == 1 ? " device" : " devices"), lines);
                } catch (CudaException e) {
                    yield new Unavailable(e.getMessage());
                }
            }
        };
    }

    @Override
    public CudaBackend open(BackendSettings settings) throws BackendUnavailableException {
        List<String> why = new ArrayList<>();
        return CudaBackend.open(settings, why::add)
                .orElseThrow(() -> new BackendUnavailableException(String.join("; ", why)));
    }
}
