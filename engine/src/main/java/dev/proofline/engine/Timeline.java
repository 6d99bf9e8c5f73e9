package dev.proofline.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What happened to each partition, and when: events with millisecond offsets from the engine's
 * start, kept in a bounded ring buffer (the oldest are overwritten) and optionally handed to a sink
 * as one line each (a log). Thread-safe.
 */
public final class Timeline {

    /** The kinds of events, in the order a partition normally meets them. */
    public enum Kind { QUEUED, SYNTH_START, SYNTH_END, PROVER_QUEUE, PROVER_START, PROVER_END, FINALIZE_END, JOB_DONE, FAILED,
        CANCELLED }

    /** One event: offset from the start in ms, job, partition (-1 for job events), kind, free detail. */
    public record Event(long offsetMs, String job, int partition, Kind kind, String detail) {
        /** One line: "12.345 job-7/3 PROVER_START detail". */
        public String line() {
            return String.format(java.util.Locale.ROOT, "%d.%03d %s%s %s%s", offsetMs / 1000, offsetMs % 1000, job,
                    partition < 0 ? "" : "/" + partition, kind, detail == null || detail.isEmpty() ? "" : " " + detail);
        }
    }

    private final long startNanos;
    private final Event[] ring;
    private final Consumer<String> sink;
    private long written;

    /** A timeline keeping the last {@code capacity} events; {@code sink} (may be null) gets each as a line. */
    public Timeline(int capacity, Consumer<String> sink) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.startNanos = System.nanoTime();
        this.ring = new Event[capacity];
        this.sink = sink;
    }

    /** Records an event now. */
    public Event record(String job, int partition, Kind kind, String detail) {
        Event e = new Event((System.nanoTime() - startNanos) / 1_000_000, job, partition, kind, detail);
        synchronized (this) {
            ring[(int) (written % ring.length)] = e;
            written++;
        }
        if (sink != null) {
            sink.accept(e.line());
        }
        return e;
    }

    /** Events ever recorded (including those the ring no longer holds). */
    public synchronized long recorded() {
        return written;
    }

    /** The events the ring holds, oldest first. */
    public synchronized List<Event> snapshot() {
        int n = (int) Math.min(written, ring.length);
        List<Event> out = new ArrayList<>(n);
        for (long i = written - n; i < written; i++) {
            out.add(ring[(int) (i % ring.length)]);
        }
        return out;
    }

    /** The last {@code max} events the ring holds, oldest first. */
    public synchronized List<Event> last(int max) {
        int n = (int) Math.min(Math.min(written, ring.length), Math.max(0, max));
        List<Event> out = new ArrayList<>(n);
        for (long i = written - n; i < written; i++) {
            out.add(ring[(int) (i % ring.length)]);
        }
        return out;
    }

    /**
     * Events after a cursor: {@code events} oldest first, {@code next} the number to ask from next time,
     * {@code missed} how many events after the cursor are not in {@code events} (overwritten by the ring, or
     * older than the newest {@code max} asked for).
     */
    public record Page(List<Event> events, long next, long missed) {
    }

    /**
     * The events recorded from number {@code from} on (the first event ever recorded is number 0), oldest
     * first: the newest {@code max} of them when there are more, and only those the ring still holds. A
     * poller passes the previous page's {@code next} and so sees each event once.
     *
     * @throws IllegalArgumentException if {@code from} is negative or past {@link #recorded()}
     */
    public synchronized Page since(long from, int max) {
        if (from < 0 || from > written) {
            throw new IllegalArgumentException("event " + from + " is not in 0.." + written);
        }
        long first = Math.max(from, Math.max(written - ring.length, written - Math.max(0, max)));
        List<Event> out = new ArrayList<>((int) (written - first));
        for (long i = first; i < written; i++) {
            out.add(ring[(int) (i % ring.length)]);
        }
        return new Page(out, written, first - from);
    }

    /** The held events of one job, oldest first. */
    public List<Event> ofJob(String job) {
        List<Event> out = new ArrayList<>();
        for (Event e : snapshot()) {
            if (e.job().equals(job)) {
                out.add(e);
            }
        }
        return out;
    }
}
