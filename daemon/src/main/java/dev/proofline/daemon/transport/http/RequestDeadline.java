package dev.proofline.daemon.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One connection's clock: a new connection must send its first request within {@code headerTimeout}
 * (or {@code idleTimeout}, when shorter); between requests, the connection may stay idle for
 * {@code idleTimeout}; once a request's first byte arrives, the whole request must arrive within
 * {@code headerTimeout}. Either way a late connection is closed. A slow sender (one byte now and then)
 * therefore cannot hold a connection longer than the header timeout, which an idle timeout alone would
 * allow, nor can a client that opens connections and sends nothing on them.
 */
final class RequestDeadline extends ChannelInboundHandlerAdapter {
    private final StatusHttpServer.Limits limits;
    private ScheduledFuture<?> timer;
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
