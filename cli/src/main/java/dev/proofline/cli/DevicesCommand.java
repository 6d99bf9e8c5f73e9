package dev.proofline.cli;

import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.groth16.BackendProvider;
import dev.proofline.engine.groth16.BackendProviders;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code proofline devices}: each backend on the class path (in name order) and its devices, or why it
 * is unavailable; the backends are found through {@link BackendProviders}, none is named here.
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = {"List the proving backends and their devices; for an unavailable backend, the reason.",
            "The CUDA driver library is libcuda.so.1 unless the system property proofline.cuda.library",
            "names another (e.g. PROOFLINE_JAVA_OPTS=-Dproofline.cuda.library=/path/to/libcuda.so.1)."})
final class DevicesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        for (BackendProvider p : BackendProviders.installed().all()) {
            switch (p.availability(BackendSettings.defaults())) {
                case BackendProvider.Available(String summary, var devices) -> {
                    out.println(p.name() + ": available, " + summary);
                    devices.forEach(d -> out.println("  " + d));
                }
                case BackendProvider.Unavailable(String reason) -> out.println(p.name() + ": unavailable: " + reason);
            }
        }
        out.flush();
        return 0;
    }
}
