package dev.proofline.engine.groth16;

import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.BackendUnavailableException;
import dev.proofline.engine.ProverBackend;
import dev.proofline.groth16.Prover;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Consumer;

/**
 * The backends on the class path, found through {@link ServiceLoader}, in name order; and the one a
 * configuration names opened: {@code auto} takes the first accelerator that opens, else the CPU, saying
 * in one line why each accelerator could not be used.
 */
public final class BackendProviders {

    /** What {@code engine.backend} says when it leaves the choice to the machine. */
    public static final String AUTO = "auto";

    private final List<BackendProvider> providers;

    /** These providers (tests; an application with a backend of its own). */
    public BackendProviders(List<BackendProvider> providers) {
        this.providers = providers.stream().sorted(Comparator.comparing(BackendProvider::name)).toList();
    }

    /** The providers {@code META-INF/services} registers on the class path (or module path). */
    public static BackendProviders installed() {
        return new BackendProviders(ServiceLoader.load(BackendProvider.class).stream()
                .map(ServiceLoader.Provider::get).toList());
    }

    /** Every provider, in name order. */
    public List<BackendProvider> all() {
        return providers;
    }

    /** The provider of this name, if one is installed. */
    public Optional<BackendProvider> named(String name) {
        return providers.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /**
     * Opens the backend {@code name} names (as the pipeline's backend, through {@link DeviceBackendAdapter}
     * with {@code prover}'s randomness and listener; it is {@link AutoCloseable}), or for {@link #AUTO}
     * the first accelerator that opens
     * (logging which), else the CPU, logging {@code "CUDA backend unavailable (<reason>): proving on the
     * CPU"} when an accelerator was installed but could not be used.
     *
     * @throws BackendUnavailableException the named backend is not installed or cannot be used here
     */
    public ProverBackend<?, ?, ProofResult> open(String name, BackendSettings settings, Prover prover, Consumer<String> log)
            throws BackendUnavailableException {
        if (!name.equals(AUTO)) {
            BackendProvider p = named(name).orElseThrow(() -> new BackendUnavailableException(
                    "no '" + name + "' backend on the class path (there are: " + names() + ")"));
            return opened(p, p.open(settings), prover, log);
        }
        List<String> unavailable = new ArrayList<>();
        for (BackendProvider p : providers) {
            if (p.accelerator()) {
                try {
                    return opened(p, p.open(settings), prover, log);
                } catch (BackendUnavailableException e) {
                    unavailable.add(p.title() + " backend unavailable (" + e.getMessage() + ")");
                }
            }
        }
        if (!unavailable.isEmpty()) {
            log.accept(String.join("; ", unavailable) + ": proving on the CPU");
        }
        return open("cpu", settings, prover, log);
    }

    /** The opened backend as the pipeline's, through the one adapter, with {@code prover}'s settings. */
    private static ProverBackend<?, ?, ProofResult> opened(BackendProvider p, DeviceBackend<?> backend, Prover prover,
            Consumer<String> log) {
        if (p.accelerator()) {
            log.accept(backend.summary());
        }
        return DeviceBackendAdapter.of(backend, prover);
    }

    private String names() {
        return String.join(", ", providers.stream().map(BackendProvider::name).toList());
    }
}
