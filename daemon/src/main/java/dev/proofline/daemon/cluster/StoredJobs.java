package dev.proofline.daemon.cluster;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.CancelProofResponse;
import dev.proofline.api.v1.GetStatusResponse;
import dev.proofline.api.v1.JobState;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.api.v1.Timings;
import dev.proofline.daemon.jobs.ClientMessages;
import dev.proofline.daemon.jobs.FailureStatus;
import dev.proofline.daemon.jobs.ProofJobs;
import dev.proofline.daemon.jobs.StatusJson;
import dev.proofline.daemon.store.ClusterStore.PartitionKind;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.EngineStatus;
import dev.proofline.engine.Priority;
import dev.proofline.engine.groth16.CircuitJob;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * A daemon's jobs in a durable queue ({@link ClusterStore}) that its {@link ClusterNode} proves from:
 * the database a cluster shares, or a single daemon's own file. A job is durable once submitted; its
 * answers are read from its rows, and a wait ends with the store's announcement that the job ended.
 */
public final class StoredJobs implements ProofJobs {

    private final ClusterNode node;

    public StoredJobs(ClusterNode node) {
        this.node = node;
    }

    /** The checked job goes into the queue, durable once this returns. */
    @Override
    public SubmitProofResponse submit(SubmitProofRequest req, String circuit, Priority priority,
            List<Partition> requested, List<CircuitJob.Partition> checked) {
        List<ClusterStore.NewPartition> rows = new ArrayList<>(requested.size());
        for (Partition p : requested) {
            rows.add(p.getInputCase() == Partition.InputCase.WTNS
                    ? new ClusterStore.NewPartition(PartitionKind.WTNS, p.getWtns().toByteArray())
                    : new ClusterStore.NewPartition(PartitionKind.INPUT_JSON, p.getInputJson().getBytes(StandardCharsets.UTF_8)));
        }
        ClusterStore.Submitted s = node.store().queue().submit(req.getIdempotencyKey().isEmpty() ? null
                : req.getIdempotencyKey(), circuit, node.digestOf(circuit), ClusterStore.rank(priority),
                req.getDeadlineMs() == 0 ? null : Duration.ofMillis(req.getDeadlineMs()), node.nodeId(), rows);
        return SubmitProofResponse.newBuilder().setJobId(s.jobId()).setQueuePosition(s.queuePosition())
                .setExisting(s.existing()).build();
    }

    /** Answers when the job ends (an announcement from the store) or the timeout passes, from the job's rows. */
    @Override
    public void await(String id, Duration timeout, StreamObserver<AwaitProofResponse> out) {
        CompletableFuture<Void> ended = node.watch(id); // before reading, so that no ending is missed
        ClusterStore.JobView v = job(id, true);
        if (v.ended() || timeout.isZero()) {
            ended.cancel(false);
            answer(v, out);
            return;
        }
        CompletableFuture.anyOf(ended, ProofJobs.after(timeout))
                .whenComplete((x, t) -> {
                    ended.cancel(false);
                    try {
                        answer(job(id, true), out);
                    } catch (Throwable e) {
                        out.onError(FailureStatus.of(e));
                    }
                });
    }

    @Override
    public CancelProofResponse cancel(String jobId) {
        ClusterStore.JobState st = node.store().queue().cancel(jobId);
        if (st == null) {
            job(jobId, false); // NOT_FOUND
        }
        return CancelProofResponse.newBuilder().setState(JobState.valueOf(st.name())).build();
    }

    @Override
    public String statusJson(EngineStatus s) {
        return StatusJson.write(s, node.localStatus(), clusterJson());
    }

    /** The cluster's rows are read once, for both the JSON snapshot and their own field. */
    @Override
    public void status(EngineStatus s, GetStatusResponse.Builder b) {
        String clusterJson = clusterJson();
        b.setJson(StatusJson.write(s, node.localStatus(), clusterJson));
        b.setNodeId(node.nodeId()).setClusterJson(clusterJson);
    }

    /** The cluster's JSON, or {"error": ...} while the database is unreachable. */
    private String clusterJson() {
        try {
            return StatusJson.cluster(node.store().views().status(30));
        } catch (ClusterStore.UnavailableException e) {
            return StatusJson.error(e.getMessage());
        }
    }

    private ClusterStore.JobView job(String id, boolean fetching) {
        ClusterStore.JobView v = node.store().views().job(id, fetching);
        if (v == null) {
            throw Status.NOT_FOUND.withDescription("no job '" + id + "' (unknown, or ended longer ago than "
                    + node.store().database().retentionKey() + ")").asRuntimeException();
        }
        return v;
    }

    private static void answer(ClusterStore.JobView v, StreamObserver<AwaitProofResponse> out) {
        switch (v.state()) {
            case FAILED -> out.onError((String.valueOf(v.error()).contains(ClusterStore.UNSATISFIED)
                    ? Status.INVALID_ARGUMENT : Status.INTERNAL)
                    .withDescription(ClientMessages.redact(String.valueOf(v.error()))).asRuntimeException());
            case CANCELLED -> out.onError(Status.CANCELLED.withDescription("the job was cancelled").asRuntimeException());
            case DEADLINE_EXCEEDED -> out.onError(Status.DEADLINE_EXCEEDED.withDescription(v.id()
                    + " did not finish within its deadline").asRuntimeException());
            default -> {
                out.onNext(response(v));
                out.onCompleted();
            }
        }
    }

    static AwaitProofResponse response(ClusterStore.JobView v) {
        AwaitProofResponse.Builder b = AwaitProofResponse.newBuilder().setJobId(v.id())
                .setState(JobState.valueOf(v.state().name())).addAllRefusals(v.refusals());
        if (v.error() != null) {
            b.setError(v.error());
        }
        for (ClusterStore.PartitionView p : v.parts()) {
            PartitionResult.Builder r = PartitionResult.newBuilder().setPartition(p.index())
                    .setState(p.state().name().toLowerCase(Locale.ROOT));
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
}
