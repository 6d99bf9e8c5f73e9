package dev.proofline.daemon.transport.grpc;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.AwaitProofRequest;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.CancelProofRequest;
import dev.proofline.api.v1.CancelProofResponse;
import dev.proofline.api.v1.CircuitInfo;
import dev.proofline.api.v1.GetMetricsRequest;
import dev.proofline.api.v1.GetMetricsResponse;
import dev.proofline.api.v1.GetStatusRequest;
import dev.proofline.api.v1.GetStatusResponse;
import dev.proofline.api.v1.KeyRequest;
import dev.proofline.api.v1.KeyResponse;
import dev.proofline.api.v1.KeyStatus;
import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.ListCircuitsResponse;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionKind;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofChunk;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.jobs.JobResult;
import dev.proofline.daemon.jobs.ProofJobs;
import dev.proofline.daemon.jobs.SatisfactionCheck;
import dev.proofline.daemon.jobs.SubmitChecks;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineStatus;
import dev.proofline.engine.Priority;
import dev.proofline.engine.ResidentCache;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.ProofResult;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.wasm.CircomInput;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The {@code proofline.v1.ProvingEngine} service over an {@link Engine}. Requests name circuits by id;
 * witnesses are checked against the circuit's key when they are submitted, so a bad one is an
 * {@code INVALID_ARGUMENT} at once. Failures are status codes whose message names the problem. The
 * checked jobs go to {@link ProofJobs}: the engine's memory, or a durable queue (cluster mode, or a
 * single daemon's store).
 */
public final class ProvingService extends ProvingEngineGrpc.ProvingEngineImplBase {

    private final Engine<ProofResult> engine;
    private final DaemonConfig config;
    private final Supplier<String> metrics;
    private final long maxRequestBytes;
    private final Duration maxAwait;
    private volatile boolean accepting = true;
    /** Where the jobs live: the engine's memory, or a durable queue. */
    private final ProofJobs jobs;

    public ProvingService(Engine<ProofResult> engine, DaemonConfig config, Supplier<String> metrics, ProofJobs jobs) {
        this.jobs = jobs;
        this.engine = engine;
        this.config = config;
        this.metrics = metrics;
        this.maxRequestBytes = DaemonConfig.parseBytes(config.limits().maxRequestBytes());
        this.maxAwait = DaemonConfig.parseDuration(config.limits().maxAwait());
    }

    /** From now on submissions are refused with {@code UNAVAILABLE} (shutting down). */
    public void stopAccepting() {
        accepting = false;
    }

    // ------------------------------------------------------------------ submit

    @Override
    public void submitProof(SubmitProofRequest req, StreamObserver<SubmitProofResponse> out) {
        respond(out, () -> submit(req, partitions(req.getPartitionsList())));
    }

    @Override
    public void prove(SubmitProofRequest req, StreamObserver<AwaitProofResponse> out) {
        try {
            SubmitProofResponse sub = submit(req, partitions(req.getPartitionsList()));
            answer(jobs.await(sub.getJobId(), SubmitChecks.waitOf(req.getAwaitTimeoutMs(), Duration.ofMinutes(10),
                    maxAwait)), out);
        } catch (Throwable t) {
            out.onError(FailureStatus.of(t));
        }
    }

    @Override
    public StreamObserver<SubmitProofChunk> submitProofStream(StreamObserver<SubmitProofResponse> out) {
        return new StreamObserver<>() {
            private SubmitProofRequest header;
            /** Each streamed partition's chunks, as received: joined without a copy when the stream ends. */
            private final List<List<ByteString>> parts = new ArrayList<>();
            private long total;
            private boolean failed;

            @Override
            public void onNext(SubmitProofChunk c) {
                if (failed) {
                    return;
                }
                try {
                    if (c.hasHeader()) {
                        if (header != null) {
                            throw invalid("a second header in the stream");
                        }
                        header = c.getHeader();
                        // uint32 on the wire: 2^32 - 1 is a count, not -1
                        long n = Integer.toUnsignedLong(header.getStreamedPartitions());
                        checkPartitionCount(n + header.getPartitionsCount());
                        for (int i = 0; i < n; i++) {
                            parts.add(new ArrayList<>());
                        }
                        total = header.getSerializedSize();
                    } else {
                        if (header == null) {
                            throw invalid("the stream must start with a header");
                        }
                        long p = Integer.toUnsignedLong(c.getChunk().getPartition());
                        if (p >= parts.size()) {
                            throw invalid("chunk for partition " + p + ", the header announced " + parts.size()
                                    + " streamed partition(s)");
                        }
                        total += c.getChunk().getData().size();
                        if (total > maxRequestBytes) {
                            throw Status.RESOURCE_EXHAUSTED.withDescription("the request exceeds "
                                    + config.limits().maxRequestBytes() + " (limits.max_request_bytes)")
                                    .asRuntimeException();
                        }
                        parts.get((int) p).add(c.getChunk().getData());
                    }
                } catch (Throwable t) {
                    failed = true;
                    out.onError(FailureStatus.of(t));
                }
            }

            @Override
            public void onError(Throwable t) {
                failed = true;
            }

            @Override
            public void onCompleted() {
                if (failed) {
                    return;
                }
                respond(out, () -> {
                    if (header == null) {
                        throw invalid("empty stream: no header");
                    }
                    List<Partition> all = new ArrayList<>(header.getPartitionsList());
                    boolean json = header.getStreamedKind() == PartitionKind.INPUT_JSON;
                    for (List<ByteString> chunks : parts) {
                        // a rope over the chunks: no copy until the witness is read
                        ByteString b = ByteString.copyFrom(chunks);
                        all.add(json ? Partition.newBuilder().setInputJson(b.toStringUtf8()).build()
                                : Partition.newBuilder().setWtns(b).build());
                    }
                    parts.clear();
                    return submit(header, partitions(all));
                });
            }
        };
    }

    private void checkPartitionCount(long n) {
        if (n > config.limits().maxPartitions()) {
            throw Status.RESOURCE_EXHAUSTED.withDescription(n + " partitions; at most "
                    + config.limits().maxPartitions() + " per job (limits.max_partitions)").asRuntimeException();
        }
    }

    private static StatusRuntimeException invalid(String message) {
        return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
    }

    /** The request's partitions as the engine takes them (not yet checked against the circuit). */
    private List<Partition> partitions(List<Partition> ps) {
        if (ps.isEmpty()) {
            throw invalid("a job needs at least one partition");
        }
        checkPartitionCount(ps.size());
        return ps;
    }

    private SubmitProofResponse submit(SubmitProofRequest req, List<Partition> ps) throws InterruptedException {
        if (!accepting) {
            throw Status.UNAVAILABLE.withDescription("the daemon is shutting down").asRuntimeException();
        }
        SubmitRequests.check(req);
        String id = req.getCircuitId();
        Circuits.checkId(id);
        Circuits.Registered circuit = Circuits.of(engine).get(id);
        List<CircuitJob.Partition> parts = new ArrayList<>(ps.size());
        try (ResidentCache<ProvingKey>.Lease key = Circuits.of(engine).key(id)) {
            for (int p = 0; p < ps.size(); p++) {
                parts.add(SubmitRequests.partition(circuit, key.value(), ps.get(p), p));
            }
        }
        checkInputs(id, parts);
        checkSatisfied(id, parts);
        return JobMessages.submitted(jobs.submit(JobMessages.request(req, id, priority(req), ps, parts)));
    }

    /**
     * Circom inputs against the circuit's witness generator: an input that names a signal the circuit
     * does not have, gives one the wrong number of values or leaves one out is INVALID_ARGUMENT now, not
     * an acknowledged job that fails when its witness is computed.
     */
    private void checkInputs(String id, List<CircuitJob.Partition> parts) {
        for (int p = 0; p < parts.size(); p++) {
            if (parts.get(p) instanceof CircuitJob.Inputs(dev.proofline.r1cs.wasm.CircomInput input)) {
                try {
                    Circuits.of(engine).wasm(id).check(input);
                } catch (dev.proofline.r1cs.wasm.WitnessException e) {
                    throw invalid("partition " + p + " of circuit '" + id + "': " + e.getMessage());
                }
            }
        }
    }

    /**
     * Witnesses against the circuit's constraints, when it has a constraint system (an r1cs or a built-in
     * circuit): a witness that does not satisfy them is INVALID_ARGUMENT now, not a failed job later.
     */
    private void checkSatisfied(String id, List<CircuitJob.Partition> parts) throws InterruptedException {
        if (!Circuits.of(engine).hasPce(id) || parts.stream().noneMatch(p -> p instanceof CircuitJob.Values)) {
            return;
        }
        try (ResidentCache<dev.proofline.r1cs.pce.Pce>.Lease pce = Circuits.of(engine).pce(id)) {
            SatisfactionCheck check = new SatisfactionCheck(pce.value());
            for (int p = 0; p < parts.size(); p++) {
                if (parts.get(p) instanceof CircuitJob.Values(dev.proofline.r1cs.Witness w)) {
                    check.check("partition " + p + " of circuit '" + id + "'", w);
                }
            }
        }
    }

    private static Priority priority(SubmitProofRequest req) {
        return switch (req.getPriority()) {
            case LOW -> Priority.LOW;
            case HIGH -> Priority.HIGH;
            case CRITICAL -> Priority.CRITICAL;
            default -> Priority.NORMAL;
        };
    }

    // ------------------------------------------------------------------ await, cancel

    @Override
    public void awaitProof(AwaitProofRequest req, StreamObserver<AwaitProofResponse> out) {
        try {
            answer(jobs.await(req.getJobId(), SubmitChecks.waitOf(req.getTimeoutMs(), Duration.ZERO, maxAwait)), out);
        } catch (Throwable t) {
            out.onError(FailureStatus.of(t));
        }
    }

    /** Answers with the waited-for job when it is there, or with the status of its failure. */
    private static void answer(CompletableFuture<JobResult> job, StreamObserver<AwaitProofResponse> out) {
        job.whenComplete((r, failure) -> {
            if (failure != null) {
                out.onError(FailureStatus.of(failure));
                return;
            }
            try {
                out.onNext(JobMessages.result(r));
                out.onCompleted();
            } catch (Throwable t) {
                out.onError(FailureStatus.of(t));
            }
        });
    }

    @Override
    public void cancelProof(CancelProofRequest req, StreamObserver<CancelProofResponse> out) {
        respond(out, () -> JobMessages.cancelled(jobs.cancel(req.getJobId())));
    }

    // ------------------------------------------------------------------ status, keys

    @Override
    public void getStatus(GetStatusRequest req, StreamObserver<GetStatusResponse> out) {
        respond(out, () -> {
            EngineStatus s = engine.status();
            GetStatusResponse.Builder b = GetStatusResponse.newBuilder().setUptimeMs(s.uptimeMs())
                    .setBackend(s.backend()).setJobsActive(s.jobsActive()).setJobsSubmitted(s.jobsSubmitted())
                    .setPermitsMax(s.permitsMax()).setPermitsInUse(s.permitsInUse())
                    .setPermitsMode(s.permitSizing().mode()).setPermitsReason(s.permitSizing().reason()).setBudgetTotalBytes(s.budgetTotal())
                    .setBudgetReservedBytes(s.budgetReserved()).setProverBusyLastMinute(s.proverBusyLastMinute())
                    .setProofs(s.proofs()).setFailed(s.failed()).setCancelled(s.cancelled())
                    .addAllDevices(s.devices());
            JobMessages.status(jobs.status(s), b);
            for (Circuits.Registered c : Circuits.of(engine).list()) {
                KeyStatus.Builder k = KeyStatus.newBuilder().setCircuitId(c.id());
                for (ResidentCache.EntryStatus e : s.keys()) {
                    if (e.id().equals(c.id())) {
                        k.setResident(e.loaded()).setBytes(e.bytes()).setReferences(e.references());
                    }
                }
                b.addKeys(k);
            }
            return b.build();
        });
    }

    /** The engine's status as JSON, with the cluster's in cluster mode ({@code GET /status}). */
    public String statusJson() {
        return jobs.statusJson(engine.status());
    }

    @Override
    public void getMetrics(GetMetricsRequest req, StreamObserver<GetMetricsResponse> out) {
        respond(out, () -> GetMetricsResponse.newBuilder().setPrometheusText(metrics.get()).build());
    }

    @Override
    public void preloadKey(KeyRequest req, StreamObserver<KeyResponse> out) {
        respond(out, () -> {
            Circuits.of(engine).preload(req.getCircuitId());
            return KeyResponse.newBuilder().setCircuitId(req.getCircuitId()).setResult("loaded").build();
        });
    }

    @Override
    public void evictKey(KeyRequest req, StreamObserver<KeyResponse> out) {
        respond(out, () -> KeyResponse.newBuilder().setCircuitId(req.getCircuitId())
                .setResult(Circuits.of(engine).evict(req.getCircuitId()).name().toLowerCase(Locale.ROOT)).build());
    }

    @Override
    public void listCircuits(ListCircuitsRequest req, StreamObserver<ListCircuitsResponse> out) {
        respond(out, () -> {
            ListCircuitsResponse.Builder b = ListCircuitsResponse.newBuilder();
            for (Circuits.Registered c : Circuits.of(engine).list()) {
                CircuitInfo.Builder i = CircuitInfo.newBuilder().setId(c.id());
                switch (c) {
                    case Circuits.Circom cc -> i.setKind("circom").setHasWasm(cc.wasm() != null)
                            .setHasR1Cs(cc.r1cs() != null);
                    case Circuits.Java j -> i.setKind("java").setHasR1Cs(true).setCurve(j.curve().snarkjsName());
                }
                b.addCircuits(i);
            }
            return b.build();
        });
    }

    // ------------------------------------------------------------------ errors

    /** Answers with what {@code call} returns, or with the status of its failure. */
    private static <T> void respond(StreamObserver<T> out, Callable<T> call) {
        T value;
        try {
            value = call.call();
        } catch (Throwable t) {
            out.onError(FailureStatus.of(t));
            return;
        }
        out.onNext(value);
        out.onCompleted();
    }
}
