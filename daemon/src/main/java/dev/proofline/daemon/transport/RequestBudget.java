package dev.proofline.daemon.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory of requests being received and decoded, on both ports, against one bound
 * ({@code engine.request_memory}, a part of the daemon's memory budget): an HTTP submission's body and a
 * gRPC call's messages each take, as their bytes arrive (never by what a request announces), what those
 * bytes cost until the request has been decoded and handed on: each byte received is charged the copies
 * its path makes of it at its peak ({@link #UNARY_COPIES}, {@link #STREAMED_COPIES}, {@link #HTTP_COPIES}).
 * A request whose next bytes find no room is refused (503 on HTTP, RESOURCE_EXHAUSTED on gRPC), and
 * the others go on.
 */
public final class RequestBudget {

    /**
     * A gRPC message's bytes, each: the transport's buffers, the parsed message, the witness's values, and
     * the heap's room for them (the peak RSS a 60 MB message adds, rounded up: docs/reliability.md).
     */
    public static final int UNARY_COPIES = 5;

    /** A streamed submission's bytes, each: the chunks, joined once, and the witness's values. */
    public static final int STREAMED_COPIES = 3;

    /**
     * An HTTP submission's bytes (base64 in JSON), each: the connection's buffers, the body, the witness
     * decoded from it as it is parsed, and the witness's values; charged at twice what one submission
     * costs, as a flood of them measured at its peak (docs/reliability.md, "Request memory").
     */
    public static final int HTTP_COPIES = 8;

    private final long bound;
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();

    public RequestBudget(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("a request budget of " + bound + " bytes");
        }
        this.bound = bound;
    }

    /** Takes {@code n} bytes if they fit; false (and nothing taken) if they do not. */
    public boolean tryTake(long n) {
        if (held.addAndGet(n) > bound) {
            held.addAndGet(-n);
            refusals.incrementAndGet();
            return false;
        }
        return true;
    }

    /** Gives back {@code n} bytes taken before. */
    public void giveBack(long n) {
        held.addAndGet(-n);
    }

    /** Bytes held now by requests being received. */
    public long held() {
        return held.get();
    }

    public long bound() {
        return bound;
    }

    /** Requests refused so far for want of room. */
    long refusals() {
        return refusals.get();
    }
}
