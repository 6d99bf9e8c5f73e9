package dev.proofline.daemon.transport.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.util.LinkedHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts connections, and keeps them within {@code maxConnections}: at the limit, the oldest
 * connection with no answer under way (one that is silent, idle between requests, or still sending
 * a request) is closed for the newcomer, so that connections held open cannot keep {@code /healthz}
 * or a submission out; when every connection has an answer under way, the newcomer is closed at once.
 */
@ChannelHandler.Sharable
final class ConnectionCount extends ChannelInboundHandlerAdapter {
    /** A connection's answers under way: from a whole request's arrival until its answer is written. */
    private static final AttributeKey<AtomicInteger> ANSWERING = AttributeKey.valueOf("proofline-answering");

    private final int maxConnections;
    private final AtomicInteger connections = new AtomicInteger();
    /** Connections closed at once (every place had an answer under way), and closed to make room. */
    private final AtomicLong refusedConnections = new AtomicLong();
    private final AtomicLong evictedConnections = new AtomicLong();
    /** Open connections in the order they came, each with its answers under way. */
    private final LinkedHashMap<Channel, AtomicInteger> open = new LinkedHashMap<>();

    ConnectionCount(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** Connections open now. */
    int openConnections() {
        return connections.get();
    }

    /** Connections closed at once for want of a place, and closed to make room for a newer one. */
    long[] turnedAway() {
        return new long[] {refusedConnections.get(), evictedConnections.get()};
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        Channel evict = null;
        synchronized (open) {
            if (open.size() >= maxConnections) {
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

    /** Adds {@code change} to the answers under way on {@code ch}: a connection with one is not closed to make room. */
    static void answering(Channel ch, int change) {
        AtomicInteger a = ch.attr(ANSWERING).get();
        if (a != null) {
            a.addAndGet(change);
        }
    }
}
