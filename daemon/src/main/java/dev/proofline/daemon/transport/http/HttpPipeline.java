package dev.proofline.daemon.transport.http;

import dev.proofline.daemon.jobs.ClientMessages;
import dev.proofline.daemon.transport.RequestBudget;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
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
import io.netty.handler.timeout.WriteTimeoutHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The handlers of one HTTP connection, and what connections share: the count of open ones and the
 * permits of requests being answered. {@link StatusHttpServer} installs them on each accepted
 * connection; a test can install them on an embedded channel, with an executor that answers at once.
 * The connection-level handlers ({@link ConnectionCount}, {@link RequestDeadline}, {@link BodyLimit})
 * each have a class of their own; the dispatch of whole requests to the routes is here.
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
    /** Exceptions the handlers raised that no client can cause (not I/O, decoding or timeouts). */
    private final AtomicLong handlerFaults = new AtomicLong();
    /** The first of them, for a test's message. */
    private volatile Throwable firstFault;
    private final ConnectionCount count;

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
        this.count = new ConnectionCount(limits.maxConnections());
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
        BodyLimit bodyLimit = new BodyLimit(limits, routes, jobBytes);
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
        return count.openConnections();
    }

    /** Connections closed at once for want of a place, and closed to make room for a newer one. */
    long[] connectionsTurnedAway() {
        return count.turnedAway();
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
            ConnectionCount.answering(ctx.channel(), 1);
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
                ConnectionCount.answering(f.channel(), -1);
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
