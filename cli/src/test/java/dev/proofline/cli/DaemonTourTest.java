package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first {@code sh} block of docs/daemon.md (the tour: a daemon started, jobs submitted, awaited,
 * cancelled, the daemon stopped) runs as written, by bash with {@code set -euo pipefail}, on the
 * documented default addresses: {@code ./proofline} runs this build's command in a JVM of its own, and the
 * folder holds what the block names (the multiplier fixture's key, wasm, witnesses and input). The
 * proofs it awaits verify and state the fixture's public signals, which snarkjs computed.
 */
class DaemonTourTest {

    private static final Pattern FIRST_SH_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path tmp;

    @Test
    void theTourRunsAsWritten() throws Exception {
        assumeTrue(free(50051) && free(8080), "the tour's default ports 50051 and 8080 are taken on this machine");
        Matcher m = FIRST_SH_BLOCK.matcher(Files.readString(Node.repositoryRoot().resolve("docs/daemon.md")));
        assertTrue(m.find(), "docs/daemon.md has no sh block");
        String block = m.group(1);
        assertTrue(block.contains("./proofline daemon"), "the first block starts a daemon:\n" + block);

        CircomFixtures.Fixture mul = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        Path work = Files.createDirectories(tmp.resolve("work"));
        Path circuit = Files.createDirectories(work.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), circuit.resolve("circuit.zkey"));
        Files.copy(mul.wasm(), circuit.resolve("circuit.wasm"));
        Files.copy(mul.wtns(), work.resolve("w1.wtns"));
        Files.copy(mul.wtns(), work.resolve("w2.wtns"));
        Files.copy(mul.input(), work.resolve("input.json"));

        Path launcher = work.resolve("proofline");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' --enable-native-access=ALL-UNNAMED -cp '" + System.getProperty("java.class.path") + "' "
                + Main.class.getName() + " \"$@\"\n");
        assertTrue(launcher.toFile().setExecutable(true));
        // the block stops the daemon (kill %1); the shell then waits for it to end
        String script = "set -euo pipefail\n" + block + "wait || true\n";
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(work.toFile()).redirectErrorStream(true);
        pb.environment().put("PROOFLINE_HOME", tmp.resolve("home").toString());
        pb.environment().put("CI", "true");
        pb.environment().remove("PROOFLINE_TOKEN");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("the tour did not end in 3 minutes:\n" + out);
        }
        assertEquals(0, p.exitValue(), "the tour failed:\n" + out);

        // two submissions printed their job ids (the first and the cancelled one went to variables)
        assertEquals(2, out.lines().filter(l -> l.matches("job-\\d+-[0-9a-f]{12}")).count(), out);
        assertTrue(out.contains("partitions"), "status printed the daemon's counts:\n" + out);
        List<BigInteger> signals = SnarkjsJson.readPublic(mul.publicJson());
        for (int i = 0; i < 2; i++) {
            Path proof = work.resolve("proofs/proof-" + i + ".json");
            assertEquals(signals, SnarkjsJson.readPublic(work.resolve("proofs/public-" + i + ".json")), out);
            assertTrue(Verifier.verify(SnarkjsJson.readVerificationKey(mul.vk()), signals,
                    SnarkjsJson.readProof(proof, PairingCurve.BN254)), proof + " verifies");
        }
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort() == port;
        } catch (IOException e) {
            return false;
        }
    }
}
