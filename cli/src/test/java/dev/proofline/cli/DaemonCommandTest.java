package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.testing.CircomFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code proofline daemon} as its own process, driven by {@code submit}, {@code await}, {@code status}
 * and {@code cancel}; SIGTERM stops it with exit code 0.
 */
class DaemonCommandTest {

    @TempDir
    Path tmp;

    @Test
    void aDaemonProcessProvesForTheClientCommandsAndStopsCleanlyOnSigterm() throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build("bn128", "poseidon");
        Path circuit = tmp.resolve("keys/poseidon");
        Files.createDirectories(circuit);
        Files.copy(fx.zkey(), circuit.resolve("circuit.zkey"));
        Files.copy(fx.wasm(), circuit.resolve("circuit.wasm"));
        try (CliDaemon d = CliDaemon.start(tmp.resolve("keys"), tmp.resolve("store"))) {
            String target = d.target();
            CliRun sub = CliRun.of("submit", "--target", target, "--circuit", "poseidon", fx.wtns().toString(),
                    fx.input().toString());
            assertEquals(0, sub.code(), sub.err());
            String job = sub.out().strip();
            CliRun await = CliRun.of("await", "--target", target, job, "--out", tmp.resolve("out").toString());
            assertEquals(0, await.code(), await.err() + await.out());
            assertTrue(await.out().startsWith(job + " done"), await.out());
            for (int i = 0; i < 2; i++) {
                assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), tmp.resolve("out/public-" + i + ".json"),
                        tmp.resolve("out/proof-" + i + ".json")), "partition " + i);
            }
            CliRun status = CliRun.of("status", "--target", target);
            assertEquals(0, status.code(), status.err());
            assertTrue(status.out().contains("2 proved"), status.out());
            CliRun unknown = CliRun.of("submit", "--target", target, "--circuit", "nope", fx.wtns().toString());
            assertEquals(2, unknown.code());
            assertTrue(unknown.err().contains("NOT_FOUND: unknown circuit 'nope'"), unknown.err());
            CliRun cancel = CliRun.of("cancel", "--target", target, "job-12345");
            assertEquals(2, cancel.code());
            assertEquals(0, d.terminate(), String.join("\n", d.lines()));
            assertTrue(d.lines().stream().anyMatch(l -> l.contains("proofline daemon stopped")), d.lines().toString());
        }
    }

    @Test
    void aBadConfigFileIsAnInputErrorThatNamesTheKeyAndLine() throws Exception {
        Path cfg = tmp.resolve("bad.toml");
        Files.writeString(cfg, "[engine]\npermits = 2\nbudgett = \"1GiB\"\n");
        CliRun r = CliRun.of("daemon", "--config", cfg.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains(cfg + ":3: engine.budgett: unknown key"), r.err());
    }

    @Test
    void aConfigThatStillPicksADispatchModeIsToldTheKeyWasRemoved() throws Exception {
        Path cfg = tmp.resolve("old.toml");
        Files.writeString(cfg, "[engine]\npermits = 2\ndispatch = \"poll\"\n");
        CliRun r = CliRun.of("daemon", "--config", cfg.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains(cfg + ":3: engine.dispatch: removed: the engine has one dispatcher"), r.err());
    }

    @Test
    void aDamagedStoreIsRefusedInOneLineThatSaysWhatToDo() throws Exception {
        Path store = Files.createDirectories(tmp.resolve("store"));
        Files.write(store.resolve("queue.db"), new byte[0]); // a store truncated to nothing
        Files.createDirectories(tmp.resolve("keys"));
        CliRun r = CliRun.of("daemon", "--keys", tmp.resolve("keys").toString(), "--grpc-listen", "127.0.0.1:0",
                "--http-listen", "127.0.0.1:0", "--store", store.toString());
        assertEquals(2, r.code(), r.err());
        // the log's lines before it (the backend chosen) are the daemon's; the error is one line, no stack trace
        List<String> error = r.err().lines().dropWhile(l -> !l.startsWith("proofline daemon: ")).toList();
        assertEquals(1, error.size(), r.err());
        assertTrue(error.getFirst().startsWith("proofline daemon: job store " + store.resolve("queue.db") + " is empty (0 bytes):"
                + " restore the store directory from a backup, or start with --set-aside-damaged-store"), r.err());
    }
}
