package dev.proofline.lab;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.BufferPool;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.JobSpec;
import dev.proofline.engine.Priority;
import dev.proofline.engine.SimBackend;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.CpuBackend;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.circuits.Builtins;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.RecordingSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code proofline bench engine}: an embedded engine on a workload, and what it did (a summary, or one
 * JSON line): on the simulated backend ({@code sim}: synthesis and prover durations given, a
 * GPU-like workload on a machine without one), or real proofs on the CPU backend.
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = "Run an embedded engine on a workload (simulated, or real proofs on the CPU) and print what it"
                + " did (a summary, or one JSON line).")
final class EngineBenchCommand implements Callable<Integer> {

    @Option(names = "--jobs", defaultValue = "20", description = "jobs to submit (default: ${DEFAULT-VALUE})")
    int jobs;

    @Option(names = "--partitions", defaultValue = "10", description = "partitions (independent proofs) per job (default:"
            + " ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--backend", defaultValue = "sim", description = "sim (simulated durations) or cpu (real proofs)")
    String backend;

    @Option(names = "--circuit", defaultValue = "builtin:merkle-post",
            description = "with --backend cpu: builtin:merkle-post, or a circom key (.zkey) with --witness")
    String circuit;

    @Option(names = "--witness", description = "with --circuit <zkey>: the witness (.wtns) every partition proves")
    java.nio.file.Path witness;

    @Option(names = "--r1cs", description = "with --circuit <zkey>: its constraint system, for a, b, c by the PCE")
    java.nio.file.Path r1cs;

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

    @Option(names = {"--permits", "--depth"}, defaultValue = "auto",
            description = "prover-queue permits: auto (sized by the engine) or a number")
    String permits;

    @Option(names = "--synthesis-threads", defaultValue = "4", description = "threads that synthesize partitions"
            + " (default: ${DEFAULT-VALUE})")
    int synthThreads;

    @Option(names = "--budget", defaultValue = "4294967296", description = "memory budget, bytes")
    long budget;

    @Option(names = "--json", description = "one JSON line instead of a summary")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (!backend.equals("sim") && !backend.equals("cpu")) {
            throw new IllegalArgumentException("unknown backend '" + backend + "' (sim or cpu)");
        }
        EngineConfig cfg = EngineConfig.builder().permits(permitCount(permits)).synthesisThreads(synthThreads)
                .proverWorkers(1).finalizerThreads(2).budgetBytes(budget).timelineCapacity(100_000).build();
        RealWorkload real = !backend.equals("cpu") ? null : circuit.startsWith("builtin:")
                ? RealWorkload.make(circuit, Builtins.curve(curve), constraints, partitions)
                : RealWorkload.zkey(java.nio.file.Path.of(circuit), witness, r1cs, partitions);
        try (var e = new Engine<>(cfg, real != null ? new CpuBackend() : new SimBackend(proveMs, finishMs))) {
            if (real != null) {
                real.register(e); // key loaded and PCE extracted before the clock starts
            }
            long t0 = System.nanoTime();
            List<Engine.Job<?>> submitted = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                submitted.add(e.submit(real != null ? real.job(e) : new SimBackend.Job(partitions, synthMs, bytes),
                        Priority.NORMAL));
            }
            for (Engine.Job<?> j : submitted) {
                j.result().get(10, TimeUnit.MINUTES);
            }
            double wallMin = (System.nanoTime() - t0) / 6e10;
            Engine.Stats st = e.stats();
            BufferPool.Stats ps = e.pool().stats();
            // what each stage could do alone: prover workers over the device half, synthesis threads over synthesis
            double proverCapacity = cfg.proverWorkers() * 60_000 / st.proverMsAvg();
            double synthCapacity = cfg.synthesisThreads() * 60_000 / st.synthMsAvg();
            double slower = Math.min(proverCapacity, synthCapacity);
            java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
            out.put("backend", backend);
            out.put("circuit", real != null ? real.description() : String.format(Locale.ROOT,
                    "simulated (synthesis %d ms, prover %d ms, finalize %d ms, %d KiB per partition)", synthMs, proveMs,
                    finishMs, bytes >> 10));
            out.put("proofs", st.proofs());
            out.put("proofs_per_min", round(st.proofs() / wallMin, 1));
            out.put("slower_stage_capacity_per_min", round(slower, 1));
            out.put("throughput_vs_capacity", round(st.proofs() / wallMin / slower, 3));
            out.put("prover_busy", round(st.proverBusy(), 3));
            out.put("prover_busy_steady", Double.isNaN(e.steadyProverBusy()) ? null : round(e.steadyProverBusy(), 3));
            out.put("pool_checkouts", ps.checkouts());
            out.put("pool_reuses", ps.reuses());
            out.put("pool_allocations", ps.allocations());
            out.put("pool_reuse_ratio", round(ps.reuseRatio(), 3));
            out.put("peak_reserved_bytes", e.budget().peak());
            out.put("budget_bytes", e.budget().total());
            out.put("permits_leaked", e.permits().inUse());
            out.put("permits", e.permitSizing().mode() + " " + e.permits().max());
            out.put("permits_reason", e.permitSizing().reason());
            out.put("steady_throughput_vs_capacity", round(e.steadyThroughputPerMs() * 60_000 / slower, 3));
            out.put("synth_ms_avg", round(st.synthMsAvg(), 1));
            out.put("prover_ms_avg", round(st.proverMsAvg(), 1));
            if (json) {
                System.out.println(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(out));
            } else {
                System.out.print(summary(out, wallMin * 60));
            }
            if (real != null) {
                real.close();
            }
        }
        return 0;
    }

    /** The figures of one run for a person. */
    private static String summary(java.util.Map<String, Object> o, double seconds) {
        long checkouts = (long) o.get("pool_checkouts");
        return String.format(Locale.ROOT, """
                %s backend, %s
                  %d proofs in %.1f s: %.1f proofs/min (%.2f of the slower stage's %.1f/min)
                  prover busy %.3f (steady state %s); per partition: synthesis %.0f ms, prover %.0f ms
                  pool: %d checkouts, %d served by reuse (%.0f%%), %d allocations
                  steady throughput %.3f of the slower stage's capacity; permits: %s (%s)
                  memory: peak %d MiB reserved of a %d MiB budget; permits leaked: %d
                """, o.get("backend"), o.get("circuit"), o.get("proofs"), seconds,
                o.get("proofs_per_min"), o.get("throughput_vs_capacity"), o.get("slower_stage_capacity_per_min"),
                o.get("prover_busy"), o.get("prover_busy_steady") == null ? "n/a: too few proofs"
                        : o.get("prover_busy_steady").toString(),
                o.get("synth_ms_avg"), o.get("prover_ms_avg"), checkouts, o.get("pool_reuses"),
                checkouts == 0 ? 0.0 : 100.0 * (long) o.get("pool_reuses") / checkouts, o.get("pool_allocations"),
                o.get("steady_throughput_vs_capacity"), o.get("permits"), o.get("permits_reason"),
                (long) o.get("peak_reserved_bytes") >> 20, (long) o.get("budget_bytes") >> 20, o.get("permits_leaked"));
    }

    /** {@code auto} or a number of permits, as {@link EngineConfig} takes it. */
    static int permitCount(String permits) {
        if (permits.equalsIgnoreCase("auto")) {
            return EngineConfig.AUTO_PERMITS;
        }
        try {
            int n = Integer.parseInt(permits);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("--permits: 'auto' or a number of at least 1, not '" + permits + "'");
    }

    private static double round(double x, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(x * f) / f;
    }

    /**
     * Real proofs for {@code bench engine --backend cpu}: a built-in circuit's instances (one per
     * partition, from seeds) with a development key made for it, or a circom key with one witness for
     * every partition; registered with the engine, whose synthesis computes the witness (built-in) and
     * a, b, c by the PCE (built-in, or circom with --r1cs), and whose CPU backend proves and verifies.
     */
    private record RealWorkload(Circuits.Registered circuit, List<CircuitJob.Partition> partitions, String description,
            java.nio.file.Path tempDir) implements AutoCloseable {

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
            return new RealWorkload(new Circuits.Java(name.replace("builtin:", "builtin."), zkey, curve, shape), parts,
                    name + " (" + curve.snarkjsName() + ", " + r1cs.constraintCount() + " constraints)", dir);
        }

        static RealWorkload zkey(java.nio.file.Path zkey, java.nio.file.Path witness, java.nio.file.Path r1cs,
                int partitions) throws java.io.IOException {
            if (witness == null) {
                throw new IllegalArgumentException("--circuit " + zkey + " needs --witness <file.wtns>");
            }
            byte[] bytes = java.nio.file.Files.readAllBytes(witness);
            List<CircuitJob.Partition> parts = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                parts.add(new CircuitJob.Wtns(bytes));
            }
            return new RealWorkload(new Circuits.Circom("bench", zkey, null, r1cs), parts,
                    zkey.getFileName() + (r1cs != null ? " (PCE from " + r1cs.getFileName() + ")" : ""), null);
        }

        void register(Engine<?> e) throws InterruptedException {
            Circuits.of(e).register(circuit);
            Circuits.of(e).preload(circuit.id());
        }

        JobSpec<?> job(Engine<?> e) throws InterruptedException {
            return new CircuitJob(Circuits.of(e), circuit.id(), partitions);
        }

        @Override
        public void close() throws java.io.IOException {
            if (tempDir != null) {
                java.nio.file.Files.deleteIfExists(circuit.zkey());
                java.nio.file.Files.deleteIfExists(tempDir);
            }
        }
    }
}
