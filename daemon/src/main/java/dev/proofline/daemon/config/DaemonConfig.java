package dev.proofline.daemon.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.dataformat.toml.TomlFactory;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.groth16.BackendProvider;
import dev.proofline.engine.groth16.BackendProviders;
import dev.proofline.r1cs.io.InputLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The daemon's configuration, read from a TOML file ({@code proofline.example.toml} documents every
 * key); every key has a default, so an empty file (or none) gives a daemon on 127.0.0.1 serving the
 * keys directory. {@link #read} rejects unknown keys, wrong types and bad values with a
 * {@link ConfigException} naming the file, the key and its line.
 */
public record DaemonConfig(Server server, Keys keys, EngineSection engine, Limits limits, Shutdown shutdown,
        Cluster cluster, Store store, Http http) {

    /**
     * Listen addresses and access. {@code rapidsnarkListen}: where rapidsnark's prover-server routes are
     * served ({@code POST /input/<circuit>}, {@code GET /status}, ...); empty, the default: not served.
     */
    public record Server(@JsonProperty("grpc_listen") String grpcListen, @JsonProperty("http_listen") String httpListen,
            @JsonProperty("auth_token") String authToken, Boolean insecure, @JsonProperty("tls_cert") String tlsCert,
            @JsonProperty("tls_key") String tlsKey, @JsonProperty("rapidsnark_listen") String rapidsnarkListen) {

        /** Whether rapidsnark's prover-server routes are served. */
        public boolean servesRapidsnark() {
            return !rapidsnarkListen.isEmpty();
        }
    }

    /**
     * Where circuits come from; with {@code verifyWith} (a prepared powers of tau, "" for none), a
     * circuit is registered only if its key verifies against its r1cs and that file.
     */
    public record Keys(String directory, List<String> preload, @JsonProperty("verify_with") String verifyWith) {
    }

    /** The engine's knobs. */
    public record EngineSection(String budget, String permits, @JsonProperty("synthesis_threads") Integer synthesisThreads,
            @JsonProperty("prover_workers_per_device") Integer proverWorkersPerDevice,
            @JsonProperty("finalizer_threads") Integer finalizerThreads, String backend,
            @JsonProperty("timeline_log") Boolean timelineLog, @JsonProperty("timeline_capacity") Integer timelineCapacity,
            @JsonProperty("result_retention") String resultRetention, @JsonProperty("load_timeout") String loadTimeout,
            List<Integer> devices, @JsonProperty("g2_on_device") Boolean g2OnDevice,
            @JsonProperty("abc_on_device") Boolean abcOnDevice,
            @JsonProperty("driver_library") String driverLibrary, @JsonProperty("key_tables") String keyTables,
            @JsonProperty("lanes_per_device") Integer lanesPerDevice,
            @JsonProperty("request_memory") String requestMemory) {

        /**
         * What the backend is opened with: the devices, B in G2 and a, b, c on them, the driver library,
         * the lanes a device.
         */
        public BackendSettings backendSettings() {
            return new BackendSettings(devices, g2OnDevice, abcOnDevice, driverLibrary, lanesPerDevice);
        }
    }

    /**
     * Request limits, and the gRPC port's connections: their timeouts, their cap and the places beyond it
     * kept for connections from loopback addresses.
     */
    public record Limits(@JsonProperty("max_message_bytes") String maxMessageBytes,
            @JsonProperty("max_request_bytes") String maxRequestBytes,
            @JsonProperty("max_partitions") Integer maxPartitions,
            @JsonProperty("max_await") String maxAwait,
            @JsonProperty("handshake_timeout") String handshakeTimeout,
            @JsonProperty("idle_timeout") String idleTimeout,
            @JsonProperty("max_connections") Integer maxConnections,
            @JsonProperty("reserved_connections") Integer reservedConnections,
            @JsonProperty("max_calls_per_connection") Integer maxCallsPerConnection) {
    }

    /**
     * The HTTP side's bounds: how long a client may take to send a request once it started one, how long
     * an idle connection stays open, how many connections and requests in progress it holds, how large a
     * request's headers and body may be (a job's submission, {@code POST /v1/jobs}, has a bound of its own).
     */
    public record Http(@JsonProperty("header_timeout") String headerTimeout,
            @JsonProperty("idle_timeout") String idleTimeout,
            @JsonProperty("max_connections") Integer maxConnections,
            @JsonProperty("max_concurrent_requests") Integer maxConcurrentRequests,
            @JsonProperty("max_header_bytes") String maxHeaderBytes,
            @JsonProperty("max_body_bytes") String maxBodyBytes,
            @JsonProperty("max_job_bytes") String maxJobBytes) {
    }

    /** What SIGTERM does. */
    public record Shutdown(@JsonProperty("grace_period") String gracePeriod) {
    }

    /**
     * Cluster mode: a PostgreSQL database shared by several daemons ({@code database} empty: a single
     * daemon, with its own {@link Store}).
     */
    public record Cluster(String database, @JsonProperty("node_id") String nodeId,
            @JsonProperty("pool_size") Integer poolSize, @JsonProperty("connect_timeout") String connectTimeout,
            @JsonProperty("lease_timeout") String leaseTimeout,
            @JsonProperty("heartbeat_interval") String heartbeatInterval,
            @JsonProperty("fallback_poll") String fallbackPoll, @JsonProperty("max_attempts") Integer maxAttempts,
            @JsonProperty("result_retention") String resultRetention,
            @JsonProperty("fetched_retention") String fetchedRetention) {

        public boolean enabled() {
            return !database.isEmpty();
        }
    }

    /**
     * Where a single daemon keeps its job queue: {@code sqlite} (durable, in {@code directory}; empty:
     * {@code daemon/} in the state directory, {@code $PROOFLINE_HOME} or {@code ~/.proofline}) or
     * {@code memory} (lost with the process). Cluster mode keeps it in the cluster's database instead.
     */
    public record Store(String kind, String directory, @JsonProperty("result_retention") String resultRetention,
            @JsonProperty("fetched_retention") String fetchedRetention, @JsonProperty("on_damage") String onDamage) {

        public boolean durable() {
            return kind.equals("sqlite");
        }

        /** {@code on_damage = "set_aside"}: a damaged store is moved aside for an empty one, rather than refused. */
        public boolean setAsideDamaged() {
            return onDamage.equals("set_aside");
        }

        /** The store's directory: {@code directory}, or {@code daemon/} in the state directory {@code env} names. */
        public Path path(java.util.Map<String, String> env) {
            if (!directory.isEmpty()) {
                return Path.of(directory).toAbsolutePath();
            }
            return stateDirectory(env).resolve("daemon");
        }
    }

    /**
     * The state directory {@code env} names: {@code $PROOFLINE_HOME}, else {@code ~/.proofline}; it holds
     * the single daemon's store ({@code daemon/}) and the keys' tables ({@code cache/key-tables/}, shared
     * with the local engine).
     */
    public static Path stateDirectory(java.util.Map<String, String> env) {
        String home = env.get("PROOFLINE_HOME");
        Path state = home != null && !home.isEmpty() ? Path.of(home)
                : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".proofline");
        return state.toAbsolutePath();
    }

    /**
     * Keys that were once valid, with what to say instead of "unknown key": a config written for an
     * earlier version then says what became of them.
     */
    private static final Map<String, String> REMOVED_KEYS = Map.of("engine.dispatch",
            "removed: the engine has one dispatcher (a permit before synthesis, as \"reactive\" was); delete this"
                    + " key");

    /** A configuration error: the file, the key, its line (0 when unknown) and the problem. */
    public static final class ConfigException extends IllegalArgumentException {
        public ConfigException(String message) {
            super(message);
        }
    }

    /** Every default: loopback only, keys from ./keys, budget auto. */
    public static DaemonConfig defaults() {
        return new DaemonConfig(null, null, null, null, null, null, null, null).resolved(null, "");
    }

    /** Reads {@code file}; a missing file, bad TOML, an unknown key or a bad value is a {@link ConfigException}. */
    public static DaemonConfig read(Path file) {
        String text;
        try {
            if (Files.isDirectory(file)) {
                throw new ConfigException(file + ": is a directory, expected a config file");
            }
            if (Files.size(file) > InputLimits.MAX_CONFIG_BYTES) {
                throw new ConfigException(file + ": " + Files.size(file) + " bytes, a config file has at most "
                        + InputLimits.MAX_CONFIG_BYTES);
            }
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file + ": no such config file");
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot be read: " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    /** Parses TOML text ({@code name} for messages). */
    public static DaemonConfig parse(String text, String name) {
        if (text.length() > InputLimits.MAX_CONFIG_BYTES) {
            throw new ConfigException(name + ": " + text.length() + " characters, a config file has at most "
                    + InputLimits.MAX_CONFIG_BYTES);
        }
        TomlMapper mapper = TomlMapper.builder(TomlFactory.builder()
                        .streamReadConstraints(InputLimits.configConstraints()).build())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();
        DaemonConfig raw;
        try {
            raw = mapper.readValue(text, DaemonConfig.class);
        } catch (JsonMappingException e) {
            List<String> path = e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName()
                    : "[" + r.getIndex() + "]").toList();
            String key = path.isEmpty() ? "?" : String.join(".", path);
            String problem = e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException
                    ? REMOVED_KEYS.getOrDefault(key, "unknown key")
                    : "wrong type: " + firstLine(e.getOriginalMessage());
            String line = line(e.getLocation());
            if (line.equals("?") && !path.isEmpty()) {
                // the TOML reader keeps no locations: find the key in the text
                ConfigChecker c = new ConfigChecker(name, text);
                line = path.size() == 1 ? c.lineOfSection(path.get(0)) : c.lineOf(path.get(0), path.get(1));
            }
            throw new ConfigException(name + ":" + line + ": " + key + ": " + problem);
        } catch (JsonProcessingException e) {
            throw new ConfigException(name + ":" + line(e.getLocation()) + ": not valid TOML: "
                    + firstLine(e.getOriginalMessage()));
        }
        return (raw == null ? new DaemonConfig(null, null, null, null, null, null, null, null) : raw).resolved(name, text);
    }

    private static String line(JsonLocation loc) {
        return loc == null || loc.getLineNr() < 0 ? "?" : String.valueOf(loc.getLineNr());
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }

    /** Fills defaults and checks values; errors name the key and its line in {@code text}. */
    private DaemonConfig resolved(String name, String text) {
        ConfigChecker c = new ConfigChecker(name, text);
        Server s = server != null ? server : new Server(null, null, null, null, null, null, null);
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
        Keys k = keys != null ? keys : new Keys(null, null, null);
        k = new Keys(or(k.directory(), "keys"), k.preload() == null ? List.of() : List.copyOf(k.preload()),
                or(k.verifyWith(), ""));
        EngineSection e = engine != null ? engine
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
        Limits l = limits != null ? limits : new Limits(null, null, null, null, null, null, null, null, null);
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
        Shutdown d = shutdown != null ? shutdown : new Shutdown(null);
        d = new Shutdown(or(d.gracePeriod(), "30s"));
        c.duration("shutdown", "grace_period", d.gracePeriod());
        Cluster u = cluster != null ? cluster : new Cluster(null, null, null, null, null, null, null, null, null, null);
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
        Store t = store != null ? store : new Store(null, null, null, null, null);
        t = new Store(or(t.kind(), "sqlite"), or(t.directory(), ""), or(t.resultRetention(), "1h"),
                or(t.fetchedRetention(), "1m"), or(t.onDamage(), "refuse"));
        c.oneOf("store", "kind", t.kind(), "sqlite", "memory");
        c.oneOf("store", "on_damage", t.onDamage(), "refuse", "set_aside");
        c.duration("store", "result_retention", t.resultRetention());
        c.duration("store", "fetched_retention", t.fetchedRetention());
        Http h = http != null ? http : new Http(null, null, null, null, null, null, null);
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

    /** This configuration with the command line's flags (null or false: keep the file's value), checked again. */
    public DaemonConfig withOverrides(String grpcListen, String httpListen, String keysDirectory, boolean insecure) {
        return withOverrides(grpcListen, httpListen, keysDirectory, insecure, null);
    }

    /** As {@link #withOverrides(String, String, String, boolean)}, and {@code --verify-keys} (null: the file's). */
    public DaemonConfig withOverrides(String grpcListen, String httpListen, String keysDirectory, boolean insecure,
            String verifyKeysWith) {
        Server s = new Server(grpcListen != null ? grpcListen : server.grpcListen(),
                httpListen != null ? httpListen : server.httpListen(), server.authToken(), insecure || server.insecure(),
                server.tlsCert(), server.tlsKey(), server.rapidsnarkListen());
        Keys k = new Keys(keysDirectory != null ? keysDirectory : keys.directory(), keys.preload(),
                verifyKeysWith != null ? verifyKeysWith : keys.verifyWith());
        return new DaemonConfig(s, k, engine, limits, shutdown, cluster, store, http).resolved("command line", "");
    }

    /** This configuration serving rapidsnark's routes on {@code listen} (the {@code --rapidsnark-listen} flag), checked again. */
    public DaemonConfig withRapidsnarkListen(String listen) {
        Server s = new Server(server.grpcListen(), server.httpListen(), server.authToken(), server.insecure(),
                server.tlsCert(), server.tlsKey(), listen);
        return new DaemonConfig(s, keys, engine, limits, shutdown, cluster, store, http).resolved("command line", "");
    }

    /** This configuration in cluster mode on {@code database} (the {@code --database} flag), checked again. */
    public DaemonConfig withDatabase(String database) {
        Cluster u = cluster;
        return new DaemonConfig(server, keys, engine, limits, shutdown, new Cluster(database, u.nodeId(), u.poolSize(),
                u.connectTimeout(), u.leaseTimeout(), u.heartbeatInterval(), u.fallbackPoll(), u.maxAttempts(),
                u.resultRetention(), u.fetchedRetention()), store, http).resolved("command line", "");
    }

    /**
     * This configuration with the job queue in {@code store} (the {@code --store} flag): a directory for
     * the durable store, or {@code memory}; checked again.
     */
    public DaemonConfig withStore(String where) {
        Store t = where.equals("memory") ? new Store("memory", store.directory(), store.resultRetention(),
                store.fetchedRetention(), store.onDamage())
                : new Store("sqlite", where, store.resultRetention(), store.fetchedRetention(), store.onDamage());
        return new DaemonConfig(server, keys, engine, limits, shutdown, cluster, t, http).resolved("command line", "");
    }

    /**
     * This configuration with a damaged store moved aside for an empty one (the
     * {@code --set-aside-damaged-store} flag, {@code store.on_damage = "set_aside"}).
     */
    public DaemonConfig withDamagedStoreSetAside() {
        Store t = new Store(store.kind(), store.directory(), store.resultRetention(), store.fetchedRetention(), "set_aside");
        return new DaemonConfig(server, keys, engine, limits, shutdown, cluster, t, http).resolved("command line", "");
    }

    /** Whether {@code listen} ("host:port") is a loopback address. */
    public static boolean isLoopback(String listen) {
        String host = host(listen);
        return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
    }

    public static String host(String listen) {
        int i = listen.lastIndexOf(':');
        return listen.substring(0, i);
    }

    public static int port(String listen) {
        return Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
    }

    /** Bytes: a whole number, optionally with B, KiB, MiB, GiB or TiB ("512MiB"). */
    public static long parseBytes(String s) {
        Matcher m = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|TiB)?").matcher(s.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + s + "' is not a size (a whole number, optionally with B, KiB,"
                    + " MiB, GiB or TiB)");
        }
        long n = Long.parseLong(m.group(1));
        int shift = switch (m.group(2) == null ? "B" : m.group(2)) {
            case "KiB" -> 10;
            case "MiB" -> 20;
            case "GiB" -> 30;
            case "TiB" -> 40;
            default -> 0;
        };
        if (n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("'" + s + "' is too large");
        }
        return n << shift;
    }

    /** A duration: a whole number with ms, s, m or h ("30s"). */
    public static Duration parseDuration(String s) {
        Matcher m = Pattern.compile("(\\d+)\\s*(ms|s|m|h)").matcher(s.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + s + "' is not a duration (a whole number with ms, s, m or h)");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    /**
     * The daemon's memory budget, {@code engine.budget}: "auto" is three quarters of the JVM's heap limit.
     * The requests being received and decoded take {@link #requestMemory()} of it, the engine the rest.
     */
    public long memoryBudget() {
        return engine.budget().equals("auto") ? Runtime.getRuntime().maxMemory() / 4 * 3 : parseBytes(engine.budget());
    }

    /**
     * The part of {@link #memoryBudget()} that requests being received and decoded share, on every port
     * ({@code engine.request_memory}; "auto": a quarter of it).
     */
    public long requestMemory() {
        long all = memoryBudget();
        long r = engine.requestMemory().equals("auto") ? all / 4 : parseBytes(engine.requestMemory());
        if (r >= all) {
            throw new ConfigException("engine.request_memory = \"" + engine.requestMemory() + "\" leaves nothing of"
                    + " engine.budget (" + (all >> 20) + " MiB) to the engine");
        }
        return r;
    }

    /** The engine's configuration for {@code cpus} cores and a CPU backend. */
    public EngineConfig engineConfig(int cpus) {
        return engineConfig(cpus, false);
    }

    /**
     * The engine's configuration for {@code cpus} cores; {@code gpu}: the backend proves on a GPU, where
     * {@code prover_workers_per_device = 0} means two workers (one stages while the other holds the
     * device), against one on the CPU (whose prover already uses every core).
     */
    public EngineConfig engineConfig(int cpus, boolean gpu) {
        EngineSection e = engine;
        long budget = memoryBudget() - requestMemory();
        int synth = e.synthesisThreads() > 0 ? e.synthesisThreads() : Math.max(1, cpus / 2);
        int fin = e.finalizerThreads() > 0 ? e.finalizerThreads() : Math.max(1, cpus / 2);
        int workers = e.proverWorkersPerDevice() > 0 ? e.proverWorkersPerDevice() : gpu ? 2 : 1;
        int permits = e.permits().equals("auto") ? EngineConfig.AUTO_PERMITS : Integer.parseInt(e.permits());
        return EngineConfig.builder().permits(permits).synthesisThreads(synth).proverWorkers(workers)
                .finalizerThreads(fin).budgetBytes(budget).timelineCapacity(e.timelineCapacity())
                .resultRetention(parseDuration(e.resultRetention())).loadTimeout(parseDuration(e.loadTimeout()))
                .timelineLog(e.timelineLog() ? line -> System.err.println("timeline " + line) : null)
                .keyTableBytes(parseBytes(e.keyTables()))
                .keyTableCache(stateDirectory(System.getenv()).resolve("cache").resolve("key-tables")).build();
    }
}
