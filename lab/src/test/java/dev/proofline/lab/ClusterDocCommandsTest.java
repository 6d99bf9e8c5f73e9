package dev.proofline.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.Node;
import dev.proofline.cli.CliParse;
import dev.proofline.cli.CliRun;
import dev.proofline.daemon.store.postgres.LocalPostgres;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.circuits.Builtins;
import dev.proofline.r1cs.cs.RecordingSystem;
import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands of docs/cluster.md's {@code sh} blocks, against a private PostgreSQL server
 * ({@link LocalPostgres}; skipped, saying why, without the machine's PostgreSQL programs). The doc's
 * example host names are replaced by this test's addresses: {@code db:5432} by the server's
 * 127.0.0.1 port (its password is ignored: the server trusts loopback), {@code gpu-box-1:50051} by the
 * second daemon's gRPC address. Two daemons, each in a JVM of its own in a folder that holds
 * {@code keys/} (a development key of a small built-in circuit): the first started by the doc's
 * command line, the second by the config file its comment shows ({@code [cluster]}, with
 * {@code node_id = "gpu-box-1"}); each also gets free loopback ports for its gRPC and HTTP servers
 * (the defaults, 50051 and 8080, may be taken on the machine). {@code status --target} must show
 * both nodes of the cluster. {@code bench cluster} runs as written but for {@code --jobs 5} (its
 * default, 100 jobs a node count, would take most of a minute).
 */
class ClusterDocCommandsTest {

    private static final Pattern SH_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path tmp;

    @Test
    void theCommandsRunAgainstAPrivateServer() throws Exception {
        List<String> why = new ArrayList<>();
        Optional<Path> bin = LocalPostgres.programs(why);
        Assumptions.assumeTrue(bin.isPresent(), () -> why.getFirst());
        String doc = Files.readString(Node.repositoryRoot().resolve("docs/cluster.md"));
        List<String> blocks = new ArrayList<>();
        Matcher m = SH_BLOCK.matcher(doc);
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertEquals(2, blocks.size(), "docs/cluster.md's sh blocks");
        List<String> lines = blocks.getFirst().lines().map(String::strip).filter(l -> l.startsWith("./proofline "))
                .toList();
        assertEquals(2, lines.size(), lines::toString);
        String daemonLine = lines.get(0);
        String statusLine = lines.get(1);
        // the config file of its comment: "#   [cluster]", "#   database = ...", "#   node_id = ..."
        String config = blocks.getFirst().lines().filter(l -> l.startsWith("#   ")).map(l -> l.substring(4))
                .reduce("", (a, b) -> a + b + "\n");
        assertTrue(config.contains("[cluster]") && config.contains("node_id  = \"gpu-box-1\""), config);

        Path work = Files.createDirectories(tmp.resolve("work"));
        Path merkle = Files.createDirectories(work.resolve("keys/merkle"));
        Files.writeString(merkle.resolve("builtin.toml"), """
                circuit = "builtin:merkle-post"
                curve = "bn254"
                constraints = 256
                depth = 3
                """);
        DevSetup.run(RecordingSystem.record(PairingCurve.BN254, Builtins.circuit("builtin:merkle-post",
                PairingCurve.BN254, 256, 3, false, 1)), merkle.resolve("circuit.zkey"), new Random(1));

        try (LocalPostgres pg = LocalPostgres.start(bin.get())) {
            String db = "127.0.0.1:" + pg.port();
            int grpc1 = freePort();
            int grpc2 = freePort();
            List<String> first = new ArrayList<>(CliParse.words(daemonLine.substring("./proofline ".length())
                    .replace("@db:5432/", "@" + db + "/")));
            first.addAll(List.of("--grpc-listen", "127.0.0.1:" + grpc1, "--http-listen", "127.0.0.1:" + freePort()));
            Path toml = Files.writeString(work.resolve("gpu-box-1.toml"), config.replace("@db:5432/", "@" + db + "/")
                    + """
                    [server]
                    grpc_listen = "127.0.0.1:%d"
                    http_listen = "127.0.0.1:%d"
                    [keys]
                    directory = "keys"
                    """.formatted(grpc2, freePort()));
            Process a = start(work, first);
            Process b = start(work, List.of("daemon", "--config", toml.toString()));
            try {
                String target = "127.0.0.1:" + grpc2;
                List<String> status = CliParse.words(statusLine.substring("./proofline ".length())
                        .replace("gpu-box-1:50051", target));
                assertEquals(List.of("status", "--target", target), status);
                CliRun shown = null;
                for (long end = System.nanoTime() + 90_000_000_000L; System.nanoTime() < end; Thread.sleep(250)) {
                    shown = CliRun.of(status.toArray(String[]::new));
                    if (shown.code() == 0 && nodeRows(shown.out()) == 2) {
                        break;
                    }
                    if (!a.isAlive() || !b.isAlive()) {
                        fail("a daemon ended: " + Files.readString(work.resolve("daemon-" + (a.isAlive() ? b : a).pid()
                                + ".log")));
                    }
                }
                String out = shown.out();
                assertEquals(0, shown.code(), shown.err());
                assertTrue(out.contains("\ncluster           this node: gpu-box-1; partitions: "), out);
                assertEquals(2, nodeRows(out), out);
                assertTrue(out.lines().anyMatch(l -> l.startsWith("gpu-box-1 ") && l.contains("127.0.0.1:" + grpc2)), out);
                assertTrue(out.lines().anyMatch(l -> l.contains(" 127.0.0.1:" + grpc1 + " ")), out);
            } finally {
                stop(a);
                stop(b);
            }
        }

        List<String> bench = new ArrayList<>(CliParse.words(blocks.get(1).strip().substring("./proofline ".length())));
        assertEquals(List.of("bench", "cluster", "--nodes", "1,2,3", "--backend", "sim"), bench);
        bench.addAll(List.of("--jobs", "5"));
        CliRun run = CliRun.of(bench.toArray(String[]::new));
        assertEquals(0, run.code(), run.err());
        for (int n = 1; n <= 3; n++) {
            assertTrue(run.out().contains(n + " node(s): 20 partitions in "), run.out());
        }
    }

    /** The rows of the status's table of nodes: those that name a node's gRPC address. */
    private static long nodeRows(String status) {
        return status.lines().filter(l -> l.matches("\\S+ +127\\.0\\.0\\.1:\\d+ .*")).count();
    }

    /** {@code proofline args} in a JVM of its own in {@code dir}, its output in a log file there. */
    private Process start(Path dir, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "dev.proofline.cli.Main"));
        cmd.addAll(args);
        Path log = Files.createTempFile(dir, "daemon", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("PROOFLINE_HOME", tmp.resolve("home").toString());
        pb.environment().put("PROOFLINE_ENGINE", "off");
        Process p = pb.start();
        Files.move(log, dir.resolve("daemon-" + p.pid() + ".log"));
        return p;
    }

    /** A graceful stop (SIGTERM), as the doc's daemon gets one. */
    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
