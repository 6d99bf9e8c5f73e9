package dev.proofline.daemon.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP side's bounds, against a server with fixed answers (no engine behind it). */
class StatusHttpServerTest {

    /** /status waits for it: a slow route. */
    private volatile CountDownLatch block = new CountDownLatch(0);
    private StatusHttpServer server;
    private final List<Socket> sockets = new ArrayList<>();

    private final HttpRoutes.Sources sources = new HttpRoutes.Sources() {
        @Override
        public String statusJson() {
            try {
                block.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "{\"ok\":true}";
        }

        @Override
        public String timelineJson(int limit) {
            return "[" + limit + "]";
        }

        @Override
        public String timelineSinceJson(String cursor, int limit) {
            return new TimelineFeed(new dev.proofline.engine.Timeline(16, null)).since(cursor, limit);
        }

        @Override
        public String metrics() {
            return "proofline_up 1\n";
        }

        @Override
        public boolean shuttingDown() {
            return false;
        }
    };

    private static StatusHttpServer.Limits limits(Duration header, Duration idle, int connections, int requests) {
        return new StatusHttpServer.Limits(header, idle, connections, requests, 4096, 1024);
    }

    private void start(StatusHttpServer.Limits limits, String token) throws InterruptedException {
        server = StatusHttpServer.start(new InetSocketAddress("127.0.0.1", 0), limits, new HttpRoutes(token, sources));
    }

    @AfterEach
    void close() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private Socket open() throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        sockets.add(s);
        return s;
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            b.headers(headers);
        }
        try (HttpClient c = HttpClient.newHttpClient()) {
            return c.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    /** Reads what the server sends until it closes the connection (or {@code limit} passes: then null). */
    private static String readUntilClosed(Socket s, Duration limit) throws IOException {
        s.setSoTimeout((int) limit.toMillis());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
            }
        } catch (java.net.SocketTimeoutException e) {
            return null;
        } catch (java.net.SocketException e) {
            // reset by the server: closed as well
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void healthAndStatusAnswerWhileAThousandHalfSentRequestsAreHeld() throws Exception {
        // the header timeout is long, so that every half-sent request is still held when health is asked
        start(limits(Duration.ofMinutes(5), Duration.ofMinutes(5), 4096, 16), "");
        for (int i = 0; i < 1000; i++) {
            Socket s = open();
            // half of them have started a request, the other half send nothing at all
            if (i % 2 == 0) {
                s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            }
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (server.openConnections() < 1000 && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertEquals(1000, server.openConnections(), "every held connection is open on the server");
        long t0 = System.nanoTime();
        HttpResponse<String> health = get("/healthz");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(200, health.statusCode());
        assertEquals("ok\n", health.body());
        System.out.println("GET /healthz with 1000 held connections: " + ms + " ms");
        // the goal is 1 s (docs/reliability.md has the figures); the bound leaves room for a busy machine, and
        // a server whose threads the held connections took would not answer at all
        assertTrue(ms < 3000, "health answered in " + ms + " ms with 1000 held connections");
        assertEquals(200, get("/status").statusCode());
        assertEquals(200, get("/metrics").statusCode());
        assertTrue(server.openConnections() >= 1000, "the held connections are still open: "
                + server.openConnections());
    }

    @Test
    void aRequestThatTricklesInIsClosedAtTheHeaderTimeout() throws Exception {
        start(limits(Duration.ofMillis(500), Duration.ofMinutes(5), 4096, 16), "");
        Socket s = open();
        OutputStream out = s.getOutputStream();
        long t0 = System.nanoTime();
        boolean closed = false;
        // one byte every 100 ms: an idle timeout alone would never fire
        for (int i = 0; i < 200 && !closed; i++) {
            try {
                out.write('G');
                out.flush();
            } catch (IOException e) {
                closed = true;
            }
            Thread.sleep(100);
        }
        if (!closed) {
            closed = readUntilClosed(s, Duration.ofSeconds(5)) != null;
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(closed, "the trickling connection was not closed");
        assertTrue(seconds < 15, "closed after " + seconds + " s with a header timeout of 0.5 s");
    }

    @Test
    void anIdleConnectionIsClosedAtTheIdleTimeout() throws Exception {
        start(limits(Duration.ofMinutes(5), Duration.ofMillis(300), 4096, 16), "");
        Socket s = open();
        assertEquals("", readUntilClosed(s, Duration.ofSeconds(10)), "closed without a byte sent");
    }

    @Test
    void aConnectionThatNeverSendsARequestIsClosedAtTheHeaderTimeout() throws Exception {
        start(limits(Duration.ofMillis(500), Duration.ofMinutes(5), 4096, 16), "");
        Socket s = open();
        long t0 = System.nanoTime();
        assertEquals("", readUntilClosed(s, Duration.ofSeconds(10)), "closed without a byte sent");
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 5, "closed after " + seconds + " s with a header timeout of 0.5 s");
        // a connection that served a request may idle longer than a request may take
        Socket served = open();
        served.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        served.getOutputStream().flush();
        assertEquals(null, readUntilClosed(served, Duration.ofSeconds(2)), "kept open within the idle timeout");
    }

    @Test
    void atTheLimitTheOldestConnectionWithNoAnswerUnderWayMakesRoomSoHealthAnswers() throws Exception {
        start(limits(Duration.ofMinutes(5), Duration.ofMinutes(5), 4, 16), "");
        // one at a time, each seen by the server before the next opens: connections are registered on
        // several event loops, so two opened back to back may be seen in either order
        for (int i = 0; i < 4; i++) {
            open();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (server.openConnections() < i + 1 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
        }
        // four silent connections hold every place (a client can keep them so by opening new ones as the
        // header timeout closes them): a probe still gets in, and the oldest silent one goes ("refused" before)
        assertEquals(200, get("/healthz").statusCode());
        assertEquals("", readUntilClosed(sockets.get(0), Duration.ofSeconds(10)), "the oldest silent connection");
        assertTrue(server.openConnections() <= 4, server.openConnections() + " open");
    }

    @Test
    void whenEveryConnectionHasAnAnswerUnderWayANewcomerIsClosedAtOnce() throws Exception {
        block = new CountDownLatch(1);
        start(limits(Duration.ofMinutes(5), Duration.ofMinutes(5), 2, 16), "");
        List<Socket> waiting = List.of(open(), open());
        for (Socket s : waiting) {
            s.getOutputStream().write("GET /status HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        Thread.sleep(300); // both requests in, both answers waiting
        Socket third = open();
        assertEquals("", readUntilClosed(third, Duration.ofSeconds(10)));
        block.countDown();
        for (Socket s : waiting) {
            s.setSoTimeout(10_000);
            byte[] b = new byte[12];
            assertEquals(12, s.getInputStream().readNBytes(b, 0, 12));
            assertEquals("HTTP/1.1 200", new String(b, StandardCharsets.US_ASCII), "an answer under way was kept");
        }
    }

    @Test
    void oversizeHeadersAndBodiesAreRefused() throws Exception {
        start(limits(Duration.ofMinutes(1), Duration.ofMinutes(1), 4096, 16), "");
        Socket s = open();
        s.getOutputStream().write(("GET /status HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(10_000) + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        String r = readUntilClosed(s, Duration.ofSeconds(10));
        assertTrue(r != null && r.startsWith("HTTP/1.1 431"), "got: " + r);
        Socket t = open();
        t.getOutputStream().write(("POST /status HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        // answered before the body is sent; what follows is discarded, within the header timeout
        t.setSoTimeout(10_000);
        assertEquals("HTTP/1.1 413", new String(t.getInputStream().readNBytes(12), StandardCharsets.US_ASCII));
        Socket u = open();
        u.getOutputStream().write("\u0001\u0002 garbage\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        r = readUntilClosed(u, Duration.ofSeconds(10));
        assertTrue(r != null && r.startsWith("HTTP/1.1 400"), "got: " + r);
    }

    @Test
    void requestsPastTheConcurrencyLimitGet503AndHealthStillAnswers() throws Exception {
        block = new CountDownLatch(1);
        start(limits(Duration.ofMinutes(1), Duration.ofMinutes(1), 4096, 2), "");
        List<Socket> stuck = List.of(open(), open());
        for (Socket s : stuck) {
            s.getOutputStream().write("GET /status HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        Thread.sleep(300);
        assertEquals(503, get("/status").statusCode());
        assertEquals(200, get("/healthz").statusCode());
        block.countDown();
        for (Socket s : stuck) {
            s.setSoTimeout(10_000);
            byte[] b = new byte[12];
            assertEquals(12, s.getInputStream().readNBytes(b, 0, 12));
            assertEquals("HTTP/1.1 200", new String(b, StandardCharsets.US_ASCII));
        }
        assertEquals(200, get("/status").statusCode(), "the permits came back");
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        start(limits(Duration.ofMinutes(1), Duration.ofMinutes(1), 4096, 16), "");
        Socket s = open();
        s.getOutputStream().write(("GET /timeline?limit=7 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        String r = readUntilClosed(s, Duration.ofSeconds(10));
        assertTrue(r != null && r.indexOf("[7]") >= 0 && r.indexOf("[7]") < r.indexOf("ok\n"), "got: " + r);
    }

    @Test
    void mutatedAndRandomRequestsGetAnAnswerOrAClosedConnectionAndTheServerServesOn() throws Exception {
        start(limits(Duration.ofSeconds(2), Duration.ofSeconds(2), 4096, 16), "s3cret");
        byte[] valid = ("GET /timeline?limit=5&token=s3cret HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\n"
                + "Content-Length: 3\r\n\r\nabc").getBytes(StandardCharsets.US_ASCII);
        java.util.Random random = new java.util.Random(11);
        for (int i = 0; i < 300; i++) {
            byte[] req = valid.clone();
            if (i % 3 == 0) {
                req = new byte[1 + random.nextInt(400)];
                random.nextBytes(req);
            } else {
                for (int m = 0; m < 1 + random.nextInt(6); m++) {
                    req[random.nextInt(req.length)] = (byte) random.nextInt(256);
                }
            }
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.getOutputStream().write(req);
                s.shutdownOutput();
                // an answer (a status line) or nothing, then the connection closes within the timeouts
                String r = readUntilClosed(s, Duration.ofSeconds(20));
                assertTrue(r != null, "request " + i + " left hanging");
                assertTrue(r.isEmpty() || r.matches("(?s)HTTP/1\\.1 [1-5]\\d\\d .*"), "request " + i + ": " + r);
            }
        }
        assertEquals(200, get("/healthz", "Authorization", "Bearer s3cret").statusCode());
    }

    @Test
    void theBearerTokenIsRequiredOnEveryRoute() throws Exception {
        start(limits(Duration.ofMinutes(1), Duration.ofMinutes(1), 4096, 16), "s3cret");
        for (String path : List.of("/healthz", "/status", "/metrics", "/", "/timeline")) {
            assertEquals(401, get(path).statusCode(), path);
        }
        assertEquals(200, get("/status", "Authorization", "Bearer s3cret").statusCode());
        assertEquals(200, get("/metrics?token=s3cret").statusCode());
        assertEquals(401, get("/metrics?token=wrong").statusCode());
    }

    @Test
    void aSubmissionHoldsItsCostInTheRequestsMemoryUntilItHasBeenAnswered() throws Exception {
        // a site whose job route waits for the test: the body arrived whole and is being decoded meanwhile
        CountDownLatch decoding = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        HttpSite site = new HttpSite() {
            @Override
            public boolean takesJob(String method, String target) {
                return target.equals("/job");
            }

            @Override
            public boolean isHealthCheck(String target) {
                return false;
            }

            @Override
            public HttpRoutes.Answer refusal(String target, int status, io.grpc.Status.Code code, String why) {
                return HttpRoutes.Answer.text(status, why + "\n");
            }

            @Override
            public java.util.concurrent.CompletableFuture<HttpRoutes.Answer> answerLater(String method, String target,
                    String authorization, byte[] body) {
                decoding.countDown();
                try {
                    finish.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return java.util.concurrent.CompletableFuture.completedFuture(HttpRoutes.Answer.text(200,
                        body.length + "\n"));
            }
        };
        dev.proofline.daemon.transport.RequestBudget budget = new dev.proofline.daemon.transport.RequestBudget(1 << 20);
        server = StatusHttpServer.start(new InetSocketAddress("127.0.0.1", 0), new StatusHttpServer.Limits(
                Duration.ofSeconds(10), Duration.ofSeconds(10), 16, 4, 4096, 1024, 256 << 10), site, budget);
        HttpClient client = HttpClient.newHttpClient();
        var answer = client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/job"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[50_000])).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(decoding.await(30, TimeUnit.SECONDS), "the route was called");
        // received whole, not yet answered: each byte at what its decoding costs
        assertEquals(50_000L * dev.proofline.daemon.transport.RequestBudget.HTTP_COPIES, budget.held());
        // a second submission that does not fit beside it is refused, as it arrives
        HttpResponse<String> refused = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/job")).POST(HttpRequest.BodyPublishers.ofByteArray(new byte[130_000])).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("engine.request_memory"), refused.body());
        finish.countDown();
        assertEquals(200, answer.get(30, TimeUnit.SECONDS).statusCode());
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (budget.held() > 0 && System.nanoTime() < giveUp) {
            Thread.sleep(5);
        }
        assertEquals(0, budget.held(), "given back once answered");
        // one that could never fit is too large, not busy
        HttpResponse<String> tooLarge = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/job")).POST(HttpRequest.BodyPublishers.ofByteArray(new byte[60_000 * 3])).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(413, tooLarge.statusCode(), tooLarge.body());
    }
}
