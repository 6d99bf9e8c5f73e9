package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.groth16.testing.CircomFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proofline submit} streams files over its threshold through SubmitProofStream. */
class StreamedSubmitTest {

    @TempDir
    Path tmp;

    @Test
    void aWitnessOverTheDaemonsMessageLimitIsStreamedAndProved() throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build("bn128", "poseidon");
        Path circuit = Files.createDirectories(tmp.resolve("keys/poseidon"));
        Files.copy(fx.zkey(), circuit.resolve("circuit.zkey"));
        Files.copy(fx.r1cs(), circuit.resolve("circuit.r1cs"));
        long size = Files.size(fx.wtns());
        // a daemon whose single messages are smaller than this witness (about 30 kB)
        DaemonConfig cfg = DaemonConfig.parse("""
                [server]
                grpc_listen = "127.0.0.1:0"
                http_listen = "127.0.0.1:0"
                [store]
                kind = "memory"
                [keys]
                directory = "%s"
                [engine]
                budget = "1GiB"
                [limits]
                max_message_bytes = "8KiB"
                """.formatted(tmp.resolve("keys").toString().replace("\\", "\\\\")), "t.toml");
        assertTrue(size > 8 * 1024, "the fixture's witness is over the message limit: " + size);
        try (Daemon d = Daemon.start(cfg, l -> { })) {
            String target = d.grpcAddress();
            CliRun single = CliRun.of("submit", "--target", target, "--circuit", "poseidon", "--stream-above", "1GiB",
                    fx.wtns().toString());
            assertEquals(2, single.code(), single.err());
            assertTrue(single.err().contains("RESOURCE_EXHAUSTED"), single.err());
            CliRun streamed = CliRun.of("submit", "--target", target, "--circuit", "poseidon", "--stream-above", "4KiB", "--chunk", "4KiB",
                    fx.wtns().toString(), fx.wtns().toString());
            assertEquals(0, streamed.code(), streamed.err());
            String job = streamed.out().strip();
            CliRun await = CliRun.of("await", "--target", target, job, "--out", tmp.resolve("out").toString());
            assertEquals(0, await.code(), await.err() + await.out());
            for (int i = 0; i < 2; i++) {
                assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), tmp.resolve("out/public-" + i + ".json"),
                        tmp.resolve("out/proof-" + i + ".json")), "partition " + i);
            }
            // a bad witness streamed is refused at submit like one sent whole
            byte[] w = Files.readAllBytes(fx.wtns());
            w[w.length - 32] ^= 1;
            Path bad = Files.write(tmp.resolve("bad.wtns"), w);
            CliRun refused = CliRun.of("submit", "--target", target, "--circuit", "poseidon", "--stream-above", "4KiB", "--chunk", "4KiB",
                    bad.toString());
            assertEquals(2, refused.code(), refused.err());
            assertTrue(refused.err().contains("INVALID_ARGUMENT") && refused.err().contains("does not satisfy"),
                    refused.err());
            CliRun mixed = CliRun.of("submit", "--target", target, "--circuit", "poseidon", "--stream-above", "4KiB", "--chunk", "4KiB",
                    fx.wtns().toString(), fx.input().toString());
            assertEquals(2, mixed.code(), mixed.err());
            assertTrue(mixed.err().contains("one kind"), mixed.err());
        }
    }
}
