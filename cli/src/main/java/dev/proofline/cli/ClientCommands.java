package dev.proofline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.api.DaemonException;
import dev.proofline.api.DaemonStatus;
import dev.proofline.api.JobOptions;
import dev.proofline.api.JobReceipt;
import dev.proofline.api.JobResult;
import dev.proofline.api.JobState;
import dev.proofline.api.PartitionInput;
import dev.proofline.api.PartitionProof;
import dev.proofline.api.Priority;
import dev.proofline.api.ProoflineClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Parameters;

/**
 * The daemon's command-line client: {@code submit}, {@code await}, {@code cancel}, {@code status}, each
 * one call of a {@link ProoflineClient}.
 */
public final class ClientCommands {

    private ClientCommands() {
    }

    /** Where the daemon is and how to talk to it. */
    public static final class Target {
        @Option(names = "--target", defaultValue = "127.0.0.1:50051", paramLabel = "<host:port>",
                description = "the daemon's gRPC address (default: ${DEFAULT-VALUE})")
        String target;

        @Option(names = "--token", description = "bearer token (default: $PROOFLINE_TOKEN)")
        String token;

        @Option(names = "--tls", description = "TLS to the daemon (its certificate checked against the system's CAs)")
        boolean tls;

        @Spec(Spec.Target.MIXEE)
        CommandSpec spec;

        @Option(names = "--ca", paramLabel = "<cert.pem>", description = "TLS, trusting this certificate (e.g. the"
                + " daemon's self-signed one)")
        Path ca;

        /** The command's standard output and error (the client's, in the local engine). */
        java.io.PrintWriter out() {
            return spec.commandLine().getOut();
        }

        java.io.PrintWriter err() {
            return spec.commandLine().getErr();
        }

        /** A client of the target (plaintext, or TLS with --tls or --ca) that sends the bearer token, if there is one. */
        public ProoflineClient client(Duration callTimeout) {
            ProoflineClient.Builder b = ProoflineClient.connect(target).callTimeout(callTimeout)
                    .token(token != null ? token : Invocation.of(spec).env().get("PROOFLINE_TOKEN"));
            if (ca != null) {
                b.trust(ca);
            } else if (tls) {
                b.tls();
            }
            return b.build();
        }

        /**
         * A refusal as an error that names the code and the problem (input errors: exit code 2); no daemon
         * at the address (the connection refused or never made) says so, and how to start one.
         */
        RuntimeException failure(DaemonException e) {
            if (e.unavailable() && unreachable(e)) {
                return new IllegalStateException("no daemon answers at " + target + " (" + reason(e)
                        + "): start one with `proofline daemon`, or give its address with --target", e);
            }
            return switch (e.code()) {
                case INVALID_ARGUMENT, NOT_FOUND, RESOURCE_EXHAUSTED, UNAUTHENTICATED ->
                        new IllegalArgumentException(e.getMessage(), e);
                default -> new IllegalStateException(e.getMessage(), e);
            };
        }

        /** Whether the call failed because no connection could be made (nothing listens, no route, no such host). */
        private static boolean unreachable(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException
                        || t instanceof java.net.NoRouteToHostException) {
                    return true;
                }
            }
            return false;
        }

        private static String reason(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.net.UnknownHostException) {
                    return "unknown host";
                }
                if (t instanceof java.net.ConnectException c && c.getMessage() != null) {
                    // "Connection refused: /127.0.0.1:50051" (NIO), "finishConnect(..) failed with error(-111)"
                    // (epoll: ECONNREFUSED)
                    String m = c.getMessage().toLowerCase(java.util.Locale.ROOT);
                    return m.contains("refused") || m.contains("error(-111)") ? "connection refused" : "cannot connect";
                }
            }
            return "no connection";
        }

        /** Runs {@code call} with a client whose calls may take {@code callTimeout}; refusals become {@link #failure}s. */
        <T> T call(ClientCall<T> call, Duration callTimeout) throws Exception {
            try (ProoflineClient client = client(callTimeout)) {
                return call.on(client);
            } catch (DaemonException e) {
                throw failure(e);
            }
        }
    }

    /** One use of a client. */
    @FunctionalInterface
    interface ClientCall<T> {
        T on(ProoflineClient client) throws Exception;
    }

    @Command(name = "submit", mixinStandardHelpOptions = true,
            description = "Submit a job to a daemon: one partition per file (.wtns witness, or .json circom inputs);"
                    + " prints the job id.")
    static final class Submit implements Callable<Integer> {
        @Mixin
        Target target;

        @Option(names = "--circuit", required = true, description = "circuit id")
        String circuit;

        @Option(names = "--priority", defaultValue = "normal", description = "low, normal, high or critical")
        String priority;

        @Option(names = "--idempotency-key", description = "a key of your own (up to 256 characters): a second"
                + " submission with the same key gets the first one's job id instead of a new job")
        String key;

        @Option(names = "--deadline", description = "fail the job after this long (e.g. 5m)")
        String deadline;

        @Option(names = "--stream-above", defaultValue = "32MiB", paramLabel = "<size>",
                description = "send the files through SubmitProofStream, in chunks read as they are sent, when"
                        + " together they are larger than this (default: ${DEFAULT-VALUE}; the daemon refuses"
                        + " single messages over its limits.max_message_bytes, 64MiB by default)")
        String streamAbove;

        @Option(names = "--chunk", defaultValue = "1MiB", paramLabel = "<size>",
                description = "bytes per message of a streamed submission (default: ${DEFAULT-VALUE})")
        String chunk;

        @Parameters(arity = "1..*", paramLabel = "<witness.wtns|input.json>")
        List<Path> files;

        @Override
        public Integer call() throws Exception {
            long total = 0;
            for (Path f : files) {
                total += Files.size(f);
            }
            if (total > dev.proofline.daemon.config.DaemonConfig.parseBytes(streamAbove)) {
                return stream();
            }
            List<PartitionInput> partitions = new ArrayList<>();
            for (Path f : files) {
                partitions.add(json(f) ? new PartitionInput.CircomInput(Files.readString(f))
                        : new PartitionInput.Wtns(Files.readAllBytes(f)));
            }
            return printed(target.call(c -> c.submit(circuit, partitions, options()), Duration.ofMinutes(1)));
        }

        private static boolean json(Path f) {
            return f.toString().endsWith(".json");
        }

        private JobOptions options() {
            return JobOptions.DEFAULT.withPriority(Priority.valueOf(priority.toUpperCase(Locale.ROOT)))
                    .withIdempotencyKey(key)
                    .withDeadline(deadline == null ? null : dev.proofline.daemon.config.DaemonConfig.parseDuration(deadline));
        }

        private int printed(JobReceipt r) {
            target.out().println(r.jobId());
            if (r.existing()) {
                target.err().println("(an existing job: same idempotency key)");
            }
            return 0;
        }

        private int chunkBytes() {
            long n = dev.proofline.daemon.config.DaemonConfig.parseBytes(chunk);
            if (n < 1 || n > 64 << 20) {
                throw new IllegalArgumentException("--chunk " + chunk + ": between 1 byte and 64MiB");
            }
            return (int) n;
        }

        /** The files through SubmitProofStream: all of one kind (the stream's partitions share one). */
        private int stream() throws Exception {
            boolean json = json(files.get(0));
            if (files.stream().anyMatch(f -> json(f) != json)) {
                throw new IllegalArgumentException("a streamed submission (over --stream-above) takes files of one"
                        + " kind: all .wtns or all .json; submit the others as another job");
            }
            PartitionInput.Kind kind = json ? PartitionInput.Kind.CIRCOM_INPUT : PartitionInput.Kind.WTNS;
            JobOptions options = options();
            int chunkBytes = chunkBytes();
            return printed(target.call(c -> c.submitStreamed(circuit, files, kind, chunkBytes, options),
                    Duration.ofMinutes(1)));
        }
    }

    @Command(name = "await", mixinStandardHelpOptions = true,
            description = "Wait for a job; write proof-<p>.json and public-<p>.json per partition into --out.")
    static final class Await implements Callable<Integer> {
        @Mixin
        Target target;

        @Parameters(index = "0", paramLabel = "<job-id>")
        String job;

        @Option(names = "--timeout", defaultValue = "10m", description = "how long to wait for the proofs before giving"
                + " up (e.g. 30s, 10m; default: ${DEFAULT-VALUE})")
        String timeout;

        @Option(names = "--out", paramLabel = "<dir>", description = "where to write the proofs")
        Path out;

        @Option(names = "--json", description = "print the response as JSON")
        boolean json;

        @Override
        public Integer call() throws Exception {
            Duration wait = dev.proofline.daemon.config.DaemonConfig.parseDuration(timeout);
            JobResult r = target.call(c -> c.await(job, wait), Duration.ofSeconds(30));
            if (out != null && r.state() == JobState.DONE) {
                Files.createDirectories(out);
                ObjectMapper m = new ObjectMapper();
                for (PartitionProof p : r.partitions()) {
                    Files.writeString(out.resolve("proof-" + p.partition() + ".json"), p.proofJson());
                    Files.writeString(out.resolve("public-" + p.partition() + ".json"),
                            m.writerWithDefaultPrettyPrinter().writeValueAsString(p.publicSignals()) + "\n");
                }
            }
            if (json) {
                target.out().println(r.json());
            } else {
                target.out().println(r.jobId() + " " + r.state().name().toLowerCase(Locale.ROOT));
                target.out().printf(Locale.ROOT, "%-9s %-20s %10s %10s %10s  %s%n", "partition", "state", "synth ms",
                        "prover ms", "total ms", "node");
                for (PartitionProof p : r.partitions()) {
                    target.out().printf(Locale.ROOT, "%-9d %-20s %10.0f %10.0f %10.0f  %s%n", p.partition(), p.state(),
                            p.timings().synthesisMs(), p.timings().proverMs(), p.timings().totalMs(), p.node());
                }
                for (String refusal : r.refusals()) {
                    target.out().println("refused by " + refusal);
                }
            }
            return r.state() == JobState.DONE ? 0 : 1;
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancel a job.")
    static final class Cancel implements Callable<Integer> {
        @Mixin
        Target target;

        @Parameters(index = "0", paramLabel = "<job-id>")
        String job;

        @Override
        public Integer call() throws Exception {
            JobState s = target.call(c -> c.cancel(job), Duration.ofSeconds(30));
            target.out().println(job + " " + s.name().toLowerCase(Locale.ROOT));
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "A daemon's state.")
    static final class Status implements Callable<Integer> {
        @Mixin
        Target target;

        @Option(names = "--json", description = "the full snapshot as JSON")
        boolean json;

        @Override
        public Integer call() throws Exception {
            DaemonStatus s = target.call(ProoflineClient::status, Duration.ofSeconds(30));
            if (json) {
                target.out().println(s.json());
                return 0;
            }
            target.out().printf(Locale.ROOT, """
                    backend           %s
                    uptime            %d s
                    jobs              %d active, %d submitted
                    partitions        %d proved, %d failed, %d cancelled
                    permits           %d of %d in use (%s: %s)
                    prover busy       %.1f %% (last minute)
                    memory            %d of %d MiB reserved
                    """, s.backend(), s.uptime().toSeconds(), s.jobsActive(), s.jobsSubmitted(), s.proofs(),
                    s.failed(), s.cancelled(), s.permits().inUse(), s.permits().max(),
                    s.permits().mode(), s.permits().reason(),
                    100 * s.proverBusyLastMinute(), s.budgetReservedBytes() >> 20, s.budgetTotalBytes() >> 20);
            for (String d : s.devices()) {
                target.out().printf(Locale.ROOT, "device            %s%n", d);
            }
            for (DaemonStatus.KeyState k : s.keys()) {
                target.out().printf(Locale.ROOT, "circuit           %-24s %s%n", k.circuitId(), k.resident()
                        ? "resident, " + (k.bytes() >> 20) + " MiB, " + k.references() + " in use" : "not loaded");
            }
            if (!s.clusterJson().isEmpty()) {
                printCluster(target.out(), s.nodeId(), s.clusterJson());
            }
            return 0;
        }

        /** The cluster: its nodes (heartbeat, load), partitions by state, and where the recent jobs' partitions run. */
        private static void printCluster(java.io.PrintWriter out, String self, String json) {
            com.fasterxml.jackson.databind.JsonNode c;
            try {
                c = new ObjectMapper().readTree(json);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("the daemon's cluster status is not JSON: " + e.getMessage(), e);
            }
            out.println();
            if (c.has("error")) {
                out.println("cluster           " + c.get("error").asText());
                return;
            }
            StringBuilder states = new StringBuilder();
            c.get("partitions").fields().forEachRemaining(e -> states.append(states.isEmpty() ? "" : ", ")
                    .append(e.getValue().asLong()).append(' ').append(e.getKey().toLowerCase(Locale.ROOT)));
            out.println("cluster           this node: " + self + "; partitions: "
                    + (states.isEmpty() ? "none" : states));
            out.printf(Locale.ROOT, "%-20s %-22s %-8s %10s %8s %8s %8s %7s%n", "node", "grpc", "backend",
                    "heartbeat", "permits", "holding", "proofs", "busy");
            for (com.fasterxml.jackson.databind.JsonNode n : c.get("nodes")) {
                long age = n.get("heartbeat_age_ms").asLong();
                String beat = n.get("stopped").asBoolean() ? "stopped" : age < 1000 ? age + " ms" : age / 1000 + " s";
                out.printf(Locale.ROOT, "%-20s %-22s %-8s %10s %4d/%-3d %8d %8d %6.1f%%%n", n.get("id").asText(),
                        n.get("grpc").asText(), n.get("backend").asText(), beat, n.get("permits_in_use").asInt(),
                        n.get("permits_max").asInt(), n.get("holding").asLong(), n.get("proofs").asLong(),
                        100 * n.get("prover_busy").asDouble());
            }
            for (com.fasterxml.jackson.databind.JsonNode j : c.get("recent")) {
                StringBuilder parts = new StringBuilder();
                for (com.fasterxml.jackson.databind.JsonNode p : j.get("partitions")) {
                    parts.append(' ').append(p.get("state").asText().toLowerCase(Locale.ROOT))
                            .append(p.get("node").isNull() ? "" : "@" + p.get("node").asText());
                }
                out.printf(Locale.ROOT, "job %-14s %-18s %-10s%s%n", j.get("id").asText(),
                        j.get("circuit").asText(), j.get("state").asText().toLowerCase(Locale.ROOT), parts);
            }
        }
    }
}
