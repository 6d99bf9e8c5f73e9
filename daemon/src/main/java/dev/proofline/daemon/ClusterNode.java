package dev.proofline.daemon;

import com.google.protobuf.ByteString;
import dev.proofline.api.v1.Partition;
import dev.proofline.engine.CircuitJob;
import dev.proofline.engine.Circuits;
import dev.proofline.engine.Engine;
import dev.proofline.engine.MemoryBudget;
import dev.proofline.engine.Priority;
import dev.proofline.engine.ProofResult;
import dev.proofline.engine.ResidentCache;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One daemon's part in a durable queue ({@link ClusterStore}): the database a cluster shares, or a
 * single daemon's own file (a cluster of one). It claims partitions from the queue for its own
 * engine, proves them there and stores the results, holding each claim under a lease that its
 * heartbeats extend.
 *
 * <p>Claims follow the engine's reactive contract: the node claims only as many partitions as its
 * engine has free prover-queue permits (permits not taken by partitions already waiting), and none
 * while the partitions in flight leave no room in the budget for another. It claims again when a
 * permit is given back, when another node announces work ({@code LISTEN proofline_work}), and, only
 * for notifications lost with a connection, on a slow fallback poll.
 *
 * <p>Results go through one writer thread that retries while the database is unreachable, so a
 * proof made during an outage is written when the database returns (or, if its lease expired
 * meanwhile, discarded by the store). A claim whose lease the heartbeat no longer finds (expired and
 * requeued, or its job ended) is cancelled in the engine.
 */
final class ClusterNode implements AutoCloseable {

    /**
     * What a job's stored error says when a witness did not satisfy its circuit; the service answers such a
     * failure with INVALID_ARGUMENT (the store keeps an error's text, not its kind).
     */
    static final String UNSATISFIED = "the witness does not satisfy the circuit";


    /** The cluster knobs (see {@code [cluster]} in {@code proofline.example.toml}). */
    record Settings(String nodeId, Duration leaseTimeout, Duration heartbeatInterval, Duration fallbackPoll,
            int maxAttempts, Duration resultRetention, Duration fetchedRetention) {
    }

    /**
     * A claim being proved here, with one owner from the claim until it ends: its result stored, its job
     * failed, the claim given back to the queue, or dropped (lease lost, job cancelled). Ending removes it
     * from the claims this node holds, exactly once; a second end changes nothing and is counted
     * ({@link #doubleReleases}), the engine's policy for its own leases: it is a bug, and the tests fail
     * on it.
     */
    private final class Local implements AutoCloseable {
        final ClusterStore.Claim claim;
        volatile Engine.Job job;
        volatile boolean lost;
        private final AtomicBoolean ended = new AtomicBoolean();

        Local(ClusterStore.Claim claim) {
            this.claim = claim;
        }

        /** Ends the claim here: what became of it has been written to the store, or need not be. */
        @Override
        public void close() {
            if (ended.compareAndSet(false, true)) {
                claims.remove(claim.token());
            } else {
                doubleEnds.incrementAndGet();
            }
        }
    }

    private final ClusterStore store;
    private final Engine engine;
    private final Settings settings;
    private final Consumer<String> log;
    private volatile String nodeId;
    private volatile String grpcAddress;
    private volatile String httpAddress;
    private final Instant startedAt = Instant.now();
    /** Circuit id → SHA-256 of its proving key file, for the circuits this node proves. */
    private final Map<String, String> digests;
    private final List<String> circuitIds;
    private final List<String> digestList;
    private final Map<Long, Local> claims = new ConcurrentHashMap<>();
    private final Map<String, List<CompletableFuture<Void>>> waiters = new ConcurrentHashMap<>();
    private final Map<String, Long> partitionBytes = new ConcurrentHashMap<>();
    private final AtomicInteger intake = new AtomicInteger();
    private final AtomicLong proofs = new AtomicLong();
    private final AtomicLong discarded = new AtomicLong();
    private final AtomicLong doubleEnds = new AtomicLong();
    private final ExecutorService intakeThreads;
    private final ExecutorService writer;
    private final ScheduledExecutorService heartbeats;
    private Thread claimer;
    private Thread listener;
    private final Object signal = new Object();
    private boolean wake;
    private volatile boolean claiming = true;
    private volatile boolean closed;
    /** Set when the node stops: a write still failing for an unreachable database is then given up. */
    private volatile boolean writerGaveUp;
    private volatile String databaseDown;
    private volatile ClusterStore.Notices notices;

    /** A node of the engine's circuits (their keys' digests are taken now); it works from {@link #start}. */
    ClusterNode(ClusterStore store, Engine engine, Settings settings, Consumer<String> log) {
        this.store = store;
        this.engine = engine;
        this.settings = settings;
        this.log = log;
        this.digests = new java.util.TreeMap<>();
        for (Circuits.Registered c : engine.circuits().list()) {
            digests.put(c.id(), digest(c.zkey()));
        }
        this.circuitIds = List.copyOf(digests.keySet());
        this.digestList = circuitIds.stream().map(digests::get).toList();
        this.intakeThreads = Executors.newFixedThreadPool(2, daemonThreads("cluster-intake"));
        this.writer = Executors.newSingleThreadExecutor(daemonThreads("cluster-results"));
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(daemonThreads("cluster-heartbeat"));
    }

    /**
     * Joins the cluster as the node whose API is at {@code grpcAddress} (its id: {@code node_id}, or
     * the host name and gRPC port), and starts heartbeats, notifications and claiming.
     */
    void start(String grpcAddress, String httpAddress) {
        this.grpcAddress = grpcAddress;
        this.httpAddress = httpAddress;
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
        engine.permits().addReleaseListener(this::signal);
        // a node that died (a crash, SIGKILL) and starts again under the same id left claims behind
        // that its heartbeats would otherwise keep alive: they go back to the queue first
        try {
            int requeued = store.leave(nodeId);
            if (requeued > 0) {
                log.accept("requeued " + requeued + " partition(s) this node was proving when it stopped");
            }
        } catch (RuntimeException e) {
            noteDown(e);
        }
        heartbeat();
        refuseMismatches();
        heartbeats.scheduleWithFixedDelay(this::heartbeat, settings.heartbeatInterval().toMillis(),
                settings.heartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
        this.listener = Thread.ofPlatform().name("cluster-listen").daemon().start(this::listen);
        this.claimer = Thread.ofPlatform().name("cluster-claim").daemon().start(this::claimLoop);
        log.accept("queue node " + nodeId + " on " + store.describe() + ": " + digests.size() + " circuit(s), lease "
                + settings.leaseTimeout().toMillis() + " ms, heartbeat every " + settings.heartbeatInterval().toMillis()
                + " ms");
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> Thread.ofPlatform().name(name + "-" + n.getAndIncrement()).daemon().unstarted(r);
    }

    /** SHA-256 of a key file, in hex: nodes prove a job only against the key it was submitted against. */
    static String digest(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 20];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + " to take its digest: " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** This node's id; UNAVAILABLE before {@link #start}. */
    String nodeId() {
        String id = nodeId;
        if (id == null) {
            throw io.grpc.Status.UNAVAILABLE.withDescription("the cluster node is starting").asRuntimeException();
        }
        return id;
    }

    ClusterStore store() {
        return store;
    }

    /** The digest of this node's key for {@code circuit}. */
    String digestOf(String circuit) {
        String d = digests.get(circuit);
        if (d == null) {
            throw io.grpc.Status.NOT_FOUND.withDescription("unknown circuit '" + circuit + "'").asRuntimeException();
        }
        return d;
    }

    /** Proofs this node stored, and results it made too late (lease lost) that the store discarded. */
    long proofs() {
        return proofs.get();
    }

    long discarded() {
        return discarded.get();
    }

    /** Claims ended a second time (each claim ends once: a second end is a bug, counted and otherwise ignored). */
    long doubleReleases() {
        return doubleEnds.get();
    }

    /** Partitions claimed here and not yet written back. */
    int holding() {
        return claims.size();
    }

    /** Why the database is unreachable now, or null. */
    String databaseDown() {
        return databaseDown;
    }

    // ------------------------------------------------------------------ waiting for jobs

    /** Completes when {@code jobId} ends (told by the database, or found on a fallback check). */
    CompletableFuture<Void> watch(String jobId) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        waiters.computeIfAbsent(jobId, k -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(f);
        f.whenComplete((v, x) -> waiters.computeIfPresent(jobId, (k, l) -> {
            l.remove(f);
            return l.isEmpty() ? null : l;
        }));
        return f;
    }

    private void jobEnded(String jobId, String state) {
        List<CompletableFuture<Void>> l = waiters.remove(jobId);
        if (l != null) {
            l.forEach(f -> f.complete(null));
        }
        if (!"DONE".equals(state)) {
            for (Local c : claims.values()) {
                if (c.claim.jobId().equals(jobId)) {
                    abandon(c);
                }
            }
        }
    }

    private void recheckWaiters() {
        if (waiters.isEmpty()) {
            return;
        }
        try {
            for (String id : store.ended(List.copyOf(waiters.keySet()))) {
                jobEnded(id, "?");
            }
        } catch (RuntimeException e) {
            noteDown(e);
        }
    }

    // ------------------------------------------------------------------ claiming

    private void signal() {
        synchronized (signal) {
            wake = true;
            signal.notifyAll();
        }
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

    private void claimLoop() {
        while (claiming) {
            boolean more = false;
            int free = freeSlots();
            if (free > 0 && !circuitIds.isEmpty()) {
                try {
                    List<ClusterStore.Claim> got = store.claim(nodeId, free, settings.leaseTimeout(),
                            circuitIds, digestList);
                    for (ClusterStore.Claim c : got) {
                        Local l = new Local(c);
                        claims.put(c.token(), l);
                        intake.incrementAndGet();
                        intakeThreads.execute(() -> start(l));
                    }
                    more = got.size() == free;
                    noteUp();
                } catch (RuntimeException e) {
                    noteDown(e);
                }
            }
            if (!more) {
                synchronized (signal) {
                    if (!wake) {
                        try {
                            signal.wait(databaseDown != null ? 1000 : settings.fallbackPoll().toMillis());
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    wake = false;
                }
            }
        }
    }

    /** Turns a claim into a one-partition job of the engine. */
    private void start(Local l) {
        ClusterStore.Claim c = l.claim;
        try {
            if (c.claims() > settings.maxAttempts()) {
                finishFailed(l, "claimed " + c.claims() + " times without a result (cluster.max_attempts = "
                        + settings.maxAttempts() + "): the nodes proving it died or gave it up");
                return;
            }
            Circuits.Registered circuit = engine.circuits().get(c.circuit());
            Partition in = c.kind().equals("input_json")
                    ? Partition.newBuilder().setInputJson(new String(c.payload(), StandardCharsets.UTF_8)).build()
                    : Partition.newBuilder().setWtns(ByteString.copyFrom(c.payload())).build();
            CircuitJob.Partition part;
            try (ResidentCache<dev.proofline.groth16.ProvingKey>.Lease key = engine.circuits().key(c.circuit())) {
                part = ProvingService.partition(circuit, key.value(), in, c.partition());
            }
            CircuitJob spec = new CircuitJob(engine.circuits(), c.circuit(), List.of(part));
            partitionBytes.put(c.circuit(), spec.workingSetBytes(0));
            if (l.lost) {
                l.close();
                return;
            }
            // named after the cluster's job and partition (and the claim, when it is not the first)
            Engine.Job job = engine.submitNamed(spec, priority(c.priority()), c.jobId() + "/" + c.partition()
                    + (c.claims() > 1 ? "#" + c.claims() : ""));
            l.job = job;
            if (l.lost) {
                job.cancel();
            }
            job.result().whenComplete((proofs, failure) -> writer.execute(() -> outcome(l, proofs, failure)));
        } catch (ResidentCache.LoadException e) {
            giveBack(l, e.getMessage());
        } catch (StatusRuntimeException e) {
            finishFailed(l, e.getStatus().getDescription());
        } catch (InterruptedException e) {
            giveBack(l, "the node is stopping");
        } catch (RuntimeException e) {
            if (closed) {
                giveBack(l, "the node is stopping");
            } else {
                finishFailed(l, e.getMessage() != null ? e.getMessage() : e.toString());
            }
        } finally {
            intake.decrementAndGet();
            signal();
        }
    }

    /** The stored rank of a priority: higher is claimed first (LOW 0 ... CRITICAL 3). */
    static int rank(Priority p) {
        return Priority.values().length - 1 - p.ordinal();
    }

    private static Priority priority(int rank) {
        int n = Priority.values().length;
        return Priority.values()[n - 1 - Math.max(0, Math.min(n - 1, rank))];
    }

    /** Runs on the writer thread: stores the partition's outcome. */
    private void outcome(Local l, List<Object> results, Throwable failure) {
        ClusterStore.Claim c = l.claim;
        if (failure instanceof CancellationException || l.lost) {
            l.close();
            return;
        }
        if (failure != null) {
            Throwable cause = failure instanceof ExecutionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (closed || cause instanceof ResidentCache.LoadException) {
                giveBack(l, String.valueOf(cause.getMessage()));
            } else if (cause instanceof dev.proofline.groth16.Prover.ProofRejectedException) {
                // the proof's own verification caught a witness that does not satisfy the circuit (a
                // circuit with only a key cannot be checked at submission): the client's fault, said so
                finishFailed(l, "partition " + c.partition() + " of circuit '" + c.circuit() + "': " + UNSATISFIED
                        + " (its proof fails verification)");
            } else {
                finishFailed(l, cause.getMessage() != null ? cause.getMessage() : cause.toString());
            }
            return;
        }
        Object r = results.get(0);
        Engine.Timings t = l.job.timings(0);
        double[] timings = t == null ? new double[6] : new double[] {c.waitedMs() + t.queueWaitMs(), t.synthesisMs(),
            t.proverWaitMs(), t.proverMs(), t.finalizeMs(), c.waitedMs() + t.totalMs()};
        boolean stored;
        if (r instanceof ProofResult pr) {
            stored = retrying("storing the proof of " + c.jobId() + "/" + c.partition(), () -> store.complete(c,
                    nodeId, SnarkjsJson.proofJson(pr.proof()), ProofBinary.encode(pr.proof()),
                    pr.publicSignals(), timings));
        } else {
            // the simulated prover's result: a string
            stored = retrying("storing the result of " + c.jobId() + "/" + c.partition(), () -> store.complete(c,
                    nodeId, String.valueOf(r), null, null, timings));
        }
        l.close();
        if (stored) {
            proofs.incrementAndGet();
        } else {
            discarded.incrementAndGet();
            log.accept("result of " + c.jobId() + " partition " + c.partition() + " discarded: this node's lease"
                    + " is no longer current (expired, or the job ended)");
        }
    }

    private void finishFailed(Local l, String error) {
        ClusterStore.Claim c = l.claim;
        retrying("failing " + c.jobId(), () -> store.fail(c, nodeId, error));
        l.close();
    }

    /** This node will not prove the claim (stopping, or no room for its key): back to the queue for another. */
    private void giveBack(Local l, String why) {
        ClusterStore.Claim c = l.claim;
        if (c.claims() >= settings.maxAttempts() && !closed) {
            finishFailed(l, "given up " + c.claims() + " times (cluster.max_attempts), last: " + why);
            return;
        }
        try {
            store.release(c, nodeId + ": " + why);
        } catch (RuntimeException e) {
            noteDown(e); // the lease expires; another node takes the partition then
        }
        l.close();
    }

    /** Stops proving a claim whose lease this node lost or whose job ended. */
    private void abandon(Local l) {
        l.lost = true;
        Engine.Job j = l.job;
        if (j != null) {
            j.cancel();
        }
    }

    private interface StoreCall {
        boolean run();
    }

    /** Runs a write until the database takes it (or the node is closed); true when it was accepted. */
    private boolean retrying(String what, StoreCall call) {
        long backoff = 200;
        while (true) {
            try {
                boolean ok = call.run();
                noteUp();
                return ok;
            } catch (ClusterStore.UnavailableException e) {
                noteDown(e);
                if (closed && writerGaveUp) {
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

    private void noteDown(RuntimeException e) {
        if (!(e instanceof ClusterStore.UnavailableException)) {
            log.accept("job store: " + e.getMessage());
            return;
        }
        if (databaseDown == null) {
            databaseDown = e.getMessage();
            log.accept("job store: " + e.getMessage() + "; proving goes on, results are written when it returns");
        }
    }

    /** The job store answered: ends an outage {@link #noteDown} noted, and wakes the claim loop. */
    private void noteUp() {
        if (databaseDown != null) {
            databaseDown = null;
            log.accept("job store: reachable again");
            signal();
        }
    }

    // ------------------------------------------------------------------ heartbeats and notifications

    private void heartbeat() {
        try {
            Set<Long> before = Set.copyOf(claims.keySet());
            Set<Long> held = store.heartbeat(new ClusterStore.NodeInfo(nodeId, grpcAddress, httpAddress,
                    engine.backend().name(), startedAt, engine.permits().max(), engine.permits().inUse(), claims.size(),
                    proofs.get(), engine.proverBusyLastMinute(), String.join(",", circuitIds)), settings.leaseTimeout());
            for (Long token : before) {
                Local l = claims.get(token);
                if (l != null && !held.contains(token) && !l.lost && l.job != null && !l.job.isOver()) {
                    log.accept("lease on " + l.claim.jobId() + " partition " + l.claim.partition()
                            + " lost (expired, or the job ended): stopping it here");
                    abandon(l);
                }
            }
            if (store.upkeep(settings.resultRetention(), settings.fetchedRetention()) > 0) {
                signal();
            }
            noteUp();
        } catch (RuntimeException e) {
            noteDown(e);
        }
    }

    private void refuseMismatches() {
        try {
            int n = store.refuse(nodeId, circuitIds, digestList);
            if (n > 0) {
                log.accept("refused " + n + " job(s) submitted against a key that differs from this node's");
            }
        } catch (RuntimeException e) {
            noteDown(e);
        }
    }

    private void listen() {
        while (!closed) {
            try (ClusterStore.Notices ns = store.listen()) {
                notices = ns;
                // notifications may have been lost while not listening
                signal();
                recheckWaiters();
                while (!closed) {
                    List<ClusterStore.Notice> got = ns.poll(settings.fallbackPoll());
                    if (got.isEmpty()) {
                        // quiet for a while: the slow fallback for lost notifications
                        signal();
                        recheckWaiters();
                        refuseMismatches();
                        continue;
                    }
                    boolean work = false;
                    for (ClusterStore.Notice n : got) {
                        String[] f = n.payload().split(" ");
                        if (n.channel().equals(ClusterStore.WORK)) {
                            work = true;
                            if (f.length == 3 && digests.containsKey(f[1]) && !digests.get(f[1]).equals(f[2])) {
                                refuseMismatches();
                            }
                        } else if (f.length == 2) {
                            jobEnded(f[0], f[1]);
                        }
                    }
                    if (work) {
                        signal();
                    }
                }
            } catch (Exception e) {
                if (closed) {
                    return;
                }
                noteDown(new ClusterStore.UnavailableException("the job store is unavailable (listening): "
                        + e.getMessage(), e));
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    return;
                }
            } finally {
                notices = null;
            }
        }
    }

    // ------------------------------------------------------------------ stopping

    /**
     * Stops claiming; lets the claims in flight finish for up to {@code grace}, then gives what is
     * left back to the queue (other nodes prove it) and marks the node stopped.
     */
    void shutdown(Duration grace) throws InterruptedException {
        if (closed) {
            return;
        }
        claiming = false;
        signal();
        if (claimer == null) { // never started
            closed = true;
            intakeThreads.shutdownNow();
            heartbeats.shutdownNow();
            writer.shutdownNow();
            store.close();
            return;
        }
        claimer.join(5000);
        long deadline = System.nanoTime() + grace.toNanos();
        while (!claims.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        closed = true;
        for (Local l : claims.values()) {
            abandon(l);
        }
        intakeThreads.shutdownNow();
        heartbeats.shutdownNow();
        writerGaveUp = true;
        writer.shutdown();
        if (!writer.awaitTermination(5, TimeUnit.SECONDS)) {
            writer.shutdownNow();
        }
        try {
            store.leave(nodeId);
        } catch (RuntimeException e) {
            log.accept("cluster: leaving: " + e.getMessage() + " (its leases expire instead)");
        }
        ClusterStore.Notices n = notices;
        if (n != null) {
            n.close(); // wakes the listener from its poll (PostgreSQL); it then sees closed
        }
        listener.interrupt();
        waiters.values().forEach(l -> l.forEach(f -> f.completeExceptionally(
                new IllegalStateException("the node is stopping"))));
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
        m.put("proofs_stored", proofs.get());
        m.put("results_discarded", discarded.get());
        m.put("database", databaseDown == null ? "ok" : databaseDown);
        m.put("round_trips", store.roundTrips());
        List<String> ds = new ArrayList<>();
        digests.forEach((k, v) -> ds.add(k + " " + v));
        m.put("key_digests", ds);
        return m;
    }
}
