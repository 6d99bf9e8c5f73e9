package dev.proofline.engine.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.BackendUnavailableException;
import dev.proofline.engine.ProverBackend;
import dev.proofline.groth16.ProofSums;
import dev.proofline.groth16.Prover;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Backends found by name, and what {@code auto} takes: the first accelerator that opens, else the CPU. */
class BackendProvidersTest {

    /** An accelerator that opens {@code backend}, or is unavailable for {@code reason} when that is null. */
    private record Accelerator(String name, DeviceBackend<?> backend, String reason) implements BackendProvider {
        @Override
        public String title() {
            return name.toUpperCase(java.util.Locale.ROOT);
        }

        @Override
        public boolean accelerator() {
            return true;
        }

        @Override
        public Availability availability(BackendSettings settings) {
            return backend != null ? new Available("1 device", List.of(name + ":0")) : new Unavailable(reason);
        }

        @Override
        public DeviceBackend<?> open(BackendSettings settings) throws BackendUnavailableException {
            if (backend == null) {
                throw new BackendUnavailableException(reason);
            }
            return backend;
        }
    }

    /** A backend that is only a name: opening it is all these tests do. */
    private static final DeviceBackend<?> SIM = new DeviceBackend<CircuitJob.Payload>() {
        @Override
        public String name() {
            return "sim";
        }

        @Override
        public CircuitJob.Payload stage(DeviceContext context, CircuitJob.Payload partition) {
            return partition;
        }

        @Override
        public ProofSums sums(DeviceContext context, CircuitJob.Payload staged) {
            throw new UnsupportedOperationException("only opened here");
        }
    };

    /** The device backend under the pipeline's backend that {@link BackendProviders#open} gave. */
    private static DeviceBackend<?> device(ProverBackend<?, ?, ?> opened) {
        return assertInstanceOf(DeviceBackendAdapter.class, opened).device();
    }

    @Test
    void theEnginesModuleRegistersTheCpuBackend() throws Exception {
        BackendProviders installed = BackendProviders.installed();
        BackendProvider cpu = installed.named("cpu").orElseThrow();
        assertInstanceOf(CpuBackendProvider.class, cpu);
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(new BackendProvider.Available(cores + (cores == 1 ? " core" : " cores"), List.of()),
                cpu.availability(BackendSettings.defaults()));
        List<String> log = new ArrayList<>();
        assertInstanceOf(CpuDevice.class, device(installed.open("cpu", BackendSettings.defaults(), Prover.create(),
                log::add)));
        assertEquals(List.of(), log, "nothing to say about the CPU");
    }

    @Test
    void autoFallsBackToTheCpuWithOneLineSayingWhy() throws Exception {
        BackendProviders providers = new BackendProviders(List.of(new CpuBackendProvider(),
                new Accelerator("cuda", null, "libcuda.so.1 not found: no NVIDIA driver on this machine")));
        List<String> log = new ArrayList<>();
        ProverBackend<?, ?, ?> b = providers.open("auto", BackendSettings.defaults(), Prover.create(), log::add);
        assertInstanceOf(CpuDevice.class, device(b));
        assertEquals(List.of("CUDA backend unavailable (libcuda.so.1 not found: no NVIDIA driver on this machine):"
                + " proving on the CPU"), log);
    }

    @Test
    void autoTakesTheFirstAcceleratorThatOpensAndSaysSo() throws Exception {
        BackendProviders providers = new BackendProviders(List.of(new Accelerator("zz", SIM, null),
                new CpuBackendProvider(), new Accelerator("aa", null, "no device")));
        List<String> log = new ArrayList<>();
        assertSame(SIM, device(providers.open("auto", BackendSettings.defaults(), Prover.create(), log::add)));
        assertEquals(List.of("sim backend"), log, "the opened backend's summary; aa, tried first, was unavailable");
        assertEquals(List.of("aa", "cpu", "zz"), providers.all().stream().map(BackendProvider::name).toList());
    }

    @Test
    void aNamedBackendThatCannotOpenOrIsNotInstalledSaysWhy() {
        BackendProviders providers = new BackendProviders(List.of(new CpuBackendProvider(),
                new Accelerator("cuda", null, "cuda:3 does not exist: the driver lists 2 devices")));
        BackendUnavailableException e = assertThrows(BackendUnavailableException.class,
                () -> providers.open("cuda", BackendSettings.defaults(), Prover.create(), s -> { }));
        assertEquals("cuda:3 does not exist: the driver lists 2 devices", e.getMessage());
        e = assertThrows(BackendUnavailableException.class,
                () -> new BackendProviders(List.of(new CpuBackendProvider())).open("cuda", BackendSettings.defaults(),
                        Prover.create(), s -> { }));
        assertEquals("no 'cuda' backend on the class path (there are: cpu)", e.getMessage());
    }

    @Test
    void autoWithoutAcceleratorsTakesTheCpuQuietly() throws Exception {
        List<String> log = new ArrayList<>();
        assertInstanceOf(CpuDevice.class, device(new BackendProviders(List.of(new CpuBackendProvider()))
                .open("auto", BackendSettings.defaults(), Prover.create(), log::add)));
        assertEquals(List.of(), log);
    }

    @Test
    void settingsFromTheBuilderAndTheirChecks() {
        assertEquals(new BackendSettings(List.of(0, 2), false, false, "/opt/libcuda.so.1", 4), BackendSettings.builder()
                .devices(0, 2).g2OnDevice(false).abcOnDevice(false).driverLibrary("/opt/libcuda.so.1")
                .lanesPerDevice(4).build());
        assertEquals(new BackendSettings(List.of(), true, true, "", 1), BackendSettings.builder().build());
        assertEquals(BackendSettings.defaults(), BackendSettings.builder().build());
        assertThrows(IllegalArgumentException.class, () -> BackendSettings.builder().devices(1, 1).build());
        assertThrows(IllegalArgumentException.class, () -> BackendSettings.builder().devices(-1).build());
        assertThrows(IllegalArgumentException.class, () -> BackendSettings.builder().lanesPerDevice(0).build());
        assertThrows(IllegalArgumentException.class,
                () -> BackendSettings.builder().lanesPerDevice(BackendSettings.MAX_LANES + 1).build());
    }
}
