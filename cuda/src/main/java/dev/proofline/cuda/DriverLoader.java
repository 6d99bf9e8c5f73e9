package dev.proofline.cuda;

import static dev.proofline.cuda.CudaDriver.DEFAULT_LIBRARY;

import dev.proofline.cuda.CudaDriver.Availability;
import dev.proofline.cuda.CudaDriver.Available;
import dev.proofline.cuda.CudaDriver.Unavailable;
import dev.proofline.cuda.DriverBindings.MissingSymbol;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens a driver library and makes a {@link CudaDriver} of it, or says in one line why there is none
 * (the work of {@link CudaDriver#load(String)}).
 */
@SuppressWarnings("restricted") // opening a native library is what this class is for
final class DriverLoader {

    private DriverLoader() {
    }

    /** As {@link CudaDriver#load(String)}. */
    static Availability load(String library) {
        SymbolLookup lookup;
        try {
            if (library.contains("/")) {
                Path path = Path.of(library);
                if (!Files.exists(path)) {
                    return new Unavailable(library + " not found");
                }
                if (!isSharedObject(path)) {
                    return new Unavailable(library + " could not be loaded: not an ELF shared object");
                }
                lookup = SymbolLookup.libraryLookup(path, Arena.global());
            } else {
                lookup = SymbolLookup.libraryLookup(library, Arena.global());
            }
        } catch (IllegalArgumentException e) {
            return new Unavailable(library.equals(DEFAULT_LIBRARY)
                    ? DEFAULT_LIBRARY + " not found: no NVIDIA driver on this machine"
                    : library + " could not be loaded: " + e.getMessage());
        }
        CudaDriver driver;
        try {
            driver = new CudaDriver(library, new DriverBindings(lookup, Linker.nativeLinker()));
        } catch (MissingSymbol e) {
            return new Unavailable(library + " is not a usable CUDA driver: it has no " + e.getMessage());
        } catch (CudaException e) {
            return new Unavailable(e.getMessage());
        }
        try {
            if (driver.deviceCount() == 0) {
                return new Unavailable("no CUDA device (driver " + driver.versionString() + ")");
            }
        } catch (CudaException e) {
            return new Unavailable(e.getMessage());
        }
        return new Available(driver);
    }

    /**
     * Whether a file starts as an ELF object does, on Linux (elsewhere: whether it is readable). The
     * dynamic loader would refuse anything else too, but the JVM may print warnings on the way.
     */
    private static boolean isSharedObject(Path path) {
        try (var in = Files.newInputStream(path)) {
            byte[] magic = in.readNBytes(4);
            return !System.getProperty("os.name", "").startsWith("Linux")
                    || (magic.length == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F');
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
