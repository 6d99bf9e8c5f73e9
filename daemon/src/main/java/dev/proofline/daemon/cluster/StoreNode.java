package dev.proofline.daemon.cluster;

import dev.proofline.daemon.jobs.JobFailure;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.engine.Engine;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.ProofResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A daemon's node of a durable job queue ({@link ClusterStore}): it claims partitions from the queue
 * for its own engine, proves them there and stores the results. Two kinds, which differ only in how
 * they hold their place in the store ({@link Presence}):
 *
 * <ul>
 *   <li>{@link ClusterNode}, a member of a cluster on a shared database: its claims are held under
 *       leases that its heartbeats extend, so that another node takes over those of a node that died;
 *   <li>{@link SingleNode}, a single daemon on its own file: no other node can take its claims, so
 *       they hold without a lease until it gives them back, and its periodic task is the store's
 *       upkeep alone.
 * </ul>
 *
 * <p>Either takes back, as it starts, the claims its previous life held (a crash, SIGKILL). This class
 * wires the node's parts and starts and stops them in order; each part is a thread of its own:
 * {@link ClaimLoop} (claims as the engine has room, and its intake into the engine), {@link ResultWriter}
 * (results, retried while the store is unreachable), the node's {@link Presence} and
 * {@link NoticeListener} (announcements of work and of ended jobs). They share the claims held
 * ({@link HeldClaims}), the clients waiting for jobs ({@link JobWaiters}), the state of the store
 * ({@link StoreOutage}) and what wakes the claim loop ({@link ClaimSignal}).
 */
public abstract sealed class StoreNode implements AutoCloseable permits ClusterNode, SingleNode {

    final ClusterStore store;
    final Engine<ProofResult> engine;
    final Consumer<String> log;
    final Instant startedAt = Instant.now();
    final KeyDigests keys;
    final HeldClaims claims = new HeldClaims();
    final StoreOutage outage;
    final ClaimSignal signal = new ClaimSignal();
    private final JobWaiters waiters = new JobWaiters();
    private final Duration fallbackPoll;
    private final int maxAttempts;
    private volatile String nodeId;
    // the parts that run, made by start
    private volatile ResultWriter writer;
    private volatile Presence presence;
    private volatile NoticeListener listener;
    private volatile ClaimLoop claimLoop;
    private volatile boolean closed;

    /** A node of the engine's circuits (their keys' digests are taken now); it works from {@link #start}. */
    StoreNode(ClusterStore store, Engine<ProofResult> engine, Duration fallbackPoll, int maxAttempts,
            Consumer<String> log) {
        this.store = store;
        this.engine = engine;
        this.fallbackPoll = fallbackPoll;
        this.maxAttempts = maxAttempts;
        this.log = log;
        this.keys = KeyDigests.of(Circuits.of(engine));
        this.outage = new StoreOutage(log, signal::wake);
    }

    /** The id the node's claims carry in the store, once its API is at {@code grpcAddress}. */
    abstract String id(String grpcAddress);

    /**
     * How long a claim holds unless renewed, or null: claims that hold until the node gives them back or
     * starts again.
     */
    abstract Duration lease();

    /** How the node holds its place in the store, under {@code id}, with its API at these addresses. */
    abstract Presence presence(String id, String grpcAddress, String httpAddress, ResultWriter writer);

    /** What the start-up log says of the node after "queue node ID on STORE: N circuit(s)". */
    abstract String describe();

    /**
     * Takes back the claims its previous life held, joins the store as the node whose API is at
     * {@code grpcAddress}, and starts its presence, notifications and claiming.
     */
    public void start(String grpcAddress, String httpAddress) {
        String id = id(grpcAddress);
        this.nodeId = id;
        engine.permits().addReleaseListener(signal::wake);
        ResultWriter w = new ResultWriter(store, id, maxAttempts, outage, log);
        this.writer = w;
        Presence p = presence(id, grpcAddress, httpAddress, w);
        this.presence = p;
        this.listener = new NoticeListener(store, fallbackPoll, id, keys, claims, waiters, outage, signal, log);
        ClaimLoop loop = new ClaimLoop(store, engine, id, lease(), fallbackPoll, maxAttempts, keys, claims, w, outage,
                signal);
        p.rejoin();
        p.beat();
        listener.refuseMismatches();
        p.start();
        listener.start();
        this.claimLoop = loop;
        loop.start();
        log.accept("queue node " + nodeId + " on " + store.database().describe() + ": " + keys.size() + " circuit(s), "
                + describe());
    }

    /** Platform daemon threads named {@code name-0}, {@code name-1}, ... for a node's executors. */
    static ThreadFactory threads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> Thread.ofPlatform().name(name + "-" + n.getAndIncrement()).daemon().unstarted(r);
    }

    /** This node's id; UNAVAILABLE before {@link #start}. */
    public String nodeId() {
        String id = nodeId;
        if (id == null) {
            throw new JobFailure(JobFailure.Code.UNAVAILABLE, "the queue node is starting");
        }
        return id;
    }

    public ClusterStore store() {
        return store;
    }

    /** The digest of this node's key for {@code circuit}. */
    String digestOf(String circuit) {
        return keys.of(circuit);
    }

    /** Proofs this node stored, and results it made too late (claim lost) that the store discarded. */
    public long proofs() {
        ResultWriter w = writer;
        return w == null ? 0 : w.proofs();
    }

    public long discarded() {
        ResultWriter w = writer;
        return w == null ? 0 : w.discarded();
    }

    /** Claims ended a second time (each claim ends once: a second end is a bug, counted and otherwise ignored). */
    public long doubleReleases() {
        return claims.doubleEnds();
    }

    /** Partitions claimed here and not yet written back. */
    public int holding() {
        return claims.size();
    }

    /** Why the database is unreachable now, or null. */
    public String databaseDown() {
        return outage.reason();
    }

    /** Completes when {@code jobId} ends (told by the database, or found on a fallback check). */
    CompletableFuture<Void> watch(String jobId) {
        return waiters.watch(jobId);
    }

    /**
     * The queue as the status shows it, read from the store: {@code recentJobs} jobs, the partitions by
     * state and the nodes (a cluster's from their heartbeats; a single daemon's is itself, read now).
     */
    ClusterStore.Status status(int recentJobs) {
        return store.views().status(recentJobs);
    }

    /**
     * Stops claiming; lets the claims in flight finish for up to {@code grace}, then gives what is
     * left back to the queue (other nodes prove it, or this daemon's next start) and leaves the store.
     */
    public void shutdown(Duration grace) throws InterruptedException {
        if (closed) {
            return;
        }
        ClaimLoop loop = claimLoop;
        if (loop == null) { // never started
            closed = true;
            store.close();
            return;
        }
        loop.stop();
        long deadline = System.nanoTime() + grace.toNanos();
        while (!claims.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        closed = true;
        writer.stopping();
        listener.stopping();
        claims.abandonAll();
        loop.stopIntake();
        presence.stop();
        writer.stop();
        presence.leave();
        listener.stop();
        waiters.failAll("the node is stopping");
        store.close();
    }

    @Override
    public void close() throws InterruptedException {
        shutdown(Duration.ZERO);
    }

    /** For the status: this node's view. */
    Map<String, Object> localStatus() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("node_id", nodeId);
        m.put("holding", claims.size());
        m.put("proofs_stored", proofs());
        m.put("results_discarded", discarded());
        m.put("database", outage.reason() == null ? "ok" : outage.reason());
        String problem = store.database().problem();
        m.put("accepting_jobs", problem == null);
        if (problem != null) {
            m.put("store_problem", problem);
        }
        m.put("round_trips", store.database().roundTrips());
        m.put("key_digests", keys.lines());
        return m;
    }
}
