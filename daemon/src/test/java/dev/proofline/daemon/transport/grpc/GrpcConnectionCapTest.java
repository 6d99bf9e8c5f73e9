package dev.proofline.daemon.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.daemon.OneAnswer;
import dev.proofline.daemon.transport.ConnectionCaps;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gRPC port holds at most {@code limits.max_connections} connections: past it, a connection still
 * in HTTP/2's opening is pushed out for the newcomer, else an idle one, so a flood of connections that
 * send only the preface (or open and sit idle) neither reaches the file-descriptor limit nor keeps a
 * calling client out; with every place taken by connections with calls under way, a loopback client
 * gets one of {@code reserved_connections}.
 */
class GrpcConnectionCapTest {

    @TempDir
    Path tmp;

    private Daemon start(int cap, int reserve) throws Exception {
        return start(cap, reserve, 128);
    }

    private Daemon start(int cap, int reserve, int callsPerConnection) throws Exception {
        Files.createDirectories(tmp.resolve("keys"));
        return Daemon.start(DaemonToml.inMemory(tmp.resolve("keys")).set("engine.budget", "256MiB")
                .set("limits.handshake_timeout", "60s").set("limits.max_connections", cap)
                .set("limits.reserved_connections", reserve).set("limits.max_calls_per_connection", callsPerConnection)
                .parse("t.toml"), l -> { });
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    /** Whether the server closed {@code s} within {@code millis} (its own opening is read and skipped). */
    private static boolean closedBy(Socket s, int millis) throws Exception {
        s.setSoTimeout(millis);
        try {
            while (s.getInputStream().read() >= 0) {
                // the server's settings
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (java.net.SocketException e) {
            return true;
        }
    }

    private static int circuits(ManagedChannel ch) {
        return ProvingEngineGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
                .listCircuits(ListCircuitsRequest.getDefaultInstance()).getCircuitsCount();
    }

    @Test
    void aFloodOfPrefaceOnlyConnectionsIsCappedAndACallingClientStillGetsThrough() throws Exception {
        try (Daemon d = start(8, 0)) {
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 40; i++) {
                    Socket s = new Socket("127.0.0.1", port(d.grpcAddress()));
                    s.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    flood.add(s);
                }
                // the handshake timeout is a minute: a connection closed now was closed by the cap, the oldest
                // first (each pushed out by a newer one)
                long t0 = System.nanoTime();
                while (d.grpcConnections().evicted() + d.grpcConnections().refused() < 32
                        && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(20)) {
                    Thread.sleep(10);
                }
                assertTrue(d.grpcConnections().openConnections() <= 8, d.grpcConnections().openConnections() + " open");
                // the daemon has closed its side of 32 of them (which ones follows the order it accepted them in)
                int closed = 0;
                for (Socket s : flood) {
                    closed += closedBy(s, 1_000) ? 1 : 0;
                }
                assertEquals(32, closed, "of 40 preface-only connections, closed by the cap of 8");
                t0 = System.nanoTime();
                ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
                try {
                    assertEquals(0, circuits(ch));
                } finally {
                    ch.shutdownNow();
                }
                double callSeconds = (System.nanoTime() - t0) / 1e9;
                t0 = System.nanoTime();
                HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://" + d.httpAddress() + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
                double healthSeconds = (System.nanoTime() - t0) / 1e9;
                assertEquals(200, health.statusCode());
                System.out.printf("gRPC cap 8, 40 preface-only connections: %d closed, a call in %.3f s, /healthz in"
                        + " %.3f s%n", closed, callSeconds, healthSeconds);
                assertTrue(callSeconds < 3 && healthSeconds < 3, callSeconds + " s, " + healthSeconds + " s");
            } finally {
                for (Socket s : flood) {
                    s.close();
                }
            }
        }
    }

    /** A call that stays under way on {@code ch} until the test ends it: a stream with only its header. */
    private static io.grpc.stub.StreamObserver<dev.proofline.api.v1.SubmitProofChunk> callUnderWay(ManagedChannel ch) {
        var up = ProvingEngineGrpc.newStub(ch).submitProofStream(OneAnswer.into(
                new java.util.concurrent.CompletableFuture<>()));
        up.onNext(dev.proofline.api.v1.SubmitProofChunk.newBuilder().setHeader(dev.proofline.api.v1.SubmitProofRequest
                .newBuilder().setCircuitId("none").setStreamedPartitions(1)).build());
        return up;
    }

    @Test
    void atTheCapAnIdleConnectionMakesRoomAndItsClientReconnects() throws Exception {
        try (Daemon d = start(2, 0)) {
            List<ManagedChannel> channels = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
                    channels.add(ch);
                    assertEquals(0, circuits(ch), "client " + i + " (cap 2; the idle ones make room)");
                }
                assertTrue(d.grpcConnections().evicted() >= 1, "evicted " + d.grpcConnections().evicted());
                assertTrue(d.grpcConnections().openConnections() <= 2, d.grpcConnections().openConnections() + " open");
                // the first client's connection was closed while idle: its next call reconnects
                assertEquals(0, circuits(channels.get(0)), "the first client, again");
            } finally {
                channels.forEach(ManagedChannel::shutdownNow);
            }
        }
    }

    /** Waits (up to 30 s) until exactly {@code n} calls are under way on the daemon's gRPC port. */
    private static void awaitCalls(Daemon d, int n) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (d.grpcConnections().calls() != n && System.nanoTime() < giveUp) {
            Thread.sleep(5);
        }
        assertEquals(n, d.grpcConnections().calls(), "calls under way");
    }

    @Test
    void connectionsWithCallsUnderWayAreKeptAndLoopbackHasAReserveBeyondTheCap() throws Exception {
        try (Daemon d = start(2, 1)) {
            List<ManagedChannel> channels = new ArrayList<>();
            List<io.grpc.stub.StreamObserver<?>> calls = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
                    channels.add(ch);
                    assertEquals(0, circuits(ch), "connection " + i + " (cap 2, 1 reserved for loopback)");
                    // the daemon ends the unary call a little after its answer has reached the client: until
                    // then it too counts as a call under way
                    awaitCalls(d, i);
                    calls.add(callUnderWay(ch));
                    int n = i + 1;
                    awaitCalls(d, n);
                    assertEquals(n, d.grpcConnections().busyConnections(), "connections with a call under way (open "
                            + d.grpcConnections().openConnections() + ", evicted " + d.grpcConnections().evicted()
                            + ", refused " + d.grpcConnections().refused() + ")");
                }
                ManagedChannel fourth = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
                channels.add(fourth);
                StatusRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                        () -> circuits(fourth));
                assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
                assertTrue(d.grpcConnections().refused() >= 1);
                assertEquals(0, d.grpcConnections().evicted(), "a connection with a call under way was closed");
                assertEquals(3, d.grpcConnections().openConnections());
            } finally {
                calls.forEach(c -> c.onError(Status.CANCELLED.asRuntimeException()));
                channels.forEach(ManagedChannel::shutdownNow);
            }
        }
    }

    @Test
    void aConnectionHoldsAtMostItsCallsPerConnectionUnderWayAndTheNextWaitsForOneToEnd() throws Exception {
        try (Daemon d = start(8, 0, 2)) {
            ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
            List<io.grpc.stub.StreamObserver<?>> calls = new ArrayList<>();
            try {
                assertEquals(0, circuits(ch));
                for (int i = 0; i < 2; i++) {
                    calls.add(callUnderWay(ch));
                }
                awaitCalls(d, 2);
                // a third call on the same connection waits at the client for a place
                var third = ProvingEngineGrpc.newFutureStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS)
                        .listCircuits(ListCircuitsRequest.getDefaultInstance());
                Thread.sleep(500);
                assertTrue(!third.isDone(), "a third call was answered while two were under way on its connection");
                assertEquals(2, d.grpcConnections().calls(), "calls under way on one connection, 2 allowed");
                assertEquals(1, d.grpcConnections().openConnections());
                // one ends: the third goes through
                calls.remove(0).onCompleted();
                assertEquals(0, third.get(30, TimeUnit.SECONDS).getCircuitsCount());
            } finally {
                calls.forEach(c -> c.onError(Status.CANCELLED.asRuntimeException()));
                ch.shutdownNow();
            }
        }
    }

    @Test
    void capsAreLoweredToFitTheFileDescriptorLimit() {
        List<String> said = new ArrayList<>();
        ConnectionCaps kept = ConnectionCaps.fit(100_000, 4096, 64, 4096, said::add);
        assertEquals(new ConnectionCaps(4096, 64, 4096), kept);
        assertTrue(said.isEmpty(), said.toString());
        ConnectionCaps fitted = ConnectionCaps.fit(1024, 4096, 64, 4096, said::add);
        assertTrue(fitted.grpc() + fitted.grpcReserve() + fitted.http() <= 1024 - ConnectionCaps.OWN_FILES, fitted.toString());
        assertTrue(fitted.grpc() >= 1 && fitted.http() >= 1, fitted.toString());
        assertEquals(1, said.size());
        assertTrue(said.get(0).contains("1024") && said.get(0).contains("limits.max_connections")
                && said.get(0).contains("http.max_connections"), said.get(0));
    }
}
