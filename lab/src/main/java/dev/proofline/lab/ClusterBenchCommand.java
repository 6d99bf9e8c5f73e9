package dev.proofline.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.api.JobResult;
import dev.proofline.api.JobState;
import dev.proofline.api.PartitionInput;
import dev.proofline.api.ProoflineClient;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.store.postgres.LocalPostgres;
import dev.proofline.engine.ProverBackend;
import dev.proofline.engine.groth16.CpuBackend;
import dev.proofline.engine.groth16.ProofResult;
import dev.proofline.engine.groth16.SimulatedProofs;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.circuits.Builtins;
import dev.proofline.r1cs.cs.RecordingSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code proofline bench cluster}: N daemons in this process, in cluster mode on one private
 * PostgreSQL server, for each N asked; the same jobs (partitions of a small built-in circuit,
 * synthesized for real) are submitted round-robin to the nodes and awaited. Reports throughput per
 * node count, its ratio to N times the single node's, and the database round trips per partition.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {"Time daemons in cluster mode on one private PostgreSQL server, for each number of nodes.",
            "Prints the throughput and the database round trips per partition. Needs PostgreSQL's programs"
                + " (initdb, pg_ctl)."})
final class ClusterBenchCommand implements Callable<Integer> {

    @Option(names = "--nodes", defaultValue = "1,2,3", split = ",", description = "node counts to run (default: ${DEFAULT-VALUE})")
    List<Integer> nodes;

    @Option(names = "--backend", defaultValue = "sim", description = "sim (simulated prover) or cpu")
    String backend;

    @Option(names = "--jobs", defaultValue = "100", description = "jobs per run")
    int jobs;

    @Option(names = "--partitions", defaultValue = "4", description = "partitions per job")
    int partitions;

    @Option(names = "--prover-ms", defaultValue = "50", description = "sim: the device half of a proof, ms")
    long proverMs;

    @Option(names = "--finish-ms", defaultValue = "5", description = "sim: the CPU half of a proof, ms")
    long finishMs;

    @Option(names = "--permits", defaultValue = "2", description = "prover-queue permits per node")
    int permits;

    @Option(names = "--constraints", defaultValue = "1024", description = "size of the built-in circuit")
    int constraints;

    @Option(names = "--json", description = "one JSON line per node count")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (!backend.equals("sim") && !backend.equals("cpu")) {
            throw new IllegalArgumentException("--backend: sim or cpu");
        }
        List<String> why = new ArrayList<>();
        Path bin = LocalPostgres.programs(why).orElseThrow(() -> new IllegalStateException(why.getFirst()));
        Path keys = Files.createTempDirectory("proofline-bench-keys");
        Path merkle = Files.createDirectories(keys.resolve("merkle"));
        Files.writeString(merkle.resolve("builtin.toml"), """
                circuit = "builtin:merkle-post"
                curve = "bn254"
                constraints = %d
                depth = 3
                """.formatted(constraints));
        DevSetup.run(RecordingSystem.record(PairingCurve.BN254, Builtins.circuit("builtin:merkle-post",
                PairingCurve.BN254, constraints, 3, false, 1)), merkle.resolve("circuit.zkey"), new Random(1));
        double single = Double.NaN;
        int status = 0;
        try (LocalPostgres pg = LocalPostgres.start(bin)) {
            // warm-up, not reported: the JIT compiles the synthesis, the servers and the driver
            run(pg, keys, 1, Math.min(jobs, 25));
            for (int n : nodes) {
                Map<String, Object> r = run(pg, keys, n, jobs);
                double perSecond = (double) r.get("partitions_per_s");
                if (n == 1 || Double.isNaN(single)) {
                    single = perSecond / n;
                }
                r.put("scaling", Math.round(perSecond / (single * n) * 1000) / 1000.0);
                if (json) {
                    System.out.println(new ObjectMapper().writeValueAsString(r));
                } else {
                    System.out.printf(Locale.ROOT, "%d node(s): %d partitions in %.2f s, %.1f partitions/s,"
                            + " %.2f of %d x one node; %.2f database round trips per partition; proved by %s%n", n,
                            r.get("partitions"), r.get("seconds"), perSecond, r.get("scaling"), n,
                            r.get("round_trips_per_partition"), r.get("proved_by"));
                }
                if (!Boolean.TRUE.equals(r.get("each_once"))) {
                    System.err.println("error: " + n + " node(s): the engines made " + r.get("proved") + " proofs, expected "
                            + r.get("partitions"));
                    status = 1;
                }
            }
        } finally {
            deleteTree(keys);
        }
        return status;
    }

    private Map<String, Object> run(LocalPostgres pg, Path keys, int n, int jobs) throws Exception {
        String db = pg.createDatabase("bench_" + n + "_" + System.nanoTime() % 1_000_000);
        List<Daemon> ds = new ArrayList<>();
        List<ProoflineClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                DaemonConfig cfg = DaemonConfig.parse("""
                        [server]
                        grpc_listen = "127.0.0.1:0"
                        http_listen = "127.0.0.1:0"
                        [keys]
                        directory = "%s"
                        preload = ["merkle"]
                        [engine]
                        permits = %d
                        synthesis_threads = 1
                        finalizer_threads = 1
                        [cluster]
                        database = "%s"
                        node_id = "node-%d"
                        """.formatted(keys.toString().replace("\\", "\\\\"), permits, db, i + 1), "bench");
                ProverBackend<?, ?, ProofResult> b = backend.equals("sim") ? new SimulatedProofs(proverMs, finishMs)
                        : new CpuBackend();
                ds.add(Daemon.start(cfg, b, line -> { }));
            }
            for (Daemon d : ds) {
                clients.add(ProoflineClient.connect(d.grpcAddress()).build());
            }
            long trips0 = ds.stream().mapToLong(Daemon::clusterRoundTrips).sum();
            long t0 = System.nanoTime();
            List<String> ids = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                List<PartitionInput> seeds = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    seeds.add(new PartitionInput.CircomInput("{\"seed\": " + (j * partitions + p) + "}"));
                }
                ids.add(clients.get(j % n).submit("merkle", seeds).jobId());
            }
            Map<String, Integer> provedBy = new java.util.TreeMap<>();
            for (int j = 0; j < ids.size(); j++) {
                JobResult r = clients.get((j + 1) % n).await(ids.get(j), java.time.Duration.ofMinutes(10));
                if (r.state() != JobState.DONE) {
                    throw new IllegalStateException(ids.get(j) + " ended " + r.state() + ": " + r.error());
                }
                r.partitions().forEach(p -> provedBy.merge(p.node(), 1, Integer::sum));
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long trips = ds.stream().mapToLong(Daemon::clusterRoundTrips).sum() - trips0;
            long total = (long) jobs * partitions;
            long proved = ds.stream().mapToLong(d -> d.engine().stats().proofs()).sum();
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("nodes", n);
            out.put("backend", backend);
            out.put("partitions", total);
            out.put("seconds", Math.round(seconds * 1000) / 1000.0);
            out.put("partitions_per_s", Math.round(total / seconds * 10) / 10.0);
            out.put("round_trips_per_partition", Math.round((double) trips / total * 100) / 100.0);
            out.put("proved_by", provedBy);
            out.put("proved", proved);
            out.put("each_once", proved == total && provedBy.values().stream().mapToInt(Integer::intValue).sum() == total);
            return out;
        } finally {
            for (ProoflineClient c : clients) {
                c.close();
            }
            for (Daemon d : ds) {
                d.shutdown(java.time.Duration.ofSeconds(5));
            }
        }
    }

    /** Deletes {@code dir} and everything below it, deepest first. */
    private static void deleteTree(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
