package dev.proofline.daemon.cluster;

import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.Engine;
import dev.proofline.engine.ResidentCache;
import dev.proofline.engine.groth16.ProofResult;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.r1cs.wasm.WitnessException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Writes what became of a node's claims to the job store, and ends each claim ({@link HeldClaim}) once
 * it is written: a proof, a failed job, or the claim given back to the queue. The engine's outcomes are
 * written on one thread, {@code cluster-results}, which retries while the store is unreachable, so a
 * proof made during an outage is written when the store returns (or, if its lease expired meanwhile,
 * discarded by the store). A claim that never became an engine job is written from the intake's thread.
 */
final class ResultWriter {

    private final ClusterStore store;
    private final String nodeId;
    private final int maxAttempts;
    private final StoreOutage outage;
    private final Consumer<String> log;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(StoreNode.threads("cluster-results"));
    private final AtomicLong proofs = new AtomicLong();
    private final AtomicLong discarded = new AtomicLong();
    /** Set when the node stops: what is not proved goes back to the queue for other nodes. */
    private volatile boolean stopping;
    /** Set when the node has stopped: a write still failing for an unreachable store is then given up. */
    private volatile boolean gaveUp;

    ResultWriter(ClusterStore store, String nodeId, int maxAttempts, StoreOutage outage, Consumer<String> log) {
        this.store = store;
        this.nodeId = nodeId;
        this.maxAttempts = maxAttempts;
        this.outage = outage;
        this.log = log;
    }

    /** Proofs this node stored. */
    long proofs() {
        return proofs.get();
    }

    /** Results this node made too late (lease lost) that the store discarded. */
    long discarded() {
        return discarded.get();
    }

    /** Writes the engine's outcome of a claim, on the writer's thread. */
    void write(HeldClaim l, List<ProofResult> results, Throwable failure) {
        thread.execute(() -> outcome(l, results, failure));
    }

    private void outcome(HeldClaim l, List<ProofResult> results, Throwable failure) {
        ClusterStore.Claim c = l.claim;
        if (failure instanceof CancellationException || l.lost) {
            l.close();
            return;
        }
        if (failure != null) {
            Throwable cause = failure instanceof ExecutionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (stopping || cause instanceof ResidentCache.LoadException) {
                giveBack(l, String.valueOf(cause.getMessage()));
            } else if (cause instanceof dev.proofline.groth16.Prover.ProofRejectedException) {
                // the proof's own verification caught a witness that does not satisfy the circuit (a
                // circuit with only a key cannot be checked at submission): the client's fault, said so
                fail(l, "partition " + c.partition() + " of circuit '" + c.circuit() + "': "
                        + ClusterStore.UNSATISFIED + " (its proof fails verification)");
            } else if (refusedInput(cause) instanceof WitnessException refused) {
                // the names and sizes of its signals were checked at submission; the circuit's asserts and
                // constraints only run as the witness is computed: the client's fault too
                fail(l, "circuit '" + c.circuit() + "': " + ClusterStore.BAD_INPUT + ": " + refused.getMessage());
            } else {
                fail(l, cause.getMessage() != null ? cause.getMessage() : cause.toString());
            }
            return;
        }
        ProofResult pr = results.get(0);
        Engine.Timings t = l.job.timings(0);
        double[] timings = t == null ? new double[6] : new double[] {c.waitedMs() + t.queueWaitMs(), t.synthesisMs(),
            t.proverWaitMs(), t.proverMs(), t.finalizeMs(), c.waitedMs() + t.totalMs()};
        boolean stored = retrying("storing the proof of " + c.jobId() + "/" + c.partition(), () -> store.queue().complete(
                c, nodeId, SnarkjsJson.proofJson(pr.proof()), ProofBinary.encode(pr.proof()), pr.publicSignals(),
                timings));
        l.close();
        if (stored) {
            proofs.incrementAndGet();
        } else {
            discarded.incrementAndGet();
            log.accept("result of " + c.jobId() + " partition " + c.partition() + " discarded: this node's lease"
                    + " is no longer current (expired, or the job ended)");
        }
    }

    /** The witness generator's refusal of a circom input among {@code t} and its causes, or null. */
    private static WitnessException refusedInput(Throwable t) {
        for (; t != null; t = t.getCause()) {
            if (t instanceof WitnessException w) {
                return w;
            }
        }
        return null;
    }

    /** Fails the claim's job: its proof cannot be made, {@code error} says why. */
    void fail(HeldClaim l, String error) {
        ClusterStore.Claim c = l.claim;
        retrying("failing " + c.jobId(), () -> store.queue().fail(c, nodeId, error));
        l.close();
    }

    /** A claim that could not become an engine job: back to the queue when the node is stopping, else its job fails. */
    void notStarted(HeldClaim l, String error) {
        if (stopping) {
            giveBack(l, "the node is stopping");
        } else {
            fail(l, error);
        }
    }

    /**
     * This node will not prove the claim (stopping, or no room for its key): back to the queue for another.
     * Only a give-back while the node lives counts toward {@code max_attempts}; claims that ended because
     * a node died or stopped are counted apart, and never fail a job.
     */
    void giveBack(HeldClaim l, String why) {
        ClusterStore.Claim c = l.claim;
        if (c.attempts() >= maxAttempts && !stopping) {
            fail(l, "given up " + c.attempts() + " times (cluster.max_attempts), last: " + why);
            return;
        }
        try {
            store.queue().release(c, nodeId + ": " + why, !stopping);
        } catch (RuntimeException e) {
            outage.noteDown(e); // the lease expires; another node takes the partition then
        }
        l.close();
    }

    /** Runs a write until the store takes it (or the node has stopped); true when it was accepted. */
    private boolean retrying(String what, BooleanSupplier write) {
        long backoff = 200;
        while (true) {
            try {
                boolean ok = write.getAsBoolean();
                outage.noteUp();
                return ok;
            } catch (ClusterStore.UnavailableException e) {
                outage.noteDown(e);
                if (stopping && gaveUp) {
                    log.accept(what + ": not written, the node stopped while the database was unavailable");
                    return false;
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                backoff = Math.min(2000, backoff * 2);
            } catch (RuntimeException e) {
                log.accept(what + ": " + e.getMessage());
                return false;
            }
        }
    }

    /** The node is stopping: from now on a claim that ends unproved goes back to the queue. */
    void stopping() {
        stopping = true;
    }

    /** Writes what is queued for up to 5 seconds, giving up on writes the store does not take, then stops. */
    void stop() throws InterruptedException {
        gaveUp = true;
        thread.shutdown();
        if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
            thread.shutdownNow();
        }
    }
}
