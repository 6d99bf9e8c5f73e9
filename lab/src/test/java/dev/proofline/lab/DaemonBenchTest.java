package dev.proofline.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.groth16.testing.CircomFixtures;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proofline bench daemon} against a {@code proofline daemon} process. */
class DaemonBenchTest {

    @TempDir
    Path tmp;

    @Test
    void theStressBenchProvesEveryRequestAndReportsItsLatencies() throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build("bn128", "poseidon");
        Path circuit = Files.createDirectories(tmp.resolve("keys/poseidon"));
        Files.copy(fx.zkey(), circuit.resolve("circuit.zkey"));
        Files.copy(fx.wasm(), circuit.resolve("circuit.wasm"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), "dev.proofline.cli.Main", "daemon", "--keys",
                tmp.resolve("keys").toString(), "--grpc-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0",
                "--store", tmp.resolve("store").toString()).redirectErrorStream(true).start();
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (java.io.IOException e) {
                lines.add("(output closed: " + e.getMessage() + ")");
            }
        });
        try {
            String target = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (target == null && System.nanoTime() < deadline && p.isAlive()) {
                for (String line : lines) {
                    Matcher m = Pattern.compile("gRPC on (\\S+),").matcher(line);
                    if (m.find()) {
                        target = m.group(1);
                    }
                }
                Thread.sleep(20);
            }
            assertTrue(target != null, "the daemon says where it listens: " + lines);
            LabRun bench = LabRun.of("bench", "daemon", "--target", target, "--mode", "stress", "--requests", "4",
                    "--clients", "2", "--partitions", "2", "--circuit", "poseidon", "--witness", fx.wtns().toString(),
                    "--json");
            assertEquals(0, bench.code(), bench.err());
            JsonNode j = new ObjectMapper().readTree(bench.out());
            assertEquals(8, j.get("proofs").asInt(), bench.out());
            assertEquals(0, j.get("errors").asInt(), bench.out());
            assertTrue(j.get("latency_ms_p50").asDouble() > 0 && j.get("latency_ms_p99").asDouble()
                    >= j.get("latency_ms_p50").asDouble(), bench.out());
        } finally {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
