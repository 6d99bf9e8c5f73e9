package dev.proofline.engine.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.DocExamples;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/backends.md is true: its minimal backend and the program that runs it compile as written, and the
 * program's proofs go through the backend and verify.
 */
class BackendsDocTest {

    @Test
    void theMinimalBackendOfTheGuideCompilesAndProves(@TempDir Path classes, @TempDir Path work) throws Exception {
        Map<String, DocExamples.Example> examples = DocExamples.read(List.of("docs/backends.md"), e -> true);
        assertEquals(List.of("CountingBackend", "ProveWithCountingBackend"), List.copyOf(examples.keySet()).stream()
                .sorted().toList(), "the guide's java blocks");
        assertEquals(null, DocExamples.compile(examples.values(), classes), "the guide's java blocks do not compile");
        List<String> lines = DocExamples.run(classes, BackendsDocTest.class.getClassLoader(), "ProveWithCountingBackend",
                work.resolve("merkle.zkey"));
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.getFirst().matches("2 proofs verified, 2 by the counting backend; [1-9][0-9]* public signals each"),
                lines.getFirst());
    }
}
