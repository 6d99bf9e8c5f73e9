package dev.proofline.daemon.cluster;

/**
 * What wakes a node's {@link ClaimLoop}: a permit given back, work announced, the job store reachable
 * again, requeued partitions, the node stopping. No wake is lost: one that comes while the loop is
 * claiming makes its next wait return at once.
 */
final class ClaimSignal {

    private final Object lock = new Object();
    private boolean woken;

    void wake() {
        synchronized (lock) {
            woken = true;
            lock.notifyAll();
        }
    }

    /** Waits up to {@code millis} unless woken since the last wait, and takes the wake. */
    void await(long millis) throws InterruptedException {
        synchronized (lock) {
            if (!woken) {
                lock.wait(millis);
            }
            woken = false;
        }
    }
}
