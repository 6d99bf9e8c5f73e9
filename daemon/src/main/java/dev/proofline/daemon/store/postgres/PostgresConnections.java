package dev.proofline.daemon.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.proofline.daemon.config.DatabaseUrl;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.SqlWork;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.flywaydb.core.Flyway;

/**
 * The {@link PostgresStore}'s connections: the database URL, a pool (Hikari) for statements, a
 * connection of its own for each LISTEN, and the count of statements sent (each one round trip).
 * The schema is created and migrated with Flyway from {@code dev/proofline/daemon/db} when it opens.
 */
final class PostgresConnections implements ClusterStore.Database {

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

    private PostgresConnections(String jdbcUrl, Properties props, HikariDataSource pool) {
        this.jdbcUrl = jdbcUrl;
        this.props = props;
        this.pool = pool;
    }

    /**
     * Connects to {@code database} ({@code postgresql://user:password@host:port/db?...}, or a
     * {@code jdbc:postgresql:} URL) with a pool of {@code poolSize}, creating or migrating the schema.
     */
    static PostgresConnections open(String database, int poolSize, Duration connectTimeout) {
        Properties props = new Properties();
        String url = DatabaseUrl.jdbcUrl(database, props);
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
            throw new ClusterStore.UnavailableException("cluster.database: cannot connect to " + DatabaseUrl.redacted(database)
                    + ": " + rootMessage(e), e);
        }
        try {
            Flyway.configure().dataSource(ds).locations("classpath:dev/proofline/daemon/db")
                    .table("proofline_schema_history").load().migrate();
        } catch (RuntimeException e) {
            ds.close();
            throw new ClusterStore.UnavailableException("cluster.database: migrating the schema of "
                    + DatabaseUrl.redacted(database) + " failed: " + rootMessage(e), e);
        }
        return new PostgresConnections(url, props, ds);
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }

    /** The JDBC URL without its password. */
    String url() {
        return DatabaseUrl.redacted(jdbcUrl);
    }

    @Override
    public String describe() {
        return "PostgreSQL " + url();
    }

    @Override
    public String retentionKey() {
        return "cluster.result_retention";
    }

    /** Statements sent so far (each one round trip to the database). */
    @Override
    public long roundTrips() {
        return roundTrips.get();
    }

    /**
     * Runs {@code work} on a pooled connection: a deadlock (the database picked this statement to
     * abort) is retried; an unreachable database is an {@link ClusterStore.UnavailableException}.
     */
    <T> T run(String what, SqlWork<Connection, T> work) {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = pool.getConnection()) {
                return work.run(c);
            } catch (SQLException e) {
                if ("40P01".equals(e.getSQLState()) && attempt < 5) {
                    continue;
                }
                if (isConnectionProblem(e)) {
                    throw new ClusterStore.UnavailableException("the cluster database is unavailable (" + what + "): "
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

    /** Prepares a statement, counted as one round trip. */
    PreparedStatement prepare(Connection c, String sql) throws SQLException {
        roundTrips.incrementAndGet();
        return c.prepareStatement(sql);
    }

    /** Counts a round trip that is not a prepared statement (a commit). */
    void countRoundTrip() {
        roundTrips.incrementAndGet();
    }

    /** LISTEN on the store's announcements, on a connection of its own, outside the pool. */
    /** LISTEN on a connection of its own, outside the pool. */
    @Override
    public ClusterStore.Notices listen() throws SQLException {
        Connection c = DriverManager.getConnection(jdbcUrl, props);
        try {
            c.setAutoCommit(true);
            try (var s = c.createStatement()) {
                s.execute("LISTEN " + ClusterStore.WORK);
                s.execute("LISTEN " + ClusterStore.JOBS);
            }
            org.postgresql.PGConnection pg = c.unwrap(org.postgresql.PGConnection.class);
            return new ClusterStore.Notices() {
                @Override
                public List<ClusterStore.Notice> poll(Duration timeout) throws SQLException {
                    org.postgresql.PGNotification[] ns = pg.getNotifications((int) Math.max(1, timeout.toMillis()));
                    List<ClusterStore.Notice> out = new ArrayList<>();
                    if (ns != null) {
                        for (org.postgresql.PGNotification n : ns) {
                            out.add(new ClusterStore.Notice(n.getName(), n.getParameter()));
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
}
