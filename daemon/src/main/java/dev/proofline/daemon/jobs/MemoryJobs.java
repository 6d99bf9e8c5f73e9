package dev.proofline.daemon.jobs;

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
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineStatus;
import dev.proofline.engine.Priority;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.ProofResult;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** A daemon's jobs in its engine's memory (no job store): the engine's job registry, by id and idempotency key. */
public final class MemoryJobs implements ProofJobs {

    private final Engine engine;

    public MemoryJobs(Engine engine) {
        this.engine = engine;
    }

    @Override
    public SubmitProofResponse submit(SubmitProofRequest req, String circuit, Priority priority,
            List<Partition> requested, List<CircuitJob.Partition> checked) throws InterruptedException {
        CircuitJob spec = new CircuitJob(Circuits.of(engine), circuit, checked);
        Engine.Job job = engine.submit(spec, priority,
                req.getIdempotencyKey().isEmpty() ? null : req.getIdempotencyKey(),
                req.getDeadlineMs() == 0 ? null : Duration.ofMillis(req.getDeadlineMs()));
        return SubmitProofResponse.newBuilder().setJobId(job.id()).setQueuePosition(engine.queuePosition(job))
                .setExisting(job.spec() != spec).build();
    }

    @Override
    public void await(String jobId, Duration timeout, StreamObserver<AwaitProofResponse> out) {
        Engine.Job job = job(jobId);
        CompletableFuture<List<Object>> f = job.result();
        CompletableFuture<Object> any = f.isDone() || timeout.isZero()
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.anyOf(f, ProofJobs.after(timeout));
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
                    out.onError(FailureStatus.of(why));
                    return;
                }
                out.onNext(response(job));
                out.onCompleted();
            } catch (Throwable t) {
                out.onError(FailureStatus.of(t));
            }
        });
    }

    @Override
    public CancelProofResponse cancel(String jobId) {
        Engine.Job job = job(jobId);
        job.cancel();
        return CancelProofResponse.newBuilder().setState(state(job)).build();
    }

    @Override
    public String statusJson(EngineStatus s) {
        return StatusJson.write(s);
    }

    @Override
    public void status(EngineStatus s, GetStatusResponse.Builder b) {
        b.setJson(StatusJson.write(s));
    }

    private Engine.Job job(String id) {
        return engine.job(id).orElseThrow(() -> Status.NOT_FOUND.withDescription("no job '" + id
                + "' (unknown, or ended longer ago than engine.result_retention)").asRuntimeException());
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
}
