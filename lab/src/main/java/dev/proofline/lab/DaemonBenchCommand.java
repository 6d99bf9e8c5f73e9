package dev.proofline.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.api.DaemonException;
import dev.proofline.api.JobOptions;
import dev.proofline.api.JobResult;
import dev.proofline.api.JobState;
import dev.proofline.api.PartitionInput;
import dev.proofline.api.ProoflineClient;
import dev.proofline.cli.ClientCommands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code proofline bench daemon}: load on a running daemon, reporting throughput and the latency
 * distribution of its requests (HdrHistogram): {@code single} (one Prove at a time), {@code batch}
 * (jobs of several partitions, all submitted, then awaited), {@code stress} (several clients
 * proving in a loop at once) or {@code submit} (several clients submitting as fast as the daemon
 * acknowledges, the latency being that of SubmitProof alone; then every job is awaited, and the
 * throughput is of the proofs).
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = "Load a running daemon and report throughput and latency percentiles.")
final class DaemonBenchCommand implements Callable<Integer> {

    @Mixin
    ClientCommands.Target target;

    @Option(names = "--mode", defaultValue = "single", description = "single, batch, stress or submit")
    String mode;

    @Option(names = "--circuit", required = true, description = "circuit id")
    String circuit;

    @Option(names = "--witness", required = true, description = "the witness (.wtns) every partition proves")
    Path witness;

    @Option(names = "--requests", defaultValue = "10", description = "requests (jobs) in all")
    int requests;

    @Option(names = "--partitions", defaultValue = "1", description = "partitions per request")
    int partitions;

    @Option(names = "--clients", defaultValue = "4", description = "concurrent clients (stress)")
    int clients;

    @Option(names = "--json", description = "one JSON line instead of a summary")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (!List.of("single", "batch", "stress", "submit").contains(mode)) {
            throw new IllegalArgumentException("unknown mode '" + mode + "' (single, batch, stress or submit)");
        }
        PartitionInput p = new PartitionInput.Wtns(Files.readAllBytes(witness));
        List<PartitionInput> request = java.util.Collections.nCopies(partitions, p);
        Recorder latency = new Recorder(3);
        AtomicInteger errors = new AtomicInteger();
        AtomicLong proofs = new AtomicLong();
        List<String> firstErrors = new java.util.concurrent.CopyOnWriteArrayList<>();
        long t0 = System.nanoTime();
        try (ProoflineClient client = target.client(Duration.ofMinutes(1))) {
            int threads = switch (mode) {
                case "stress", "submit" -> clients;
                case "batch" -> Math.max(1, requests);
                default -> 1;
            };
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> running = new ArrayList<>();
            List<String> submitted = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int c = 0; c < threads; c++) {
                running.add(pool.submit(() -> {
                    while (next.getAndIncrement() < requests) {
                        long s = System.nanoTime();
                        if (mode.equals("submit")) {
                            try {
                                submitted.add(client.submit(circuit, request).jobId());
                                latency.recordValue((System.nanoTime() - s) / 1000);
                            } catch (DaemonException e) {
                                errors.incrementAndGet();
                                if (firstErrors.size() < 3) {
                                    firstErrors.add(e.code() + ": " + e.description());
                                }
                            }
                            continue;
                        }
                        try {
                            JobResult r = client.prove(circuit, request, JobOptions.DEFAULT, Duration.ofMinutes(10));
                            if (r.state() == JobState.DONE) {
                                proofs.addAndGet(r.partitions().size());
                                latency.recordValue((System.nanoTime() - s) / 1000);
                            } else {
                                errors.incrementAndGet();
                            }
                        } catch (DaemonException e) {
                            errors.incrementAndGet();
                            if (firstErrors.size() < 3) {
                                firstErrors.add(e.code() + ": " + e.description());
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            pool.shutdown();
            for (String id : submitted) {
                JobResult r = client.await(id, Duration.ofMinutes(10));
                if (r.state() == JobState.DONE) {
                    proofs.addAndGet(r.partitions().size());
                } else {
                    errors.incrementAndGet();
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        var h = latency.getIntervalHistogram();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mode", mode);
        out.put("circuit", circuit);
        out.put("requests", requests);
        out.put("partitions_per_request", partitions);
        out.put("clients", mode.equals("stress") || mode.equals("submit") ? clients : mode.equals("batch") ? requests : 1);
        out.put("proofs", proofs.get());
        out.put("errors", errors.get());
        out.put("seconds", Math.round(seconds * 1000) / 1000.0);
        out.put("proofs_per_min", Math.round(proofs.get() / seconds * 600) / 10.0);
        out.put("latency_ms_p50", h.getValueAtPercentile(50) / 1000.0);
        out.put("latency_ms_p90", h.getValueAtPercentile(90) / 1000.0);
        out.put("latency_ms_p99", h.getValueAtPercentile(99) / 1000.0);
        out.put("latency_ms_max", h.getMaxValue() / 1000.0);
        if (json) {
            System.out.println(new ObjectMapper().writeValueAsString(out));
        } else {
            System.out.printf(Locale.ROOT, """
                    %s: %d requests of %d partition(s) on %s, %s client(s)
                      %d proofs in %.1f s: %.1f proofs/min; %d errors
                      latency per %s (ms): p50 %.1f, p90 %.1f, p99 %.1f, max %.1f
                    """, mode, requests, partitions, circuit, out.get("clients"), proofs.get(), seconds,
                    out.get("proofs_per_min"), errors.get(), mode.equals("submit") ? "submission" : "request",
                    out.get("latency_ms_p50"), out.get("latency_ms_p90"),
                    out.get("latency_ms_p99"), out.get("latency_ms_max"));
        }
        for (String e : firstErrors) {
            System.err.println("error: " + e);
        }
        return errors.get() == 0 ? 0 : 1;
    }
}
