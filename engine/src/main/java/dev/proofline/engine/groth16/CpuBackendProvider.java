package dev.proofline.engine.groth16;

import dev.proofline.engine.BackendSettings;
import java.util.List;

/** The {@code cpu} backend's provider: always available, on every core; it reads no settings. */
public final class CpuBackendProvider implements BackendProvider {

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public String title() {
        return "CPU";
    }

    @Override
    public boolean accelerator() {
        return false;
    }

    @Override
    public Availability availability(BackendSettings settings) {
        int cores = Runtime.getRuntime().availableProcessors();
        return new Available(cores + (cores == 1 ? " core" : " cores"), List.of());
    }

    @Override
    public CpuDevice open(BackendSettings settings) {
        return new CpuDevice();
    }
}
