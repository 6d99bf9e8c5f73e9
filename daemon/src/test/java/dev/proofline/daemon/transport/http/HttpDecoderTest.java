package dev.proofline.daemon.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The HTTP side's decoding on an embedded channel, fed random and mutated requests (a seeded, bounded
 * run): whatever the bytes, the connection writes back only well-formed responses (status line,
 * Content-Length, that many bytes), none a 500, and the handlers raise nothing a client could not cause.
 */
class HttpDecoderTest {

    static final HttpRoutes ROUTES = new HttpRoutes("s3cret", new HttpRoutes.Sources() {
        @Override
        public String statusJson() {
            return "{\"jobs_active\":0}";
        }

        @Override
        public String timelineJson(int limit) {
            return "[]";
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
    });

    private static final List<String> SEEDS = List.of(
            "GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\n\r\n",
            "GET /status?token=s3cret HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics?token=s3cret HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /timeline?limit=5&token=s3cret HTTP/1.0\r\n\r\n",
            "POST /status HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\nContent-Length: 5\r\n\r\nhello",
            "GET /index.html HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n0\r\n\r\n",
            "GET /../etc/passwd?token=s3cret HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "GET /timeline?since=0123456789abcdef.7&limit=3&token=s3cret HTTP/1.1\r\nHost: x\r\n\r\n");

    /** A response head and its body: status, then Content-Length bytes. */
    private static final Pattern HEAD = Pattern.compile("HTTP/1\\.1 (\\d{3}) [^\r\n]*\r\n((?:[^\r\n]+\r\n)*)\r\n");
    private static final Pattern LENGTH = Pattern.compile("(?i)(?:^|\n)content-length: (\\d+)\r\n");

    /** What the handlers write back for {@code bytes} on one connection, and their fault count. */
    static String exchange(byte[] bytes, HttpPipeline pipeline) {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel c) {
                pipeline.init(c);
            }
        });
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(bytes));
            ch.runPendingTasks();
            StringBuilder out = new StringBuilder();
            for (Object o; (o = ch.readOutbound()) != null; ) {
                ByteBuf b = (ByteBuf) o;
                out.append(b.toString(StandardCharsets.ISO_8859_1));
                b.release();
            }
            return out.toString();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    /** Checks that {@code out} is a sequence of whole, well-formed responses; returns how many. */
    static int responses(String out) {
        int at = 0;
        int n = 0;
        while (at < out.length()) {
            Matcher m = HEAD.matcher(out).region(at, out.length());
            assertTrue(m.lookingAt(), "not a response head at " + at + ": " + out);
            int status = Integer.parseInt(m.group(1));
            assertTrue(status >= 200 && status < 600 && status != 500, "status " + status + ": " + out);
            Matcher len = LENGTH.matcher(m.group(2));
            assertTrue(len.find(), "no Content-Length: " + out);
            at = m.end() + Integer.parseInt(len.group(1));
            assertTrue(at <= out.length(), "body shorter than its Content-Length: " + out);
            n++;
        }
        return n;
    }

    @Test
    void anyBytesGetOnlyWellFormedAnswersAndNoHandlerFault() {
        HttpPipeline pipeline = new HttpPipeline(new StatusHttpServer.Limits(Duration.ofSeconds(10),
                Duration.ofSeconds(60), 4096, 16, 1024, 64), ROUTES, Runnable::run);
        Random random = new Random(20);
        int answered = 0;
        for (int i = 0; i < 10_000; i++) {
            byte[] b;
            if (i % 10 == 0) {
                b = new byte[random.nextInt(300)];
                random.nextBytes(b);
            } else {
                b = SEEDS.get(i % SEEDS.size()).getBytes(StandardCharsets.ISO_8859_1);
                for (int m = 0; m < 1 + random.nextInt(5); m++) {
                    int at = random.nextInt(b.length);
                    switch (random.nextInt(3)) {
                        case 0 -> b[at] = (byte) random.nextInt(256);
                        case 1 -> b = java.util.Arrays.copyOf(b, at); // cut short
                        default -> {
                            // a byte repeated: long lines and headers
                            byte[] longer = new byte[b.length + 2000];
                            System.arraycopy(b, 0, longer, 0, at);
                            java.util.Arrays.fill(longer, at, at + 2000, b[at]);
                            System.arraycopy(b, at, longer, at + 2000, b.length - at);
                            b = longer;
                        }
                    }
                    if (b.length == 0) {
                        break;
                    }
                }
            }
            answered += responses(exchange(b, pipeline)) > 0 ? 1 : 0;
        }
        assertEquals(0, pipeline.handlerFaults(), () -> "faults of the handlers, the first: "
                + stackTrace(pipeline.firstFault()));
        assertEquals(0, pipeline.openConnections(), "every connection counted out");
        assertTrue(answered > 2_500, "most inputs get an answer: " + answered);
        System.out.println("HTTP decoding: 10000 inputs, " + answered + " answered");
    }

    private static String stackTrace(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    @Test
    void theSeedsGetTheirAnswers() {
        HttpPipeline pipeline = new HttpPipeline(new StatusHttpServer.Limits(Duration.ofSeconds(10),
                Duration.ofSeconds(60), 4096, 16, 1024, 64), ROUTES, Runnable::run);
        String two = exchange(SEEDS.get(1).getBytes(StandardCharsets.ISO_8859_1), pipeline);
        assertEquals(2, responses(two), two);
        assertTrue(two.indexOf("jobs_active") < two.indexOf("proofline_up"), "in order: " + two);
        assertTrue(exchange(SEEDS.get(3).getBytes(StandardCharsets.ISO_8859_1), pipeline).startsWith("HTTP/1.1 405"));
        assertTrue(exchange(SEEDS.get(5).getBytes(StandardCharsets.ISO_8859_1), pipeline).startsWith("HTTP/1.1 404"));
    }
}
