package dev.proofline.daemon.transport.grpc;

import dev.proofline.daemon.transport.ConnectionCaps;
import io.grpc.Attributes;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerTransportFilter;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The gRPC port's connections, capped: gRPC itself accepts every connection until the process runs out
 * of file descriptors, after which neither port can accept anything. Each accepted connection is
 * looked at before gRPC sets it up (a handler on the listening channel, ahead of the one that hands
 * connections on):
 *
 * <ul>
 * <li>under {@code cap} connections, it is taken;
 * <li>at the cap, the oldest connection that has not finished HTTP/2's opening yet (the client's
 *     preface and settings) is closed to make room: a client that opens connections and sends nothing,
 *     or only the preface, pushes out its own connections, not those of clients that call;
 * <li>when every connection has finished its opening, the oldest one with no call under way is closed
 *     instead (a client whose idle connection goes reconnects at its next call, as after
 *     {@code limits.idle_timeout}): connections held open and idle cannot keep a calling client out;
 * <li>when every connection has a call under way, a connection from a loopback address may still take
 *     one of {@code reserve} places beyond the cap (an operator on the daemon's machine:
 *     {@code proofline status}, {@code cancel}); any other is closed at once.
 * </ul>
 *
 * The daemon sizes {@code cap} to the process's file-descriptor limit ({@link ConnectionCaps}), so
 * that the HTTP port (and {@code /healthz}) can still accept while the cap is reached.
 */
public final class GrpcConnections {

    private final int cap;
    private final int reserve;
    /** Connections open, in the order they were accepted, and whether each has finished its opening. */
    private final Map<SocketAddress, Held> open = new LinkedHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();
    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;

    private static final class Held {
        final Channel channel;
        boolean opened;
        /** Calls under way on it. */
        int calls;

        Held(Channel channel) {
            this.channel = channel;
        }
    }

    public GrpcConnections(int cap, int reserve) {
        if (cap < 1 || reserve < 0) {
            throw new IllegalArgumentException("a cap of " + cap + " connections and a reserve of " + reserve);
        }
        this.cap = cap;
        this.reserve = reserve;
        this.acceptor = new MultiThreadIoEventLoopGroup(1, Thread.ofPlatform().name("grpc-accept").daemon()
                .factory(), NioIoHandler.newFactory());
        this.workers = new MultiThreadIoEventLoopGroup(0, Thread.ofPlatform().name("grpc-io-", 0).daemon()
                .factory(), NioIoHandler.newFactory());
    }

    /** Has {@code b}'s server accept its connections through this cap. */
    public NettyServerBuilder install(NettyServerBuilder b) {
        Gate gate = new Gate();
        return b.bossEventLoopGroup(acceptor).workerEventLoopGroup(workers)
                .channelFactory(() -> {
                    NioServerSocketChannel server = new NioServerSocketChannel();
                    // first in the listening channel's pipeline: it sees each accepted connection before
                    // the server's own handler sets gRPC up on it
                    server.pipeline().addLast(gate);
                    return server;
                })
                .addTransportFilter(new ServerTransportFilter() {
                    @Override
                    public Attributes transportReady(Attributes transport) {
                        opened(transport.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
                        return transport;
                    }
                });
    }

    /** Counts each connection's calls under way, so that an idle one can make room at the cap. */
    public ServerInterceptor callsUnderWay() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                    ServerCallHandler<Q, R> next) {
                SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
                calls(remote, 1);
                ServerCall.Listener<Q> listener;
                try {
                    listener = next.startCall(call, headers);
                } catch (RuntimeException e) {
                    calls(remote, -1);
                    throw e;
                }
                return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
                    private boolean ended;

                    private void end() {
                        if (!ended) {
                            ended = true;
                            calls(remote, -1);
                        }
                    }

                    @Override
                    public void onComplete() {
                        end();
                        super.onComplete();
                    }

                    @Override
                    public void onCancel() {
                        end();
                        super.onCancel();
                    }
                };
            }
        };
    }

    private synchronized void calls(SocketAddress remote, int change) {
        Held h = remote == null ? null : open.get(remote);
        if (h != null) {
            h.calls += change;
        }
    }

    /** Connections with a call under way now. */
    synchronized int busyConnections() {
        return (int) open.values().stream().filter(h -> h.calls > 0).count();
    }

    /** Calls under way now, on all connections. */
    synchronized int calls() {
        return open.values().stream().mapToInt(h -> h.calls).sum();
    }

    /** Connections open now. */
    synchronized int openConnections() {
        return open.size();
    }

    /** Connections closed at once because no place was left. */
    long refused() {
        return refused.get();
    }

    /** Connections closed, still in their opening or idle, to make room for a newer one. */
    long evicted() {
        return evicted.get();
    }

    /** Stops the event loops; after the server has stopped. */
    public void close() {
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    private synchronized void opened(SocketAddress remote) {
        Held h = remote == null ? null : open.get(remote);
        if (h != null) {
            h.opened = true;
        }
    }

    private synchronized void closed(SocketAddress remote, Channel channel) {
        Held h = open.get(remote);
        if (h != null && h.channel == channel) {
            open.remove(remote);
        }
    }

    /**
     * Whether a new connection from {@code remote} is taken; when it is and the cap is reached, the
     * connection to close for it (or null).
     */
    private synchronized Decision admit(SocketAddress remote, Channel channel) {
        Channel victim = null;
        if (open.size() >= cap) {
            // the oldest still opening, else the oldest idle
            victim = evictOldest(h -> !h.opened);
            if (victim == null) {
                victim = evictOldest(h -> h.calls <= 0);
            }
            if (victim == null && !(isLoopback(remote) && open.size() < cap + reserve)) {
                return new Decision(false, null);
            }
        }
        open.put(remote, new Held(channel));
        return new Decision(true, victim);
    }

    /** Removes the oldest connection {@code which} picks, and returns its channel to close; or null. */
    private Channel evictOldest(java.util.function.Predicate<Held> which) {
        for (Iterator<Held> it = open.values().iterator(); it.hasNext();) {
            Held h = it.next();
            if (which.test(h)) {
                it.remove();
                return h.channel;
            }
        }
        return null;
    }

    private record Decision(boolean taken, Channel evict) {
    }

    /**
     * Closes {@code ch} at once, past its other handlers: gRPC's own close is graceful (GOAWAY, then a ping
     * it waits up to 10 s for), which a connection that never opened, or a client that does not
     * answer, would hold for those seconds.
     */
    private static void closeNow(Channel ch) {
        // first in its pipeline, run on its event loop once it is registered there (at once if it is):
        // a channel closed before its registration would make the registration fail, with a warning
        ch.pipeline().addFirst(new ChannelInboundHandlerAdapter() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                if (ctx.channel().isRegistered()) {
                    ctx.channel().unsafe().close(ctx.channel().unsafe().voidPromise());
                }
            }

            @Override
            public void channelRegistered(ChannelHandlerContext ctx) {
                ctx.channel().unsafe().close(ctx.channel().unsafe().voidPromise());
            }
        });
    }

    static boolean isLoopback(SocketAddress a) {
        return a instanceof InetSocketAddress i && i.getAddress() != null && i.getAddress().isLoopbackAddress();
    }

    /** On the listening channel: each message read there is a connection just accepted. */
    @ChannelHandler.Sharable
    private final class Gate extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel child = (Channel) msg;
            SocketAddress remote = child.remoteAddress();
            Decision d = remote == null ? new Decision(false, null) : admit(remote, child);
            if (!d.taken()) {
                refused.incrementAndGet();
                // not registered with an event loop yet: its socket is closed here and now
                child.unsafe().closeForcibly();
                return;
            }
            if (d.evict() != null) {
                evicted.incrementAndGet();
                closeNow(d.evict());
            }
            child.closeFuture().addListener(f -> closed(remote, child));
            ctx.fireChannelRead(child);
        }
    }
}
