package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine module holds two layers (docs/architecture.md): the generic pipeline in
 * {@code dev.proofline.engine} and the Groth16 jobs, backends and circuits above it in
 * {@code dev.proofline.engine.groth16}. The pipeline names neither the Groth16 layer nor the modules
 * under it ({@code groth16}, {@code r1cs}): not in an import, a qualified name or a doc link. Read
 * from the module's source tree.
 */
class PipelinePackageTest {

    private static final Path PIPELINE = Path.of("src/main/java/dev/proofline/engine");
    private static final List<String> ABOVE_OR_BESIDE = List.of("dev.proofline.engine.groth16",
            "dev.proofline.groth16", "dev.proofline.r1cs");

    @Test
    void thePipelineNamesNoGroth16Class() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.list(PIPELINE)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertTrue(sources.size() > 20, "the pipeline's sources are not where this test reads them: " + sources);
        List<String> found = new ArrayList<>();
        for (Path source : sources) {
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                for (String name : ABOVE_OR_BESIDE) {
                    if (lines.get(i).contains(name)) {
                        found.add(source.getFileName() + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertEquals(List.of(), found, "the pipeline package names the Groth16 layer or a module under it");
    }
}
