package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proofline.api.DaemonException;
import dev.proofline.api.ProoflineClient;
import dev.proofline.api.v1.ListCircuitsRequest;
import dev.proofline.api.v1.ProvingEngineGrpc;
import dev.proofline.daemon.config.DaemonConfig;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gRPC over TLS with a certificate and key from the config (made here with openssl). */
class DaemonTlsTest {

    @TempDir
    Path tmp;

    @Test
    void aDaemonWithACertificateServesTlsOnly() throws Exception {
        Path cert = tmp.resolve("cert.pem");
        Path key = tmp.resolve("key.pem");
        Process p;
        try {
            p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    key.toString(), "-out", cert.toString(), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1").redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            Assumptions.abort("openssl is not available to make a test certificate: " + e.getMessage());
            return;
        }
        String out = new String(p.getInputStream().readAllBytes());
        Assumptions.assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "openssl failed: " + out);
        DaemonConfig cfg = DaemonToml.inMemory(tmp.resolve("keys")).set("server.tls_cert", cert)
                .set("server.tls_key", key).parse("tls.toml");
        try (Daemon d = Daemon.start(cfg, l -> { })) {
            ManagedChannel tls = NettyChannelBuilder.forTarget(d.grpcAddress())
                    .sslContext(GrpcSslContexts.forClient().trustManager(cert.toFile()).build()).build();
            ManagedChannel plain = NettyChannelBuilder.forTarget(d.grpcAddress()).usePlaintext().build();
            try {
                assertEquals(0, ProvingEngineGrpc.newBlockingStub(tls).withDeadlineAfter(30, TimeUnit.SECONDS)
                        .listCircuits(ListCircuitsRequest.getDefaultInstance()).getCircuitsCount());
                assertThrows(StatusRuntimeException.class, () -> ProvingEngineGrpc.newBlockingStub(plain)
                        .withDeadlineAfter(10, TimeUnit.SECONDS).listCircuits(ListCircuitsRequest.getDefaultInstance()),
                        "plaintext is refused");
            } finally {
                tls.shutdownNow();
                plain.shutdownNow();
            }
            // the Java client, as `proofline status --ca cert.pem` uses it
            try (ProoflineClient client = ProoflineClient.connect(d.grpcAddress()).trust(cert).build();
                    ProoflineClient plaintext = ProoflineClient.connect(d.grpcAddress()).build()) {
                assertEquals(List.of(), client.circuits());
                assertEquals(Status.Code.UNAVAILABLE, assertThrows(DaemonException.class, plaintext::circuits).code());
            }
        }
    }
}
