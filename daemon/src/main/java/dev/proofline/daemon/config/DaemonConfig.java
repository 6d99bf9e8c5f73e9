package dev.proofline.daemon.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.EngineConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The daemon's configuration, read from a TOML file ({@code proofline.example.toml} documents every
 * key); every key has a default, so an empty file (or none) gives a daemon on 127.0.0.1 serving the
 * keys directory. {@link #read} rejects unknown keys, wrong types and bad values with a
 * {@link ConfigException} naming the file, the key and its line. The records here say what the keys are;
 * {@code ConfigReader} reads the file and {@code ConfigResolver} holds the defaults and the checks.
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
     * the single daemon's store ({@code daemon/}), the keys' tables ({@code cache/key-tables/}) and the
     * outcomes of {@code keys.verify_with}'s checks ({@link #checkedKeysDirectory}), both shared with the
     * local engine.
     */
    public static Path stateDirectory(java.util.Map<String, String> env) {
        String home = env.get("PROOFLINE_HOME");
        Path state = home != null && !home.isEmpty() ? Path.of(home)
                : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".proofline");
        return state.toAbsolutePath();
    }

    /**
     * Where the outcomes of {@code keys.verify_with}'s checks are remembered, so that a restarted daemon
     * does not check unchanged keys again: {@code cache/verified-keys/} in the state directory, as the
     * local engine remembers its own (the same check of the same files). Where it cannot be made
     * owner-only, they are remembered in the process only, and each start checks every key.
     */
    public static Path checkedKeysDirectory(java.util.Map<String, String> env) {
        return stateDirectory(env).resolve("cache").resolve("verified-keys");
    }

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
        return ConfigReader.read(file);
    }

    /** Parses TOML text ({@code name} for messages). */
    public static DaemonConfig parse(String text, String name) {
        return ConfigReader.parse(text, name);
    }

    /** Fills defaults and checks values; errors name the key and its line in {@code text}. */
    private DaemonConfig resolved(String name, String text) {
        return ConfigResolver.resolve(this, name, text);
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
