package dev.proofline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.CancelProofRequest;
import dev.proofline.api.v1.GetStatusRequest;
import dev.proofline.api.v1.GetStatusResponse;
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.KeyStatus;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.Priority;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The daemon's command-line client: {@code submit}, {@code await}, {@code cancel}, {@code status}. */
final class ClientCommands {

    private ClientCommands() {
    }

    /** Where the daemon is and how to talk to it. */
    static final class Target {
        @Option(names = "--target", defaultValue = "127.0.0.1:50051", paramLabel = "<host:port>",
                description = "the daemon's gRPC address (default: ${DEFAULT-VALUE})")
        String target;

        @Option(names = "--token", description = "bearer token (default: $PROOFLINE_TOKEN)")
        String token;

        @Option(names = "--tls", description = "TLS to the daemon (its certificate checked against the system's CAs)")
        boolean tls;

        @Option(names = "--ca", paramLabel = "<cert.pem>", description = "TLS, trusting this certificate (e.g. the"
                + " daemon's self-signed one)")
        Path ca;

        /** A channel to the target (plaintext, or TLS with --tls); large responses allowed. */
        ManagedChannel channel() {
            NettyChannelBuilder b = NettyChannelBuilder.forTarget(target).maxInboundMessageSize(256 << 20);
            if (ca != null) {
                try {
                    return b.sslContext(io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts.forClient()
                            .trustManager(ca.toFile()).build()).build();
                } catch (javax.net.ssl.SSLException | IllegalArgumentException e) {
                    throw new IllegalArgumentException(ca + ": not a usable certificate: " + e.getMessage());
                }
            }
            return (tls ? b.useTransportSecurity() : b.usePlaintext()).build();
        }

        /** A stub on {@code ch} that sends the bearer token, if there is one. */
        ProvingEngineGrpc.ProvingEngineBlockingStub stub(ManagedChannel ch) {
            ProvingEngineGrpc.ProvingEngineBlockingStub stub = ProvingEngineGrpc.newBlockingStub(ch);
            Metadata m = bearer();
            return m == null ? stub : stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(m));
        }

        /** An asynchronous stub on {@code ch} that sends the bearer token, if there is one. */
        ProvingEngineGrpc.ProvingEngineStub asyncStub(ManagedChannel ch) {
            ProvingEngineGrpc.ProvingEngineStub stub = ProvingEngineGrpc.newStub(ch);
            Metadata m = bearer();
            return m == null ? stub : stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(m));
        }

        /** The authorization header, or null without a token. */
        private Metadata bearer() {
            String t = token != null ? token : System.getenv("PROOFLINE_TOKEN");
            if (t == null || t.isEmpty()) {
                return null;
            }
            Metadata m = new Metadata();
            m.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + t);
            return m;
        }

        /** A gRPC failure as an error that names the code and the problem (input errors: exit code 2). */
        RuntimeException failure(StatusRuntimeException e) {
            io.grpc.Status s = e.getStatus();
            String msg = target + ": " + s.getCode() + (s.getDescription() != null ? ": " + s.getDescription() : "");
            return switch (s.getCode()) {
                case INVALID_ARGUMENT, NOT_FOUND, RESOURCE_EXHAUSTED, UNAUTHENTICATED -> new IllegalArgumentException(msg);
                default -> new IllegalStateException(msg);
            };
        }

        /** Runs {@code call} with a stub; gRPC failures become errors that name the code and the problem. */
        <T> T call(java.util.function.Function<ProvingEngineGrpc.ProvingEngineBlockingStub, T> call, long timeoutMs) {
            ManagedChannel ch = channel();
            try {
                return call.apply(stub(ch).withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS));
            } catch (StatusRuntimeException e) {
                throw failure(e);
            } finally {
                ch.shutdownNow();
            }
        }
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

        @Option(names = "--idempotency-key")
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
            if (total > dev.proofline.daemon.DaemonConfig.parseBytes(streamAbove)) {
                return stream();
            }
            SubmitProofRequest.Builder b = SubmitProofRequest.newBuilder().setCircuitId(circuit)
                    .setPriority(Priority.valueOf(priority.toUpperCase(Locale.ROOT)));
            if (key != null) {
                b.setIdempotencyKey(key);
            }
            if (deadline != null) {
                b.setDeadlineMs(dev.proofline.daemon.DaemonConfig.parseDuration(deadline).toMillis());
            }
            for (Path f : files) {
                b.addPartitions(f.toString().endsWith(".json")
                        ? Partition.newBuilder().setInputJson(Files.readString(f))
                        : Partition.newBuilder().setWtns(ByteString.copyFrom(Files.readAllBytes(f))));
            }
            SubmitProofResponse r = target.call(s -> s.submitProof(b.build()), 60_000);
            return printed(r);
        }

        private int printed(SubmitProofResponse r) {
            System.out.println(r.getJobId());
            if (r.getExisting()) {
                System.err.println("(an existing job: same idempotency key)");
            }
            return 0;
        }

        private int chunkBytes() {
            long n = dev.proofline.daemon.DaemonConfig.parseBytes(chunk);
            if (n < 1 || n > 64 << 20) {
                throw new IllegalArgumentException("--chunk " + chunk + ": between 1 byte and 64MiB");
            }
            return (int) n;
        }

        /** The files through SubmitProofStream: all of one kind (the stream's partitions share one). */
        private int stream() throws Exception {
            boolean json = files.get(0).toString().endsWith(".json");
            if (files.stream().anyMatch(f -> f.toString().endsWith(".json") != json)) {
                throw new IllegalArgumentException("a streamed submission (over --stream-above) takes files of one"
                        + " kind: all .wtns or all .json; submit the others as another job");
            }
            SubmitProofRequest.Builder h = SubmitProofRequest.newBuilder().setCircuitId(circuit)
                    .setPriority(Priority.valueOf(priority.toUpperCase(Locale.ROOT)))
                    .setStreamedPartitions(files.size())
                    .setStreamedKind(json ? dev.proofline.api.v1.PartitionKind.INPUT_JSON
                            : dev.proofline.api.v1.PartitionKind.WTNS);
            if (key != null) {
                h.setIdempotencyKey(key);
            }
            if (deadline != null) {
                h.setDeadlineMs(dev.proofline.daemon.DaemonConfig.parseDuration(deadline).toMillis());
            }
            ManagedChannel ch = target.channel();
            try {
                // no deadline on the whole upload: a large witness over a slow link takes what it takes
                return printed(StreamedSubmission.send(target.asyncStub(ch), h.build(), files, chunkBytes()));
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof StatusRuntimeException s) {
                    throw target.failure(s);
                }
                throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
            } finally {
                ch.shutdownNow();
            }
        }
    }

    @Command(name = "await", mixinStandardHelpOptions = true,
            description = "Wait for a job; write proof-<p>.json and public-<p>.json per partition into --out.")
    static final class Await implements Callable<Integer> {
        @Mixin
        Target target;

        @Parameters(index = "0", paramLabel = "<job-id>")
        String job;

        @Option(names = "--timeout", defaultValue = "10m")
        String timeout;

        @Option(names = "--out", paramLabel = "<dir>", description = "where to write the proofs")
        Path out;

        @Option(names = "--json", description = "print the response as JSON")
        boolean json;

        @Override
        public Integer call() throws Exception {
            long ms = dev.proofline.daemon.DaemonConfig.parseDuration(timeout).toMillis();
            AwaitProofResponse r = target.call(s -> s.awaitProof(AwaitProofRequest.newBuilder().setJobId(job)
                    .setTimeoutMs(ms).build()), ms + 30_000);
            if (out != null && r.getState() == JobState.DONE) {
                Files.createDirectories(out);
                ObjectMapper m = new ObjectMapper();
                for (PartitionResult p : r.getPartitionsList()) {
                    Files.writeString(out.resolve("proof-" + p.getPartition() + ".json"), p.getProofJson());
                    Files.writeString(out.resolve("public-" + p.getPartition() + ".json"),
                            m.writerWithDefaultPrettyPrinter().writeValueAsString(p.getPublicSignalsList()) + "\n");
                }
            }
            if (json) {
                System.out.println(JsonFormat.printer().print(r));
            } else {
                System.out.println(r.getJobId() + " " + r.getState().name().toLowerCase(Locale.ROOT));
                System.out.printf(Locale.ROOT, "%-9s %-20s %10s %10s %10s  %s%n", "partition", "state", "synth ms",
                        "prover ms", "total ms", "node");
                for (PartitionResult p : r.getPartitionsList()) {
                    System.out.printf(Locale.ROOT, "%-9d %-20s %10.0f %10.0f %10.0f  %s%n", p.getPartition(), p.getState(),
                            p.getTimings().getSynthesisMs(), p.getTimings().getProverMs(), p.getTimings().getTotalMs(),
                            p.getNode());
                }
                for (String refusal : r.getRefusalsList()) {
                    System.out.println("refused by " + refusal);
                }
            }
            return r.getState() == JobState.DONE ? 0 : 1;
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancel a job.")
    static final class Cancel implements Callable<Integer> {
        @Mixin
        Target target;

        @Parameters(index = "0", paramLabel = "<job-id>")
        String job;

        @Override
        public Integer call() {
            JobState s = target.call(st -> st.cancelProof(CancelProofRequest.newBuilder().setJobId(job).build()),
                    30_000).getState();
            System.out.println(job + " " + s.name().toLowerCase(Locale.ROOT));
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
        public Integer call() {
            GetStatusResponse s = target.call(st -> st.getStatus(GetStatusRequest.getDefaultInstance()), 30_000);
            if (json) {
                System.out.println(s.getJson());
                return 0;
            }
            System.out.printf(Locale.ROOT, """
                    backend           %s
                    uptime            %d s
                    jobs              %d active, %d submitted
                    partitions        %d proved, %d failed, %d cancelled
                    permits           %d of %d in use (%s: %s)
                    prover busy       %.1f %% (last minute)
                    memory            %d of %d MiB reserved
                    """, s.getBackend(), s.getUptimeMs() / 1000, s.getJobsActive(), s.getJobsSubmitted(), s.getProofs(),
                    s.getFailed(), s.getCancelled(), s.getPermitsInUse(), s.getPermitsMax(),
                    s.getPermitsMode(), s.getPermitsReason(),
                    100 * s.getProverBusyLastMinute(), s.getBudgetReservedBytes() >> 20, s.getBudgetTotalBytes() >> 20);
            for (String d : s.getDevicesList()) {
                System.out.printf(Locale.ROOT, "device            %s%n", d);
            }
            for (KeyStatus k : s.getKeysList()) {
                System.out.printf(Locale.ROOT, "circuit           %-24s %s%n", k.getCircuitId(), k.getResident()
                        ? "resident, " + (k.getBytes() >> 20) + " MiB, " + k.getReferences() + " in use" : "not loaded");
            }
            if (!s.getClusterJson().isEmpty()) {
                printCluster(s.getNodeId(), s.getClusterJson());
            }
            return 0;
        }

        /** The cluster: its nodes (heartbeat, load), partitions by state, and where the recent jobs' partitions run. */
        private static void printCluster(String self, String json) {
            com.fasterxml.jackson.databind.JsonNode c;
            try {
                c = new ObjectMapper().readTree(json);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("the daemon's cluster status is not JSON: " + e.getMessage(), e);
            }
            System.out.println();
            if (c.has("error")) {
                System.out.println("cluster           " + c.get("error").asText());
                return;
            }
            StringBuilder states = new StringBuilder();
            c.get("partitions").fields().forEachRemaining(e -> states.append(states.isEmpty() ? "" : ", ")
                    .append(e.getValue().asLong()).append(' ').append(e.getKey().toLowerCase(Locale.ROOT)));
            System.out.println("cluster           this node: " + self + "; partitions: "
                    + (states.isEmpty() ? "none" : states));
            System.out.printf(Locale.ROOT, "%-20s %-22s %-8s %10s %8s %8s %8s %7s%n", "node", "grpc", "backend",
                    "heartbeat", "permits", "holding", "proofs", "busy");
            for (com.fasterxml.jackson.databind.JsonNode n : c.get("nodes")) {
                long age = n.get("heartbeat_age_ms").asLong();
                String beat = n.get("stopped").asBoolean() ? "stopped" : age < 1000 ? age + " ms" : age / 1000 + " s";
                System.out.printf(Locale.ROOT, "%-20s %-22s %-8s %10s %4d/%-3d %8d %8d %6.1f%%%n", n.get("id").asText(),
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
                System.out.printf(Locale.ROOT, "job %-14s %-18s %-10s%s%n", j.get("id").asText(),
                        j.get("circuit").asText(), j.get("state").asText().toLowerCase(Locale.ROOT), parts);
            }
        }
    }
}
