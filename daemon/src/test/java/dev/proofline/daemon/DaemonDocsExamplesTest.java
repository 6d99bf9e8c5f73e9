package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.DocExamples;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java blocks of {@code docs/embedding.md} that talk to a daemon (they import {@code dev.proofline.api}),
 * compiled as written and run against a daemon on loopback: the proof they fetch verifies. The engine
 * module's {@code DocsExamplesTest} runs the other blocks.
 */
class DaemonDocsExamplesTest {

    @TempDir
    Path tmp;

    @Test
    void theClientExampleGetsAProofThatVerifies() throws Exception {
        Map<String, DocExamples.Example> examples = DocExamples.read(List.of("docs/embedding.md"),
                e -> e.imports("dev.proofline.api"));
        assertEquals(List.of("SubmitToDaemon"), List.copyOf(examples.keySet()), "the daemon's examples in the docs");
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        assertEquals(null, DocExamples.compile(examples.values(), classes), "the docs' java blocks do not compile");

        CircomFixtures.Fixture mul = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        Path circuit = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), circuit.resolve("circuit.zkey"));
        DaemonConfig cfg = DaemonToml.inMemory(tmp.resolve("keys")).parse("docs.toml");
        try (Daemon d = Daemon.start(cfg, l -> { })) {
            List<String> lines = DocExamples.run(classes, getClass().getClassLoader(), "SubmitToDaemon",
                    d.grpcAddress(), "multiplier", mul.wtns(), tmp);
            List<BigInteger> signals = SnarkjsJson.readPublic(mul.publicJson());
            assertEquals(List.of("DONE " + signals), lines);
            assertTrue(Verifier.verify(SnarkjsJson.readVerificationKey(mul.vk()), signals,
                    SnarkjsJson.readProof(tmp.resolve("proof.json"), PairingCurve.BN254)), "the proof.json it wrote");
        }
    }
}
