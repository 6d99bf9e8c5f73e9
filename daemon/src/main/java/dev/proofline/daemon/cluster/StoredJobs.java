package dev.proofline.daemon.cluster;

import dev.proofline.daemon.jobs.ClientMessages;
import dev.proofline.daemon.jobs.JobFailure;
import dev.proofline.daemon.jobs.JobReceipt;
import dev.proofline.daemon.jobs.JobRequest;
import dev.proofline.daemon.jobs.JobResult;
import dev.proofline.daemon.jobs.JobState;
import dev.proofline.daemon.jobs.JobsStatus;
import dev.proofline.daemon.jobs.JobsUnavailableException;
import dev.proofline.daemon.jobs.PartitionState;
import dev.proofline.daemon.jobs.ProofJobs;
import dev.proofline.daemon.jobs.StatusJson;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A daemon's jobs in a durable queue ({@link ClusterStore}) that its {@link StoreNode} proves from:
 * the database a cluster shares, or a single daemon's own file. A job is durable once submitted; its
 * answers are read from its rows, and a wait ends with the store's announcement that the job ended.
 * While the store is unreachable, each call fails with the jobs' {@link JobsUnavailableException}.
 */
public final class StoredJobs implements ProofJobs {

    private final StoreNode node;

    public StoredJobs(StoreNode node) {
        this.node = node;
    }

    /** The checked job goes into the queue, durable once this returns. */
    @Override
    public JobReceipt submit(JobRequest req) {
        return reachable(() -> queue(req));
    }

    private JobReceipt queue(JobRequest req) {
        List<ClusterStore.NewPartition> rows = new ArrayList<>(req.payloads().size());
        for (JobRequest.Payload p : req.payloads()) {
            rows.add(new ClusterStore.NewPartition(ClusterStore.PartitionKind.valueOf(p.kind().name()), p.bytes().get()));
        }
        ClusterStore.Submitted s = node.store().queue().submit(req.idempotencyKey(), req.circuit(),
                node.digestOf(req.circuit()), ClusterStore.rank(req.priority()), req.deadline(), node.nodeId(), rows);
        return new JobReceipt(s.jobId(), s.queuePosition(), s.existing());
    }

    /** Answers when the job ends (an announcement from the store) or the timeout passes, from the job's rows. */
    @Override
    public CompletableFuture<JobResult> await(String id, Duration timeout) {
        return reachable(() -> watch(id, timeout));
    }

    private CompletableFuture<JobResult> watch(String id, Duration timeout) {
        CompletableFuture<Void> ended = node.watch(id); // before reading, so that no ending is missed
        ClusterStore.JobView v = job(id, true);
        CompletableFuture<JobResult> out = new CompletableFuture<>();
        if (v.ended() || timeout.isZero()) {
            ended.cancel(false);
            answer(v, out);
            return out;
        }
        CompletableFuture.anyOf(ended, ProofJobs.after(timeout))
                .whenComplete((x, t) -> {
                    ended.cancel(false);
                    try {
                        answer(job(id, true), out);
                    } catch (ClusterStore.UnavailableException e) {
                        out.completeExceptionally(new JobsUnavailableException(e));
                    } catch (Throwable e) {
                        out.completeExceptionally(e);
                    }
                });
        return out;
    }

    @Override
    public JobState cancel(String jobId) {
        return reachable(() -> {
            ClusterStore.JobState st = node.store().queue().cancel(jobId);
            if (st == null) {
                job(jobId, false); // NOT_FOUND
            }
            return JobState.valueOf(st.name());
        });
    }

    @Override
    public String statusJson(EngineStatus s) {
        return reachable(() -> StatusJson.write(s, node.localStatus(), clusterJson()));
    }

    /** The cluster's rows are read once, for both the JSON snapshot and their own field. */
    @Override
    public JobsStatus status(EngineStatus s) {
        return reachable(() -> {
            String clusterJson = clusterJson();
            String json = StatusJson.write(s, node.localStatus(), clusterJson);
            return new JobsStatus(json, node.nodeId(), clusterJson);
        });
    }

    /** {@code call}'s answer; a store outage as the jobs' own failure, which the transports answer without knowing the store. */
    private static <T> T reachable(Supplier<T> call) {
        try {
            return call.get();
        } catch (ClusterStore.UnavailableException e) {
            throw new JobsUnavailableException(e);
        }
    }

    /** The cluster's JSON, or {"error": ...} while the database is unreachable. */
    private String clusterJson() {
        try {
            return StatusJson.cluster(node.status(30));
        } catch (ClusterStore.UnavailableException e) {
            return StatusJson.error(e.getMessage());
        }
    }

    private ClusterStore.JobView job(String id, boolean fetching) {
        ClusterStore.JobView v = node.store().views().job(id, fetching);
        if (v == null) {
            throw new JobFailure(JobFailure.Code.NOT_FOUND, "no job '" + id + "' (unknown, or ended longer ago than "
                    + node.store().database().retentionKey() + ")");
        }
        return v;
    }

    /** Completes {@code out} with the job as stored, or with its failure when it did not end DONE. */
    private static void answer(ClusterStore.JobView v, CompletableFuture<JobResult> out) {
        switch (v.state()) {
            case FAILED -> out.completeExceptionally(new JobFailure(clientsFault(String.valueOf(v.error()))
                    ? JobFailure.Code.INVALID_ARGUMENT : JobFailure.Code.INTERNAL,
                    ClientMessages.redact(String.valueOf(v.error()))));
            case CANCELLED -> out.completeExceptionally(new JobFailure(JobFailure.Code.CANCELLED,
                    "the job was cancelled"));
            case DEADLINE_EXCEEDED -> out.completeExceptionally(new JobFailure(JobFailure.Code.DEADLINE_EXCEEDED,
                    v.id() + " did not finish within its deadline"));
            default -> out.complete(result(v));
        }
    }

    /** Whether a stored error is the request's fault (a witness or input the circuit refused), not the server's. */
    private static boolean clientsFault(String error) {
        return error.contains(ClusterStore.UNSATISFIED) || error.contains(ClusterStore.BAD_INPUT);
    }

    static JobResult result(ClusterStore.JobView v) {
        JobState state = JobState.valueOf(v.state().name());
        List<JobResult.Part> parts = new ArrayList<>(v.parts().size());
        for (ClusterStore.PartitionView p : v.parts()) {
            double[] t = p.timings();
            Engine.Timings timings = t != null && t.length == 6
                    ? new Engine.Timings(t[0], t[1], t[2], t[3], t[4], t[5]) : null;
            parts.add(new JobResult.Part(p.index(), PartitionState.of(p.state()), p.node(), timings,
                    p.proofJson(), p.proofBinary(), p.publicSignals()));
        }
        return new JobResult(v.id(), state, v.error(), v.refusals(), parts);
    }
}
