package dev.proofline.daemon.transport;

import java.lang.management.ManagementFactory;
import java.util.function.Consumer;

/**
 * The connection caps of both ports, fitted under the process's file-descriptor limit: each open
 * connection is a descriptor, and a process at its limit accepts nothing more on either port
 * ({@code accept: Too many open files}), {@code /healthz} included. The gRPC cap, its loopback reserve
 * and the HTTP cap together must leave {@link #OWN_FILES} descriptors for the process's own files (the
 * JVM's jars, the job store, keys being read, the GPU driver); with rapidsnark's routes served, the
 * HTTP cap counts twice (each listener has it). Where they do not, the caps are lowered
 * in proportion, and the daemon says so in one line at start.
 *
 * <p>The JVM raises its soft limit to the hard one at start on Linux; the limit here is that one
 * ({@code ulimit -Hn} raises it for the next start).
 */
public record ConnectionCaps(int grpc, int grpcReserve, int http) {

    /** Descriptors kept for the process's own files. */
    public static final int OWN_FILES = 512;

    /** As {@link #fit(long, int, int, int, int, Consumer)} with one HTTP listener. */
    public static ConnectionCaps fit(long fdLimit, int grpc, int grpcReserve, int http, Consumer<String> log) {
        return fit(fdLimit, grpc, grpcReserve, http, 1, log);
    }

    /**
     * The caps, fitted under {@code fdLimit} (0 or less: unknown, kept as they are) with {@code httpListeners}
     * HTTP listeners of {@code http} connections each; a lowering is logged.
     */
    public static ConnectionCaps fit(long fdLimit, int grpc, int grpcReserve, int http, int httpListeners,
            Consumer<String> log) {
        long want = (long) grpc + grpcReserve + (long) http * httpListeners;
        long room = fdLimit - OWN_FILES;
        if (fdLimit <= 0 || want <= room) {
            return new ConnectionCaps(grpc, grpcReserve, http);
        }
        double share = Math.max(0, room) / (double) want;
        ConnectionCaps c = new ConnectionCaps(Math.max(1, (int) (grpc * share)), (int) (grpcReserve * share),
                Math.max(1, (int) (http * share)));
        log.accept("warning: the process may open " + fdLimit + " files; with " + OWN_FILES + " kept for its own,"
                + " connections are capped at " + c.grpc() + " (+" + c.grpcReserve() + " from loopback) on the gRPC"
                + " port (limits.max_connections = " + grpc + ", reserved_connections = " + grpcReserve + ") and "
                + c.http() + " on " + (httpListeners == 1 ? "the HTTP port" : "each of the " + httpListeners
                + " HTTP ports") + " (http.max_connections = " + http + "); raise the limit (ulimit -Hn) for more");
        return c;
    }

    /** The process's file-descriptor limit, or -1 where the platform does not say. */
    public static long processLimit() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u) {
            return u.getMaxFileDescriptorCount();
        }
        return -1;
    }
}
