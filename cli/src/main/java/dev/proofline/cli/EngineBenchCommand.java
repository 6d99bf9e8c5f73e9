package dev.proofline.cli;

import dev.proofline.engine.BufferPool;
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

    @Option(names = "--backend", defaultValue = "sim", description = "sim (the only one wired here so far)")
    String backend;

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
        if (!backend.equals("sim")) {
            throw new IllegalArgumentException("backend '" + backend + "' is not wired into bench engine yet (sim)");
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
        long t0 = System.nanoTime();
        try (Engine e = new Engine(cfg, new SimBackend(proveMs, finishMs, x -> false))) {
            List<Engine.Job> submitted = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                submitted.add(e.submit(new SimBackend.Job(partitions, synthMs, bytes, p -> false), Priority.NORMAL));
            }
            for (Engine.Job j : submitted) {
                j.result().get(10, TimeUnit.MINUTES);
            }
            double wallMin = (System.nanoTime() - t0) / 6e10;
            Engine.Stats st = e.stats();
            BufferPool.Stats ps = e.pool().stats();
            System.out.printf(Locale.ROOT, "{\"dispatch\":\"%s\",\"backend\":\"sim\",\"proofs\":%d,\"proofs_per_min\":%.1f,"
                    + "\"prover_busy\":%.3f,\"prover_busy_steady\":%.3f,\"pool_checkouts\":%d,\"pool_reuses\":%d,\"pool_allocations\":%d,"
                    + "\"peak_reserved_bytes\":%d,\"budget_bytes\":%d,\"permits_leaked\":%d,\"synth_ms_avg\":%.1f,"
                    + "\"prover_ms_avg\":%.1f}%n", mode.name().toLowerCase(Locale.ROOT), st.proofs(),
                    st.proofs() / wallMin, st.proverBusy(), e.steadyProverBusy(), ps.checkouts(), ps.reuses(), ps.allocations(),
                    e.budget().peak(), e.budget().total(),
                    mode == Engine.Dispatch.REACTIVE ? e.permits().max() - e.permits().available() : 0,
                    st.synthMsAvg(), st.proverMsAvg());
        }
    }
}
