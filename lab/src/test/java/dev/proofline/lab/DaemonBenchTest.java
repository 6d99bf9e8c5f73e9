package dev.proofline.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.cli.CliDaemon;
import dev.proofline.cli.CliRun;
import dev.proofline.groth16.testing.CircomFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
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
        try (CliDaemon d = CliDaemon.start(tmp.resolve("keys"), tmp.resolve("store"))) {
            String target = d.target();
            CliRun bench = CliRun.of("bench", "daemon", "--target", target, "--mode", "stress", "--requests", "4",
                    "--clients", "2", "--partitions", "2", "--circuit", "poseidon", "--witness", fx.wtns().toString(),
                    "--json");
            assertEquals(0, bench.code(), bench.err());
            JsonNode j = new ObjectMapper().readTree(bench.out());
            assertEquals(8, j.get("proofs").asInt(), bench.out());
            assertEquals(0, j.get("errors").asInt(), bench.out());
            assertTrue(j.get("latency_ms_p50").asDouble() > 0 && j.get("latency_ms_p99").asDouble()
                    >= j.get("latency_ms_p50").asDouble(), bench.out());
        }
    }
}
