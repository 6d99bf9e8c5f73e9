package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.algebra.testing.Node;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.groth16.testing.CircomFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JavaScript client (clients/js) against a daemon on loopback: its own tests ({@code node --test
 * clients/js/test/client.test.js}) prove a circom circuit with inputs and with a .wtns, verify every proof
 * with snarkjs, and check cancellation, deadlines and the error codes. They run here, with the daemon's
 * address, token and circuit in their environment; this test passes when every one of them passed.
 */
class JsClientTest {

    private static final String TOKEN = "js-client-token";
    private static final Duration NODE_TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path tmp;

    @Test
    void theJavaScriptClientsTestsPassAgainstADaemon() throws Exception {
        assumeTrue(nodeInstalled(), "node is not installed: the JavaScript client's tests need Node.js 18 or later");
        CircomFixtures.Fixture mul = CircomFixtures.build("bn128", "multiplier");
        Path dir = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), dir.resolve("circuit.zkey"));
        Files.copy(mul.wasm(), dir.resolve("circuit.wasm"));
        Files.copy(mul.r1cs(), dir.resolve("circuit.r1cs"));
        DaemonConfig config = DaemonToml.inMemory(tmp.resolve("keys")).set("server.auth_token", TOKEN)
                .set("engine.permits", 1).parse("js-client.toml");
        Path root = Node.repositoryRoot();
        try (Daemon daemon = Daemon.start(config, l -> { })) {
            ProcessBuilder pb = new ProcessBuilder("node", "--test", "--test-reporter=tap", "test/client.test.js")
                    .directory(root.resolve("clients/js").toFile()).redirectErrorStream(true);
            Map<String, String> env = pb.environment();
            env.put("PROOFLINE_URL", "http://" + daemon.httpAddress());
            env.put("PROOFLINE_TOKEN", TOKEN);
            env.put("PROOFLINE_CIRCUIT", "multiplier");
            env.put("PROOFLINE_WASM", mul.wasm().toAbsolutePath().toString());
            env.put("PROOFLINE_ZKEY", mul.zkey().toAbsolutePath().toString());
            env.put("PROOFLINE_VK", mul.vk().toAbsolutePath().toString());
            env.put("PROOFLINE_INPUT", mul.input().toAbsolutePath().toString());
            env.put("PROOFLINE_SNARKJS", root.resolve("interop/node_modules/snarkjs").toString());
            Process node = pb.start();
            CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(node.getInputStream()));
            if (!node.waitFor(NODE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                node.descendants().forEach(ProcessHandle::destroyForcibly);
                node.destroyForcibly();
                throw new AssertionError("node --test still running after " + NODE_TIMEOUT + ":\n"
                        + output.get(30, TimeUnit.SECONDS));
            }
            String out = output.get(30, TimeUnit.SECONDS);
            assertEquals(0, node.exitValue(), () -> "the client's tests failed:\n" + out);
            // exit 0 with no test run would pass too: every test of the file ran and passed, none skipped
            int tests = count(out, "tests");
            assertTrue(tests >= 10, () -> tests + " tests ran:\n" + out);
            assertEquals(tests, count(out, "pass"), out);
            assertEquals(0, count(out, "skipped") + count(out, "todo"), out);
        }
    }

    private static boolean nodeInstalled() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A total of the TAP summary ("# pass 10"). */
    private static int count(String tap, String what) {
        Matcher m = Pattern.compile("(?m)^# " + what + " (\\d+)$").matcher(tap);
        if (!m.find()) {
            throw new AssertionError("no '# " + what + "' in the TAP output:\n" + tap);
        }
        return Integer.parseInt(m.group(1));
    }

    private static String readAll(InputStream in) {
        try (in) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            in.transferTo(b);
            return b.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
