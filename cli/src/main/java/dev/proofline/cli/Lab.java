package dev.proofline.cli;

import java.util.ServiceLoader;

/**
 * The lab (module {@code lab}): benchmarks and simulations, {@code proofline bench}. The command finds
 * it on the class path through {@link ServiceLoader}, where the launcher of a repository checkout puts
 * it; a release has none, and its {@code bench} only says so ({@link NoLab}).
 */
public interface Lab {

    /** The {@code bench} command: an object of a class that picocli's annotations describe. */
    Object benchCommand();

    /** The lab's {@code bench} command where the lab is on the class path, else the one that says it is not. */
    static Object bench() {
        return ServiceLoader.load(Lab.class).findFirst().map(Lab::benchCommand).orElseGet(NoLab::new);
    }
}
