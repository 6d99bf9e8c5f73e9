package dev.proofline.daemon.cluster;

/**
 * How a {@link StoreNode} holds its place in the job store, on a thread of its own: a cluster member's
 * {@link Heartbeat} (its load for the others, its leases extended, the store's upkeep), or a single
 * daemon's {@link StoreUpkeep} (the upkeep alone).
 */
sealed interface Presence permits Heartbeat, StoreUpkeep {

    /** At start, before claiming: the claims the node's previous life held (it died) go back to the queue. */
    void rejoin();

    /** One round of the periodic task, now. */
    void beat();

    /** Runs the periodic task from now on. */
    void start();

    /** Runs it no more. */
    void stop();

    /** The node stops: the claims it still holds go back to the queue. */
    void leave();
}
