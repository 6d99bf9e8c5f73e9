package dev.proofline.engine.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.testing.CircomFixtures;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An application may exclude Chicory (the WebAssembly runtime of circom's witness generators) when it
 * proves witness files only. Then registering a witness generator fails at once with the artifacts to
 * add, and witness files still prove: run in a class loader that has the test's class path without
 * Chicory and ASM.
 */
class WithoutChicoryTest {

    @Test
    void registeringAWitnessGeneratorNamesTheMissingArtifactsAndWitnessFilesStillProve() throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        List<URL> urls = new ArrayList<>();
        int dropped = 0;
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String entry : classPath.split(File.pathSeparator)) {
            String unix = entry.replace(File.separatorChar, '/');
            if (unix.contains("/com/dylibso/chicory/") || unix.contains("/org/ow2/asm/")) {
                dropped++;
            } else {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        assertTrue(dropped >= 4, "Chicory's and ASM's jars are on the test class path: " + classPath);
        try (URLClassLoader withoutChicory = new URLClassLoader(urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            Class<?> probe = withoutChicory.loadClass(WithoutChicoryProbe.class.getName());
            String registered = (String) probe.getMethod("registerWithWasm", String.class, String.class)
                    .invoke(null, fx.zkey().toString(), fx.wasm().toString());
            assertTrue(registered.startsWith("java.lang.IllegalStateException: circuit 'multiplier' (its circuit.wasm)"
                    + " needs the runtime of circom's witness generators"), registered);
            assertTrue(registered.contains("missing com.dylibso.chicory:runtime, com.dylibso.chicory:wasm,"
                    + " com.dylibso.chicory:compiler, org.ow2.asm:asm"), registered);

            String proved = (String) probe.getMethod("proveWtns", String.class, String.class)
                    .invoke(null, fx.zkey().toString(), fx.wtns().toString());
            String signals = Files.readString(fx.publicJson()).replaceAll("[\\s\"]", "").replace(",", ", ");
            assertEquals(signals, proved, "a witness file is proved and verified without Chicory");
        }
        // with Chicory (this test's own loader) the same registration succeeds
        assertEquals("registered", WithoutChicoryProbe.registerWithWasm(fx.zkey().toString(), fx.wasm().toString()));
    }
}
