package dev.proofline.daemon.jobs;

import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineStatus;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.ProofResult;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** A daemon's jobs in its engine's memory (no job store): the engine's job registry, by id and idempotency key. */
public final class MemoryJobs implements ProofJobs {

    private final Engine<ProofResult> engine;

    public MemoryJobs(Engine<ProofResult> engine) {
        this.engine = engine;
    }

    @Override
    public JobReceipt submit(JobRequest req) throws InterruptedException {
        CircuitJob spec = new CircuitJob(Circuits.of(engine), req.circuit(), req.checked());
        Engine.Job<ProofResult> job = engine.submit(spec, req.priority(), req.idempotencyKey(), req.deadline());
        return new JobReceipt(job.id(), engine.queuePosition(job), job.spec() != spec);
    }

    @Override
    public CompletableFuture<JobResult> await(String jobId, Duration timeout) {
        Engine.Job<ProofResult> job = job(jobId);
        CompletableFuture<JobResult> out = new CompletableFuture<>();
        CompletableFuture<List<ProofResult>> f = job.result();
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
                        out.completeExceptionally(new JobFailure(JobFailure.Code.INVALID_ARGUMENT, job.id()
                                + ": a witness does not satisfy circuit '" + cj.circuitId()
                                + "' (its proof fails verification)"));
                        return;
                    }
                    out.completeExceptionally(why);
                    return;
                }
                out.complete(result(job));
            } catch (Throwable t) {
                out.completeExceptionally(t);
            }
        });
        return out;
    }

    @Override
    public JobState cancel(String jobId) {
        Engine.Job<ProofResult> job = job(jobId);
        job.cancel();
        return state(job);
    }

    @Override
    public String statusJson(EngineStatus s) {
        return StatusJson.write(s);
    }

    @Override
    public JobsStatus status(EngineStatus s) {
        return new JobsStatus(StatusJson.write(s), null, null);
    }

    private Engine.Job<ProofResult> job(String id) {
        return engine.job(id).orElseThrow(() -> new JobFailure(JobFailure.Code.NOT_FOUND, "no job '" + id
                + "' (unknown, or ended longer ago than engine.result_retention)"));
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

    static JobResult result(Engine.Job<ProofResult> job) {
        JobState state = state(job);
        List<ProofResult> proofs = job.result().isDone() && !job.result().isCompletedExceptionally()
                ? job.result().join() : null;
        List<JobResult.Part> parts = new ArrayList<>(job.partitions());
        for (int p = 0; p < job.partitions(); p++) {
            Engine.Timings timings = job.timings(p);
            PartitionState partState = PartitionState.of(job.state(p));
            if (proofs != null) {
                ProofResult pr = proofs.get(p);
                parts.add(new JobResult.Part(p, partState, null, timings, SnarkjsJson.proofJson(pr.proof()),
                        ProofBinary.encode(pr.proof()), pr.publicSignals()));
            } else {
                parts.add(new JobResult.Part(p, partState, null, timings, null, null, List.of()));
            }
        }
        return new JobResult(job.id(), state, null, List.of(), parts);
    }

    static JobState state(Engine.Job<?> job) {
        CompletableFuture<? extends List<?>> f = job.result();
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
