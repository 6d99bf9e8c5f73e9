package dev.proofline.daemon;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.WriteTimeoutHandler;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP side (status, metrics, health, dashboard) on Netty's HTTP codec. A held connection costs a
 * channel on one event loop, not a thread, so slow or half-open clients cannot starve the others; and
 * each bound is explicit ({@link Limits}): a request must arrive whole within {@code headerTimeout} of
 * its first byte, an idle connection is closed after {@code idleTimeout}, connections past
 * {@code maxConnections} are closed at once, requests past {@code maxConcurrentRequests} get 503, the
 * request line and headers are bounded by {@code maxHeaderBytes} (431) and a body by {@code maxBodyBytes}
 * (413). Health checks are answered on the event loop, so they answer while the other routes are busy.
 */
final class StatusHttpServer implements AutoCloseable {

    /** The bounds, from the {@code [http]} section. */
    record Limits(Duration headerTimeout, Duration idleTimeout, int maxConnections, int maxConcurrentRequests,
            int maxHeaderBytes, int maxBodyBytes) {
        static Limits of(DaemonConfig.Http h) {
            return new Limits(DaemonConfig.parseDuration(h.headerTimeout()), DaemonConfig.parseDuration(h.idleTimeout()),
                    h.maxConnections(), h.maxConcurrentRequests(), (int) DaemonConfig.parseBytes(h.maxHeaderBytes()),
                    (int) DaemonConfig.parseBytes(h.maxBodyBytes()));
        }
    }

    /** The longest request line; a path and a query are short here. */
    private static final int MAX_REQUEST_LINE = 8192;

    private final Limits limits;
    private final HttpRoutes routes;
    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    /** Runs the routes other than health checks: they may block (cluster mode reads the database). */
    private final ExecutorService answering = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("http-", 0).factory());
    private final Semaphore requests;
    private final AtomicInteger connections = new AtomicInteger();
    private final Channel server;

    private StatusHttpServer(InetSocketAddress address, Limits limits, HttpRoutes routes) throws InterruptedException {
        this.limits = limits;
        this.routes = routes;
        this.requests = new Semaphore(limits.maxConcurrentRequests());
        this.acceptor = new MultiThreadIoEventLoopGroup(1, Thread.ofPlatform().name("http-accept").daemon()
                .factory(), NioIoHandler.newFactory());
        this.workers = new MultiThreadIoEventLoopGroup(2, Thread.ofPlatform().name("http-io", 0).daemon()
                .factory(), NioIoHandler.newFactory());
        ConnectionCount count = new ConnectionCount();
        try {
            this.server = new ServerBootstrap().group(acceptor, workers).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    // a client that does not read its responses holds at most this much of them
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64 << 10, 256 << 10))
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            RequestDeadline deadline = new RequestDeadline(limits);
                            ch.pipeline().addLast(count)
                                    .addLast(deadline)
                                    .addLast(new WriteTimeoutHandler(limits.headerTimeout().toMillis(),
                                            TimeUnit.MILLISECONDS))
                                    .addLast(new HttpServerCodec(new HttpDecoderConfig()
                                            .setMaxInitialLineLength(MAX_REQUEST_LINE)
                                            .setMaxHeaderSize(limits.maxHeaderBytes())
                                            .setMaxChunkSize(8192)))
                                    .addLast(new HttpObjectAggregator(limits.maxBodyBytes(), true))
                                    .addLast(new Exchange(deadline));
                        }
                    }).bind(address).sync().channel();
        } catch (InterruptedException | RuntimeException e) {
            shutdownGroups();
            throw e;
        }
    }

    /** Listens on {@code address} (port 0: a free one). */
    static StatusHttpServer start(InetSocketAddress address, Limits limits, HttpRoutes routes)
            throws InterruptedException {
        return new StatusHttpServer(address, limits, routes);
    }

    /** The port it listens on. */
    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Connections open now. */
    int openConnections() {
        return connections.get();
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

    /** Counts connections and closes those past the limit as soon as they open. */
    @ChannelHandler.Sharable
    private final class ConnectionCount extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            if (connections.incrementAndGet() > limits.maxConnections()) {
                ctx.close();
                return;
            }
            super.channelActive(ctx);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            connections.decrementAndGet();
            super.channelInactive(ctx);
        }
    }

    /**
     * One connection's clock: while no request is under way, the connection may stay idle for
     * {@code idleTimeout}; once a request's first byte arrives, the whole request must arrive within
     * {@code headerTimeout}. Either way a late connection is closed. A slow sender (one byte now and then)
     * therefore cannot hold a connection longer than the header timeout, which an idle timeout alone would
     * allow.
     */
    static final class RequestDeadline extends ChannelInboundHandlerAdapter {
        private final Limits limits;
        private io.netty.util.concurrent.ScheduledFuture<?> timer;
        private boolean requestStarted;
        private ChannelHandlerContext ctx;

        RequestDeadline(Limits limits) {
            this.limits = limits;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            arm(limits.idleTimeout());
            super.channelActive(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (!requestStarted) {
                requestStarted = true;
                arm(limits.headerTimeout());
            }
            super.channelRead(ctx, msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            cancel();
            super.channelInactive(ctx);
        }

        /** A whole request arrived: it is being answered, no clock runs until its response is written. */
        void requestReceived() {
            requestStarted = false;
            cancel();
        }

        /** A response went out on a connection that stays open: it may idle now. */
        void responded() {
            if (!requestStarted && ctx.channel().isActive()) {
                arm(limits.idleTimeout());
            }
        }

        private void arm(Duration d) {
            cancel();
            timer = ctx.executor().schedule(() -> {
                ctx.close();
            }, d.toMillis(), TimeUnit.MILLISECONDS);
        }

        private void cancel() {
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
        }
    }

    /**
     * Answers each whole request, in order per connection: a health check at once on the event loop
     * (when nothing is ahead of it), the other routes on a virtual thread holding one of
     * {@code maxConcurrentRequests} permits, released once the response is written (so that clients
     * that read slowly cannot pile up responses either).
     */
    private final class Exchange extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final RequestDeadline deadline;
        /** The last answer under way on this connection; the next one is written after it. */
        private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

        Exchange(RequestDeadline deadline) {
            this.deadline = deadline;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            deadline.requestReceived();
            if (req.decoderResult().isFailure()) {
                Throwable why = req.decoderResult().cause();
                boolean tooLong = why instanceof TooLongFrameException;
                HttpRoutes.Answer bad = HttpRoutes.Answer.text(tooLong ? 431 : 400, tooLong
                        ? "request line or headers too large (http.max_header_bytes)\n" : "bad request\n");
                tail = tail.thenCompose(v -> write(ctx, bad, false, null));
                return;
            }
            String method = req.method().name();
            String target = req.uri();
            String auth = req.headers().get(HttpHeaderNames.AUTHORIZATION);
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            if (HttpRoutes.isHealthCheck(target)) {
                tail = tail.isDone() ? write(ctx, routes.answer(method, target, auth), keepAlive, null)
                        : tail.thenCompose(v -> write(ctx, routes.answer(method, target, auth), keepAlive, null));
                return;
            }
            if (!requests.tryAcquire()) {
                HttpRoutes.Answer busy = HttpRoutes.Answer.text(503, "busy: too many requests in progress"
                        + " (http.max_concurrent_requests)\n");
                tail = tail.thenCompose(v -> write(ctx, busy, keepAlive, null));
                return;
            }
            tail = tail.thenComposeAsync(v -> {
                HttpRoutes.Answer a;
                try {
                    a = routes.answer(method, target, auth);
                } catch (RuntimeException e) {
                    a = HttpRoutes.Answer.text(500, "error: " + ClientMessages.redact(String.valueOf(e.getMessage()))
                            + "\n");
                }
                return write(ctx, a, keepAlive, requests);
            }, answering);
        }

        /**
         * Writes an answer; the future completes once it is written (or failed), so that the next answer
         * on the connection goes after it.
         */
        private CompletableFuture<Void> write(ChannelHandlerContext ctx, HttpRoutes.Answer a, boolean keepAlive,
                Semaphore permit) {
            CompletableFuture<Void> written = new CompletableFuture<>();
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.valueOf(a.status()), Unpooled.wrappedBuffer(a.body()));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, a.contentType())
                    .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, a.body().length);
            if (a.status() == 503) {
                r.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
            }
            boolean stayOpen = keepAlive && a.status() < 500 && a.status() != 400 && a.status() != 431;
            if (!stayOpen) {
                r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            }
            ctx.writeAndFlush(r).addListener((ChannelFutureListener) f -> {
                if (permit != null) {
                    permit.release();
                }
                if (!stayOpen || !f.isSuccess()) {
                    f.channel().close();
                } else {
                    deadline.responded();
                }
                written.complete(null);
            });
            return written;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // a reset, a write timeout, a malformed stream: the connection goes, nothing is logged per client
            ctx.close();
        }
    }
}
