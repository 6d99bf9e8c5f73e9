package dev.proofline.daemon.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.daemon.config.DaemonConfig;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gRPC port does not hold connections that never finish HTTP/2's opening (silent, or the preface
 * alone: a flood of them reached the file-descriptor limit), nor connections with no call under way
 * past the idle timeout.
 */
class GrpcConnectionTimeoutsTest {

    @TempDir
    Path tmp;

    /** Seconds until the server closed {@code s} (it sends its own opening first), or null if it did not within {@code limit}. */
    private static Double secondsUntilClosed(Socket s, Duration limit) throws Exception {
        long t0 = System.nanoTime();
        s.setSoTimeout((int) limit.toMillis());
        InputStream in = s.getInputStream();
        try {
            while (in.read() >= 0) {
                // the server's settings, then GOAWAY
            }
        } catch (java.net.SocketTimeoutException e) {
            return null;
        } catch (java.net.SocketException e) {
            // reset: closed as well
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    @Test
    void connectionsThatDoNotOpenOrFallIdleAreClosed() throws Exception {
        Files.createDirectories(tmp.resolve("keys"));
        DaemonConfig cfg = DaemonToml.inMemory(tmp.resolve("keys")).set("engine.budget", "256MiB")
                .set("limits.handshake_timeout", "1s").set("limits.idle_timeout", "1s").parse("t.toml");
        try (Daemon d = Daemon.start(cfg, l -> { })) {
            int port = Integer.parseInt(d.grpcAddress().substring(d.grpcAddress().lastIndexOf(':') + 1));
            try (Socket silent = new Socket("127.0.0.1", port); Socket preface = new Socket("127.0.0.1", port)) {
                preface.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                preface.getOutputStream().flush();
                Double s = secondsUntilClosed(silent, Duration.ofSeconds(8));
                assertNotNull(s, "a silent connection was held past 8 s (handshake_timeout 1 s)");
                Double p = secondsUntilClosed(preface, Duration.ofSeconds(8));
                assertNotNull(p, "a connection that sent only the preface was held past 8 s (handshake_timeout 1 s)");
            }
            ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
            try {
                assertEquals(0, ProvingEngineGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS)
                        .listCircuits(ListCircuitsRequest.getDefaultInstance()).getCircuitsCount());
                assertEquals(ConnectivityState.READY, ch.getState(false));
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
                while (ch.getState(false) == ConnectivityState.READY && System.nanoTime() < giveUp) {
                    Thread.sleep(50);
                }
                // the client's own idle timeout is 30 minutes: a connection gone now was closed by the server
                assertTrue(ch.getState(false) != ConnectivityState.READY, "an idle connection was held past 8 s"
                        + " (idle_timeout 1 s)");
                assertEquals(0, ProvingEngineGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS)
                        .listCircuits(ListCircuitsRequest.getDefaultInstance()).getCircuitsCount(), "it reconnects");
            } finally {
                ch.shutdownNow();
            }
        }
    }
}
