package dev.proofline.daemon.config;

import static dev.proofline.daemon.config.DaemonConfig.parseBytes;
import static dev.proofline.daemon.config.DaemonConfig.parseDuration;

import dev.proofline.daemon.config.DaemonConfig.Cluster;
import dev.proofline.daemon.config.DaemonConfig.EngineSection;
import dev.proofline.daemon.config.DaemonConfig.Http;
import dev.proofline.daemon.config.DaemonConfig.Keys;
import dev.proofline.daemon.config.DaemonConfig.Limits;
import dev.proofline.daemon.config.DaemonConfig.Server;
import dev.proofline.daemon.config.DaemonConfig.Shutdown;
import dev.proofline.daemon.config.DaemonConfig.Store;
import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.groth16.BackendProvider;
import dev.proofline.engine.groth16.BackendProviders;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every key's default, and the checks of every value: a configuration as read (absent sections and keys
 * null) becomes one with each key set and valid. Kept apart from {@link DaemonConfig}, whose records say
 * what the keys are, so that the defaults and the rules live in one place.
 */
final class ConfigResolver {

    private ConfigResolver() {
    }

    /**
     * {@code raw} with its defaults filled and its values checked; errors name the key and its line in
     * {@code text} ({@code name}: the file, for messages).
     */
    static DaemonConfig resolve(DaemonConfig raw, String name, String text) {
        ConfigChecker c = new ConfigChecker(name, text);
        Server s = raw.server() != null ? raw.server() : new Server(null, null, null, null, null, null, null);
        s = new Server(or(s.grpcListen(), "127.0.0.1:50051"), or(s.httpListen(), "127.0.0.1:8080"),
                or(s.authToken(), ""), or(s.insecure(), false), or(s.tlsCert(), ""), or(s.tlsKey(), ""),
                or(s.rapidsnarkListen(), ""));
        c.address("server", "grpc_listen", s.grpcListen());
        c.address("server", "http_listen", s.httpListen());
        if (s.servesRapidsnark()) {
            c.address("server", "rapidsnark_listen", s.rapidsnarkListen());
        }
        if (s.tlsCert().isEmpty() != s.tlsKey().isEmpty()) {
            throw c.error("server", s.tlsCert().isEmpty() ? "tls_key" : "tls_cert",
                    "tls_cert and tls_key go together");
        }
        Keys k = raw.keys() != null ? raw.keys() : new Keys(null, null, null);
        k = new Keys(or(k.directory(), "keys"), k.preload() == null ? List.of() : List.copyOf(k.preload()),
                or(k.verifyWith(), ""));
        EngineSection e = raw.engine() != null ? raw.engine()
                : new EngineSection(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                        null, null);
        e = new EngineSection(or(e.budget(), "auto"), or(e.permits(), "auto"), or(e.synthesisThreads(), 0),
                or(e.proverWorkersPerDevice(), 0), or(e.finalizerThreads(), 0), or(e.backend(), "auto"),
                or(e.timelineLog(), false), or(e.timelineCapacity(), 65536),
                or(e.resultRetention(), "10m"), or(e.loadTimeout(), "5m"),
                e.devices() == null ? List.of() : List.copyOf(e.devices()), or(e.g2OnDevice(), true),
                or(e.abcOnDevice(), true), or(e.driverLibrary(), ""), or(e.keyTables(), "256MiB"),
                or(e.lanesPerDevice(), 1), or(e.requestMemory(), "auto"));
        for (int d : e.devices()) {
            c.atLeast("engine", "devices", d, 0);
        }
        if (e.devices().stream().distinct().count() != e.devices().size()) {
            throw c.error("engine", "devices", e.devices() + " names a device twice");
        }
        if (!e.budget().equals("auto")) {
            c.bytes("engine", "budget", e.budget());
        }
        if (!e.requestMemory().equals("auto")) {
            c.bytes("engine", "request_memory", e.requestMemory());
            if (parseBytes(e.requestMemory()) < 1) {
                throw c.error("engine", "request_memory", "must be at least 1 byte");
            }
            if (!e.budget().equals("auto") && parseBytes(e.requestMemory()) >= parseBytes(e.budget())) {
                throw c.error("engine", "request_memory", e.requestMemory() + " leaves nothing of engine.budget ("
                        + e.budget() + ") to the engine");
            }
        }
        if (!e.permits().equals("auto")) {
            int n;
            try {
                n = Integer.parseInt(e.permits());
            } catch (NumberFormatException x) {
                throw c.error("engine", "permits", "'" + e.permits() + "' is neither \"auto\" nor a number");
            }
            c.atLeast("engine", "permits", n, 1);
        }
        c.atLeast("engine", "synthesis_threads", e.synthesisThreads(), 0);
        c.atLeast("engine", "prover_workers_per_device", e.proverWorkersPerDevice(), 0);
        c.atLeast("engine", "finalizer_threads", e.finalizerThreads(), 0);
        c.atLeast("engine", "lanes_per_device", e.lanesPerDevice(), 1);
        if (e.lanesPerDevice() > BackendSettings.MAX_LANES) {
            throw c.error("engine", "lanes_per_device", e.lanesPerDevice() + " is more than " + BackendSettings.MAX_LANES);
        }
        c.atLeast("engine", "timeline_capacity", e.timelineCapacity(), 1);
        // "auto" or a backend a provider on the class path names (cpu; cuda where the cuda module is)
        c.oneOf("engine", "backend", e.backend(), Stream.concat(Stream.of(BackendProviders.AUTO),
                BackendProviders.installed().all().stream().map(BackendProvider::name)).toArray(String[]::new));
        c.duration("engine", "result_retention", e.resultRetention());
        c.duration("engine", "load_timeout", e.loadTimeout());
        c.bytes("engine", "key_tables", e.keyTables());
        Limits l = raw.limits() != null ? raw.limits() : new Limits(null, null, null, null, null, null, null, null, null);
        l = new Limits(or(l.maxMessageBytes(), "64MiB"), or(l.maxRequestBytes(), "1GiB"), or(l.maxPartitions(), 1024),
                or(l.maxAwait(), "10m"), or(l.handshakeTimeout(), "10s"), or(l.idleTimeout(), "5m"),
                or(l.maxConnections(), 4096), or(l.reservedConnections(), 64), or(l.maxCallsPerConnection(), 128));
        c.atLeast("limits", "max_calls_per_connection", l.maxCallsPerConnection(), 1);
        c.atLeast("limits", "max_connections", l.maxConnections(), 1);
        c.atLeast("limits", "reserved_connections", l.reservedConnections(), 0);
        c.duration("limits", "handshake_timeout", l.handshakeTimeout());
        c.duration("limits", "idle_timeout", l.idleTimeout());
        c.bytes("limits", "max_message_bytes", l.maxMessageBytes());
        c.bytes("limits", "max_request_bytes", l.maxRequestBytes());
        c.atLeast("limits", "max_partitions", l.maxPartitions(), 1);
        c.duration("limits", "max_await", l.maxAwait());
        Shutdown d = raw.shutdown() != null ? raw.shutdown() : new Shutdown(null);
        d = new Shutdown(or(d.gracePeriod(), "30s"));
        c.duration("shutdown", "grace_period", d.gracePeriod());
        Cluster u = raw.cluster() != null ? raw.cluster() : new Cluster(null, null, null, null, null, null, null, null, null, null);
        u = new Cluster(or(u.database(), ""), or(u.nodeId(), ""), or(u.poolSize(), 8), or(u.connectTimeout(), "2s"),
                or(u.leaseTimeout(), "30s"), or(u.heartbeatInterval(), "2s"), or(u.fallbackPoll(), "10s"),
                or(u.maxAttempts(), 3), or(u.resultRetention(), "1h"), or(u.fetchedRetention(), "1m"));
        if (u.enabled()) {
            try {
                DatabaseUrl.jdbcUrl(u.database(), new java.util.Properties());
            } catch (IllegalArgumentException ex) {
                throw c.error("cluster", "database", ex.getMessage().replaceFirst("^cluster\\.database: ", ""));
            }
        }
        if (!u.nodeId().isEmpty() && !u.nodeId().matches("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")) {
            throw c.error("cluster", "node_id", "'" + u.nodeId() + "': letters, digits and . _ : - (at most 128)");
        }
        c.atLeast("cluster", "pool_size", u.poolSize(), 2);
        c.atLeast("cluster", "max_attempts", u.maxAttempts(), 1);
        for (String[] kv : new String[][] {{"connect_timeout", u.connectTimeout()}, {"lease_timeout", u.leaseTimeout()},
            {"heartbeat_interval", u.heartbeatInterval()}, {"fallback_poll", u.fallbackPoll()},
            {"result_retention", u.resultRetention()}, {"fetched_retention", u.fetchedRetention()}}) {
            c.duration("cluster", kv[0], kv[1]);
        }
        if (parseDuration(u.heartbeatInterval()).multipliedBy(2).compareTo(parseDuration(u.leaseTimeout())) > 0) {
            throw c.error("cluster", "heartbeat_interval", "must be at most half of lease_timeout ("
                    + u.leaseTimeout() + "), so a live node keeps its leases");
        }
        Store t = raw.store() != null ? raw.store() : new Store(null, null, null, null, null);
        t = new Store(or(t.kind(), "sqlite"), or(t.directory(), ""), or(t.resultRetention(), "1h"),
                or(t.fetchedRetention(), "1m"), or(t.onDamage(), "refuse"));
        c.oneOf("store", "kind", t.kind(), "sqlite", "memory");
        c.oneOf("store", "on_damage", t.onDamage(), "refuse", "set_aside");
        c.duration("store", "result_retention", t.resultRetention());
        c.duration("store", "fetched_retention", t.fetchedRetention());
        Http h = raw.http() != null ? raw.http() : new Http(null, null, null, null, null, null, null);
        h = new Http(or(h.headerTimeout(), "10s"), or(h.idleTimeout(), "60s"), or(h.maxConnections(), 4096),
                or(h.maxConcurrentRequests(), 16), or(h.maxHeaderBytes(), "16KiB"), or(h.maxBodyBytes(), "64KiB"),
                or(h.maxJobBytes(), "64MiB"));
        c.duration("http", "header_timeout", h.headerTimeout());
        c.duration("http", "idle_timeout", h.idleTimeout());
        c.atLeast("http", "max_connections", h.maxConnections(), 1);
        c.atLeast("http", "max_concurrent_requests", h.maxConcurrentRequests(), 1);
        c.bytes("http", "max_header_bytes", h.maxHeaderBytes());
        c.bytes("http", "max_body_bytes", h.maxBodyBytes());
        c.bytes("http", "max_job_bytes", h.maxJobBytes());
        for (var size : List.of(Map.entry("max_header_bytes", h.maxHeaderBytes()),
                Map.entry("max_body_bytes", h.maxBodyBytes()), Map.entry("max_job_bytes", h.maxJobBytes()))) {
            if (parseBytes(size.getValue()) > Integer.MAX_VALUE) {
                throw c.error("http", size.getKey(), "at most 2GiB");
            }
        }
        return new DaemonConfig(s, k, e, l, d, u, t, h);
    }

    private static <T> T or(T v, T def) {
        return v != null ? v : def;
    }
}
