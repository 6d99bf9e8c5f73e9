package dev.proofline.daemon.cluster;

import dev.proofline.daemon.jobs.JobState;
import dev.proofline.daemon.store.ClusterStore;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A node's ear on the job store's announcements ({@code LISTEN} in PostgreSQL), on its thread
 * {@code cluster-listen}: work announced wakes the claim loop, and work for one of its circuits under
 * another key is refused; a job that ended completes its waiters and stops its claims here. When the
 * store has been quiet for {@code fallback_poll}, and after a lost connection, it does what an
 * announcement lost meanwhile would have done.
 */
final class NoticeListener {

    private final ClusterStore store;
    private final Duration fallbackPoll;
    private final String nodeId;
    private final KeyDigests keys;
    private final HeldClaims claims;
    private final JobWaiters waiters;
    private final StoreOutage outage;
    private final ClaimSignal signal;
    private final Consumer<String> log;
    private volatile boolean stopping;
    private volatile ClusterStore.Notices notices;
    private Thread thread;

    NoticeListener(ClusterStore store, Duration fallbackPoll, String nodeId, KeyDigests keys,
            HeldClaims claims, JobWaiters waiters, StoreOutage outage, ClaimSignal signal, Consumer<String> log) {
        this.store = store;
        this.fallbackPoll = fallbackPoll;
        this.nodeId = nodeId;
        this.keys = keys;
        this.claims = claims;
        this.waiters = waiters;
        this.outage = outage;
        this.signal = signal;
        this.log = log;
    }

    void start() {
        thread = Thread.ofPlatform().name("cluster-listen").daemon().start(this::listen);
    }

    /** Records this node's refusal of the running jobs submitted against another key than its own. */
    void refuseMismatches() {
        try {
            int n = store.membership().refuse(nodeId, keys.circuits(), keys.digests());
            if (n > 0) {
                log.accept("refused " + n + " job(s) submitted against a key that differs from this node's");
            }
        } catch (RuntimeException e) {
            outage.noteDown(e);
        }
    }

    private void listen() {
        while (!stopping) {
            try (ClusterStore.Notices ns = store.database().listen()) {
                notices = ns;
                // notifications may have been lost while not listening
                signal.wake();
                recheckWaiters();
                while (!stopping) {
                    List<ClusterStore.Notice> got = ns.poll(fallbackPoll);
                    if (got.isEmpty()) {
                        // quiet for a while: the slow fallback for lost notifications
                        signal.wake();
                        recheckWaiters();
                        refuseMismatches();
                        continue;
                    }
                    boolean work = false;
                    for (ClusterStore.Notice n : got) {
                        String[] f = n.payload().split(" ");
                        if (n.channel().equals(ClusterStore.WORK)) {
                            work = true;
                            if (f.length == 3 && keys.differs(f[1], f[2])) {
                                refuseMismatches();
                            }
                        } else if (f.length == 2) {
                            jobEnded(f[0], f[1]);
                        }
                    }
                    if (work) {
                        signal.wake();
                    }
                }
            } catch (Exception e) {
                if (stopping) {
                    return;
                }
                outage.noteDown(new ClusterStore.UnavailableException("the job store is unavailable (listening): "
                        + e.getMessage(), e));
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    return;
                }
            } finally {
                notices = null;
            }
        }
    }

    private void jobEnded(String jobId, String state) {
        waiters.ended(jobId);
        if (!JobState.DONE.name().equals(state)) {
            claims.abandonJob(jobId);
        }
    }

    /** The waited-for jobs that ended without an announcement heard here. */
    private void recheckWaiters() {
        if (waiters.isEmpty()) {
            return;
        }
        try {
            for (String id : store.views().ended(waiters.jobs())) {
                jobEnded(id, "?");
            }
        } catch (RuntimeException e) {
            outage.noteDown(e);
        }
    }

    /** The node is stopping: the listener ends with its next wake. */
    void stopping() {
        stopping = true;
    }

    /** Wakes the listener from its poll (closing its subscription) so that it ends. */
    void stop() {
        ClusterStore.Notices n = notices;
        if (n != null) {
            n.close(); // wakes the listener from its poll (PostgreSQL); it then sees it is stopping
        }
        thread.interrupt();
    }
}
