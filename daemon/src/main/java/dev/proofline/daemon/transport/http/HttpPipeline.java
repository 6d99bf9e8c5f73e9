package dev.proofline.daemon.transport.http;

import dev.proofline.daemon.jobs.ClientMessages;
import dev.proofline.daemon.transport.RequestBudget;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.WriteTimeoutHandler;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The handlers of one HTTP connection, and what connections share: the count of open ones and the
 * permits of requests being answered. {@link StatusHttpServer} installs them on each accepted
 * connection; a test can install them on an embedded channel, with an executor that answers at once.
 */
public final class HttpPipeline {

    /** The longest request line; a path and a query are short here. */
    private static final int MAX_REQUEST_LINE = 8192;

    private final StatusHttpServer.Limits limits;
    private final HttpSite routes;
    /** Answers the routes other than health checks. */
    private final Executor answering;
    private final Semaphore requests;
    /** Bytes of job submissions being gathered now, on all connections, with the gRPC port's requests. */
    private final RequestBudget jobBytes;
    private final AtomicInteger connections = new AtomicInteger();
    /** Connections closed at once (every place had an answer under way), and closed to make room. */
    private final java.util.concurrent.atomic.AtomicLong refusedConnections = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong evictedConnections = new java.util.concurrent.atomic.AtomicLong();
    /** Exceptions the handlers raised that no client can cause (not I/O, decoding or timeouts). */
    private final java.util.concurrent.atomic.AtomicLong handlerFaults = new java.util.concurrent.atomic.AtomicLong();
    /** The first of them, for a test's message. */
    private volatile Throwable firstFault;
    private final ConnectionCount count = new ConnectionCount();

    HttpPipeline(StatusHttpServer.Limits limits, HttpSite routes, Executor answering) {
        this(limits, routes, answering, new RequestBudget(budgetOf(limits)));
    }

    /** Handlers whose job submissions take their bytes from {@code budget}, shared with other ports. */
    HttpPipeline(StatusHttpServer.Limits limits, HttpSite routes, Executor answering, RequestBudget budget) {
        this.limits = limits;
        this.routes = routes;
        this.answering = answering;
        this.requests = new Semaphore(limits.maxConcurrentRequests());
        this.jobBytes = budget;
    }

    /**
     * The bound of the requests being received where none is given: room for {@code maxConcurrentRequests}
     * submissions of {@code maxJobBytes} being decoded.
     */
    public static long budgetOf(StatusHttpServer.Limits limits) {
        return (long) limits.maxConcurrentRequests() * limits.maxJobBytes() * RequestBudget.HTTP_COPIES;
    }

    /** Installs a connection's handlers on {@code ch}. */
    void init(Channel ch) {
        RequestDeadline deadline = new RequestDeadline(limits);
        BodyLimit bodyLimit = new BodyLimit();
        ch.pipeline().addLast(count)
                .addLast(deadline)
                .addLast(new WriteTimeoutHandler(limits.headerTimeout().toMillis(), TimeUnit.MILLISECONDS))
                .addLast(new HttpServerCodec(new HttpDecoderConfig()
                        .setMaxInitialLineLength(MAX_REQUEST_LINE)
                        .setMaxHeaderSize(limits.maxHeaderBytes())
                        .setMaxChunkSize(8192)))
                .addLast(bodyLimit)
                // BodyLimit bounds each body by its route; the aggregator only by the larger of the two
                .addLast(new HttpObjectAggregator(Math.max(limits.maxBodyBytes(), limits.maxJobBytes()), true))
                .addLast(new Exchange(deadline, bodyLimit));
    }

    /** An exception of a route as a 500 whose message names the problem, never where it happened. */
    private static HttpRoutes.Answer fault(Throwable e) {
        return HttpRoutes.Answer.text(500, "error: " + ClientMessages.redact(String.valueOf(e.getMessage())) + "\n");
    }

    /** The bytes of requests being received now. */
    RequestBudget requestBytes() {
        return jobBytes;
    }

    /** Connections open now. */
    int openConnections() {
        return connections.get();
    }

    /** Connections closed at once for want of a place, and closed to make room for a newer one. */
    long[] connectionsTurnedAway() {
        return new long[] {refusedConnections.get(), evictedConnections.get()};
    }

    /** Faults of the handlers themselves so far (0 unless there is a bug). */
    long handlerFaults() {
        return handlerFaults.get();
    }

    /** The first fault of the handlers, or null. */
    Throwable firstFault() {
        return firstFault;
    }

    /**
     * Counts connections, and keeps them within {@code maxConnections}: at the limit, the oldest
     * connection with no answer under way (one that is silent, idle between requests, or still sending
     * a request) is closed for the newcomer, so that connections held open cannot keep {@code /healthz}
     * or a submission out; when every connection has an answer under way, the newcomer is closed at once.
     */
    @ChannelHandler.Sharable
    private final class ConnectionCount extends ChannelInboundHandlerAdapter {
        /** Open connections in the order they came, each with its answers under way. */
        private final java.util.LinkedHashMap<Channel, AtomicInteger> open = new java.util.LinkedHashMap<>();

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            Channel evict = null;
            synchronized (open) {
                if (open.size() >= limits.maxConnections()) {
                    for (var it = open.entrySet().iterator(); it.hasNext();) {
                        var e = it.next();
                        if (e.getValue().get() == 0) {
                            it.remove();
                            evict = e.getKey();
                            break;
                        }
                    }
                    if (evict == null) {
                        refusedConnections.incrementAndGet();
                        ctx.close();
                        return;
                    }
                }
                AtomicInteger answering = new AtomicInteger();
                ctx.channel().attr(ANSWERING).set(answering);
                open.put(ctx.channel(), answering);
                connections.set(open.size());
            }
            if (evict != null) {
                evictedConnections.incrementAndGet();
                evict.close();
            }
            super.channelActive(ctx);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            synchronized (open) {
                open.remove(ctx.channel());
                connections.set(open.size());
            }
            super.channelInactive(ctx);
        }
    }

    /** A connection's answers under way: from a whole request's arrival until its answer is written. */
    private static final io.netty.util.AttributeKey<AtomicInteger> ANSWERING =
            io.netty.util.AttributeKey.valueOf("proofline-answering");

    private static void answering(Channel ch, int change) {
        AtomicInteger a = ch.attr(ANSWERING).get();
        if (a != null) {
            a.addAndGet(change);
        }
    }

    /**
     * Bounds each request's body by its route before it is aggregated: a job's submission by
     * {@code maxJobBytes}, any other request by {@code maxBodyBytes}; and the job submissions being
     * gathered on all connections together by {@code maxConcurrentRequests × maxJobBytes} (each reserves
     * the bytes that have arrived, never what it announces, until it has been handed on whole or its
     * connection closes: connections that announce large bodies and send nothing hold nothing). A body
     * past its bound, announced (Content-Length) or as it arrives, is answered 413, and one whose bytes
     * find no room in the shared budget 503, at once; the rest of it is read and dropped
     * (nothing is kept) and the connection closes at its end, so that a client still sending reads the
     * answer rather than a reset. {@link RequestDeadline} still bounds how long that may take.
     */
    private final class BodyLimit extends ChannelInboundHandlerAdapter {
        private long limit;
        private long received;
        private boolean job;
        private String target;
        private boolean rejected;
        /** Bytes of {@link #jobBytes} this connection's request holds. */
        private long reserved;
        /** The rejection, once written; the connection closes after it and the end of the body. */
        private ChannelFuture answered;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (rejected) {
                boolean last = msg instanceof LastHttpContent;
                ReferenceCountUtil.release(msg);
                if (last) {
                    answered.addListener(ChannelFutureListener.CLOSE);
                }
                return;
            }
            if (msg instanceof HttpRequest r) {
                job = routes.takesJob(r.method().name(), r.uri());
                limit = job ? limits.maxJobBytes() : limits.maxBodyBytes();
                target = r.uri();
                received = 0;
                long length = r.decoderResult().isFailure() ? -1 : announced(r);
                if (length > limit) {
                    reject(ctx, msg, 413, io.grpc.Status.Code.RESOURCE_EXHAUSTED, tooLarge());
                    return;
                }
            }
            if (msg instanceof HttpContent c) {
                int n = c.content().readableBytes();
                received += n;
                if (received > limit) {
                    reject(ctx, msg, 413, io.grpc.Status.Code.RESOURCE_EXHAUSTED, tooLarge());
                    return;
                }
                if (job && !reserve((long) n * RequestBudget.HTTP_COPIES)) {
                    if (reserved + (long) n * RequestBudget.HTTP_COPIES > jobBytes.bound()) {
                        reject(ctx, msg, 413, io.grpc.Status.Code.RESOURCE_EXHAUSTED, tooLargeForMemory());
                    } else {
                        reject(ctx, msg, 503, io.grpc.Status.Code.UNAVAILABLE, busy());
                    }
                    return;
                }
            }
            // a whole request goes on to Exchange, which takes over what it holds (handOver) and gives that
            // back once the request has been answered: its decoding happens meanwhile
            ctx.fireChannelRead(msg);
        }

        /** What the request that just went on whole holds, now the answer's to give back. */
        long handOver() {
            long n = reserved;
            reserved = 0;
            return n;
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            release();
            super.channelInactive(ctx);
        }

        private boolean reserve(long n) {
            if (!jobBytes.tryTake(n)) {
                return false;
            }
            reserved += n;
            return true;
        }

        private void release() {
            jobBytes.giveBack(reserved);
            reserved = 0;
        }

        private String tooLarge() {
            return "the request body exceeds " + limit + " bytes (http." + (job ? "max_job_bytes" : "max_body_bytes")
                    + ")";
        }

        private String busy() {
            return "busy: requests being decoded need more than " + jobBytes.bound()
                    + " bytes (engine.request_memory, both ports together)";
        }

        private String tooLargeForMemory() {
            return "the request body needs more than the " + jobBytes.bound() + " bytes of engine.request_memory"
                    + " (each byte received costs " + RequestBudget.HTTP_COPIES + " while it is decoded)";
        }

        /** The Content-Length, or -1 when there is none or it is no number (left to the decoder's answer). */
        private static long announced(HttpRequest r) {
            try {
                return HttpUtil.getContentLength(r, -1L);
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        private void reject(ChannelHandlerContext ctx, Object msg, int status, io.grpc.Status.Code code, String why) {
            boolean last = msg instanceof LastHttpContent;
            ReferenceCountUtil.release(msg);
            release();
            rejected = true;
            // the part of the body gathered so far goes now, not when the connection closes after the rest
            // has been read (minutes for a large body; a hundred such connections held hundreds of MB)
            HttpObjectAggregator gathering = ctx.pipeline().get(HttpObjectAggregator.class);
            if (gathering != null) {
                ctx.pipeline().remove(gathering);
            }
            HttpRoutes.Answer a = routes.refusal(target == null ? "" : target, status, code, why);
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
                    Unpooled.wrappedBuffer(a.body()));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, a.contentType())
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, a.body().length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            if (status == 503) {
                r.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
            }
            answered = ctx.writeAndFlush(r);
            if (last) {
                answered.addListener(ChannelFutureListener.CLOSE);
            }
        }
    }

    /**
     * One connection's clock: a new connection must send its first request within {@code headerTimeout}
     * (or {@code idleTimeout}, when shorter); between requests, the connection may stay idle for
     * {@code idleTimeout}; once a request's first byte arrives, the whole request must arrive within
     * {@code headerTimeout}. Either way a late connection is closed. A slow sender (one byte now and then)
     * therefore cannot hold a connection longer than the header timeout, which an idle timeout alone would
     * allow, nor can a client that opens connections and sends nothing on them.
     */
    static final class RequestDeadline extends ChannelInboundHandlerAdapter {
        private final StatusHttpServer.Limits limits;
        private io.netty.util.concurrent.ScheduledFuture<?> timer;
        private boolean requestStarted;
        private ChannelHandlerContext ctx;

        RequestDeadline(StatusHttpServer.Limits limits) {
            this.limits = limits;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            // a connection that has not yet sent a request is held no longer than a request may take
            arm(limits.headerTimeout().compareTo(limits.idleTimeout()) < 0 ? limits.headerTimeout() : limits.idleTimeout());
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
        private final BodyLimit bodyLimit;
        /** The last answer under way on this connection; the next one is written after it. */
        private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

        Exchange(RequestDeadline deadline, BodyLimit bodyLimit) {
            this.deadline = deadline;
            this.bodyLimit = bodyLimit;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            // the request's share of the requests' memory, held until it has been answered (decoded and
            // handed on, or refused)
            long held = bodyLimit.handOver();
            try {
                answer(ctx, req);
            } finally {
                CompletableFuture<Void> answered = tail;
                answered.whenComplete((v, e) -> jobBytes.giveBack(held));
            }
        }

        private void answer(ChannelHandlerContext ctx, FullHttpRequest req) {
            deadline.requestReceived();
            // under way until its answer is written (write's listener): not a connection to make room with
            answering(ctx.channel(), 1);
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
            // copied now: the request is released when this returns, the answer comes later
            byte[] body = ByteBufUtil.getBytes(req.content());
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            if (routes.isHealthCheck(target)) {
                tail = tail.isDone() ? write(ctx, routes.answer(method, target, auth), keepAlive, null)
                        : tail.thenCompose(v -> write(ctx, routes.answer(method, target, auth), keepAlive, null));
                return;
            }
            if (!requests.tryAcquire()) {
                String why = "busy: too many requests in progress (http.max_concurrent_requests)";
                HttpRoutes.Answer busy = routes.refusal(target, 503, io.grpc.Status.Code.UNAVAILABLE, why);
                tail = tail.thenCompose(v -> write(ctx, busy, keepAlive, null));
                return;
            }
            tail = tail.thenComposeAsync(v -> {
                CompletableFuture<HttpRoutes.Answer> later;
                try {
                    later = routes.answerLater(method, target, auth, body);
                } catch (RuntimeException e) {
                    later = CompletableFuture.completedFuture(fault(e));
                }
                if (later.isDone()) {
                    return write(ctx, later.exceptionally(HttpPipeline::fault).join(), keepAlive, requests);
                }
                // a job's state that waits for the job: neither a thread nor a permit is held meanwhile, so
                // that long polls cannot take the places of other requests
                requests.release();
                return later.exceptionally(HttpPipeline::fault)
                        .thenComposeAsync(a -> write(ctx, a, keepAlive, null), answering);
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
                answering(f.channel(), -1);
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
            // a reset, a write timeout, a malformed stream: the connection goes, nothing is logged per client;
            // anything else is a fault of these handlers, counted so that tests can see it
            if (!(cause instanceof java.io.IOException || cause instanceof io.netty.handler.codec.DecoderException
                    || cause instanceof io.netty.handler.codec.PrematureChannelClosureException
                    || cause instanceof io.netty.handler.timeout.TimeoutException)) {
                if (handlerFaults.incrementAndGet() == 1) {
                    firstFault = cause;
                }
            }
            ctx.close();
        }
    }
}
