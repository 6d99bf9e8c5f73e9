package dev.proofline.api;

import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.CancelProofRequest;
import dev.proofline.api.v1.GetStatusRequest;
import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofRequest;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/**
 * A client of a Proofline daemon's gRPC API ({@code proofline.v1.ProvingEngine}): submit jobs, await
 * their proofs, cancel them, read the daemon's state and circuits, with records in and out. One client
 * holds one connection, is safe to share between threads and is closed when done.
 *
 * <p>A call the daemon refuses throws a {@link DaemonException} with its status code and message
 * ({@link DaemonException.NotFoundException} for an unknown circuit or job).
 */
public final class ProoflineClient implements AutoCloseable {

    /** Proofs of many partitions can be large: far more than gRPC's default 4 MiB per message. */
    private static final int MAX_INBOUND_BYTES = 256 << 20;

    private final String target;
    private final ManagedChannel channel;
    private final Metadata bearer;
    private final Duration callTimeout;

    private ProoflineClient(String target, ManagedChannel channel, Metadata bearer, Duration callTimeout) {
        this.target = target;
        this.channel = channel;
        this.bearer = bearer;
        this.callTimeout = callTimeout;
    }

    /** A client of the daemon at {@code target} ({@code host:port}, its gRPC address), in plaintext by default. */
    public static Builder connect(String target) {
        return new Builder(target);
    }

    /** The daemon's address, as given. */
    public String target() {
        return target;
    }

    /** Queues a job of {@code partitions} (one proof each) of {@code circuit}, at normal priority. */
    public JobReceipt submit(String circuit, List<? extends PartitionInput> partitions) {
        return submit(circuit, partitions, JobOptions.DEFAULT);
    }

    /** Queues a job and returns as soon as the daemon has acknowledged it (stored it, where it has a store). */
    public JobReceipt submit(String circuit, List<? extends PartitionInput> partitions, JobOptions options) {
        SubmitProofRequest request = WireRecords.request(circuit, partitions, options);
        return WireRecords.submitted(call(() -> blocking(callTimeout).submitProof(request)));
    }

    /**
     * Queues a job whose partitions are {@code files}, all of one {@code kind}, sent through
     * {@code SubmitProofStream} in chunks of {@code chunkBytes} read as they are sent: a witness of any
     * size costs a chunk of memory here, and the daemon's limit on one message does not apply to it (its
     * limit on a request does). No deadline applies to the upload: a large witness takes what it takes.
     */
    public JobReceipt submitStreamed(String circuit, List<Path> files, PartitionInput.Kind kind, int chunkBytes,
            JobOptions options) throws IOException, InterruptedException {
        if (chunkBytes < 1) {
            throw new IllegalArgumentException("chunks of at least one byte: " + chunkBytes);
        }
        SubmitProofRequest header = WireRecords.request(circuit, options).setStreamedPartitions(files.size())
                .setStreamedKind(WireRecords.kind(kind)).build();
        try {
            return WireRecords.submitted(StreamedSubmission.send(withToken(ProvingEngineGrpc.newStub(channel)), header,
                    files, chunkBytes));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StatusRuntimeException s) {
                throw DaemonException.of(target, s.getStatus(), s);
            }
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Waits up to {@code timeout} for the job to end; returns its state then ({@link JobState#RUNNING} if
     * the wait ended first: the job goes on) and, once done, its proofs. {@link Duration#ZERO} answers at once.
     * A job that ended without proofs throws a {@link DaemonException} with the daemon's code for it:
     * {@code CANCELLED}, {@code DEADLINE_EXCEEDED} (its deadline passed), {@code INVALID_ARGUMENT} (a witness
     * that does not satisfy the circuit) or {@code INTERNAL}.
     */
    public JobResult await(String jobId, Duration timeout) {
        AwaitProofRequest request = AwaitProofRequest.newBuilder().setJobId(jobId).setTimeoutMs(timeout.toMillis())
                .build();
        return WireRecords.result(call(() -> blocking(timeout.plus(callTimeout)).awaitProof(request)));
    }

    /** Submits a job and waits up to {@code timeout} for it, in one call ({@code Prove}). */
    public JobResult prove(String circuit, List<? extends PartitionInput> partitions, JobOptions options,
            Duration timeout) {
        // at least 1 ms: 0 would mean the daemon's default wait (10 minutes)
        SubmitProofRequest request = WireRecords.request(circuit, partitions, options).toBuilder()
                .setAwaitTimeoutMs(Math.max(1, timeout.toMillis())).build();
        return WireRecords.result(call(() -> blocking(timeout.plus(callTimeout)).prove(request)));
    }

    /** Cancels the job (its partitions not yet proved); returns its state after: the one it ended in, if it had. */
    public JobState cancel(String jobId) {
        CancelProofRequest request = CancelProofRequest.newBuilder().setJobId(jobId).build();
        return WireRecords.state(call(() -> blocking(callTimeout).cancelProof(request)).getState());
    }

    /** The daemon's state now. */
    public DaemonStatus status() {
        return WireRecords.status(call(() -> blocking(callTimeout).getStatus(GetStatusRequest.getDefaultInstance())));
    }

    /** The circuits the daemon serves, by id. */
    public List<CircuitInfo> circuits() {
        return WireRecords.circuits(call(() -> blocking(callTimeout).listCircuits(
                ListCircuitsRequest.getDefaultInstance())));
    }

    /** Closes the connection; calls in flight fail with {@code CANCELLED}/{@code UNAVAILABLE}. */
    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private ProvingEngineGrpc.ProvingEngineBlockingStub blocking(Duration deadline) {
        return withToken(ProvingEngineGrpc.newBlockingStub(channel))
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    private <S extends io.grpc.stub.AbstractStub<S>> S withToken(S stub) {
        return bearer == null ? stub : stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(bearer));
    }

    private <T> T call(Supplier<T> rpc) {
        try {
            return rpc.get();
        } catch (StatusRuntimeException e) {
            throw DaemonException.of(target, e.getStatus(), e);
        }
    }

    /** How to reach the daemon: plaintext (the default), TLS, a bearer token, the time a call may take. */
    public static final class Builder {
        private final String target;
        private String token;
        private boolean tls;
        private Path trusted;
        private Duration callTimeout = Duration.ofMinutes(1);

        private Builder(String target) {
            if (target == null || target.isBlank()) {
                throw new IllegalArgumentException("a daemon's address is needed (host:port)");
            }
            this.target = target;
        }

        /** Sends {@code authorization: Bearer <token>} with every call (the daemon's {@code server.auth_token}). */
        public Builder token(String bearerToken) {
            this.token = bearerToken == null || bearerToken.isEmpty() ? null : bearerToken;
            return this;
        }

        /** TLS, the daemon's certificate checked against the system's certificate authorities. */
        public Builder tls() {
            this.tls = true;
            return this;
        }

        /** TLS, trusting the certificate(s) in {@code caPem} (e.g. the daemon's self-signed one). */
        public Builder trust(Path caPem) {
            this.tls = true;
            this.trusted = caPem;
            return this;
        }

        /** How long a call may take (default one minute); an await waits its timeout and this. */
        public Builder callTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("a call timeout must be positive: " + timeout);
            }
            this.callTimeout = timeout;
            return this;
        }

        /** The client; the connection itself is made at the first call. */
        public ProoflineClient build() {
            NettyChannelBuilder b = NettyChannelBuilder.forTarget(target).maxInboundMessageSize(MAX_INBOUND_BYTES);
            if (trusted != null) {
                try {
                    b.sslContext(GrpcSslContexts.forClient().trustManager(trusted.toFile()).build());
                } catch (SSLException | IllegalArgumentException e) {
                    throw new IllegalArgumentException(trusted + ": not a usable certificate: " + e.getMessage(), e);
                }
            } else if (tls) {
                b.useTransportSecurity();
            } else {
                b.usePlaintext();
            }
            Metadata bearer = null;
            if (token != null) {
                bearer = new Metadata();
                bearer.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
            }
            return new ProoflineClient(target, b.build(), bearer, callTimeout);
        }
    }
}
