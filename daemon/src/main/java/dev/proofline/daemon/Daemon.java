package dev.proofline.daemon;

import static dev.proofline.daemon.Listeners.address;
import static dev.proofline.daemon.Listeners.bound;
import static dev.proofline.daemon.Listeners.checkExposure;
import static dev.proofline.daemon.Listeners.warnOfRequestsThatCannotFit;

import dev.proofline.daemon.cluster.StoreNode;
import dev.proofline.daemon.cluster.StoredJobs;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.jobs.KeyDirectory;
import dev.proofline.daemon.jobs.MemoryJobs;
import dev.proofline.daemon.jobs.StatusJson;
import dev.proofline.daemon.transport.ConnectionCaps;
import dev.proofline.daemon.transport.RequestBudget;
import dev.proofline.daemon.transport.grpc.GrpcConnections;
import dev.proofline.daemon.transport.grpc.GrpcRequestBytes;
import dev.proofline.daemon.transport.grpc.ProvingService;
import dev.proofline.daemon.transport.http.HttpRoutes;
import dev.proofline.daemon.transport.http.JsonApi;
import dev.proofline.daemon.transport.http.RapidsnarkRoutes;
import dev.proofline.daemon.transport.http.StatusHttpServer;
import dev.proofline.daemon.transport.http.TimelineFeed;
import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.BackendUnavailableException;
import dev.proofline.engine.Engine;
import dev.proofline.engine.ProverBackend;
import dev.proofline.engine.groth16.BackendProviders;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.ProofResult;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ceremony.CheckedKeys;
import dev.proofline.groth16.io.OwnerOnlyFiles;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The proving daemon: an {@link Engine} with the circuits of a keys directory, served over gRPC
 * ({@code proofline.v1.ProvingEngine}) and HTTP ({@code /status}, {@code /timeline?limit=N} (the last
 * pipeline events; {@code ?since=cursor}: those after a poller's cursor), {@code /metrics}, {@code /healthz}
 * and the dashboard at {@code /}). Listens on loopback by default; any other address needs a bearer
 * token ({@code server.auth_token}) or an explicit {@code server.insecure = true}.
 */
public final class Daemon implements AutoCloseable {

    /**
     * The gRPC transport logs every connection that fails (junk bytes, an HTTP/1 request, a TLS hello on a
     * plaintext port, a reset) at INFO with its stack trace; anyone who can reach the port could fill the
     * log. Such a connection is dropped and says nothing; the transport's warnings still show. Held here
     * because the logging framework keeps its loggers, and their levels, only while they are referenced.
     */
    private static final java.util.logging.Logger TRANSPORT_CONNECTIONS = java.util.logging.Logger.getLogger(
            "io.grpc.netty.shaded.io.grpc.netty.NettyServerTransport.connections");

    /**
     * A message the server cannot take (over {@code limits.max_message_bytes}, or not a message) is logged
     * as a warning with its stack trace, though the client already gets its status: those records go.
     */
    private static final java.util.logging.Logger SERVER_STREAM = java.util.logging.Logger.getLogger(
            "io.grpc.netty.shaded.io.grpc.netty.NettyServerStream");

    static {
        TRANSPORT_CONNECTIONS.setLevel(java.util.logging.Level.WARNING);
        SERVER_STREAM.setFilter(r -> !"deframeFailed".equals(r.getSourceMethodName()));
    }

    private final DaemonConfig config;
    /** Proves with a Groth16 backend: each partition's result is a {@link ProofResult}. */
    private final Engine<ProofResult> engine;
    private final PrometheusMeterRegistry registry;
    private final DaemonMetrics jvmMetrics;
    private final ProvingService service;
    private final Server grpc;
    private final StatusHttpServer http;
    /** rapidsnark's prover-server routes ({@code server.rapidsnark_listen}), or null. */
    private final StatusHttpServer rapidsnark;
    /** The gRPC port's connections, capped. */
    private GrpcConnections grpcConnections;
    /** The bytes of requests being received on every port. */
    private final RequestBudget requestBytes;
    private final Consumer<String> log;
    private final List<String> circuits;
    /** This daemon's node of a durable queue (a cluster's, or a single daemon's store), or null (jobs in memory). */
    private StoreNode node;
    private volatile boolean closed;

    private Daemon(DaemonConfig config, ProverBackend<?, ?, ProofResult> backend, Consumer<String> log) throws IOException,
            InterruptedException {
        this.config = config;
        this.log = log;
        checkExposure(config, log);
        this.engine = new Engine<>(config.engineConfig(Runtime.getRuntime().availableProcessors(),
                !backend.name().equals("cpu")), backend);
        boolean started = false;
        Server grpcStarted = null;
        StatusHttpServer httpStarted = null;
        DaemonMetrics jvmStarted = null;
        try {
            this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            engine.bindMetrics(registry);
            jvmStarted = new DaemonMetrics(registry);
            this.jvmMetrics = jvmStarted;
            this.circuits = KeyDirectory.register(Circuits.of(engine), Path.of(config.keys().directory()),
                    config.keys().verifyWith().isEmpty() ? null : new CheckedKeys(Path.of(config.keys().verifyWith()),
                            OwnerOnlyFiles.directory(DaemonConfig.checkedKeysDirectory(System.getenv()))),
                    w -> log.accept("warning: " + w), log);
            java.util.Set<dev.proofline.algebra.PairingCurve> curves = java.util.EnumSet.noneOf(
                    dev.proofline.algebra.PairingCurve.class);
            for (String id : config.keys().preload()) {
                Circuits.of(engine).preload(id);
                try (var key = Circuits.of(engine).key(id)) {
                    curves.add(key.value().curve());
                }
                log.accept("preloaded " + id);
            }
            // preloaded circuits are meant to be fast from the first job: the fastest kernels of the NTT
            // and of the G1 MSM are compiled now, in the background, rather than after the first
            // seconds of proving
            if (!curves.isEmpty()) {
                Thread.ofPlatform().name("ntt-warm-up").daemon().start(() -> curves.forEach(c -> {
                    dev.proofline.algebra.ntt.Ntt.warmUp(c.fr());
                    dev.proofline.algebra.msm.Msm.warmUp(c.g1());
                }));
            }
            this.node = DaemonStores.open(config, engine, log);
            if (node != null) {
                DaemonMetrics.bindCluster(node, registry);
            }
            this.service = new ProvingService(engine, config, registry::scrape,
                    node == null ? new MemoryJobs(engine) : new StoredJobs(node));
            String token = config.server().authToken();
            ConnectionCaps caps = ConnectionCaps.fit(ConnectionCaps.processLimit(), config.limits().maxConnections(),
                    config.limits().reservedConnections(), config.http().maxConnections(),
                    config.server().servesRapidsnark() ? 2 : 1, log);
            StatusHttpServer.Limits httpLimits = StatusHttpServer.Limits.of(config.http()).withMaxConnections(caps.http());
            this.requestBytes = new RequestBudget(config.requestMemory());
            warnOfRequestsThatCannotFit(config, requestBytes, log);
            Listeners.warnOfAHeapBeyondTheBudget(config, Runtime.getRuntime().maxMemory(), log);
            GrpcRequestBytes grpcBytes = new GrpcRequestBytes(requestBytes, GrpcRequestBytes.streamedMethods(
                    service.bindService()));
            this.grpcConnections = new GrpcConnections(caps.grpc(), caps.grpcReserve());
            NettyServerBuilder b = Listeners.grpcServer(config, service, grpcBytes, grpcConnections);
            this.grpc = grpcStarted = bound("grpc_listen", config.server().grpcListen(), () -> b.build().start());
            TimelineFeed timelineFeed = new TimelineFeed(engine.timeline());
            this.http = httpStarted = bound("http_listen", config.server().httpListen(), () -> StatusHttpServer.start(
                    address(config.server().httpListen()), httpLimits, new HttpRoutes(token, new HttpRoutes.Sources() {
                        @Override
                        public String statusJson() {
                            return service.statusJson();
                        }

                        @Override
                        public String timelineJson(int limit) {
                            return StatusJson.timeline(engine.timeline().last(limit));
                        }

                        @Override
                        public String timelineSinceJson(String cursor, int limit) {
                            return timelineFeed.since(cursor, limit);
                        }

                        @Override
                        public String metrics() {
                            return registry.scrape();
                        }

                        @Override
                        public boolean shuttingDown() {
                            return closed;
                        }

                        @Override
                        public String notAccepting() {
                            return node == null ? null : node.store().database().problem();
                        }
                    }, new JsonApi(service)), requestBytes));
            this.rapidsnark = config.server().servesRapidsnark() ? bound("rapidsnark_listen",
                    config.server().rapidsnarkListen(), () -> StatusHttpServer.start(
                            address(config.server().rapidsnarkListen()), httpLimits,
                            new RapidsnarkRoutes(token, service), requestBytes)) : null;
            if (node != null) {
                node.start(grpcAddress(), httpAddress());
            }
            started = true;
        } finally {
            if (!started) {
                // a listener that could not start: the ones that did are closed with the engine
                if (httpStarted != null) {
                    httpStarted.close();
                }
                if (grpcStarted != null) {
                    grpcStarted.shutdownNow();
                }
                if (node != null) {
                    node.close();
                }
                engine.close();
                if (jvmStarted != null) {
                    jvmStarted.close();
                }
                if (grpcConnections != null) {
                    grpcConnections.close();
                }
            }
        }
        log.accept("proofline daemon: gRPC on " + grpcAddress() + ", HTTP on http://" + httpAddress() + "/, backend "
                + backend.name() + ", " + circuits.size() + " circuit(s) from " + config.keys().directory()
                + (circuits.isEmpty() ? "" : ": " + String.join(", ", circuits))
                + (rapidsnark == null ? "" : "; rapidsnark's prover-server routes on http://" + rapidsnarkAddress() + "/"));
    }

    /** The bytes of requests being received now, on both ports. */
    public RequestBudget requestBytes() {
        return requestBytes;
    }

    /** The gRPC port's connections. */
    public GrpcConnections grpcConnections() {
        return grpcConnections;
    }

    /** The job store's statements so far (0 on a daemon that keeps its jobs in memory). */
    public long clusterRoundTrips() {
        return node == null ? 0 : node.store().database().roundTrips();
    }

    /** This daemon's node of a durable queue (a {@code ClusterNode} or a {@code SingleNode}), or null (jobs in memory). */
    public StoreNode storeNode() {
        return node;
    }

    /** The id of this daemon's node of a durable queue; empty when its jobs are kept in memory. */
    public java.util.Optional<String> nodeId() {
        return node == null ? java.util.Optional.empty() : java.util.Optional.of(node.nodeId());
    }

    /** Starts a daemon on the backend its configuration names ({@code auto}: a GPU if one is usable, else the CPU). */
    public static Daemon start(DaemonConfig config, Consumer<String> log) throws IOException, InterruptedException {
        return new Daemon(config, backend(config.engine().backend(), config.engine().backendSettings(), log), log);
    }

    /** Starts a daemon on the given backend (tests). */
    public static Daemon start(DaemonConfig config, ProverBackend<?, ?, ProofResult> backend, Consumer<String> log) throws IOException,
            InterruptedException {
        return new Daemon(config, backend, log);
    }

    /**
     * The backend {@code name} names, found through {@link BackendProviders} ({@code auto}: the first
     * accelerator that opens, else the CPU, logging why), opened with {@code settings}.
     */
    static ProverBackend<?, ?, ProofResult> backend(String name, BackendSettings settings, Consumer<String> log) {
        try {
            return BackendProviders.installed().open(name, settings, Prover.create(), log);
        } catch (BackendUnavailableException e) {
            throw new DaemonConfig.ConfigException("engine.backend = \"" + name + "\": " + e.getMessage());
        }
    }

    public Engine<ProofResult> engine() {
        return engine;
    }

    public List<String> circuits() {
        return circuits;
    }

    /** host:port the gRPC server is bound to (the real port when the config said 0). */
    public String grpcAddress() {
        return DaemonConfig.host(config.server().grpcListen()) + ":" + grpc.getPort();
    }

    public String httpAddress() {
        return DaemonConfig.host(config.server().httpListen()) + ":" + http.port();
    }

    /** host:port of rapidsnark's prover-server routes ({@code server.rapidsnark_listen}); empty when not served. */
    public String rapidsnarkAddress() {
        return rapidsnark == null ? "" : DaemonConfig.host(config.server().rapidsnarkListen()) + ":" + rapidsnark.port();
    }

    // ------------------------------------------------------------------ shutdown

    /**
     * Stops accepting submissions, lets running jobs finish for up to {@code grace}, then cancels what is
     * left (those jobs fail with "the engine was closed"), and stops both servers.
     */
    public void shutdown(Duration grace) throws InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        service.stopAccepting();
        long deadline = System.nanoTime() + grace.toNanos();
        if (node != null) {
            // claims in flight finish within the grace period; the rest go back to the queue (other nodes, or the next start)
            node.shutdown(grace);
        }
        while (unfinished(engine) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        long left = unfinished(engine);
        if (left > 0) {
            log.accept("grace period of " + grace.toMillis() + " ms over: cancelling " + left + " job(s)");
        }
        engine.close();
        if (engine.backend() instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                log.accept("warning: closing the " + engine.backend().name() + " backend: " + e.getMessage());
            }
        }
        grpc.shutdown();
        if (!grpc.awaitTermination(5, TimeUnit.SECONDS)) {
            grpc.shutdownNow();
            grpc.awaitTermination(5, TimeUnit.SECONDS);
        }
        grpcConnections.close();
        http.close();
        if (rapidsnark != null) {
            rapidsnark.close();
        }
        jvmMetrics.close();
        log.accept("proofline daemon stopped");
    }

    /**
     * Jobs whose result is not complete yet. Not {@code jobsActive}: a job whose partitions have all
     * ended may still be assembling its result, and closing the engine then would fail it.
     */
    private static long unfinished(Engine<?> e) {
        return e.status().jobs().stream().filter(j -> j.state().equals("running")).count();
    }

    /** Waits until the gRPC server has stopped. */
    public void awaitTermination() throws InterruptedException {
        grpc.awaitTermination();
    }

    @Override
    public void close() throws InterruptedException {
        shutdown(DaemonConfig.parseDuration(config.shutdown().gracePeriod()));
    }
}
