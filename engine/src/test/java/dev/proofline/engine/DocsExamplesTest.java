package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.DocExamples;
import dev.proofline.groth16.testing.CircomFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs' Java blocks are programs: every {@code ```java} block of {@code docs/embedding.md} and
 * {@code docs/engine.md} is one public class with its imports, compiled here exactly as it is written
 * (against the modules' classes, no flags), then run on the circom fixtures: each example's output
 * shows that its proofs verify. Blocks that import the daemon's client ({@code dev.proofline.api}) need
 * a daemon: the daemon module's {@code DaemonDocsExamplesTest} compiles and runs those.
 */
class DocsExamplesTest {

    private static final List<String> DOCS = List.of("docs/embedding.md", "docs/engine.md");

    @TempDir
    static Path classes;

    private static Map<String, DocExamples.Example> examples;
    private static String compileErrors;

    @BeforeAll
    static void compileTheDocsBlocks() throws IOException {
        examples = DocExamples.read(DOCS, e -> !e.imports("dev.proofline.api"));
        compileErrors = DocExamples.compile(examples.values(), classes);
    }

    @Test
    void everyJavaBlockOfTheDocsCompilesWithoutWarnings() {
        assertEquals(null, compileErrors, "the docs' java blocks do not compile as written");
        assertTrue(examples.keySet().containsAll(List.of("ProveWithZkey", "VerifyFiles", "ProveOnEngine",
                "PoseidonPreimageProof", "EngineJobs")), "examples found: " + examples.keySet());
    }

    @Test
    void theExamplesRunAndTheirProofsVerify(@TempDir Path out) throws Exception {
        assertEquals(null, compileErrors, "the docs' java blocks do not compile as written");
        CircomFixtures.Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");

        List<String> lines = run("ProveWithZkey", fx.zkey(), fx.wtns(), out);
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).endsWith(" OK"), lines.toString());
        assertTrue(CircomFixtures.snarkjsVerifies(out.resolve("verification_key.json"), out.resolve("public.json"),
                out.resolve("proof.json")), "snarkjs rejects the files ProveWithZkey wrote");
        assertEquals(Files.readString(fx.publicJson()), Files.readString(out.resolve("public.json")),
                "public.json as snarkjs wrote it for the same witness");

        // snarkjs's own proof, then the one just written, against snarkjs's verification key
        assertEquals(List.of("OK"), run("VerifyFiles", fx.vk(), fx.publicJson(), fx.proof()));
        assertEquals(List.of("OK"), run("VerifyFiles", fx.vk(), out.resolve("public.json"), out.resolve("proof.json")));
        // and a proof of other signals is rejected, with the reason
        Path otherSignals = out.resolve("other-public.json");
        Files.writeString(otherSignals, Files.readString(fx.publicJson()).replaceFirst("\"(\\d)", "\"1$1"));
        List<String> rejected = run("VerifyFiles", fx.vk(), otherSignals, fx.proof());
        assertTrue(rejected.size() == 1 && rejected.get(0).startsWith("Invalid proof: "), rejected.toString());

        lines = run("ProveOnEngine", fx.zkey(), fx.wasm(), fx.wtns(), fx.input());
        assertEquals(2, lines.size(), lines.toString());
        String signals = Files.readString(fx.publicJson()).replaceAll("[\\s\"]", "").replace(",", ", ");
        for (String line : lines) {
            assertEquals(signals + " true", line, "both partitions, from the witness file and from the inputs");
        }

        lines = run("PoseidonPreimageProof");
        assertEquals(3, lines.size(), lines.toString());
        for (String line : lines) {
            assertTrue(line.endsWith("] true"), lines.toString());
        }
        assertFalse(lines.get(1).equals(lines.get(2)), "two instances, two public hashes: " + lines);

        lines = run("EngineJobs", fx.zkey(), fx.wasm(), fx.r1cs(), fx.wtns(), fx.input());
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("2 proofs; partition 0: Timings["), lines.toString());

        List<String> notRun = new ArrayList<>(examples.keySet());
        notRun.removeAll(List.of("ProveWithZkey", "VerifyFiles", "ProveOnEngine", "PoseidonPreimageProof",
                "EngineJobs"));
        assertEquals(List.of(), notRun, "examples in the docs that this test does not run yet");
    }

    /** Runs the example's main with {@code args} in this JVM and returns what it printed, line by line. */
    private static List<String> run(String className, Object... args) throws Exception {
        return DocExamples.run(classes, DocsExamplesTest.class.getClassLoader(), className, args);
    }
}
