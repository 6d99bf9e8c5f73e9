package dev.proofline.daemon.transport.http;

import dev.proofline.daemon.transport.RequestBudget;
import io.grpc.Status;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

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
final class BodyLimit extends ChannelInboundHandlerAdapter {
    private final StatusHttpServer.Limits limits;
    private final HttpSite routes;
    /** Bytes of job submissions being gathered now, on all connections, with the gRPC port's requests. */
    private final RequestBudget jobBytes;
    private long limit;
    private long received;
    private boolean job;
    private String target;
    private boolean rejected;
    /** Bytes of {@link #jobBytes} this connection's request holds. */
    private long reserved;
    /** The rejection, once written; the connection closes after it and the end of the body. */
    private ChannelFuture answered;

    BodyLimit(StatusHttpServer.Limits limits, HttpSite routes, RequestBudget jobBytes) {
        this.limits = limits;
        this.routes = routes;
        this.jobBytes = jobBytes;
    }

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
                reject(ctx, msg, 413, Status.Code.RESOURCE_EXHAUSTED, tooLarge());
                return;
            }
        }
        if (msg instanceof HttpContent c) {
            int n = c.content().readableBytes();
            received += n;
            if (received > limit) {
                reject(ctx, msg, 413, Status.Code.RESOURCE_EXHAUSTED, tooLarge());
                return;
            }
            if (job && !reserve((long) n * RequestBudget.HTTP_COPIES)) {
                if (reserved + (long) n * RequestBudget.HTTP_COPIES > jobBytes.bound()) {
                    reject(ctx, msg, 413, Status.Code.RESOURCE_EXHAUSTED, tooLargeForMemory());
                } else {
                    reject(ctx, msg, 503, Status.Code.UNAVAILABLE, busy());
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

    private void reject(ChannelHandlerContext ctx, Object msg, int status, Status.Code code, String why) {
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
