package dev.proofline.daemon.cluster;

import dev.proofline.daemon.store.ClusterStore;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A single daemon's presence in its own store ({@link SingleNode}), on its thread {@code store-upkeep}:
 * it takes back the claims of a previous life at start, runs the store's upkeep every
 * {@code interval} (a job past its deadline ends and its waiters are answered; ended jobs are deleted
 * after their retention) and gives back what it still holds when it stops. It tells the store nothing
 * of itself: no other node reads it, and its claims have no lease to extend. A cluster member's
 * {@link Heartbeat} takes back claims and runs the upkeep through one of these too.
 */
final class StoreUpkeep implements Presence {

    private final ClusterStore store;
    private final String nodeId;
    private final Duration interval;
    private final Duration resultRetention;
    private final Duration fetchedRetention;
    private final StoreOutage outage;
    private final ClaimSignal signal;
    private final Consumer<String> log;
    private ScheduledExecutorService thread;

    StoreUpkeep(ClusterStore store, String nodeId, Duration interval, Duration resultRetention,
            Duration fetchedRetention, StoreOutage outage, ClaimSignal signal, Consumer<String> log) {
        this.store = store;
        this.nodeId = nodeId;
        this.interval = interval;
        this.resultRetention = resultRetention;
        this.fetchedRetention = fetchedRetention;
        this.outage = outage;
        this.signal = signal;
        this.log = log;
    }

    /** The claims a daemon that died (a crash, SIGKILL) left under its id go back to the queue, to be claimed again. */
    @Override
    public void rejoin() {
        try {
            int requeued = store.membership().leave(nodeId);
            if (requeued > 0) {
                log.accept("requeued " + requeued + " partition(s) this daemon was proving when it stopped");
            }
        } catch (RuntimeException e) {
            outage.noteDown(e);
        }
    }

    /** The store's upkeep: jobs past their deadline end, ended jobs past their retention go. */
    @Override
    public void beat() {
        try {
            if (store.upkeep().run(resultRetention, fetchedRetention) > 0) {
                signal.wake();
            }
            outage.noteUp();
        } catch (RuntimeException e) {
            outage.noteDown(e);
        }
    }

    @Override
    public synchronized void start() {
        thread = Executors.newSingleThreadScheduledExecutor(StoreNode.threads("store-upkeep"));
        thread.scheduleWithFixedDelay(this::beat, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }

    /** The claims still held go back to the queue for the next start. */
    @Override
    public void leave() {
        try {
            store.membership().leave(nodeId);
        } catch (RuntimeException e) {
            log.accept("store: giving claims back: " + e.getMessage() + " (the next start takes them back)");
        }
    }
}
