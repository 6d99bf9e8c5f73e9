package dev.proofline.cli;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.BufferPool;
import dev.proofline.engine.CpuBackend;
import dev.proofline.engine.JobSpec;
import dev.proofline.engine.CircuitJob;
import dev.proofline.engine.Circuits;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.engine.Engine;
import dev.proofline.engine.Priority;
import dev.proofline.engine.SimBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code proofline bench engine}: an embedded engine on a workload, one JSON line of what it did. For
 * now on the simulated backend ({@code sim}: synthesis and prover durations given), which is what the
 * comparison of dispatch modes needs; real circuits follow with the CPU backend.
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = "Run an embedded engine on a simulated workload and print what it did (JSON).")
final class EngineBenchCommand implements Callable<Integer> {

    @Option(names = "--jobs", defaultValue = "20")
    int jobs;

    @Option(names = "--partitions", defaultValue = "10")
    int partitions;

    @Option(names = "--backend", defaultValue = "sim", description = "sim (simulated durations) or cpu (real proofs)")
    String backend;

    @Option(names = "--circuit", defaultValue = "builtin:merkle-post", description = "with --backend cpu")
    String circuit;

    @Option(names = "--constraints", defaultValue = "16384", description = "with --backend cpu")
    long constraints;

    @Option(names = "--curve", defaultValue = "bn254", description = "with --backend cpu: bn254 or bls12381")
    String curve;

    @Option(names = "--synth-ms", defaultValue = "40", description = "simulated synthesis time per partition")
    long synthMs;

    @Option(names = "--prove-ms", defaultValue = "20", description = "simulated prover (device) time per partition")
    long proveMs;

    @Option(names = "--finish-ms", defaultValue = "5", description = "simulated finalize time per partition")
    long finishMs;

    @Option(names = "--bytes", defaultValue = "67108864", description = "working set per partition")
    long bytes;

    @Option(names = "--depth", defaultValue = "2", description = "maxProverQueueDepth")
    int depth;

    @Option(names = "--synthesis-threads", defaultValue = "4")
    int synthThreads;

    @Option(names = "--budget", defaultValue = "4294967296", description = "memory budget, bytes")
    long budget;

    @Option(names = "--dispatch", defaultValue = "reactive", description = "reactive or poll")
    String dispatch;

    @Option(names = "--compare", description = "run reactive and poll on the same workload, one line each")
    boolean compare;

    @Option(names = "--json", description = "JSON output (the only output; kept for scripts)")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (!backend.equals("sim") && !backend.equals("cpu")) {
            throw new IllegalArgumentException("unknown backend '" + backend + "' (sim or cpu)");
        }
        List<Engine.Dispatch> modes = compare ? List.of(Engine.Dispatch.REACTIVE, Engine.Dispatch.POLL)
                : List.of(Engine.Dispatch.valueOf(dispatch.toUpperCase(Locale.ROOT)));
        for (Engine.Dispatch mode : modes) {
            run(mode);
        }
        return 0;
    }

    private void run(Engine.Dispatch mode) throws Exception {
        Engine.Config cfg = new Engine.Config(depth, synthThreads, 1, 2, budget, 100_000, mode);
        RealWorkload real = backend.equals("cpu") ? RealWorkload.make(circuit, Builtins.curve(curve), constraints,
                partitions) : null;
        try (Engine e = new Engine(cfg, real != null ? new CpuBackend() : new SimBackend(proveMs, finishMs, x -> false))) {
            if (real != null) {
                real.register(e); // key loaded and PCE extracted before the clock starts
            }
            long t0 = System.nanoTime();
            List<Engine.Job> submitted = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                submitted.add(e.submit(real != null ? real.job(e) : new SimBackend.Job(partitions, synthMs, bytes,
                        p -> false), Priority.NORMAL));
            }
            for (Engine.Job j : submitted) {
                j.result().get(10, TimeUnit.MINUTES);
            }
            double wallMin = (System.nanoTime() - t0) / 6e10;
            Engine.Stats st = e.stats();
            BufferPool.Stats ps = e.pool().stats();
            System.out.printf(Locale.ROOT, "{\"dispatch\":\"%s\",\"backend\":\"" + backend + "\",\"proofs\":%d,\"proofs_per_min\":%.1f,"
                    + "\"prover_busy\":%.3f,\"prover_busy_steady\":%s,\"pool_checkouts\":%d,\"pool_reuses\":%d,\"pool_allocations\":%d,"
                    + "\"peak_reserved_bytes\":%d,\"budget_bytes\":%d,\"permits_leaked\":%d,\"synth_ms_avg\":%.1f,"
                    + "\"prover_ms_avg\":%.1f}%n", mode.name().toLowerCase(Locale.ROOT), st.proofs(),
                    st.proofs() / wallMin, st.proverBusy(), steady(e.steadyProverBusy()), ps.checkouts(), ps.reuses(), ps.allocations(),
                    e.budget().peak(), e.budget().total(),
                    mode == Engine.Dispatch.REACTIVE ? e.permits().max() - e.permits().available() : 0,
                    st.synthMsAvg(), st.proverMsAvg());
            if (real != null) {
                real.close();
            }
        }
    }

    /** A JSON number, or null when there were too few prover runs to leave ramp-up and drain out. */
    private static String steady(double busy) {
        return Double.isNaN(busy) ? "null" : String.format(Locale.ROOT, "%.3f", busy);
    }

    /**
     * Real proofs for {@code bench engine --backend cpu}: a built-in circuit's instances (one per
     * partition, from seeds) and a development key made for it, registered with the engine; synthesis
     * computes the witness and a, b, c by the PCE, the CPU backend proves and verifies.
     */
    private record RealWorkload(String id, Circuit shape, List<CircuitJob.Partition> partitions,
            java.nio.file.Path dir, java.nio.file.Path zkey, PairingCurve curve) implements AutoCloseable {

        static RealWorkload make(String name, PairingCurve curve, long constraints, int partitions) throws Exception {
            List<CircuitJob.Partition> parts = new ArrayList<>();
            Circuit shape = null;
            for (int p = 0; p < partitions; p++) {
                Circuit c = Builtins.circuit(name, curve, constraints, MerklePost.DEFAULT_DEPTH, false, 1 + p);
                shape = shape == null ? c : shape;
                parts.add(new CircuitJob.Instance(c));
            }
            R1cs r1cs = RecordingSystem.record(curve, shape);
            java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("proofline-bench");
            java.nio.file.Path zkey = dir.resolve("circuit.zkey");
            System.err.println("bench engine: " + r1cs.constraintCount() + " constraints, development key (insecure)"
                    + " at " + zkey);
            DevSetup.run(r1cs, zkey);
            return new RealWorkload(name.replace("builtin:", "builtin."), shape, parts, dir, zkey, curve);
        }

        void register(Engine e) throws InterruptedException {
            e.circuits().register(new Circuits.Java(id, zkey, curve, shape));
            e.circuits().preload(id);
        }

        JobSpec job(Engine e) throws InterruptedException {
            return new CircuitJob(e.circuits(), id, partitions);
        }

        @Override
        public void close() throws java.io.IOException {
            java.nio.file.Files.deleteIfExists(zkey);
            java.nio.file.Files.deleteIfExists(dir);
        }
    }
}
