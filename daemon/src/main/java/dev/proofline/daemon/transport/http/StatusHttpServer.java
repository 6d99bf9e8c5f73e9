package dev.proofline.daemon.transport.http;

import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.transport.RequestBudget;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP side (status, metrics, health, dashboard) on Netty's HTTP codec. A held connection costs a
 * channel on one event loop, not a thread, so slow or half-open clients cannot starve the others; and
 * each bound is explicit ({@link Limits}): a request must arrive whole within {@code headerTimeout} of
 * its first byte, an idle connection is closed after {@code idleTimeout}, connections past
 * {@code maxConnections} are closed at once, requests past {@code maxConcurrentRequests} get 503, the
 * request line and headers are bounded by {@code maxHeaderBytes} (431) and a body by {@code maxBodyBytes}
 * (413; a job's submission by {@code maxJobBytes}). Health checks are answered on the event loop, so they answer while the other routes are busy.
 * The handlers that do this are {@link HttpPipeline}'s; this class runs them on event loops and a port.
 */
public final class StatusHttpServer implements AutoCloseable {

    /**
     * The bounds, from the {@code [http]} section. {@code maxJobBytes} bounds the body of a job's submission
     * ({@code POST /v1/jobs}, witnesses in base64), {@code maxBodyBytes} every other request's.
     */
    public record Limits(Duration headerTimeout, Duration idleTimeout, int maxConnections, int maxConcurrentRequests,
            int maxHeaderBytes, int maxBodyBytes, int maxJobBytes) {
        /** Bounds where a job's submission is bounded like any other body. */
        Limits(Duration headerTimeout, Duration idleTimeout, int maxConnections, int maxConcurrentRequests,
                int maxHeaderBytes, int maxBodyBytes) {
            this(headerTimeout, idleTimeout, maxConnections, maxConcurrentRequests, maxHeaderBytes, maxBodyBytes,
                    maxBodyBytes);
        }

        /** These bounds with {@code n} connections at most. */
        public Limits withMaxConnections(int n) {
            return new Limits(headerTimeout, idleTimeout, n, maxConcurrentRequests, maxHeaderBytes, maxBodyBytes,
                    maxJobBytes);
        }

        public static Limits of(DaemonConfig.Http h) {
            return new Limits(DaemonConfig.parseDuration(h.headerTimeout()), DaemonConfig.parseDuration(h.idleTimeout()),
                    h.maxConnections(), h.maxConcurrentRequests(), (int) DaemonConfig.parseBytes(h.maxHeaderBytes()),
                    (int) DaemonConfig.parseBytes(h.maxBodyBytes()), (int) DaemonConfig.parseBytes(h.maxJobBytes()));
        }
    }

    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    /** Runs the routes other than health checks: they may block (cluster mode reads the database). */
    private final ExecutorService answering = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("http-", 0).factory());
    private final HttpPipeline pipeline;
    private final Channel server;

    private StatusHttpServer(InetSocketAddress address, Limits limits, HttpSite routes, RequestBudget budget)
            throws InterruptedException {
        this.pipeline = new HttpPipeline(limits, routes, answering, budget);
        this.acceptor = new MultiThreadIoEventLoopGroup(1, Thread.ofPlatform().name("http-accept").daemon()
                .factory(), NioIoHandler.newFactory());
        this.workers = new MultiThreadIoEventLoopGroup(2, Thread.ofPlatform().name("http-io", 0).daemon()
                .factory(), NioIoHandler.newFactory());
        try {
            this.server = new ServerBootstrap().group(acceptor, workers).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    // a client that does not read its responses holds at most this much of them
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64 << 10, 256 << 10))
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            pipeline.init(ch);
                        }
                    }).bind(address).sync().channel();
        } catch (InterruptedException | RuntimeException e) {
            shutdownGroups();
            answering.shutdownNow();
            throw e;
        }
    }

    /** Listens on {@code address} (port 0: a free one). */
    public static StatusHttpServer start(InetSocketAddress address, Limits limits, HttpSite routes)
            throws InterruptedException {
        return start(address, limits, routes, new RequestBudget(HttpPipeline.budgetOf(limits)));
    }

    /** Listens on {@code address}; job submissions take their bytes from {@code budget}. */
    public static StatusHttpServer start(InetSocketAddress address, Limits limits, HttpSite routes, RequestBudget budget)
            throws InterruptedException {
        return new StatusHttpServer(address, limits, routes, budget);
    }

    /** The port it listens on. */
    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Connections open now. */
    int openConnections() {
        return pipeline.openConnections();
    }

    @Override
    public void close() {
        server.close().awaitUninterruptibly();
        shutdownGroups();
        answering.shutdownNow();
    }

    private void shutdownGroups() {
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
