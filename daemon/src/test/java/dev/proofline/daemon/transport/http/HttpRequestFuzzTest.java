package dev.proofline.daemon.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.Duration;

/**
 * A connection's HTTP handlers from any bytes: only well-formed responses, none a 500, and no fault of
 * the handlers themselves. Seeds: HttpRequestFuzzTestInputs/request (docs/reliability.md).
 */
class HttpRequestFuzzTest {

    private static final HttpPipeline PIPELINE = new HttpPipeline(new StatusHttpServer.Limits(Duration.ofSeconds(10),
            Duration.ofSeconds(60), 4096, 16, 1024, 64), HttpDecoderTest.ROUTES, Runnable::run);

    @FuzzTest
    void request(byte[] bytes) {
        HttpDecoderTest.responses(HttpDecoderTest.exchange(bytes, PIPELINE));
        assertEquals(0, PIPELINE.handlerFaults(), () -> "a fault of the handlers: " + PIPELINE.firstFault());
    }
}
