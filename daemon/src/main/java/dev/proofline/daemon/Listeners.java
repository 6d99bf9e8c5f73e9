package dev.proofline.daemon;

import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.transport.BearerTokens;
import dev.proofline.daemon.transport.RequestBudget;
import dev.proofline.daemon.transport.grpc.GrpcConnections;
import dev.proofline.daemon.transport.grpc.GrpcRequestBytes;
import dev.proofline.daemon.transport.grpc.MalformedRequests;
import dev.proofline.daemon.transport.grpc.ProvingService;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The wiring of a daemon's ports: the checks of its listen addresses and of its requests' memory made
 * before any port opens, the gRPC server's settings, and the start of a server that names its key when
 * its address cannot be bound. {@link Daemon} decides what is served; this says how it listens.
 */
final class Listeners {

    private Listeners() {
    }

    /**
     * Refuses a listen address beyond loopback with neither a bearer token nor {@code server.insecure};
     * with the latter, says that the port is served without authentication.
     */
    static void checkExposure(DaemonConfig c, Consumer<String> log) {
        List<String> listens = new java.util.ArrayList<>(List.of(c.server().grpcListen(), c.server().httpListen()));
        if (c.server().servesRapidsnark()) {
            listens.add(c.server().rapidsnarkListen());
        }
        for (String listen : listens) {
            if (!DaemonConfig.isLoopback(listen) && c.server().authToken().isEmpty()) {
                if (!c.server().insecure()) {
                    throw new DaemonConfig.ConfigException("listening on " + listen + " (not loopback) needs"
                            + " server.auth_token, or server.insecure = true (--insecure) to serve without one");
                }
                log.accept("warning: listening on " + listen + " without authentication (insecure)");
            }
        }
    }

    /** The socket address of {@code listen} ("host:port", an IPv6 host in brackets). */
    static InetSocketAddress address(String listen) {
        String host = DaemonConfig.host(listen);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new InetSocketAddress(host, DaemonConfig.port(listen));
    }

    /**
     * Says at start which of the largest requests the configuration allows cannot fit in the requests'
     * memory at all (they are refused whatever else is under way).
     */
    static void warnOfRequestsThatCannotFit(DaemonConfig config, RequestBudget budget, Consumer<String> log) {
        long job = DaemonConfig.parseBytes(config.http().maxJobBytes());
        long message = DaemonConfig.parseBytes(config.limits().maxMessageBytes());
        long stream = DaemonConfig.parseBytes(config.limits().maxRequestBytes());
        List<String> over = new java.util.ArrayList<>();
        if (job * RequestBudget.HTTP_COPIES > budget.bound()) {
            over.add("an HTTP submission over " + mib(budget.bound() / RequestBudget.HTTP_COPIES)
                    + " (http.max_job_bytes = " + config.http().maxJobBytes() + ")");
        }
        if (message * RequestBudget.UNARY_COPIES > budget.bound()) {
            over.add("a gRPC message over " + mib(budget.bound() / RequestBudget.UNARY_COPIES)
                    + " (limits.max_message_bytes = " + config.limits().maxMessageBytes() + ")");
        }
        if (stream * RequestBudget.STREAMED_COPIES > budget.bound()) {
            over.add("a gRPC stream over " + mib(budget.bound() / RequestBudget.STREAMED_COPIES)
                    + " (limits.max_request_bytes = " + config.limits().maxRequestBytes() + ")");
        }
        if (!over.isEmpty()) {
            log.accept("warning: engine.request_memory (" + mib(budget.bound()) + " of engine.budget) cannot hold "
                    + String.join(", ", over) + ": such requests are refused; raise engine.budget or"
                    + " engine.request_memory, or lower those limits");
        }
    }

    /**
     * Says at start when {@code engine.budget} is set below what the JVM's heap may grow to by more than an
     * "auto" budget leaves (a quarter of the heap): the collector lets garbage pile up to the heap's limit,
     * not the budget's, so under a flood of large requests the process grows past the budget
     * (docs/reliability.md, "Request memory").
     */
    static void warnOfAHeapBeyondTheBudget(DaemonConfig config, long maxHeap, Consumer<String> log) {
        String set = config.engine().budget();
        if (set.equals("auto")) {
            return;
        }
        long budget = config.memoryBudget();
        if (maxHeap != Long.MAX_VALUE && maxHeap > budget / 3 * 4) {
            log.accept("warning: engine.budget is " + set + " but the JVM's heap may grow to " + mib(maxHeap)
                    + ": under load the process can hold more than its budget before the collector runs; bound it"
                    + " with PROOFLINE_JAVA_OPTS=-Xmx" + (budget >> 20) + "m, or use engine.budget = \"auto\""
                    + " (three quarters of the heap)");
        }
    }

    private static String mib(long bytes) {
        return (bytes >> 20) + " MiB";
    }

    /**
     * The gRPC server of {@code service} on {@code server.grpc_listen}, with the limits of its connections
     * and calls, each call's bytes counted by {@code grpcBytes}, and its connections capped by
     * {@code grpcConnections}; the bearer token and TLS where configured.
     */
    static NettyServerBuilder grpcServer(DaemonConfig config, ProvingService service, GrpcRequestBytes grpcBytes,
            GrpcConnections grpcConnections) {
        String token = config.server().authToken();
        ServerInterceptor auth = token.isEmpty() ? null : new BearerAuth(token);
        var methods = auth == null ? MalformedRequests.guard(service.bindService())
                : ServerInterceptors.intercept(MalformedRequests.guard(service.bindService()), auth);
        NettyServerBuilder b = NettyServerBuilder.forAddress(address(config.server().grpcListen()))
                .maxInboundMessageSize((int) Math.min(Integer.MAX_VALUE,
                        DaemonConfig.parseBytes(config.limits().maxMessageBytes())))
                // a connection that has not finished HTTP/2's opening (the client's preface and
                // settings; TLS first where configured) within this time is closed: gRPC's default,
                // 120 s, let connections that send only the preface pile up to the fd limit
                .handshakeTimeout(DaemonConfig.parseDuration(config.limits().handshakeTimeout()).toMillis(),
                        TimeUnit.MILLISECONDS)
                // a connection with no call under way is sent GOAWAY and closed after this long
                .maxConnectionIdle(DaemonConfig.parseDuration(config.limits().idleTimeout()).toMillis(),
                        TimeUnit.MILLISECONDS)
                // a peer that is gone (a half-open connection with a call under way) is found by a
                // ping unanswered for 20 s, at most a minute after the connection fell silent
                .keepAliveTime(1, TimeUnit.MINUTES).keepAliveTimeout(20, TimeUnit.SECONDS)
                // calls under way at once on one connection (HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS;
                // clients hold further calls until one ends): unset, one connection could hold any number
                .maxConcurrentCallsPerConnection(config.limits().maxCallsPerConnection())
                // each call's message bytes are counted against the requests' budget as they arrive
                .addStreamTracerFactory(grpcBytes.tracers())
                .addService(ServerInterceptors.intercept(methods, grpcBytes.giveBackWhenHandled(),
                        grpcConnections.callsUnderWay()));
        grpcConnections.install(b);
        if (!config.server().tlsCert().isEmpty()) {
            b.useTransportSecurity(new java.io.File(config.server().tlsCert()),
                    new java.io.File(config.server().tlsKey()));
        }
        return b;
    }

    /** A server's start that may fail to bind its address. */
    @FunctionalInterface
    interface Listening<T> {
        T start() throws IOException, InterruptedException;
    }

    /**
     * Starts a server on {@code server.<key>}; an address that cannot be bound (in use, or not this
     * machine's) is a configuration error that names the key and the address, where the transports say
     * only "Address already in use".
     */
    static <T> T bound(String key, String listen, Listening<T> start) throws IOException, InterruptedException {
        try {
            return start.start();
        } catch (IOException | RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.net.BindException) {
                    throw new DaemonConfig.ConfigException("server." + key + " = \"" + listen + "\": cannot listen"
                            + " there: " + (t.getMessage() == null ? "address unavailable" : t.getMessage().toLowerCase(
                                    java.util.Locale.ROOT)) + (listen.endsWith(":0") ? "" : " (another daemon on port "
                                    + DaemonConfig.port(listen) + "? --" + key.replace('_', '-') + " picks another)"));
                }
            }
            throw e;
        }
    }

    /** Requires {@code authorization: Bearer <token>} on every call. */
    private record BearerAuth(String token) implements ServerInterceptor {
        private static final Metadata.Key<String> AUTHORIZATION =
                Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                ServerCallHandler<Q, R> next) {
            String h = headers.get(AUTHORIZATION);
            if (!BearerTokens.matches(h, token)) {
                call.close(Status.UNAUTHENTICATED.withDescription("send authorization: Bearer <token>"), new Metadata());
                return new ServerCall.Listener<>() { };
            }
            return next.startCall(call, headers);
        }
    }
}
