package dev.proofline.daemon.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.daemon.Daemon;
import dev.proofline.daemon.DaemonToml;
import dev.proofline.daemon.config.DaemonConfig;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Junk on the gRPC port, and a message over the limit: the connection (or call) is refused, nothing with
 * a stack trace is logged, the daemon serves on.
 */
class GrpcJunkTest {

    /** A message's bytes as they are. */
    private static final io.grpc.MethodDescriptor.Marshaller<byte[]> BYTES = new io.grpc.MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new java.io.ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    };

    @TempDir
    Path tmp;

    @Test
    void junkBytesOnTheGrpcPortLogNoStackTrace() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(Level.ALL);
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        Files.createDirectories(tmp.resolve("keys"));
        DaemonConfig cfg = DaemonToml.inMemory(tmp.resolve("keys")).set("engine.budget", "256MiB")
                .set("limits.max_message_bytes", "1MiB").parse("t.toml");
        try (Daemon d = Daemon.start(cfg, l -> { })) {
            int port = Integer.parseInt(d.grpcAddress().substring(d.grpcAddress().lastIndexOf(':') + 1));
            Random random = new Random(7);
            for (int i = 0; i < 12; i++) {
                byte[] junk = switch (i % 4) {
                    case 0 -> "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                    case 1 -> "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\u0000\u0000\u0004\u0001garbage".getBytes(StandardCharsets.ISO_8859_1);
                    case 2 -> {
                        byte[] b = new byte[4096];
                        random.nextBytes(b);
                        yield b;
                    }
                    default -> new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03};
                };
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.setSoTimeout(10_000);
                    OutputStream out = s.getOutputStream();
                    out.write(junk);
                    out.flush();
                    InputStream in = s.getInputStream();
                    try {
                        while (in.read() >= 0) {
                            // until the server drops the connection
                        }
                    } catch (java.net.SocketException e) {
                        // reset: dropped as well
                    }
                }
            }
            ManagedChannel ch = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
            try {
                // a message over the limit: the client gets its status, the log no stack trace
                io.grpc.StatusRuntimeException big = org.junit.jupiter.api.Assertions.assertThrows(
                        io.grpc.StatusRuntimeException.class, () -> ProvingEngineGrpc.newBlockingStub(ch)
                                .submitProof(dev.proofline.api.v1.SubmitProofRequest.newBuilder().setCircuitId("x")
                                        .addPartitions(dev.proofline.api.v1.Partition.newBuilder().setWtns(
                                                com.google.protobuf.ByteString.copyFrom(new byte[2 << 20]))).build()));
                assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, big.getStatus().getCode());
                // bytes that are not a SubmitProofRequest (a field whose length runs past the end), in a
                // well-formed gRPC call: INVALID_ARGUMENT in one line, no stack trace in the log
                io.grpc.MethodDescriptor<byte[], byte[]> raw = ProvingEngineGrpc.getSubmitProofMethod().toBuilder(
                        BYTES, BYTES).build();
                for (int i = 0; i < 3; i++) {
                    io.grpc.StatusRuntimeException malformed = org.junit.jupiter.api.Assertions.assertThrows(
                            io.grpc.StatusRuntimeException.class, () -> io.grpc.stub.ClientCalls.blockingUnaryCall(ch, raw,
                                    io.grpc.CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS),
                                    new byte[] {0x0a, (byte) 0xff, (byte) 0xff, 0x7f, 1, 2}));
                    assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, malformed.getStatus().getCode(),
                            malformed.getStatus().toString());
                    assertTrue(malformed.getStatus().getDescription().startsWith("the request is not a SubmitProof message"),
                            malformed.getStatus().getDescription());
                }
                assertEquals(0, ProvingEngineGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS)
                        .listCircuits(ListCircuitsRequest.getDefaultInstance()).getCircuitsCount(), "still serving");
            } finally {
                ch.shutdownNow();
            }
            Thread.sleep(500);
        } finally {
            root.removeHandler(capture);
        }
        List<String> traces = records.stream().filter(r -> r.getThrown() != null
                && r.getLevel().intValue() >= Level.INFO.intValue())
                .map(r -> r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage() + " " + r.getThrown())
                .toList();
        assertTrue(traces.isEmpty(), "logged with a stack trace: " + traces);
    }
}
