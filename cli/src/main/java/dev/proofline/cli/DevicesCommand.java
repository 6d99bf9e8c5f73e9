package dev.proofline.cli;

import dev.proofline.cuda.CudaDriver;
import dev.proofline.cuda.CudaException;
import dev.proofline.cuda.Device;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code proofline devices}: the backends this machine offers and their devices, or why a backend is unavailable. */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = {"List the proving backends and their devices; for an unavailable backend, the reason.",
            "The CUDA driver library is libcuda.so.1 unless the system property " + CudaDriver.LIBRARY_PROPERTY,
            "names another (e.g. PROOFLINE_JAVA_OPTS=-D" + CudaDriver.LIBRARY_PROPERTY + "=/path/to/libcuda.so.1)."})
final class DevicesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int cores = Runtime.getRuntime().availableProcessors();
        out.println("cpu: available, " + cores + (cores == 1 ? " core" : " cores"));
        switch (CudaDriver.load()) {
            case CudaDriver.Available(CudaDriver driver) -> {
                try {
                    List<Device> devices = driver.devices();
                    out.println("cuda: available, driver " + driver.versionString() + " (" + driver.library() + "), "
                            + devices.size() + (devices.size() == 1 ? " device" : " devices"));
                    for (Device d : devices) {
                        out.println(String.format(Locale.ROOT, "  cuda:%d  %s  %.1f GiB  compute %s  %d SMs", d.ordinal(), d.name(),
                                d.totalMemory() / (double) (1L << 30), d.computeCapability(), d.multiprocessors()));
                    }
                } catch (CudaException e) {
                    out.println("cuda: unavailable: " + e.getMessage());
                }
            }
            case CudaDriver.Unavailable(String reason) -> out.println("cuda: unavailable: " + reason);
        }
        out.flush();
        return 0;
    }
}
