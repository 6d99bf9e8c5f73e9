package dev.proofline.daemon.transport.grpc;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.CancelProofResponse;
import dev.proofline.api.v1.GetStatusResponse;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import dev.proofline.api.v1.Timings;
import dev.proofline.daemon.jobs.JobReceipt;
import dev.proofline.daemon.jobs.JobRequest;
import dev.proofline.daemon.jobs.JobResult;
import dev.proofline.daemon.jobs.JobState;
import dev.proofline.daemon.jobs.JobsStatus;
import dev.proofline.daemon.jobs.PartitionKind;
import dev.proofline.engine.Engine;
import dev.proofline.engine.Priority;
import dev.proofline.engine.groth16.CircuitJob;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place where the service's messages become the jobs' plain types ({@code dev.proofline.daemon.jobs})
 * and back: a submission, its receipt, a waited-for job, a cancelled job's state, the jobs' part of the status.
 */
final class JobMessages {

    private JobMessages() {
    }

    /**
     * A checked submission: {@code requested} as the client sent them (a witness's bytes are copied only when
     * the jobs take them), {@code checked} as the engine takes them. No idempotency key and a deadline of 0
     * are none.
     */
    static JobRequest request(SubmitProofRequest req, String circuit, Priority priority, List<Partition> requested,
            List<CircuitJob.Partition> checked) {
        List<JobRequest.Payload> payloads = new ArrayList<>(requested.size());
        for (Partition p : requested) {
            payloads.add(p.getInputCase() == Partition.InputCase.WTNS
                    ? new JobRequest.Payload(PartitionKind.WTNS, () -> p.getWtns().toByteArray())
                    : new JobRequest.Payload(PartitionKind.INPUT_JSON,
                            () -> p.getInputJson().getBytes(StandardCharsets.UTF_8)));
        }
        return new JobRequest(circuit, priority, req.getIdempotencyKey().isEmpty() ? null : req.getIdempotencyKey(),
                req.getDeadlineMs() == 0 ? null : Duration.ofMillis(req.getDeadlineMs()), payloads, checked);
    }

    static SubmitProofResponse submitted(JobReceipt r) {
        return SubmitProofResponse.newBuilder().setJobId(r.jobId()).setQueuePosition(r.queuePosition())
                .setExisting(r.existing()).build();
    }

    static AwaitProofResponse result(JobResult job) {
        AwaitProofResponse.Builder b = AwaitProofResponse.newBuilder().setJobId(job.jobId()).setState(state(job.state()))
                .addAllRefusals(job.refusals());
        if (job.error() != null) {
            b.setError(job.error());
        }
        for (JobResult.Part p : job.partitions()) {
            PartitionResult.Builder r = PartitionResult.newBuilder().setPartition(p.index()).setState(p.state().wire());
            if (p.node() != null) {
                r.setNode(p.node());
            }
            Engine.Timings t = p.timings();
            if (t != null) {
                r.setTimings(Timings.newBuilder().setQueueWaitMs(t.queueWaitMs()).setSynthesisMs(t.synthesisMs())
                        .setProverWaitMs(t.proverWaitMs()).setProverMs(t.proverMs()).setFinalizeMs(t.finalizeMs())
                        .setTotalMs(t.totalMs()));
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

    static CancelProofResponse cancelled(JobState state) {
        return CancelProofResponse.newBuilder().setState(state(state)).build();
    }

    /** Sets the jobs' part of a GetStatus answer: the JSON, and in cluster mode the node and the cluster. */
    static void status(JobsStatus s, GetStatusResponse.Builder b) {
        b.setJson(s.json());
        if (s.nodeId() != null) {
            b.setNodeId(s.nodeId()).setClusterJson(s.clusterJson());
        }
    }

    /** The API's job state of the same name. */
    static dev.proofline.api.v1.JobState state(JobState s) {
        return dev.proofline.api.v1.JobState.valueOf(s.name());
    }
}
