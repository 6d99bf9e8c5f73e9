package dev.proofline.daemon;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.flywaydb.core.Flyway;

/**
 * The cluster's durable queue ({@link ClusterStore}, whose states and contract it keeps) in
 * PostgreSQL: every read and write of the cluster mode, each one SQL statement (one round trip,
 * counted by {@link #roundTrips}) except the rare failure path. Times are the database's
 * ({@code now()}), never a node's clock. The schema is created and migrated with Flyway from
 * {@code dev/proofline/daemon/db}. Locks are always taken partitions first, then the job row.
 *
 * <p>Notifications: {@code proofline_work} ("job circuit digest" when partitions became claimable) and
 * {@code proofline_jobs} ("job STATE" when a job ended).
 */
final class PostgresStore implements ClusterStore {

    /** The libraries' own progress messages are not the daemon's: warnings only (held, so the levels stay set). */
    private static final List<java.util.logging.Logger> QUIET = List.of(
            java.util.logging.Logger.getLogger("org.flywaydb"), java.util.logging.Logger.getLogger("com.zaxxer.hikari"));

    static {
        QUIET.forEach(l -> l.setLevel(java.util.logging.Level.WARNING));
    }

    private final String jdbcUrl;
    private final Properties props;
    private final HikariDataSource pool;
    private final AtomicLong roundTrips = new AtomicLong();

    private PostgresStore(String jdbcUrl, Properties props, HikariDataSource pool) {
        this.jdbcUrl = jdbcUrl;
        this.props = props;
        this.pool = pool;
    }

    /**
     * Connects to {@code database} ({@code postgresql://user:password@host:port/db?...}, or a
     * {@code jdbc:postgresql:} URL) with a pool of {@code poolSize}, creating or migrating the schema.
     */
    static PostgresStore open(String database, int poolSize, Duration connectTimeout) {
        Properties props = new Properties();
        String url = jdbcUrl(database, props);
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        hc.setDataSourceProperties(props);
        hc.setMaximumPoolSize(poolSize);
        hc.setMinimumIdle(1);
        hc.setConnectionTimeout(Math.max(250, connectTimeout.toMillis()));
        hc.setValidationTimeout(Math.max(250, Math.min(connectTimeout.toMillis(), 5000)));
        hc.setInitializationFailTimeout(connectTimeout.toMillis());
        hc.setPoolName("proofline-cluster");
        hc.setAutoCommit(true);
        props.setProperty("connectTimeout", String.valueOf(Math.max(1, connectTimeout.toSeconds())));
        props.setProperty("socketTimeout", "60");
        props.setProperty("ApplicationName", "proofline");
        HikariDataSource ds;
        try {
            ds = new HikariDataSource(hc);
        } catch (RuntimeException e) {
            throw new UnavailableException("cluster.database: cannot connect to " + redacted(database) + ": "
                    + rootMessage(e), e);
        }
        try {
            Flyway.configure().dataSource(ds).locations("classpath:dev/proofline/daemon/db")
                    .table("proofline_schema_history").load().migrate();
        } catch (RuntimeException e) {
            ds.close();
            throw new UnavailableException("cluster.database: migrating the schema of " + redacted(database)
                    + " failed: " + rootMessage(e), e);
        }
        return new PostgresStore(url, props, ds);
    }

    /** The JDBC URL for a libpq-style URI (user and password go to {@code props}), or the JDBC URL as given. */
    static String jdbcUrl(String database, Properties props) {
        if (database.startsWith("jdbc:postgresql:")) {
            return database;
        }
        if (!database.startsWith("postgresql://") && !database.startsWith("postgres://")) {
            throw new IllegalArgumentException("cluster.database: '" + redacted(database)
                    + "' is not a postgresql://user:password@host:port/database URL");
        }
        URI u = URI.create(database);
        if (u.getHost() == null) {
            throw new IllegalArgumentException("cluster.database: '" + redacted(database) + "' names no host");
        }
        if (u.getRawUserInfo() != null) {
            String[] up = u.getRawUserInfo().split(":", 2);
            props.setProperty("user", URLDecoder.decode(up[0], StandardCharsets.UTF_8));
            if (up.length == 2) {
                props.setProperty("password", URLDecoder.decode(up[1], StandardCharsets.UTF_8));
            }
        }
        String db = u.getRawPath() == null || u.getRawPath().length() <= 1 ? "postgres" : u.getRawPath().substring(1);
        return "jdbc:postgresql://" + u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "") + "/" + db
                + (u.getRawQuery() != null ? "?" + u.getRawQuery() : "");
    }

    /** The URL without its password, for messages. */
    static String redacted(String database) {
        return database.replaceAll("://([^:/@]+):[^@/]*@", "://$1:***@");
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }

    /** Statements sent so far (each one round trip to the database). */
    @Override
    public long roundTrips() {
        return roundTrips.get();
    }

    @Override
    public String describe() {
        return "PostgreSQL " + redacted(jdbcUrl);
    }

    @Override
    public String retentionKey() {
        return "cluster.result_retention";
    }

    /** LISTEN on a connection of its own, outside the pool. */
    @Override
    public Notices listen() throws SQLException {
        Connection c = DriverManager.getConnection(jdbcUrl, props);
        try {
            c.setAutoCommit(true);
            try (var s = c.createStatement()) {
                s.execute("LISTEN " + WORK);
                s.execute("LISTEN " + JOBS);
            }
            org.postgresql.PGConnection pg = c.unwrap(org.postgresql.PGConnection.class);
            return new Notices() {
                @Override
                public List<Notice> poll(Duration timeout) throws SQLException {
                    org.postgresql.PGNotification[] ns = pg.getNotifications((int) Math.max(1, timeout.toMillis()));
                    List<Notice> out = new ArrayList<>();
                    if (ns != null) {
                        for (org.postgresql.PGNotification n : ns) {
                            out.add(new Notice(n.getName(), n.getParameter()));
                        }
                    }
                    return out;
                }

                @Override
                public void close() {
                    try {
                        c.close();
                    } catch (SQLException ignored) {
                        // the connection is dropped either way
                    }
                }
            };
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public void close() {
        pool.close();
    }

    // ------------------------------------------------------------------ plumbing

    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} on a pooled connection: a deadlock (the database picked this statement to
     * abort) is retried; an unreachable database is an {@link UnavailableException}.
     */
    private <T> T with(String what, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = pool.getConnection()) {
                return work.run(c);
            } catch (SQLException e) {
                if ("40P01".equals(e.getSQLState()) && attempt < 5) {
                    continue;
                }
                if (isConnectionProblem(e)) {
                    throw new UnavailableException("the cluster database is unavailable (" + what + "): "
                            + rootMessage(e), e);
                }
                throw new IllegalStateException(what + ": " + e.getMessage(), e);
            }
        }
    }

    static boolean isConnectionProblem(SQLException e) {
        String state = e.getSQLState();
        return e instanceof java.sql.SQLTransientConnectionException || state == null
                || state.startsWith("08") || state.startsWith("57P") || state.equals("53300");
    }

    private PreparedStatement prepare(Connection c, String sql) throws SQLException {
        roundTrips.incrementAndGet();
        return c.prepareStatement(sql);
    }

    // ------------------------------------------------------------------ submit

    /**
     * Inserts a job and its partitions and announces them, in one statement: durable once this returns.
     * A repeated idempotency key returns the first job.
     */
    @Override
    public Submitted submit(String idempotencyKey, String circuit, String digest, int priority, Duration deadline,
            String node, List<NewPartition> parts) {
        return with("submitting a job", c -> {
            String sql = """
                    WITH j AS (
                      INSERT INTO jobs (job_id, idempotency_key, circuit_id, key_digest, priority, partitions,
                                        submitted_by, deadline_at)
                      VALUES ('job-' || nextval('job_numbers'), ?, ?, ?, ?, ?, ?,
                              CASE WHEN ? > 0 THEN now() + ? * interval '1 millisecond' END)
                      ON CONFLICT (idempotency_key) DO NOTHING
                      RETURNING job_id, submitted_at, deadline_at),
                    p AS (
                      INSERT INTO partitions (job_id, idx, circuit_id, key_digest, priority, kind, payload,
                                              submitted_at, deadline_at)
                      SELECT j.job_id, u.ord - 1, ?, ?, ?, u.kind, u.payload, j.submitted_at, j.deadline_at
                      FROM j, unnest(?::text[], ?::bytea[]) WITH ORDINALITY AS u(kind, payload, ord)
                      RETURNING 1)
                    SELECT j.job_id,
                           (SELECT count(*) FROM partitions q WHERE q.state = 'QUEUED' AND q.priority >= ?),
                           pg_notify('proofline_work', j.job_id || ' ' || ? || ' ' || ?),
                           (SELECT count(*) FROM p)
                    FROM j""";
            long ms = deadline == null ? 0 : deadline.toMillis();
            String[] kinds = parts.stream().map(NewPartition::kind).toArray(String[]::new);
            byte[][] payloads = parts.stream().map(NewPartition::payload).toArray(byte[][]::new);
            try (PreparedStatement s = prepare(c, sql)) {
                int i = 1;
                s.setString(i++, idempotencyKey);
                s.setString(i++, circuit);
                s.setString(i++, digest);
                s.setInt(i++, priority);
                s.setInt(i++, parts.size());
                s.setString(i++, node);
                s.setLong(i++, ms);
                s.setLong(i++, ms);
                s.setString(i++, circuit);
                s.setString(i++, digest);
                s.setInt(i++, priority);
                s.setArray(i++, c.createArrayOf("text", kinds));
                s.setArray(i++, c.createArrayOf("bytea", payloads));
                s.setInt(i++, priority);
                s.setString(i++, circuit);
                s.setString(i++, digest);
                try (ResultSet r = s.executeQuery()) {
                    if (r.next()) {
                        return new Submitted(r.getString(1), false, r.getInt(2));
                    }
                }
            }
            try (PreparedStatement s = prepare(c, "SELECT job_id FROM jobs WHERE idempotency_key = ?")) {
                s.setString(1, idempotencyKey);
                try (ResultSet r = s.executeQuery()) {
                    if (!r.next()) {
                        throw new IllegalStateException("idempotency key '" + idempotencyKey + "' has no job");
                    }
                    return new Submitted(r.getString(1), true, 0);
                }
            }
        });
    }

    // ------------------------------------------------------------------ claims and results

    /**
     * Claims at most {@code limit} queued partitions of the given circuits (each with the key digest
     * this node has), highest priority first, then oldest; rows other nodes are claiming are skipped.
     */
    @Override
    public List<Claim> claim(String node, int limit, Duration lease, List<String> circuits, List<String> digests) {
        return with("claiming partitions", c -> {
            String sql = """
                    UPDATE partitions p SET state = 'CLAIMED', lease_owner = ?, lease_token = nextval('lease_tokens'),
                           lease_expires = now() + ? * interval '1 millisecond', claims = p.claims + 1,
                           claimed_at = now()
                    FROM (SELECT job_id, idx FROM partitions
                          WHERE state = 'QUEUED' AND (deadline_at IS NULL OR deadline_at > now())
                            AND (circuit_id, key_digest) IN (SELECT * FROM unnest(?::text[], ?::text[]))
                          ORDER BY priority DESC, seq LIMIT ? FOR UPDATE SKIP LOCKED) q
                    WHERE p.job_id = q.job_id AND p.idx = q.idx
                    RETURNING p.job_id, p.idx, p.lease_token, p.circuit_id, p.kind, p.payload, p.priority,
                              extract(epoch FROM now() - p.submitted_at) * 1000, p.claims""";
            try (PreparedStatement s = prepare(c, sql)) {
                s.setString(1, node);
                s.setLong(2, lease.toMillis());
                s.setArray(3, c.createArrayOf("text", circuits.toArray()));
                s.setArray(4, c.createArrayOf("text", digests.toArray()));
                s.setInt(5, limit);
                List<Claim> out = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.add(new Claim(r.getString(1), r.getInt(2), r.getLong(3), r.getString(4), r.getString(5),
                                r.getBytes(6), r.getInt(7), r.getDouble(8), r.getInt(9)));
                    }
                }
                return out;
            }
        });
    }

    /**
     * Stores a proof for a claimed partition, if this node still holds its lease; the job is done with
     * its last partition. False: the result came too late (lease lost, job ended) and was discarded.
     */
    @Override
    public boolean complete(Claim claim, String node, String proofJson, byte[] proofBinary, List<String> publicSignals,
            double[] timings) {
        return with("storing a proof", c -> {
            String sql = """
                    WITH p AS (
                      UPDATE partitions SET state = 'DONE', proved_by = ?, proof_json = ?, proof_binary = ?,
                             public_signals = ?, timings = ?, lease_owner = NULL, lease_expires = NULL, payload = NULL
                      WHERE job_id = ? AND idx = ? AND state = 'CLAIMED' AND lease_token = ?
                      RETURNING job_id),
                    j AS (
                      UPDATE jobs SET done = done + 1,
                             state = CASE WHEN done + 1 >= partitions THEN 'DONE' ELSE state END,
                             ended_at = CASE WHEN done + 1 >= partitions THEN now() ELSE ended_at END
                      WHERE job_id IN (SELECT job_id FROM p) AND state = 'RUNNING'
                      RETURNING job_id, state)
                    SELECT (SELECT count(*) FROM p),
                           (SELECT count(*) FROM (SELECT pg_notify('proofline_jobs', job_id || ' DONE') FROM j WHERE state = 'DONE') x)""";
            try (PreparedStatement s = prepare(c, sql)) {
                s.setString(1, node);
                s.setString(2, proofJson);
                s.setBytes(3, proofBinary);
                s.setArray(4, publicSignals == null ? null : c.createArrayOf("text", publicSignals.toArray()));
                Double[] t = new Double[timings.length];
                for (int i = 0; i < t.length; i++) {
                    t[i] = timings[i];
                }
                s.setArray(5, c.createArrayOf("float8", t));
                s.setString(6, claim.jobId());
                s.setInt(7, claim.partition());
                s.setLong(8, claim.token());
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getLong(1) == 1;
                }
            }
        });
    }

    /**
     * Fails the job of a claimed partition (its proof cannot be made: the error names why), cancelling
     * its other partitions, if this node still holds the lease. False: discarded as too late.
     */
    @Override
    public boolean fail(Claim claim, String node, String error) {
        return with("failing a job", c -> {
            c.setAutoCommit(false);
            try {
                try (PreparedStatement s = prepare(c, "SELECT 1 FROM partitions WHERE job_id = ? AND idx = ?"
                        + " AND state = 'CLAIMED' AND lease_token = ? FOR UPDATE")) {
                    s.setString(1, claim.jobId());
                    s.setInt(2, claim.partition());
                    s.setLong(3, claim.token());
                    try (ResultSet r = s.executeQuery()) {
                        if (!r.next()) {
                            c.rollback();
                            return false;
                        }
                    }
                }
                String sql = """
                        WITH o AS (
                          UPDATE partitions x SET state = CASE WHEN x.idx = ? THEN 'FAILED' ELSE 'CANCELLED' END,
                                 error = CASE WHEN x.idx = ? THEN ? END, proved_by = CASE WHEN x.idx = ? THEN ? END,
                                 lease_owner = NULL, lease_expires = NULL, payload = NULL
                          FROM (SELECT job_id, idx FROM partitions WHERE job_id = ? AND state IN ('QUEUED', 'CLAIMED')
                                ORDER BY idx FOR UPDATE) l
                          WHERE x.job_id = l.job_id AND x.idx = l.idx RETURNING 1),
                        j AS (
                          UPDATE jobs SET state = 'FAILED', ended_at = now(), error = ?
                          WHERE job_id = ? AND state = 'RUNNING' AND (SELECT count(*) FROM o) >= 0 RETURNING job_id)
                        SELECT count(*) FROM (SELECT pg_notify('proofline_jobs', job_id || ' FAILED') FROM j) x""";
                try (PreparedStatement s = prepare(c, sql)) {
                    s.setInt(1, claim.partition());
                    s.setInt(2, claim.partition());
                    s.setString(3, error);
                    s.setInt(4, claim.partition());
                    s.setString(5, node);
                    s.setString(6, claim.jobId());
                    s.setString(7, "partition " + claim.partition() + " on " + node + ": " + error);
                    s.setString(8, claim.jobId());
                    s.executeQuery().close();
                }
                roundTrips.incrementAndGet();
                c.commit();
                return true;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    /** Gives a claimed partition back to the queue (this node cannot prove it now) and announces it. */
    @Override
    public boolean release(Claim claim, String why) {
        return with("releasing a partition", c -> {
            String sql = """
                    WITH r AS (
                      UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL,
                             lease_expires = NULL, error = ?
                      WHERE job_id = ? AND idx = ? AND state = 'CLAIMED' AND lease_token = ?
                      RETURNING job_id, circuit_id, key_digest)
                    SELECT count(*) FROM (SELECT pg_notify('proofline_work', job_id || ' ' || circuit_id || ' ' || key_digest) FROM r) x""";
            try (PreparedStatement s = prepare(c, sql)) {
                s.setString(1, why);
                s.setString(2, claim.jobId());
                s.setInt(3, claim.partition());
                s.setLong(4, claim.token());
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getLong(1) == 1;
                }
            }
        });
    }

    // ------------------------------------------------------------------ nodes

    /**
     * Records the node's heartbeat and load, and extends the leases it holds; returns the tokens of
     * those leases (a claim not among them was lost: requeued after expiry, or its job ended).
     */
    @Override
    public java.util.Set<Long> heartbeat(NodeInfo n, Duration lease) {
        return with("heartbeat", c -> {
            String sql = """
                    WITH n AS (
                      INSERT INTO nodes (node_id, grpc_address, http_address, backend, started_at, permits_max,
                                         permits_in_use, claimed, proofs, prover_busy, circuits)
                      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                      ON CONFLICT (node_id) DO UPDATE SET grpc_address = EXCLUDED.grpc_address,
                         http_address = EXCLUDED.http_address, backend = EXCLUDED.backend,
                         started_at = EXCLUDED.started_at, heartbeat_at = now(), stopped_at = NULL,
                         permits_max = EXCLUDED.permits_max, permits_in_use = EXCLUDED.permits_in_use,
                         claimed = EXCLUDED.claimed, proofs = EXCLUDED.proofs, prover_busy = EXCLUDED.prover_busy,
                         circuits = EXCLUDED.circuits),
                    l AS (
                      UPDATE partitions SET lease_expires = now() + ? * interval '1 millisecond'
                      WHERE state = 'CLAIMED' AND lease_owner = ? RETURNING lease_token)
                    SELECT lease_token FROM l""";
            try (PreparedStatement s = prepare(c, sql)) {
                int i = 1;
                s.setString(i++, n.id());
                s.setString(i++, n.grpcAddress());
                s.setString(i++, n.httpAddress());
                s.setString(i++, n.backend());
                s.setObject(i++, java.time.OffsetDateTime.ofInstant(n.startedAt(), java.time.ZoneOffset.UTC));
                s.setInt(i++, n.permitsMax());
                s.setInt(i++, n.permitsInUse());
                s.setInt(i++, n.claimed());
                s.setLong(i++, n.proofs());
                s.setDouble(i++, n.proverBusy());
                s.setString(i++, n.circuits());
                s.setLong(i++, lease.toMillis());
                s.setString(i++, n.id());
                java.util.Set<Long> held = new java.util.HashSet<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        held.add(r.getLong(1));
                    }
                }
                return held;
            }
        });
    }

    /** A node that stops: its leases go back to the queue at once (announced), and it shows as stopped. */
    @Override
    public int leave(String node) {
        return with("leaving the cluster", c -> {
            String sql = """
                    WITH r AS (
                      UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL
                      WHERE state = 'CLAIMED' AND lease_owner = ? RETURNING job_id, circuit_id, key_digest),
                    n AS (UPDATE nodes SET stopped_at = now(), permits_in_use = 0, claimed = 0 WHERE node_id = ?)
                    SELECT count(*) FROM (SELECT pg_notify('proofline_work', job_id || ' ' || circuit_id || ' ' || key_digest) FROM r) x""";
            try (PreparedStatement s = prepare(c, sql)) {
                s.setString(1, node);
                s.setString(2, node);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getInt(1);
                }
            }
        });
    }

    /**
     * The cluster's upkeep, which any node may do: partitions whose lease expired (their node died or
     * lost the database) go back to the queue, announced; jobs past their deadline end; ended jobs are
     * deleted after {@code retention}, fetched ones after {@code fetchedRetention}. Returns the
     * partitions requeued.
     */
    @Override
    public int upkeep(Duration retention, Duration fetchedRetention) {
        return with("upkeep", c -> {
            int requeued;
            String expire = """
                    WITH r AS (
                      UPDATE partitions SET state = 'QUEUED', lease_owner = NULL, lease_token = NULL, lease_expires = NULL,
                             error = 'lease of ' || lease_owner || ' expired'
                      WHERE state = 'CLAIMED' AND lease_expires < now() RETURNING job_id, circuit_id, key_digest)
                    SELECT count(*) FROM (SELECT pg_notify('proofline_work', job_id || ' ' || circuit_id || ' ' || key_digest)
                                          FROM r) x""";
            try (PreparedStatement s = prepare(c, expire); ResultSet r = s.executeQuery()) {
                r.next();
                requeued = r.getInt(1);
            }
            String late = """
                    WITH late AS (
                      SELECT job_id FROM jobs WHERE state = 'RUNNING' AND deadline_at < now() FOR UPDATE SKIP LOCKED),
                    p AS (
                      UPDATE partitions SET state = 'CANCELLED', lease_owner = NULL, lease_expires = NULL, payload = NULL
                      WHERE job_id IN (SELECT job_id FROM late) AND state IN ('QUEUED', 'CLAIMED') RETURNING 1),
                    j AS (
                      UPDATE jobs SET state = 'DEADLINE_EXCEEDED', ended_at = now(),
                             error = 'the deadline passed before every partition was proved'
                      WHERE job_id IN (SELECT job_id FROM late) AND (SELECT count(*) FROM p) >= 0 RETURNING job_id),
                    gone AS (
                      DELETE FROM jobs WHERE state <> 'RUNNING'
                        AND (ended_at < now() - ? * interval '1 millisecond'
                             OR fetched_at < now() - ? * interval '1 millisecond') RETURNING 1),
                    old AS (DELETE FROM nodes WHERE heartbeat_at < now() - interval '1 day' RETURNING 1)
                    SELECT (SELECT count(*) FROM (SELECT pg_notify('proofline_jobs', job_id || ' DEADLINE_EXCEEDED') FROM j) x),
                           (SELECT count(*) FROM gone), (SELECT count(*) FROM old)""";
            try (PreparedStatement s = prepare(c, late)) {
                s.setLong(1, retention.toMillis());
                s.setLong(2, fetchedRetention.toMillis());
                s.executeQuery().close();
            }
            return requeued;
        });
    }

    /**
     * Records this node's refusal of every running job on one of its circuits that was submitted against
     * another key (a different digest); returns the refusals added.
     */
    @Override
    public int refuse(String node, List<String> circuits, List<String> digests) {
        return with("recording refusals", c -> {
            String sql = """
                    INSERT INTO refusals (job_id, node_id, reason)
                    SELECT j.job_id, ?, 'refused: its key for ' || j.circuit_id || ' has digest ' || m.digest
                           || ', the job was submitted against ' || j.key_digest
                    FROM jobs j JOIN unnest(?::text[], ?::text[]) AS m(circuit, digest) ON j.circuit_id = m.circuit
                    WHERE j.state = 'RUNNING' AND j.key_digest <> m.digest
                    ON CONFLICT DO NOTHING""";
            try (PreparedStatement s = prepare(c, sql)) {
                s.setString(1, node);
                s.setArray(2, c.createArrayOf("text", circuits.toArray()));
                s.setArray(3, c.createArrayOf("text", digests.toArray()));
                return s.executeUpdate();
            }
        });
    }

    // ------------------------------------------------------------------ reads

    /**
     * The job, or null when there is none; {@code fetching}: the caller is returning its proofs, so a
     * done job is marked fetched (and kept only {@code fetched_retention} more).
     */
    @Override
    public JobView job(String id, boolean fetching) {
        return with("reading a job", c -> {
            String sql = """
                    WITH f AS (UPDATE jobs SET fetched_at = now()
                               WHERE job_id = ? AND ? AND state = 'DONE' AND fetched_at IS NULL)
                    SELECT j.job_id, j.circuit_id,
                           CASE WHEN j.state = 'RUNNING' AND j.deadline_at < now() THEN 'DEADLINE_EXCEEDED'
                                ELSE j.state END,
                           j.error, j.partitions, j.submitted_by,
                           (SELECT array_agg(r.node_id || ': ' || r.reason ORDER BY r.node_id) FROM refusals r
                            WHERE r.job_id = j.job_id),
                           p.idx, p.state, coalesce(p.proved_by, p.lease_owner), p.proof_json, p.proof_binary,
                           p.public_signals, p.timings, p.error, p.claims
                    FROM jobs j LEFT JOIN partitions p ON p.job_id = j.job_id
                    WHERE j.job_id = ? ORDER BY p.idx""";
            try (PreparedStatement s = prepare(c, sql)) {
                s.setString(1, id);
                s.setBoolean(2, fetching);
                s.setString(3, id);
                try (ResultSet r = s.executeQuery()) {
                    JobView v = null;
                    List<PartitionView> parts = new ArrayList<>();
                    while (r.next()) {
                        if (v == null) {
                            v = new JobView(r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getInt(5),
                                    r.getString(6), strings(r.getArray(7)), parts);
                        }
                        if (r.getObject(8) != null) {
                            Array t = r.getArray(14);
                            double[] timings = null;
                            if (t != null) {
                                Object[] ds = (Object[]) t.getArray();
                                timings = new double[ds.length];
                                for (int i = 0; i < ds.length; i++) {
                                    timings[i] = ((Number) ds[i]).doubleValue();
                                }
                            }
                            parts.add(new PartitionView(r.getInt(8), r.getString(9), r.getString(10), r.getString(11),
                                    r.getBytes(12), strings(r.getArray(13)), timings, r.getString(15), r.getInt(16)));
                        }
                    }
                    return v;
                }
            }
        });
    }

    private static List<String> strings(Array a) throws SQLException {
        if (a == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object o : (Object[]) a.getArray()) {
            out.add(String.valueOf(o));
        }
        return out;
    }

    /** Of {@code ids}, those whose job has ended (or is gone). */
    @Override
    public List<String> ended(List<String> ids) {
        return with("checking jobs", c -> {
            String sql = """
                    SELECT i FROM unnest(?::text[]) AS i
                    WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.job_id = i AND j.state = 'RUNNING'
                                      AND (j.deadline_at IS NULL OR j.deadline_at > now()))""";
            try (PreparedStatement s = prepare(c, sql)) {
                s.setArray(1, c.createArrayOf("text", ids.toArray()));
                List<String> out = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.add(r.getString(1));
                    }
                }
                return out;
            }
        });
    }

    /** Cancels a running job and its unfinished partitions; its state afterwards, or null when there is no such job. */
    @Override
    public String cancel(String id) {
        return with("cancelling a job", c -> {
            String sql = """
                    WITH p AS (
                      UPDATE partitions SET state = 'CANCELLED', lease_owner = NULL, lease_expires = NULL, payload = NULL
                      WHERE job_id = ? AND state IN ('QUEUED', 'CLAIMED') RETURNING 1),
                    j AS (
                      UPDATE jobs SET state = 'CANCELLED', ended_at = now()
                      WHERE job_id = ? AND state = 'RUNNING' AND (SELECT count(*) FROM p) >= 0 RETURNING job_id)
                    SELECT count(*) FROM (SELECT pg_notify('proofline_jobs', job_id || ' CANCELLED') FROM j) x""";
            try (PreparedStatement s = prepare(c, sql)) {
                s.setString(1, id);
                s.setString(2, id);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    if (r.getLong(1) == 1) {
                        return "CANCELLED";
                    }
                }
            }
            // not running (any more): its state now, read after the statement above (whose own snapshot
            // may predate a result stored meanwhile)
            try (PreparedStatement s = prepare(c, "SELECT state FROM jobs WHERE job_id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() ? r.getString(1) : null;
                }
            }
        });
    }

    /**
     * The cluster as JSON: {@code nodes} (each with its heartbeat age, load and the partitions it
     * holds), {@code partitions} (counts by state) and the {@code recent} jobs with, per partition, its
     * state and the node that holds or proved it.
     */
    @Override
    public String clusterJson(int recentJobs) {
        return with("reading the cluster", c -> {
            String sql = """
                    SELECT json_build_object(
                      'nodes', coalesce((SELECT json_agg(json_build_object(
                          'id', n.node_id, 'grpc', n.grpc_address, 'http', n.http_address, 'backend', n.backend,
                          'started_at', n.started_at, 'heartbeat_age_ms',
                          round(extract(epoch FROM now() - n.heartbeat_at) * 1000),
                          'stopped', n.stopped_at IS NOT NULL, 'permits_max', n.permits_max,
                          'permits_in_use', n.permits_in_use, 'proofs', n.proofs, 'prover_busy', n.prover_busy,
                          'circuits', n.circuits,
                          'holding', (SELECT count(*) FROM partitions p WHERE p.state = 'CLAIMED'
                                      AND p.lease_owner = n.node_id)) ORDER BY n.node_id) FROM nodes n), '[]'),
                      'partitions', coalesce((SELECT json_object_agg(state, k) FROM
                          (SELECT state, count(*) AS k FROM partitions GROUP BY state) s), '{}'),
                      'recent', coalesce((SELECT json_agg(json_build_object('id', j.job_id, 'circuit', j.circuit_id,
                          'state', j.state, 'submitted_by', j.submitted_by, 'submitted_at', j.submitted_at,
                          'partitions', (SELECT json_agg(json_build_object('state', p.state,
                              'node', coalesce(p.proved_by, p.lease_owner)) ORDER BY p.idx)
                              FROM partitions p WHERE p.job_id = j.job_id)) ORDER BY j.submitted_at DESC)
                          FROM (SELECT * FROM jobs ORDER BY submitted_at DESC LIMIT ?) j), '[]'))::text""";
            try (PreparedStatement s = prepare(c, sql)) {
                s.setInt(1, recentJobs);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getString(1);
                }
            }
        });
    }

    /** Proofs stored per node (for checks and benchmarks): node id → partitions it proved. */
    @Override
    public java.util.Map<String, Long> provedBy() {
        return with("counting proofs", c -> {
            java.util.Map<String, Long> out = new java.util.TreeMap<>();
            try (PreparedStatement s = prepare(c, "SELECT proved_by, count(*) FROM partitions WHERE state = 'DONE'"
                    + " GROUP BY proved_by"); ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.put(r.getString(1), r.getLong(2));
                }
            }
            return out;
        });
    }
}
