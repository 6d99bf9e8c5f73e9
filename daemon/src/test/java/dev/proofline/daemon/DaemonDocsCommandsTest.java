package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.Node;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell commands of docs/daemon.md's "HTTP" section (its {@code sh} blocks: the status routes, the
 * timeline's cursor, the JSON API's request file, rapidsnark's routes) run as written, in order, by
 * bash with {@code set -euo pipefail}, against a daemon on loopback: only the documented addresses
 * ({@code 127.0.0.1:8080}, {@code :9080}) are replaced by the ports this daemon got. Every request must
 * succeed ({@code curl -f}) and every proof they fetch must verify in snarkjs.
 */
class DaemonDocsCommandsTest {

    private static final Pattern SH_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path tmp;

    @Test
    void theHttpSectionsCommandsRunAsWritten() throws Exception {
        List<String> blocks = httpBlocks(Node.repositoryRoot().resolve("docs/daemon.md"));
        assertTrue(blocks.size() >= 4, "the HTTP section's sh blocks: " + blocks.size());

        CircomFixtures.Fixture mul = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        Path circuit = Files.createDirectories(tmp.resolve("keys/multiplier"));
        Files.copy(mul.zkey(), circuit.resolve("circuit.zkey"));
        Files.copy(mul.wasm(), circuit.resolve("circuit.wasm"));
        Path work = Files.createDirectories(tmp.resolve("work"));
        Files.copy(mul.wtns(), work.resolve("w.wtns"));
        Files.copy(mul.input(), work.resolve("input.json"));
        Files.copy(mul.vk(), work.resolve("verification_key.json"));
        Path bin = snarkjsOnPath();

        DaemonConfig cfg = DaemonToml.inMemory(tmp.resolve("keys")).set("server.rapidsnark_listen", "127.0.0.1:0")
                .parse("docs.toml");
        try (Daemon d = Daemon.start(cfg, l -> { })) {
            String script = "set -euo pipefail\n" + String.join("\n", blocks)
                    .replace("127.0.0.1:8080", d.httpAddress()).replace("127.0.0.1:9080", d.rapidsnarkAddress());
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(work.toFile())
                    .redirectErrorStream(true);
            pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
            pb.environment().put("TOKEN", "");
            Process p = pb.start();
            // without the colour codes of snarkjs's log
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .replaceAll("\u001B\\[[0-9;]*m", "");
            assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the docs' commands took over 5 minutes");
            assertEquals(0, p.exitValue(), "the docs' commands failed:\n" + out);

            assertTrue(out.lines().anyMatch(l -> l.equals("ok")), "GET /healthz:\n" + out);
            // snarkjs verified the JSON API's proof and rapidsnark's
            assertEquals(2, out.lines().filter(l -> l.contains("snarkJS: OK!")).count(), out);
            // the last proof fetched (rapidsnark's routes) is the fixture's statement
            assertEquals(SnarkjsJson.readPublic(mul.publicJson()), SnarkjsJson.readPublic(work.resolve("public.json")));
            assertTrue(Verifier.verify(SnarkjsJson.readVerificationKey(mul.vk()),
                    SnarkjsJson.readPublic(work.resolve("public.json")),
                    SnarkjsJson.readProof(work.resolve("proof.json"), PairingCurve.BN254)));
            String openapi = new ObjectMapper().readTree(work.resolve("openapi.json").toFile()).get("openapi").asText();
            assertTrue(openapi.startsWith("3."), "GET /v1/openapi.json is an OpenAPI 3 document: " + openapi);
        }
    }

    /** The {@code sh} blocks between "## HTTP" and the next section of the same level. */
    static List<String> httpBlocks(Path doc) throws Exception {
        String text = Files.readString(doc);
        int start = text.indexOf("\n## HTTP\n");
        assertTrue(start >= 0, "docs/daemon.md has no \"## HTTP\" section");
        int end = text.indexOf("\n## ", start + 1);
        Matcher m = SH_BLOCK.matcher(text.substring(start, end < 0 ? text.length() : end));
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    /** A folder with {@code snarkjs}: the pinned command line of interop/, as {@code npx snarkjs} would run it. */
    private Path snarkjsOnPath() throws Exception {
        Path cli = Node.repositoryRoot().resolve("interop/node_modules/snarkjs/build/cli.cjs");
        assertTrue(Files.isRegularFile(cli), "snarkjs is not installed: run `npm ci` in interop/");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path snarkjs = bin.resolve("snarkjs");
        Files.writeString(snarkjs, "#!/bin/sh\nexec node '" + cli + "' \"$@\"\n");
        Files.setPosixFilePermissions(snarkjs, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }
}
