package dev.proofline.api;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.util.JsonFormat;
import dev.proofline.api.v1.AwaitProofResponse;
import dev.proofline.api.v1.GetStatusResponse;
import dev.proofline.api.v1.ListCircuitsResponse;
import dev.proofline.api.v1.Partition;
import dev.proofline.api.v1.PartitionKind;
import dev.proofline.api.v1.PartitionResult;
import dev.proofline.api.v1.SubmitProofRequest;
import dev.proofline.api.v1.SubmitProofResponse;
import java.time.Duration;
import java.util.List;

/** The client's records to and from the {@code proofline.v1} messages: one place that knows both. */
final class WireRecords {

    private WireRecords() {
    }

    /** A submission's header: the circuit and the options, without partitions. */
    static SubmitProofRequest.Builder request(String circuit, JobOptions options) {
        SubmitProofRequest.Builder b = SubmitProofRequest.newBuilder().setCircuitId(circuit)
                .setPriority(dev.proofline.api.v1.Priority.valueOf(options.priority().name()));
        if (options.idempotencyKey() != null) {
            b.setIdempotencyKey(options.idempotencyKey());
        }
        if (options.deadline() != null) {
            b.setDeadlineMs(options.deadline().toMillis());
        }
        return b;
    }

    static SubmitProofRequest request(String circuit, List<? extends PartitionInput> partitions, JobOptions options) {
        SubmitProofRequest.Builder b = request(circuit, options);
        for (PartitionInput p : partitions) {
            b.addPartitions(switch (p) {
                // no copy: a witness can be large, and the request is built and sent at once
                case PartitionInput.Wtns w -> Partition.newBuilder().setWtns(UnsafeByteOperations.unsafeWrap(w.bytes()));
                case PartitionInput.CircomInput i -> Partition.newBuilder().setInputJson(i.json());
            });
        }
        return b.build();
    }

    static PartitionKind kind(PartitionInput.Kind kind) {
        return switch (kind) {
            case WTNS -> PartitionKind.WTNS;
            case CIRCOM_INPUT -> PartitionKind.INPUT_JSON;
        };
    }

    static JobReceipt submitted(SubmitProofResponse r) {
        return new JobReceipt(r.getJobId(), r.getQueuePosition(), r.getExisting());
    }

    static JobState state(dev.proofline.api.v1.JobState s) {
        return switch (s) {
            case DONE -> JobState.DONE;
            case FAILED -> JobState.FAILED;
            case CANCELLED -> JobState.CANCELLED;
            case DEADLINE_EXCEEDED -> JobState.DEADLINE_EXCEEDED;
            // a daemon of a later version may add states: until the job is one we know, it runs
            case RUNNING, JOB_STATE_UNSPECIFIED, UNRECOGNIZED -> JobState.RUNNING;
        };
    }

    static JobResult result(AwaitProofResponse r) {
        String json;
        try {
            json = JsonFormat.printer().print(r);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("the daemon's answer has no JSON form: " + e.getMessage(), e);
        }
        return new JobResult(r.getJobId(), state(r.getState()), r.getError(),
                r.getPartitionsList().stream().map(WireRecords::partition).toList(), List.copyOf(r.getRefusalsList()),
                json);
    }

    private static PartitionProof partition(PartitionResult p) {
        var t = p.getTimings();
        return new PartitionProof(p.getPartition(), p.getState(), p.getProofJson(), p.getProofBinary().toByteArray(),
                List.copyOf(p.getPublicSignalsList()), new PartitionProof.Timings(t.getQueueWaitMs(), t.getSynthesisMs(),
                        t.getProverWaitMs(), t.getProverMs(), t.getFinalizeMs(), t.getTotalMs()), p.getNode());
    }

    static DaemonStatus status(GetStatusResponse s) {
        return new DaemonStatus(Duration.ofMillis(s.getUptimeMs()), s.getBackend(), List.copyOf(s.getDevicesList()),
                s.getJobsActive(), s.getJobsSubmitted(), s.getProofs(), s.getFailed(), s.getCancelled(),
                new DaemonStatus.Permits(s.getPermitsMax(), s.getPermitsInUse(), s.getPermitsMode(), s.getPermitsReason()),
                s.getProverBusyLastMinute(), s.getBudgetTotalBytes(), s.getBudgetReservedBytes(),
                s.getKeysList().stream().map(k -> new DaemonStatus.KeyState(k.getCircuitId(), k.getResident(),
                        k.getBytes(), k.getReferences())).toList(), s.getJson(), s.getNodeId(), s.getClusterJson());
    }

    static List<CircuitInfo> circuits(ListCircuitsResponse r) {
        return r.getCircuitsList().stream().map(c -> new CircuitInfo(c.getId(), c.getKind(), c.getHasWasm(),
                c.getHasR1Cs(), c.getCurve())).toList();
    }
}
