package dev.proofline.daemon.cluster;

import dev.proofline.daemon.jobs.JobFailure;
import dev.proofline.daemon.jobs.SubmitChecks;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.Engine;
import dev.proofline.engine.MemoryBudget;
import dev.proofline.engine.ResidentCache;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.ProofResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node's claims from the job store, on its thread {@code cluster-claim}, turned into one-partition
 * jobs of its engine by two intake threads ({@code cluster-intake}).
 *
 * <p>Claims follow the engine's reactive contract: the loop claims only as many partitions as the
 * engine has free prover-queue permits (permits not taken by partitions already waiting or in the
 * intake), and none while the partitions in flight leave no room in the budget for another. It claims
 * again when woken ({@link ClaimSignal}: a permit given back, work announced, the store back) and,
 * only for announcements lost with a connection, on a slow fallback poll.
 */
final class ClaimLoop {

    private final ClusterStore store;
    private final Engine<ProofResult> engine;
    private final String nodeId;
    /** How long a claim holds unless renewed; null: until it is given back. */
    private final Duration lease;
    private final Duration fallbackPoll;
    private final int maxAttempts;
    private final KeyDigests keys;
    private final HeldClaims claims;
    private final ResultWriter writer;
    private final StoreOutage outage;
    private final ClaimSignal signal;
    private final ExecutorService intakeThreads = Executors.newFixedThreadPool(2, StoreNode.threads("cluster-intake"));
    /** Claims taken and not yet submitted to the engine. */
    private final AtomicInteger intake = new AtomicInteger();
    /** Circuit id → the working set of one of its partitions, as last seen. */
    private final Map<String, Long> partitionBytes = new ConcurrentHashMap<>();
    private volatile boolean claiming = true;
    private Thread thread;

    ClaimLoop(ClusterStore store, Engine<ProofResult> engine, String nodeId, Duration lease,
            Duration fallbackPoll, int maxAttempts, KeyDigests keys, HeldClaims claims, ResultWriter writer,
            StoreOutage outage, ClaimSignal signal) {
        this.store = store;
        this.engine = engine;
        this.nodeId = nodeId;
        this.lease = lease;
        this.fallbackPoll = fallbackPoll;
        this.maxAttempts = maxAttempts;
        this.keys = keys;
        this.claims = claims;
        this.writer = writer;
        this.outage = outage;
        this.signal = signal;
    }

    void start() {
        thread = Thread.ofPlatform().name("cluster-claim").daemon().start(this::run);
    }

    /** Claims no more; waits up to 5 seconds for the loop to end. */
    void stop() throws InterruptedException {
        claiming = false;
        signal.wake();
        thread.join(5000);
    }

    /** Stops the intake: a claim not yet in the engine is interrupted, and given back. */
    void stopIntake() {
        intakeThreads.shutdownNow();
    }

    /** Partitions this node may claim now: free permits, and room in the budget for them. */
    private int freeSlots() {
        int free = engine.permits().available() - engine.scheduledCount() - intake.get();
        long largest = partitionBytes.values().stream().mapToLong(Long::longValue).max().orElse(0);
        if (free > 0 && largest > 0) {
            MemoryBudget b = engine.budget();
            long room = b.total() - b.reserved(MemoryBudget.Kind.PARTITION);
            free = (int) Math.min(free, room / largest);
        }
        return free;
    }

    private void run() {
        while (claiming) {
            boolean more = false;
            int free = freeSlots();
            if (free > 0 && !keys.circuits().isEmpty()) {
                try {
                    List<ClusterStore.Claim> got = store.queue().claim(nodeId, free, lease,
                            keys.circuits(), keys.digests());
                    for (ClusterStore.Claim c : got) {
                        HeldClaim l = claims.hold(c);
                        intake.incrementAndGet();
                        intakeThreads.execute(() -> submit(l));
                    }
                    more = got.size() == free;
                    outage.noteUp();
                } catch (RuntimeException e) {
                    outage.noteDown(e);
                }
            }
            if (!more) {
                try {
                    signal.await(outage.reason() != null ? 1000 : fallbackPoll.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Turns a claim into a one-partition job of the engine, whose outcome the writer stores. */
    private void submit(HeldClaim l) {
        ClusterStore.Claim c = l.claim;
        try {
            // claims that ended because their node died or stopped (c.interrupted()) are not counted: a
            // daemon killed again and again must not fail the valid jobs it was proving
            if (c.attempts() > maxAttempts) {
                writer.fail(l, "given back " + (c.attempts() - 1) + " times without a result (cluster.max_attempts = "
                        + maxAttempts + ")");
                return;
            }
            Circuits.Registered circuit = Circuits.of(engine).get(c.circuit());
            CircuitJob.Partition part;
            try (ResidentCache<dev.proofline.groth16.ProvingKey>.Lease key = Circuits.of(engine).key(c.circuit())) {
                part = SubmitChecks.partition(circuit, key.value(), c.kind(), c.payload(), c.partition());
            }
            CircuitJob spec = new CircuitJob(Circuits.of(engine), c.circuit(), List.of(part));
            partitionBytes.put(c.circuit(), spec.workingSetBytes(0));
            if (l.lost) {
                l.close();
                return;
            }
            // named after the cluster's job and partition (and the claim, when it is not the first)
            Engine.Job<ProofResult> job = engine.submitNamed(spec, ClusterStore.priority(c.priority()), c.jobId() + "/"
                    + c.partition() + (c.claims() > 1 ? "#" + c.claims() : ""));
            l.job = job;
            if (l.lost) {
                job.cancel();
            }
            job.result().whenComplete((proofs, failure) -> writer.write(l, proofs, failure));
        } catch (ResidentCache.LoadException e) {
            writer.giveBack(l, e.getMessage());
        } catch (JobFailure e) {
            writer.fail(l, e.getMessage());
        } catch (InterruptedException e) {
            writer.giveBack(l, "the node is stopping");
        } catch (RuntimeException e) {
            writer.notStarted(l, e.getMessage() != null ? e.getMessage() : e.toString());
        } finally {
            intake.decrementAndGet();
            signal.wake();
        }
    }
}
