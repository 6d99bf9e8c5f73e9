package dev.proofline.daemon.store;

import dev.proofline.engine.Priority;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The durable job queue that a daemon's node ({@code StoreNode}) works from: jobs, their partitions (the
 * witnesses or inputs to prove), claims, results, idempotency keys. Two kinds: {@code PostgresStore},
 * shared by the daemons of a cluster ({@code ClusterNode}s), and {@code SqliteStore}, a single daemon's
 * embedded file ({@code SingleNode}). Both keep one model, one set of states and one contract, in parts: the
 * {@link Database} (what it is, its announcements), the {@link Queue} (submit, claim, complete, fail,
 * release, cancel), {@link Membership} (heartbeats, leaving, refusals), {@link Upkeep} and the
 * {@link Views} the clients and the status read; each kind implements every part once, no part forwards.
 *
 * <p>A job is {@code RUNNING} until it is {@code DONE}, {@code FAILED}, {@code CANCELLED} or
 * {@code DEADLINE_EXCEEDED}; a partition is {@code QUEUED}, {@code CLAIMED} by one node under a lease
 * (owner, token, and an expiry unless the node claimed it without one), then {@code DONE}, {@code FAILED}
 * or {@code CANCELLED}. A job is durable once {@link Queue#submit} returns. A result is accepted only
 * from the holder of the partition's current lease token, so a late result from a node whose lease
 * expired is discarded and a partition is never proved into the job twice. A node that starts again
 * under its id first {@linkplain Membership#leave gives back} the claims its previous life held.
 */
public record ClusterStore(Database database, Queue queue, Membership membership, Upkeep upkeep, Views views)
        implements AutoCloseable {

    /** Announcement of partitions that became claimable: "job circuit digest". */
    public static final String WORK = "proofline_work";
    /** Announcement of a job that ended: "job STATE". */
    public static final String JOBS = "proofline_jobs";

    /**
     * What a job's stored error says when a witness did not satisfy its circuit; the service answers such a
     * failure with INVALID_ARGUMENT (the store keeps an error's text, not its kind).
     */
    public static final String UNSATISFIED = "the witness does not satisfy the circuit";

    /**
     * What a job's stored error says when the circuit's witness generator refused a partition's circom input
     * as it computed the witness (an assert or a constraint that failed): INVALID_ARGUMENT too, as the
     * checks at submission and {@code wtns calculate} answer such an input.
     */
    public static final String BAD_INPUT = "bad circom input";

    /** The stored rank of a priority: higher is claimed first (LOW 0 ... CRITICAL 3). */
    public static int rank(Priority p) {
        return Priority.values().length - 1 - p.ordinal();
    }

    /** The priority of a stored rank (one out of range is the nearest). */
    public static Priority priority(int rank) {
        int n = Priority.values().length;
        return Priority.values()[n - 1 - Math.max(0, Math.min(n - 1, rank))];
    }

    /** A store that cannot be reached (or stopped answering): the caller's request is UNAVAILABLE. */
    public static class UnavailableException extends RuntimeException {
        public UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A store found damaged while the daemon runs: it takes no new jobs until the daemon is restarted on
     * a sound one ({@link Database#problem}); the store logged it once, the callers need not again.
     */
    public static final class DamagedStoreException extends UnavailableException {
        public DamagedStoreException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What a partition's payload is, under the name the store keeps. */
    public enum PartitionKind {
        /** A witness: {@code .wtns} bytes. */
        WTNS("wtns"),
        /** Circom input JSON (UTF-8), for a circuit whose witness generator runs in the daemon. */
        INPUT_JSON("input_json");

        private final String stored;

        PartitionKind(String stored) {
            this.stored = stored;
        }

        /** The name the store keeps. */
        public String stored() {
            return stored;
        }

        /** The kind a stored name stands for. */
        public static PartitionKind of(String stored) {
            for (PartitionKind k : values()) {
                if (k.stored.equals(stored)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("no partition kind is stored as '" + stored + "'");
        }
    }

    /** A partition as submitted: its kind and its payload. */
    public record NewPartition(PartitionKind kind, byte[] payload) {
    }

    public record Submitted(String jobId, boolean existing, int queuePosition) {
    }

    /**
     * A partition claimed by this node under lease {@code token}; {@code claims} counts every claim of it,
     * this one included, {@code interrupted} the earlier ones that ended because their node died or
     * stopped (not the partition's fault).
     */
    public record Claim(String jobId, int partition, long token, String circuit, PartitionKind kind, byte[] payload, int priority,
            double waitedMs, int claims, int interrupted) {

        /** Claims that ended without a result for the partition's own sake: given back by a living node (this one included). */
        public int attempts() {
            return claims - interrupted;
        }
    }

    /** What a node tells the others with each heartbeat. */
    public record NodeInfo(String id, String grpcAddress, String httpAddress, String backend, Instant startedAt,
            int permitsMax, int permitsInUse, int claimed, long proofs, double proverBusy, String circuits) {
    }

    /** A job's state, stored by its name; it has ended once it is no longer {@code RUNNING}. */
    public enum JobState {
        RUNNING, DONE, FAILED, CANCELLED, DEADLINE_EXCEEDED
    }

    /** A partition's state, stored by its name. */
    public enum PartitionState {
        QUEUED, CLAIMED, DONE, FAILED, CANCELLED
    }

    /** One partition of a job as stored. */
    public record PartitionView(int index, PartitionState state, String node, String proofJson, byte[] proofBinary,
            List<String> publicSignals, double[] timings, String error, int claims) {
    }

    /** A job as stored; {@code state} is DEADLINE_EXCEEDED as soon as its deadline passed. */
    public record JobView(String id, String circuit, JobState state, String error, int partitions, String submittedBy,
            List<String> refusals, List<PartitionView> parts) {
        public boolean ended() {
            return state != JobState.RUNNING;
        }
    }

    /**
     * A node as the status shows it: its addresses, when it started, the milliseconds since its last
     * heartbeat (by the store's clock), whether it stopped, its load and the partitions it holds claimed.
     */
    public record StatusNode(String id, String grpc, String http, String backend, Instant startedAt, long heartbeatAgeMs,
            boolean stopped, int permitsMax, int permitsInUse, long proofs, double proverBusy, String circuits,
            long holding) {
    }

    /**
     * A partition of a recent job as the status shows it: its state, the node that holds or proved it,
     * and why it failed (null unless it did).
     */
    public record StatusPartition(String state, String node, String error) {
    }

    /** A recent job as the status shows it, with its partitions in order. */
    public record StatusJob(String id, String circuit, String state, String error, String submittedBy, Instant submittedAt,
            List<StatusPartition> partitions) {
    }

    /**
     * The queue as the status shows it: the nodes by id, the partitions counted by state (by state's
     * name), and the recent jobs, newest first.
     */
    public record Status(List<StatusNode> nodes, Map<String, Long> partitions, List<StatusJob> recent) {
    }

    /** An announcement on {@link #WORK} or {@link #JOBS}. */
    public record Notice(String channel, String payload) {
    }

    /** A subscription to the store's announcements; {@link #poll} may lose none while it is open. */
    public interface Notices extends AutoCloseable {
        /** The announcements made since the last poll, waiting up to {@code timeout} for one; empty if none. */
        List<Notice> poll(Duration timeout) throws Exception;

        @Override
        void close();
    }

    /** What the store is and where it lives: a PostgreSQL pool, or a SQLite file. */
    public interface Database extends AutoCloseable {

        /** What the store is, for logs and status ("PostgreSQL postgresql://...", "SQLite /var/lib/..."). */
        String describe();

        /**
         * Why the store takes no new jobs now, or null: its file found damaged (until a restart on a sound
         * store) or its disk full (until a write succeeds again). Jobs already accepted go on as far as the
         * store lets them.
         */
        default String problem() {
            return null;
        }

        /**
         * The config key of the retention of ended jobs, for the message that tells a client its job is gone
         * ({@code cluster.result_retention}, {@code store.result_retention}).
         */
        String retentionKey();

        /** Statements sent so far (a round trip each to a database server; a call into the file for SQLite). */
        long roundTrips();

        /** Subscribes to announcements: opened by each node's listener, and again after a lost connection. */
        Notices listen() throws Exception;

        @Override
        void close();
    }

    /** The queue protocol: jobs in, partitions claimed under leases, results and failures back. */
    public interface Queue {

        /**
         * Inserts a job and its partitions and announces them: durable once this returns. A repeated
         * idempotency key returns the first job.
         */
        Submitted submit(String idempotencyKey, String circuit, String digest, int priority, Duration deadline,
                String node, List<NewPartition> parts);

        /**
         * Claims at most {@code limit} queued partitions of the given circuits (each with the key digest
         * this node has), highest priority first, then oldest, each for {@code lease} unless the node's
         * heartbeat extends it. A null {@code lease}: claims that never expire, held until the node
         * completes, fails or releases them, or {@linkplain Membership#leave leaves} (a single daemon's,
         * whose claims no other node can take).
         */
        List<Claim> claim(String node, int limit, Duration lease, List<String> circuits, List<String> digests);

        /**
         * Stores a proof for a claimed partition, if this node still holds its lease; the job is done with
         * its last partition. False: the result came too late (lease lost, job ended) and was discarded.
         */
        boolean complete(Claim claim, String node, String proofJson, byte[] proofBinary, List<String> publicSignals,
                double[] timings);

        /**
         * Fails the job of a claimed partition (its proof cannot be made: the error names why), cancelling
         * its other partitions, if this node still holds the lease. False: discarded as too late.
         */
        boolean fail(Claim claim, String node, String error);

        /**
         * Gives a claimed partition back to the queue and announces it: {@code attempt}, this node could not
         * prove it (counts toward {@code max_attempts}); otherwise the node is stopping, and the claim counts
         * as interrupted.
         */
        boolean release(Claim claim, String why, boolean attempt);

        /** Cancels a running job and its unfinished partitions; its state afterwards, or null when there is no such job. */
        JobState cancel(String id);
    }

    /**
     * The nodes that work from the store: heartbeats and leases (a cluster's members), leaving (every
     * node), refusals.
     */
    public interface Membership {

        /**
         * Records the node's heartbeat and load, and extends the leases it holds; returns the tokens of
         * those leases (a claim not among them was lost: requeued after expiry, or its job ended).
         */
        Set<Long> heartbeat(NodeInfo n, Duration lease);

        /**
         * A node that stops, or that starts again under its id after it died: its claims, with or without
         * a lease, go back to the queue at once (announced), each counted as interrupted, and it shows as
         * stopped. Returns the partitions given back.
         */
        int leave(String node);

        /**
         * The node's answer to running jobs that were submitted against another key than its own for a
         * circuit ({@code circuits} with {@code digests}): in a cluster a refusal recorded for the job
         * (another node may prove it); in a store of one node, that node's refusal fails the job. Returns
         * the jobs refused.
         */
        int refuse(String node, List<String> circuits, List<String> digests);
    }

    /** What the store does by itself, run by each node now and then. */
    public interface Upkeep {

        /**
         * Upkeep: partitions whose lease expired go back to the queue, announced, counted as interrupted
         * (a claim without a lease never expires); jobs past their deadline
         * end; ended jobs are deleted after {@code retention}, fetched ones after {@code fetchedRetention}.
         * Returns the partitions requeued.
         */
        int run(Duration retention, Duration fetchedRetention);
    }

    /** Jobs and the queue as the clients and the status read them. */
    public interface Views {

        /**
         * The job, or null when there is none; {@code fetching}: the caller is returning its proofs, so a
         * done job is marked fetched (and kept only {@code fetched_retention} more).
         */
        JobView job(String id, boolean fetching);

        /** Of {@code ids}, those whose job has ended (or is gone). */
        List<String> ended(List<String> ids);

        /**
         * The queue as the status shows it: the nodes (each with its heartbeat age, load and the partitions
         * it holds), the partitions counted by state and the {@code recentJobs} newest jobs with, per
         * partition, its state and the node that holds or proved it; read at one moment, and written as
         * JSON by {@code StatusJson.cluster}.
         */
        Status status(int recentJobs);

        /** Proofs stored per node (for checks and benchmarks): node id → partitions it proved. */
        Map<String, Long> provedBy();
    }

    /** Closes the connections or the file. */
    @Override
    public void close() {
        database.close();
    }
}
