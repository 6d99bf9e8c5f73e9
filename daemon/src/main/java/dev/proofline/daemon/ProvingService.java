package dev.proofline.daemon;

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
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.KeyRequest;
import dev.proofline.api.v1.KeyResponse;
import dev.proofline.api.v1.KeyStatus;
import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.ListCircuitsResponse;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionKind;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.api.v1.SubmitProofChunk;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.api.v1.Timings;
import dev.proofline.engine.CircuitJob;
import dev.proofline.engine.Circuits;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineStatus;
import dev.proofline.engine.Priority;
import dev.proofline.engine.ProofResult;
import dev.proofline.engine.ResidentCache;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.wasm.CircomInput;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The {@code proofline.v1.ProvingEngine} service over an {@link Engine}. Requests name circuits by id;
 * witnesses are checked against the circuit's key when they are submitted, so a bad one is an
 * {@code INVALID_ARGUMENT} at once. Failures are status codes whose message names the problem.
 */
final class ProvingService extends ProvingEngineGrpc.ProvingEngineImplBase {

    private final Engine engine;
    private final DaemonConfig config;
    private final Supplier<String> metrics;
    private final long maxRequestBytes;
    private final Duration maxAwait;
    private volatile boolean accepting = true;
    /** The durable queue the jobs live in (cluster mode, or a single daemon's store); null: in the engine's memory. */
    private final ClusterNode cluster;

    ProvingService(Engine engine, DaemonConfig config, Supplier<String> metrics) {
        this(engine, config, metrics, null);
    }

    ProvingService(Engine engine, DaemonConfig config, Supplier<String> metrics, ClusterNode cluster) {
        this.cluster = cluster;
        this.engine = engine;
        this.config = config;
        this.metrics = metrics;
        this.maxRequestBytes = DaemonConfig.parseBytes(config.limits().maxRequestBytes());
        this.maxAwait = DaemonConfig.parseDuration(config.limits().maxAwait());
    }

    /** From now on submissions are refused with {@code UNAVAILABLE} (shutting down). */
    void stopAccepting() {
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
            long ms = req.getAwaitTimeoutMs() == 0 ? Duration.ofMinutes(10).toMillis() : req.getAwaitTimeoutMs();
            Duration timeout = Duration.ofMillis(Math.min(ms, maxAwait.toMillis()));
            if (cluster != null) {
                awaitCluster(sub.getJobId(), timeout, out);
                return;
            }
            Engine.Job job = engine.job(sub.getJobId()).orElseThrow();
            awaitThen(job, timeout, out);
        } catch (Throwable t) {
            out.onError(status(t));
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
                        int n = header.getStreamedPartitions();
                        checkPartitionCount(n + header.getPartitionsCount());
                        for (int i = 0; i < n; i++) {
                            parts.add(new ArrayList<>());
                        }
                        total = header.getSerializedSize();
                    } else {
                        if (header == null) {
                            throw invalid("the stream must start with a header");
                        }
                        int p = c.getChunk().getPartition();
                        if (p >= parts.size()) {
                            throw invalid("chunk for partition " + p + ", the header announced " + parts.size());
                        }
                        total += c.getChunk().getData().size();
                        if (total > maxRequestBytes) {
                            throw Status.RESOURCE_EXHAUSTED.withDescription("the request exceeds "
                                    + config.limits().maxRequestBytes() + " (limits.max_request_bytes)")
                                    .asRuntimeException();
                        }
                        parts.get(p).add(c.getChunk().getData());
                    }
                } catch (Throwable t) {
                    failed = true;
                    out.onError(status(t));
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

    private void checkPartitionCount(int n) {
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
        String id = req.getCircuitId();
        Circuits.checkId(id);
        Circuits.Registered circuit = engine.circuits().get(id);
        List<CircuitJob.Partition> parts = new ArrayList<>(ps.size());
        try (ResidentCache<ProvingKey>.Lease key = engine.circuits().key(id)) {
            for (int p = 0; p < ps.size(); p++) {
                parts.add(partition(circuit, key.value(), ps.get(p), p));
            }
        }
        checkSatisfied(id, parts);
        if (cluster != null) {
            return submitToCluster(req, id, ps);
        }
        CircuitJob spec = new CircuitJob(engine.circuits(), id, parts);
        Engine.Job job = engine.submit(spec, priority(req),
                req.getIdempotencyKey().isEmpty() ? null : req.getIdempotencyKey(),
                req.getDeadlineMs() == 0 ? null : Duration.ofMillis(req.getDeadlineMs()));
        return SubmitProofResponse.newBuilder().setJobId(job.id()).setQueuePosition(engine.queuePosition(job))
                .setExisting(job.spec() != spec).build();
    }

    /**
     * Witnesses against the circuit's constraints, when it has a constraint system (an r1cs or a built-in
     * circuit): a witness that does not satisfy them is INVALID_ARGUMENT now, not a failed job later.
     */
    private void checkSatisfied(String id, List<CircuitJob.Partition> parts) throws InterruptedException {
        if (!engine.circuits().hasPce(id) || parts.stream().noneMatch(p -> p instanceof CircuitJob.Values)) {
            return;
        }
        try (ResidentCache<dev.proofline.r1cs.pce.Pce>.Lease pce = engine.circuits().pce(id)) {
            SatisfactionCheck check = new SatisfactionCheck(pce.value());
            for (int p = 0; p < parts.size(); p++) {
                if (parts.get(p) instanceof CircuitJob.Values(dev.proofline.r1cs.Witness w)) {
                    check.check("partition " + p + " of circuit '" + id + "'", w);
                }
            }
        }
    }

    /** Cluster mode: the checked job goes into the shared queue, durable once this returns. */
    private SubmitProofResponse submitToCluster(SubmitProofRequest req, String circuit, List<Partition> ps) {
        List<ClusterStore.NewPartition> rows = new ArrayList<>(ps.size());
        for (Partition p : ps) {
            rows.add(p.getInputCase() == Partition.InputCase.WTNS
                    ? new ClusterStore.NewPartition("wtns", p.getWtns().toByteArray())
                    : new ClusterStore.NewPartition("input_json", p.getInputJson().getBytes(
                            java.nio.charset.StandardCharsets.UTF_8)));
        }
        ClusterStore.Submitted s = cluster.store().submit(req.getIdempotencyKey().isEmpty() ? null
                : req.getIdempotencyKey(), circuit, cluster.digestOf(circuit), ClusterStore.rank(priority(req)),
                req.getDeadlineMs() == 0 ? null : Duration.ofMillis(req.getDeadlineMs()), cluster.nodeId(), rows);
        return SubmitProofResponse.newBuilder().setJobId(s.jobId()).setQueuePosition(s.queuePosition())
                .setExisting(s.existing()).build();
    }

    /** A partition of a request as the engine takes it, checked against the circuit and its key. */
    static CircuitJob.Partition partition(Circuits.Registered circuit, ProvingKey key, Partition in, int p) {
        String name = "partition " + p + " of circuit '" + circuit.id() + "'";
        switch (in.getInputCase()) {
            case WTNS -> {
                // checked now, so that a bad witness is INVALID_ARGUMENT at submission
                // read from a view of the message's bytes: a large witness is copied once, into its values
                return new CircuitJob.Values(CircuitJob.checkWitness(name,
                        WtnsFile.read(java.lang.foreign.MemorySegment.ofBuffer(in.getWtns().asReadOnlyByteBuffer()),
                                name), key));
            }
            case INPUT_JSON -> {
                if (circuit instanceof Circuits.Java j && j.fromInput() != null) {
                    try {
                        return new CircuitJob.Instance(j.fromInput().apply(in.getInputJson()));
                    } catch (IllegalArgumentException e) {
                        throw invalid(name + ": " + e.getMessage());
                    }
                }
                if (!(circuit instanceof Circuits.Circom c) || c.wasm() == null) {
                    throw invalid(name + ": the circuit has no witness generator (circuit.wasm): send witnesses"
                            + " (.wtns)");
                }
                return new CircuitJob.Inputs(CircomInput.parse(in.getInputJson(), name));
            }
            default -> throw invalid(name + ": neither wtns nor input_json is set");
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
            Duration timeout = Duration.ofMillis(Math.min(req.getTimeoutMs(), maxAwait.toMillis()));
            if (cluster != null) {
                awaitCluster(req.getJobId(), timeout, out);
                return;
            }
            Engine.Job job = job(req.getJobId());
            awaitThen(job, timeout, out);
        } catch (Throwable t) {
            out.onError(status(t));
        }
    }

    /** Answers when the job ends or the timeout passes (state RUNNING), without holding a thread. */
    private void awaitThen(Engine.Job job, Duration timeout, StreamObserver<AwaitProofResponse> out) {
        CompletableFuture<List<Object>> f = job.result();
        CompletableFuture<Object> any = f.isDone() || timeout.isZero()
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.anyOf(f, after(timeout));
        any.whenComplete((v, x) -> {
            try {
                if (f.isDone() && f.isCompletedExceptionally()) {
                    Throwable why = failure(f);
                    if (why instanceof Prover.ProofRejectedException && job.spec() instanceof CircuitJob cj) {
                        // the proof's own verification caught a witness that does not satisfy the circuit
                        // (a circuit with only a key cannot be checked at submission)
                        out.onError(Status.INVALID_ARGUMENT.withDescription(job.id() + ": a witness does not satisfy"
                                + " circuit '" + cj.circuitId() + "' (its proof fails verification)").asRuntimeException());
                        return;
                    }
                    out.onError(status(why));
                    return;
                }
                out.onNext(response(job));
                out.onCompleted();
            } catch (Throwable t) {
                out.onError(status(t));
            }
        });
    }

    /**
     * A future that completes when {@code timeout} has passed, on the JDK's own timer thread: a task of
     * {@code CompletableFuture.delayedExecutor} would run on the common fork-join pool where it has more
     * than one worker, the pool the proofs' NTTs and parallel loops keep busy, so a short wait could be
     * answered only once the proofs ahead of it let go.
     */
    private static CompletableFuture<Object> after(Duration timeout) {
        return new CompletableFuture<>().completeOnTimeout(null, timeout.toMillis(),
                java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /**
     * Cluster mode: answers when the job ends (a notification from the database) or the timeout passes,
     * from the job's rows, without holding a thread.
     */
    private void awaitCluster(String id, Duration timeout, StreamObserver<AwaitProofResponse> out) {
        CompletableFuture<Void> ended = cluster.watch(id); // before reading, so that no ending is missed
        ClusterStore.JobView v = clusterJob(id, true);
        if (v.ended() || timeout.isZero()) {
            ended.cancel(false);
            answer(v, out);
            return;
        }
        CompletableFuture.anyOf(ended, after(timeout))
                .whenComplete((x, t) -> {
                    ended.cancel(false);
                    try {
                        answer(clusterJob(id, true), out);
                    } catch (Throwable e) {
                        out.onError(status(e));
                    }
                });
    }

    private ClusterStore.JobView clusterJob(String id, boolean fetching) {
        ClusterStore.JobView v = cluster.store().job(id, fetching);
        if (v == null) {
            throw Status.NOT_FOUND.withDescription("no job '" + id + "' (unknown, or ended longer ago than "
                    + cluster.store().retentionKey() + ")").asRuntimeException();
        }
        return v;
    }

    private static void answer(ClusterStore.JobView v, StreamObserver<AwaitProofResponse> out) {
        switch (v.state()) {
            case "FAILED" -> out.onError((String.valueOf(v.error()).contains(ClusterStore.UNSATISFIED)
                    ? Status.INVALID_ARGUMENT : Status.INTERNAL)
                    .withDescription(ClientMessages.redact(String.valueOf(v.error()))).asRuntimeException());
            case "CANCELLED" -> out.onError(Status.CANCELLED.withDescription("the job was cancelled").asRuntimeException());
            case "DEADLINE_EXCEEDED" -> out.onError(Status.DEADLINE_EXCEEDED.withDescription(v.id()
                    + " did not finish within its deadline").asRuntimeException());
            default -> {
                out.onNext(response(v));
                out.onCompleted();
            }
        }
    }

    static AwaitProofResponse response(ClusterStore.JobView v) {
        AwaitProofResponse.Builder b = AwaitProofResponse.newBuilder().setJobId(v.id())
                .setState(JobState.valueOf(v.state())).addAllRefusals(v.refusals());
        if (v.error() != null) {
            b.setError(v.error());
        }
        for (ClusterStore.PartitionView p : v.parts()) {
            PartitionResult.Builder r = PartitionResult.newBuilder().setPartition(p.index())
                    .setState(p.state().toLowerCase(Locale.ROOT));
            if (p.node() != null) {
                r.setNode(p.node());
            }
            double[] t = p.timings();
            if (t != null && t.length == 6) {
                r.setTimings(Timings.newBuilder().setQueueWaitMs(t[0]).setSynthesisMs(t[1]).setProverWaitMs(t[2])
                        .setProverMs(t[3]).setFinalizeMs(t[4]).setTotalMs(t[5]));
            }
            if (p.proofJson() != null) {
                r.setProofJson(p.proofJson());
            }
            if (p.proofBinary() != null) {
                r.setProofBinary(ByteString.copyFrom(p.proofBinary()));
            }
            r.addAllPublicSignals(p.publicSignals());
            b.addPartitions(r);
        }
        return b.build();
    }

    private static Throwable failure(CompletableFuture<?> f) {
        try {
            f.get();
            return new IllegalStateException("not failed");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (CancellationException e) {
            return e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }

    static AwaitProofResponse response(Engine.Job job) {
        AwaitProofResponse.Builder b = AwaitProofResponse.newBuilder().setJobId(job.id()).setState(state(job));
        List<Object> proofs = job.result().isDone() && !job.result().isCompletedExceptionally()
                ? job.result().join() : null;
        for (int p = 0; p < job.partitions(); p++) {
            PartitionResult.Builder r = PartitionResult.newBuilder().setPartition(p)
                    .setState(job.state(p).name().toLowerCase(Locale.ROOT));
            Engine.Timings t = job.timings(p);
            if (t != null) {
                r.setTimings(Timings.newBuilder().setQueueWaitMs(t.queueWaitMs()).setSynthesisMs(t.synthesisMs())
                        .setProverWaitMs(t.proverWaitMs()).setProverMs(t.proverMs()).setFinalizeMs(t.finalizeMs())
                        .setTotalMs(t.totalMs()));
            }
            if (proofs != null && proofs.get(p) instanceof ProofResult pr) {
                r.setProofJson(SnarkjsJson.proofJson(pr.proof()))
                        .setProofBinary(ByteString.copyFrom(ProofBinary.encode(pr.proof())))
                        .addAllPublicSignals(pr.publicSignals());
            }
            b.addPartitions(r);
        }
        return b.build();
    }

    static JobState state(Engine.Job job) {
        CompletableFuture<List<Object>> f = job.result();
        if (!f.isDone()) {
            return JobState.RUNNING;
        }
        if (f.isCancelled()) {
            return JobState.CANCELLED;
        }
        if (f.isCompletedExceptionally()) {
            return failure(f) instanceof TimeoutException ? JobState.DEADLINE_EXCEEDED : JobState.FAILED;
        }
        return JobState.DONE;
    }

    @Override
    public void cancelProof(CancelProofRequest req, StreamObserver<CancelProofResponse> out) {
        respond(out, () -> {
            if (cluster != null) {
                String st = cluster.store().cancel(req.getJobId());
                if (st == null) {
                    clusterJob(req.getJobId(), false); // NOT_FOUND
                }
                return CancelProofResponse.newBuilder().setState(JobState.valueOf(st)).build();
            }
            Engine.Job job = job(req.getJobId());
            job.cancel();
            return CancelProofResponse.newBuilder().setState(state(job)).build();
        });
    }

    private Engine.Job job(String id) {
        return engine.job(id).orElseThrow(() -> Status.NOT_FOUND.withDescription("no job '" + id
                + "' (unknown, or ended longer ago than engine.result_retention)").asRuntimeException());
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
            // the cluster's rows are read once, for both the JSON snapshot and their own field
            String clusterJson = cluster == null ? null : clusterJson();
            b.setJson(statusJson(s, clusterJson));
            if (cluster != null) {
                b.setNodeId(cluster.nodeId()).setClusterJson(clusterJson);
            }
            for (Circuits.Registered c : engine.circuits().list()) {
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
    String statusJson() {
        return statusJson(engine.status(), cluster == null ? null : clusterJson());
    }

    private String statusJson(EngineStatus s, String clusterJson) {
        return cluster == null ? StatusJson.write(s) : StatusJson.write(s, cluster.localStatus(), clusterJson);
    }

    /** The cluster's JSON, or {"error": ...} while the database is unreachable. */
    private String clusterJson() {
        try {
            return cluster.store().clusterJson(30);
        } catch (ClusterStore.UnavailableException e) {
            return StatusJson.error(e.getMessage());
        }
    }

    @Override
    public void getMetrics(GetMetricsRequest req, StreamObserver<GetMetricsResponse> out) {
        respond(out, () -> GetMetricsResponse.newBuilder().setPrometheusText(metrics.get()).build());
    }

    @Override
    public void preloadKey(KeyRequest req, StreamObserver<KeyResponse> out) {
        respond(out, () -> {
            engine.circuits().preload(req.getCircuitId());
            return KeyResponse.newBuilder().setCircuitId(req.getCircuitId()).setResult("loaded").build();
        });
    }

    @Override
    public void evictKey(KeyRequest req, StreamObserver<KeyResponse> out) {
        respond(out, () -> KeyResponse.newBuilder().setCircuitId(req.getCircuitId())
                .setResult(engine.circuits().evict(req.getCircuitId()).name().toLowerCase(Locale.ROOT)).build());
    }

    @Override
    public void listCircuits(ListCircuitsRequest req, StreamObserver<ListCircuitsResponse> out) {
        respond(out, () -> {
            ListCircuitsResponse.Builder b = ListCircuitsResponse.newBuilder();
            for (Circuits.Registered c : engine.circuits().list()) {
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

    private interface Call<T> {
        T run() throws Exception;
    }

    private static <T> void respond(StreamObserver<T> out, Call<T> call) {
        T value;
        try {
            value = call.run();
        } catch (Throwable t) {
            out.onError(status(t));
            return;
        }
        out.onNext(value);
        out.onCompleted();
    }

    /** A failure as a status whose code says what kind of problem it is and whose message says which. */
    static StatusRuntimeException status(Throwable t) {
        if (t instanceof StatusRuntimeException s) {
            return s;
        }
        if (t instanceof ExecutionException && t.getCause() != null) {
            t = t.getCause();
        }
        Status s = switch (t) {
            case Circuits.UnknownCircuitException e -> Status.NOT_FOUND;
            case CancellationException e -> Status.CANCELLED.withDescription("the job was cancelled");
            case TimeoutException e -> Status.DEADLINE_EXCEEDED;
            case Prover.ProofRejectedException e -> Status.INVALID_ARGUMENT;
            // a key or PCE that finds no room in the budget (no cause) is the client's to retry later; one
            // whose files cannot be loaded is the server's problem
            case ResidentCache.LoadException e when e.getCause() == null || e.getCause() instanceof OutOfMemoryError ->
                    Status.RESOURCE_EXHAUSTED;
            case ResidentCache.LoadException e -> Status.FAILED_PRECONDITION.withDescription("circuit "
                    + e.getMessage() + " (its files in the keys directory cannot be loaded)");
            case ClusterStore.UnavailableException e -> Status.UNAVAILABLE;
            case IllegalArgumentException e -> Status.INVALID_ARGUMENT;
            case InterruptedException e -> Status.UNAVAILABLE;
            default -> Status.INTERNAL;
        };
        if (s.getDescription() == null) {
            s = s.withDescription(t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName());
        }
        // a client learns the problem, never where the server keeps its files
        s = s.withDescription(ClientMessages.redact(s.getDescription()));
        if (s.getCode() == Status.Code.INTERNAL) {
            s = s.withCause(t);
        }
        return s.asRuntimeException();
    }
}
