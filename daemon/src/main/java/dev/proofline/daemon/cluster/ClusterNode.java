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
 * One daemon's part in a durable queue ({@link ClusterStore}): the database a cluster shares, or a
 * single daemon's own file (a cluster of one). It claims partitions from the queue for its own
 * engine, proves them there and stores the results, holding each claim under a lease that its
 * heartbeats extend. A claim whose lease the heartbeat no longer finds (expired and requeued, or its
 * job ended) is cancelled in the engine.
 *
 * <p>This class wires the node's parts and starts and stops them in order; each part is a thread of
 * its own: {@link ClaimLoop} (claims as the engine has room, and its intake into the engine),
 * {@link ResultWriter} (results, retried while the store is unreachable), {@link Heartbeat} (load,
 * leases, upkeep) and {@link NoticeListener} (announcements of work and of ended jobs). They share the
 * claims held ({@link HeldClaims}), the clients waiting for jobs ({@link JobWaiters}), the state of
 * the store ({@link StoreOutage}) and what wakes the claim loop ({@link ClaimSignal}).
 */
public final class ClusterNode implements AutoCloseable {

    /**
     * The node's knobs: a cluster's from {@code [cluster]} (see {@code proofline.example.toml}), a single
     * daemon's from {@link #single}.
     */
    public record Settings(String nodeId, Duration leaseTimeout, Duration heartbeatInterval, Duration fallbackPoll,
            int maxAttempts, Duration resultRetention, Duration fetchedRetention) {

        /**
         * A single daemon's node id: the owner its claims carry in its store. Fixed, because a start gives
         * back the claims its previous life held by this id ({@link ClusterStore.Membership#leave}), at
         * once: an id that changed from one start to the next (a host and port, the port chosen anew for a
         * {@code :0}) would leave them claimed until their lease ran out. Stores written before hold it too.
         */
        public static final String SINGLE_NODE_ID = "local";

        /**
         * A single daemon's lease. No other node takes a claim over, so a lease runs out only if the
         * daemon's own heartbeat stalls this long (a paused process): the partition is then proved again
         * and the first result discarded. Long, so that this does not happen.
         */
        public static final Duration SINGLE_LEASE = Duration.ofMinutes(1);

        /**
         * A single daemon's heartbeat, {@code cluster.heartbeat_interval}'s default. It extends the leases,
         * refreshes the node's row in the status and runs the store's upkeep: a job past its deadline
         * ends, and its waiters are answered, within one beat.
         */
        public static final Duration SINGLE_HEARTBEAT = Duration.ofSeconds(2);

        /**
         * A single daemon's fallback poll. Its store's announcements stay in the process and are never
         * lost, so the poll is only a safety net; {@code cluster.fallback_poll}'s default.
         */
        public static final Duration SINGLE_FALLBACK_POLL = Duration.ofSeconds(10);

        /** Attempts before a partition fails its job on a single daemon: {@code cluster.max_attempts}'s default. */
        public static final int SINGLE_MAX_ATTEMPTS = 3;

        /**
         * A single daemon's node on its own store (a cluster of one): the fixed id and intervals above, and
         * the retention of ended jobs from {@code [store]}.
         */
        public static Settings single(Duration resultRetention, Duration fetchedRetention) {
            return new Settings(SINGLE_NODE_ID, SINGLE_LEASE, SINGLE_HEARTBEAT, SINGLE_FALLBACK_POLL,
                    SINGLE_MAX_ATTEMPTS, resultRetention, fetchedRetention);
        }
    }

    private final ClusterStore store;
    private final Engine<ProofResult> engine;
    private final Settings settings;
    private final Consumer<String> log;
    private final Instant startedAt = Instant.now();
    private final KeyDigests keys;
    private final HeldClaims claims = new HeldClaims();
    private final JobWaiters waiters = new JobWaiters();
    private final ClaimSignal signal = new ClaimSignal();
    private final StoreOutage outage;
    private volatile String nodeId;
    // the parts that run, made by start
    private volatile ResultWriter writer;
    private volatile Heartbeat heartbeat;
    private volatile NoticeListener listener;
    private volatile ClaimLoop claimLoop;
    private volatile boolean closed;

    /** A node of the engine's circuits (their keys' digests are taken now); it works from {@link #start}. */
    public ClusterNode(ClusterStore store, Engine<ProofResult> engine, Settings settings, Consumer<String> log) {
        this.store = store;
        this.engine = engine;
        this.settings = settings;
        this.log = log;
        this.keys = KeyDigests.of(Circuits.of(engine));
        this.outage = new StoreOutage(log, signal::wake);
    }

    /**
     * Joins the cluster as the node whose API is at {@code grpcAddress} (its id: {@code node_id}, or
     * the host name and gRPC port), and starts heartbeats, notifications and claiming.
     */
    public void start(String grpcAddress, String httpAddress) {
        String id = settings.nodeId();
        if (id.isEmpty()) {
            String host;
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                host = "localhost";
            }
            id = host + ":" + grpcAddress.substring(grpcAddress.lastIndexOf(':') + 1);
        }
        this.nodeId = id;
        engine.permits().addReleaseListener(signal::wake);
        ResultWriter w = new ResultWriter(store, id, settings.maxAttempts(), outage, log);
        this.writer = w;
        this.heartbeat = new Heartbeat(store, engine, settings, id, grpcAddress, httpAddress, startedAt, keys, claims,
                w::proofs, outage, signal, log);
        this.listener = new NoticeListener(store, settings, id, keys, claims, waiters, outage, signal, log);
        ClaimLoop loop = new ClaimLoop(store, engine, settings, id, keys, claims, w, outage, signal);
        heartbeat.rejoin();
        heartbeat.beat();
        listener.refuseMismatches();
        heartbeat.start();
        listener.start();
        this.claimLoop = loop;
        loop.start();
        log.accept("queue node " + nodeId + " on " + store.database().describe() + ": " + keys.size() + " circuit(s), lease "
                + settings.leaseTimeout().toMillis() + " ms, heartbeat every " + settings.heartbeatInterval().toMillis()
                + " ms");
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
            throw new JobFailure(JobFailure.Code.UNAVAILABLE, "the cluster node is starting");
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

    /** Proofs this node stored, and results it made too late (lease lost) that the store discarded. */
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
     * Stops claiming; lets the claims in flight finish for up to {@code grace}, then gives what is
     * left back to the queue (other nodes prove it) and marks the node stopped.
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
        heartbeat.stop();
        writer.stop();
        heartbeat.leave();
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
