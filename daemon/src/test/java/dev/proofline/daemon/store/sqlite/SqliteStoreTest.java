package dev.proofline.daemon.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.ClusterStore.JobState;
import dev.proofline.daemon.store.ClusterStore.PartitionState;
import dev.proofline.daemon.store.StoreContract;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single daemon's SQLite job queue: the store's contract ({@link StoreContract}) on a file, across
 * reopening, and what only the file does: its clock (moved by the tests), refusals by its one node,
 * job numbers after a loss, one process at a time.
 */
class SqliteStoreTest extends StoreContract {

    @TempDir
    Path dir;

    /** The store's clock: moved by the tests. */
    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);

    @Override
    protected ClusterStore openStore() {
        return SqliteStore.open(dir, now::get);
    }

    @Override
    protected void elapse(Duration d) {
        now.addAndGet(d.toMillis());
    }

    @Test
    void jobNumbersCountTheFilesJobsInOrderAcrossReopening() {
        open();
        assertTrue(submit("k-1", 1).jobId().startsWith("job-1-"));
        assertTrue(submit("k-1", 1).existing(), "a repeated key takes no number");
        store.close();
        open();
        assertTrue(submit("k-2", 1).jobId().startsWith("job-2-"), "job numbers go on from where they were");
    }

    @Test
    void jobsPastTheirDeadlineEndAndEndedJobsArePrunedAfterTheirRetention() {
        open();
        String late = store.queue().submit(null, "multiplier", "d1", 1, Duration.ofMillis(100), "local",
                List.of(wtns("x"))).jobId();
        String done = submit(null, 1).jobId();
        String fetched = submit(null, 1).jobId();
        claim(10).stream().filter(c -> !c.jobId().equals(late)).forEach(this::complete);
        assertEquals(JobState.DONE, store.views().job(fetched, true).state());
        now.addAndGet(200);
        assertEquals(JobState.DEADLINE_EXCEEDED, store.views().job(late, false).state(), "at once, before the upkeep");
        store.upkeep().run(Duration.ofHours(1), Duration.ofMinutes(1));
        assertEquals(PartitionState.CANCELLED, store.views().job(late, false).parts().getFirst().state());
        now.addAndGet(Duration.ofMinutes(2).toMillis());
        store.upkeep().run(Duration.ofHours(1), Duration.ofMinutes(1));
        assertNull(store.views().job(fetched, false), "a fetched result is kept fetched_retention");
        assertEquals(JobState.DONE, store.views().job(done, false).state(), "an unfetched one result_retention");
        now.addAndGet(Duration.ofHours(1).toMillis());
        store.upkeep().run(Duration.ofHours(1), Duration.ofMinutes(1));
        assertNull(store.views().job(done, false));
        assertNull(store.views().job(late, false));
        assertEquals(Map.of(), SqliteStore.partitionStates(store), "partitions go with their jobs");
    }

    @Test
    void anExpiredLeaseGoesBackToTheQueue() {
        open();
        submit(null, 1);
        ClusterStore.Claim c = claim(1).getFirst();
        now.addAndGet(LEASE.toMillis() + 1);
        assertEquals(1, store.upkeep().run(Duration.ofHours(1), Duration.ofMinutes(1)));
        assertFalse(complete(c));
        ClusterStore.Claim again = claim(1).getFirst();
        assertEquals(1, again.interrupted(), "the expired claim ended with its node, not for the partition's sake");
        assertEquals(1, again.attempts());
    }

    @Test
    void theHeartbeatExtendsTheNodesLeases() {
        open();
        submit(null, 2);
        List<ClusterStore.Claim> cs = claim(2);
        var info = new ClusterStore.NodeInfo("local", "127.0.0.1:1", "127.0.0.1:2", "cpu", Instant.now(), 2, 2, 2, 0,
                0.5, "multiplier");
        assertEquals(java.util.Set.of(cs.get(0).token(), cs.get(1).token()), store.membership().heartbeat(info, LEASE));
        now.addAndGet(LEASE.toMillis() - 1);
        store.membership().heartbeat(info, LEASE);
        now.addAndGet(LEASE.toMillis() - 1);
        assertEquals(0, store.upkeep().run(Duration.ofHours(1), Duration.ofMinutes(1)), "extended, not expired");
    }

    @Test
    void jobsOfAKeyThatChangedOrWentAwayFail() {
        open();
        String mul = submit(null, 1).jobId();
        String gone = store.queue().submit(null, "poseidon", "p1", 1, null, "local", List.of(wtns("x"))).jobId();
        assertEquals(0, store.membership().refuse("local", List.of("multiplier", "poseidon"), List.of("d1", "p1")));
        assertEquals(2, store.membership().refuse("local", List.of("multiplier"), List.of("d2")));
        assertTrue(store.views().job(mul, false).error().contains("changed since the job was submitted"));
        assertTrue(store.views().job(gone, false).error().contains("no longer in the keys directory"));
        assertEquals(JobState.FAILED, store.views().job(gone, false).state());
    }

    @Test
    void anIdIsNeverIssuedTwiceWhenTheStoreLosesItsLatestJobs() throws Exception {
        open();
        String kept = submit(null, 1).jobId();
        store.close();
        // the file as it was then: what a damaged log or a restored copy leaves
        Path copy = dir.resolve("queue.db.copy");
        java.nio.file.Files.copy(dir.resolve("queue.db"), copy);
        open();
        String lost = submit(null, 1).jobId();
        store.close();
        java.nio.file.Files.copy(copy, dir.resolve("queue.db"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        open();
        String next = submit(null, 1).jobId();
        assertNotEquals(lost, next, "a client awaiting the lost job must not be given the new one");
        assertTrue(next.startsWith("job-2-") && lost.startsWith("job-2-"), "the count started again: " + lost + ", " + next);
        assertNull(store.views().job(lost, false), "the lost job is gone, not another's");
        store.close();
        // an empty store in its place: the count starts from 1
        java.nio.file.Files.delete(dir.resolve("queue.db"));
        open();
        String fresh = submit(null, 1).jobId();
        assertTrue(fresh.startsWith("job-1-"), fresh);
        assertNotEquals(kept, fresh);
    }

    @Test
    void aSecondStoreOnTheSameDirectoryIsRefused() {
        open();
        var e = assertThrows(DaemonConfig.ConfigException.class, () -> SqliteStore.open(dir, now::get));
        assertTrue(e.getMessage().contains("in use by another daemon"), e.getMessage());
    }
}
