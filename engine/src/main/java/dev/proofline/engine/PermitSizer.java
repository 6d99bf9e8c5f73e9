package dev.proofline.engine;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Sizes the prover-queue permits under {@code permits = "auto"}: how many partitions may be between the
 * start of their synthesis and the end of their prover start, from what the stages measure.
 *
 * <p>The number a steady pipeline needs follows from Little's law: partitions in flight = throughput ×
 * the time a partition holds its permit while it is being worked on. Throughput is the slower stage's
 * capacity, X = min(synthesis threads / synthesis time, devices / prover time), so the permits that keep
 * the slower stage fed without a partition ever waiting are X × (synthesis + prover start + hand-offs).
 * The sizer starts at one permit per device plus one (one partition proving, one synthesizing), jumps to
 * that estimate, rounded down, from the fastest of the first three partitions, and from then on
 * corrects it by what happens, one permit at a time, once per window of proofs (twice the permits, at
 * least eight):
 * <ul>
 *   <li><b>grow</b> when, in two windows in a row, for more than 3% of each (a prover busy under 97%
 *       of it), partitions waited for a permit with every permit out while a synthesis thread was free
 *       and that cost throughput: synthesis is the slower stage (or within 10% of the prover), or the
 *       prover, the slower stage, sat idle too with nothing queued; and the budget has room for one more
 *       partition. A free thread beside a busy, slower prover never counts, so synthesis cannot run
 *       away from the prover, nor does an idle prover while every thread is busy. Never past one permit
 *       over Little's law: beyond it, starvation comes from the stages' variance, which more permits
 *       only turn into queues;</li>
 *   <li><b>shrink</b> when throughout the window at least one permit-holding partition waited (for a
 *       synthesis thread or for the prover): that permit bought memory and no throughput. A limit at
 *       which the pipeline starved is not returned to for 8 windows, so the size does not swing.</li>
 * </ul>
 *
 * <p>Timings are kept per circuit (a job spec's {@link JobSpec#label}) and per device for the status;
 * the sizing uses their average over the recent mix (one moving average over all partitions).
 */
final class PermitSizer {

    /** Weight of the newest sample in the moving averages. */
    private static final double ALPHA = 0.2;
    /** Windows after a starvation during which the limit stays above the size that starved. */
    private static final int HOLD_WINDOWS = 8;
    /** Partitions measured before the first estimate (the very first carry the JIT and the pool's first allocations). */
    private static final int ESTIMATE_AFTER = 3;
    /** Share of a window spent starved (see {@link #changed}) that makes the sizer grow. */
    private static final double STARVED = 0.03;
    /** The fewest proofs in a window: fewer, and one late wake-up of a thread reads as starvation. */
    private static final int MIN_WINDOW = 8;

    private final ProverPermits permits;
    private final LongSupplier clock;
    private final MemoryBudget budget;
    private final int synthesisThreads;
    private final int devices;
    private final int cap;
    private final IntSupplier waitingForPermit;
    private final IntSupplier waitingForProver;

    private final Ewma synthesis = new Ewma();
    private final Ewma prover = new Ewma();
    private final Ewma service = new Ewma();
    private final Ewma bytes = new Ewma();
    private final Map<String, Ewma[]> perCircuit = new TreeMap<>();
    private final Ewma[] perDevice;
    private final Object resizeOrder = new Object();
    /** The fastest synthesis, prover start and service so far (ms), for the first estimate. */
    private final double[] first = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};

    // the stages' occupancy, changed by their events
    private int synthesizing;
    private int waitingForThread;
    private int proving;

    // the window being measured
    private long lastTick;
    private long windowStart;
    private long starvedNanos;
    private boolean starvedNow;
    private int surplusNow;
    private int windowMinSurplus = Integer.MAX_VALUE;
    private int windowProofs;
    private boolean estimated;
    /** The limit the sizer set last (the permits follow it right after the sizer's lock is let go). */
    private int limit;
    private int starvedAtLimit;
    private int holdWindows;
    /** Windows in a row in which the slower stage starved: growth takes two (one may be a hiccup). */
    private int starvedWindows;
    private String reason;

    /**
     * Sizes {@code permits}, which the engine made with {@link #initial} permits. {@code waitingForPermit}:
     * queued partitions (each has asked for a permit); {@code waitingForProver}: synthesized partitions
     * on the prover queue.
     */
    PermitSizer(ProverPermits permits, MemoryBudget budget, int synthesisThreads, int devices, int cap,
            IntSupplier waitingForPermit, IntSupplier waitingForProver) {
        this(permits, budget, synthesisThreads, devices, cap, waitingForPermit, waitingForProver, System::nanoTime);
    }

    /** With a clock of its own (nanoseconds), for tests that play events in made-up time. */
    PermitSizer(ProverPermits permits, MemoryBudget budget, int synthesisThreads, int devices, int cap,
            IntSupplier waitingForPermit, IntSupplier waitingForProver, LongSupplier clock) {
        this.clock = clock;
        this.lastTick = clock.getAsLong();
        this.windowStart = lastTick;
        this.permits = permits;
        this.budget = budget;
        this.synthesisThreads = synthesisThreads;
        this.devices = devices;
        this.cap = cap;
        this.waitingForPermit = waitingForPermit;
        this.waitingForProver = waitingForProver;
        this.limit = permits.max();
        this.perDevice = new Ewma[devices];
        for (int d = 0; d < devices; d++) {
            perDevice[d] = new Ewma();
        }
        reason = limit + " to begin with (" + (devices == 1 ? "one partition" : "one per device") + " proving, one"
                + " synthesizing); sized from the times of the first " + ESTIMATE_AFTER + " proved partitions";
        permits.addReleaseListener(this::demandChanged);
    }

    /** The permits an engine starts with under {@code auto}: one proving per device, one synthesizing. */
    static int initial(int devices, int cap) {
        return Math.min(cap, devices + 1);
    }

    // ---- events from the stages (occupancy) ----

    /** A partition with a permit was handed to the synthesis pool. */
    synchronized void synthesisQueued() {
        tick();
        waitingForThread++;
        changed();
    }

    /** A partition handed to the synthesis pool never ran there (the pool was closing). */
    synchronized void synthesisDropped() {
        tick();
        waitingForThread--;
        changed();
    }

    /** A synthesis thread took a partition. */
    synchronized void synthesisStarted() {
        tick();
        waitingForThread--;
        synthesizing++;
        changed();
    }

    /** A synthesis thread is done with a partition, however it went. */
    synchronized void synthesisEnded() {
        tick();
        synthesizing--;
        changed();
    }

    /** A prover worker took a partition off the prover queue. */
    synchronized void proverTook() {
        tick();
        proving++;
        changed();
    }

    /** A prover worker is done with a partition, however it went. */
    synchronized void proverDone() {
        tick();
        proving--;
        changed();
    }

    /** The queue of partitions waiting for a permit, or the permits out, changed. */
    synchronized void demandChanged() {
        tick();
        changed();
    }

    /**
     * A partition left the prover stage, proved: {@code synthesisNanos} its synthesis thread's time on it
     * (lease, reservation, synthesis), {@code deviceNanos} its prover start, {@code serviceNanos} the time
     * it held its permit less its waits for a synthesis thread and for a prover, {@code reservedBytes} its
     * reservation. At the end of a window this may move the limit (outside the sizer's lock: the
     * permits then start waiting partitions on this thread).
     */
    void measured(String label, int device, long synthesisNanos, long deviceNanos, long serviceNanos,
            long reservedBytes) {
        int resizeTo;
        synchronized (this) {
            tick();
            synthesis.add(synthesisNanos / 1e6);
            first[0] = Math.min(first[0], synthesisNanos / 1e6);
            first[1] = Math.min(first[1], deviceNanos / 1e6);
            first[2] = Math.min(first[2], serviceNanos / 1e6);
            prover.add(deviceNanos / 1e6);
            service.add(serviceNanos / 1e6);
            bytes.add(reservedBytes);
            perDevice[device].add(deviceNanos / 1e6);
            Ewma[] c = circuit(label);
            c[0].add(synthesisNanos / 1e6);
            c[1].add(deviceNanos / 1e6);
            windowProofs++;
            resizeTo = decide();
            changed();
        }
        if (resizeTo > 0) {
            // in order: two windows closing on two threads must not leave the older limit in place
            synchronized (resizeOrder) {
                int latest;
                synchronized (this) {
                    latest = limit;
                }
                permits.resize(latest);
            }
        }
    }

    // ---- the sizing ----

    /** Accounts the time since the last event under the state that held during it. */
    private void tick() {
        long now = clock.getAsLong();
        long dt = now - lastTick;
        if (dt > 0) {
            if (starvedNow) {
                starvedNanos += dt;
            }
            windowMinSurplus = Math.min(windowMinSurplus, surplusNow);
        }
        lastTick = now;
    }

    /** Re-evaluates the state after an event. */
    private void changed() {
        int proverQueue = waitingForProver.getAsInt();
        // starved: partitions wait for a permit, every permit is out, a synthesis thread is free with
        // nothing handed to the pool (so a permit more would start a synthesis at once), and that idle
        // thread costs throughput: synthesis is the slower stage (or the stages are within 10% of each
        // other), or the prover, the slower stage, is idle too with nothing on its queue. A free thread
        // of a faster synthesis beside a busy prover never counts (so synthesis cannot run away from a
        // slower prover), nor does an idle prover while every thread is busy (more permits would only
        // queue for a thread).
        boolean starved = false;
        if (estimated && waitingForPermit.getAsInt() > 0 && permits.available() == 0
                && synthesizing + waitingForThread < synthesisThreads) {
            double slower = Math.min(synthesisCapacity(), proverCapacity());
            starved = synthesisCapacity() <= slower * 1.1
                    || (proverCapacity() <= slower * 1.1 && proving < devices && proverQueue == 0);
        }
        starvedNow = starved;
        surplusNow = waitingForThread + proverQueue;
    }

    private double synthesisCapacity() {
        return synthesisThreads / synthesis.value;
    }

    private double proverCapacity() {
        return devices / prover.value;
    }

    /** Little's law: the permits that keep the slower stage fed with nobody waiting. */
    private double littles() {
        return Math.min(synthesisCapacity(), proverCapacity()) * service.value;
    }

    /**
     * After a proof: at the first, the estimate; at the end of a window, a correction. Returns the new
     * limit, or 0 to keep it.
     */
    private int decide() {
        int before = limit;
        if (!estimated) {
            if (service.n < ESTIMATE_AFTER) {
                return 0;
            }
            estimated = true;
            // from the fastest of the first partitions: the first carry the JIT and the pool's first
            // allocations, and an estimate too high would cost memory for nothing (starvation corrects one
            // too low within a window)
            // and rounded down: a permit too many is memory held for nothing (and a peak that stays), one
            // too few a window of starvation, after which the sizer grows by one
            double fastest = Math.min(synthesisThreads / first[0], devices / first[1]) * first[2];
            int target = Math.max(1, Math.min(cap, (int) Math.floor(fastest)));
            if (target > limit && roomFor(target - limit)) {
                limit = target;
                reason = "estimated " + target + " from the first partitions: " + measured();
            } else {
                reason = String.format(Locale.ROOT, "kept %d: the first partitions ask for %d%s; %s", limit, target,
                        target > limit ? " and the memory budget has no room for more" : "", measured());
            }
            resetWindow();
            return limit != before ? limit : 0;
        }
        if (windowProofs < Math.max(MIN_WINDOW, 2 * limit)) {
            return 0;
        }
        long window = Math.max(1, lastTick - windowStart);
        double starvedShare = (double) starvedNanos / window;
        if (holdWindows > 0) {
            holdWindows--;
        }
        starvedWindows = starvedShare > STARVED ? starvedWindows + 1 : 0;
        // never past one permit over Little's law: beyond it the stages are both full on average, and what
        // starvation is left comes from their variance (a balanced pair in lockstep), which more
        // permits only turn into queues
        int ceiling = Math.min(cap, (int) Math.ceil(littles()) + 1);
        if (starvedWindows >= 2 && limit < ceiling && roomFor(1)) {
            starvedWindows = 0;
            starvedAtLimit = limit;
            holdWindows = HOLD_WINDOWS;
            limit++;
            reason = String.format(Locale.ROOT, "grew to %d: a synthesis thread was free, the %s starved, %.1f%% of the"
                    + " last %d proofs (and of the window before) while partitions waited for a permit; %s", limit,
                    slower(), 100 * starvedShare, windowProofs, measured());
        } else if (windowMinSurplus >= 1 && windowMinSurplus != Integer.MAX_VALUE && limit > 1
                && !(holdWindows > 0 && limit - 1 <= starvedAtLimit)) {
            limit--;
            reason = String.format(Locale.ROOT, "shrank to %d: a partition with a permit waited throughout the last"
                    + " %d proofs; %s", limit, windowProofs, measured());
        } else {
            reason = String.format(Locale.ROOT, "kept %d after the last %d proofs: starved %.1f%% of the time (it grows"
                    + " after two windows over %.0f%%, shrinks when a partition with a permit waits throughout); %s",
                    limit, windowProofs, 100 * starvedShare, 100 * STARVED, measured());
        }
        resetWindow();
        return limit != before ? limit : 0;
    }

    private void resetWindow() {
        windowStart = lastTick;
        starvedNanos = 0;
        windowMinSurplus = Integer.MAX_VALUE;
        windowProofs = 0;
    }

    /** Whether the budget has room for {@code more} partitions of the usual size beside what it holds now. */
    private boolean roomFor(int more) {
        return budget.total() - budget.reserved() >= more * bytes.value;
    }

    private String slower() {
        double s = synthesisCapacity();
        double p = proverCapacity();
        return p <= s * 1.1 && s <= p * 1.1 ? "prover or synthesis (balanced)" : p < s ? "prover (the slower stage)"
                : "synthesis (the slower stage)";
    }

    private String measured() {
        return String.format(Locale.ROOT, "synthesis %.1f ms on %d thread%s, prover %.1f ms on %d device%s, a permit"
                + " held %.1f ms of work: Little's law %.2f", synthesis.value, synthesisThreads,
                synthesisThreads == 1 ? "" : "s", prover.value, devices, devices == 1 ? "" : "s", service.value,
                littles());
    }

    private Ewma[] circuit(String label) {
        return perCircuit.computeIfAbsent(label, k -> new Ewma[] {new Ewma(), new Ewma()});
    }

    synchronized PermitSizing snapshot() {
        Map<String, PermitSizing.CircuitTimes> circuits = new TreeMap<>();
        perCircuit.forEach((k, v) -> circuits.put(k, new PermitSizing.CircuitTimes(v[0].value, v[1].value)));
        java.util.List<Double> dev = new java.util.ArrayList<>();
        for (Ewma d : perDevice) {
            dev.add(d.value);
        }
        return new PermitSizing("auto", limit, reason, synthesis.value, prover.value, service.value,
                estimated ? littles() : Double.NaN, circuits, dev);
    }

    /** An exponentially weighted moving average; the first sample is taken as it is. */
    private static final class Ewma {
        double value = Double.NaN;
        long n;

        void add(double x) {
            value = n++ == 0 ? x : value + ALPHA * (x - value);
        }
    }
}
