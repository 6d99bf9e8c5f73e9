package dev.proofline.daemon.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of requests being received, on both ports, against one bound: an HTTP submission's body
 * and a gRPC call's messages each take what has arrived, as it arrives (never what a request announces),
 * and give it back once the request has been handed on or has ended. A request whose next bytes find
 * no room is refused (503 on HTTP, RESOURCE_EXHAUSTED on gRPC), and the others go on.
 */
public final class RequestBudget {

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
