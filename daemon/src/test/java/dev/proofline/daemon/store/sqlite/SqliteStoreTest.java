package dev.proofline.daemon.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.daemon.config.DaemonConfig;
import dev.proofline.daemon.store.ClusterStore.JobState;
import dev.proofline.daemon.store.ClusterStore.PartitionState;
import dev.proofline.daemon.store.ClusterStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The single daemon's SQLite job queue: the cluster store's contract, on a file, across reopening. */
class SqliteStoreTest {

    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final List<String> CIRCUITS = List.of("multiplier");
    private static final List<String> DIGESTS = List.of("d1");

    @TempDir
    Path dir;

    /** The store's clock: moved by the tests. */
    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);
    private ClusterStore store;

    private ClusterStore open() {
        store = SqliteStore.open(dir, now::get);
        return store;
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private static ClusterStore.NewPartition wtns(String text) {
        return new ClusterStore.NewPartition(ClusterStore.PartitionKind.WTNS, text.getBytes(StandardCharsets.UTF_8));
    }

    private ClusterStore.Submitted submit(String key, int partitions) {
        List<ClusterStore.NewPartition> ps = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            ps.add(wtns("witness " + p));
        }
        return store.queue().submit(key, "multiplier", "d1", 1, null, "local", ps);
    }

    private List<ClusterStore.Claim> claim(int limit) {
        return store.queue().claim("local", limit, LEASE, CIRCUITS, DIGESTS);
    }

    private boolean complete(ClusterStore.Claim c) {
        return store.queue().complete(c, "local", "{\"pi_a\":[]}", new byte[] {1, 2, 3}, List.of("33"), new double[6]);
    }

    @Test
    void aJobIsDoneWhenEveryPartitionHasItsProof() {
        open();
        ClusterStore.Submitted s = submit(null, 2);
        assertTrue(s.jobId().matches("job-1-[0-9a-f]{12}"), s.jobId());
        assertFalse(s.existing());
        List<ClusterStore.Claim> cs = claim(10);
        assertEquals(2, cs.size());
        assertArrayEquals("witness 0".getBytes(StandardCharsets.UTF_8), cs.get(0).payload());
        assertEquals(List.of(), claim(10), "claimed partitions are not claimed again");
        assertTrue(complete(cs.get(0)));
        assertEquals(JobState.RUNNING, store.views().job(s.jobId(), false).state());
        assertTrue(complete(cs.get(1)));
        ClusterStore.JobView v = store.views().job(s.jobId(), true);
        assertEquals(JobState.DONE, v.state());
        assertEquals(2, v.parts().size());
        assertEquals(List.of("33"), v.parts().get(1).publicSignals());
        assertArrayEquals(new byte[] {1, 2, 3}, v.parts().get(0).proofBinary());
        assertEquals("local", v.parts().get(0).node());
        assertEquals(Map.of("local", 2L), store.views().provedBy());
    }

    @Test
    void higherPriorityIsClaimedFirstThenOlder() {
        open();
        String low = store.queue().submit(null, "multiplier", "d1", 0, null, "local", List.of(wtns("a"))).jobId();
        String first = submit(null, 1).jobId();
        String high = store.queue().submit(null, "multiplier", "d1", 3, null, "local", List.of(wtns("b"))).jobId();
        String second = submit(null, 1).jobId();
        assertEquals(List.of(high, first, second, low), claim(10).stream().map(ClusterStore.Claim::jobId).toList());
    }

    @Test
    void aRepeatedIdempotencyKeyGetsTheFirstJobAlsoAfterReopening() {
        open();
        ClusterStore.Submitted a = submit("k-1", 1);
        ClusterStore.Submitted b = submit("k-1", 3);
        assertEquals(a.jobId(), b.jobId());
        assertTrue(b.existing());
        assertEquals(1, claim(10).size(), "the repeated submission added no partition");
        store.close();
        open();
        ClusterStore.Submitted c = submit("k-1", 1);
        assertEquals(a.jobId(), c.jobId());
        assertTrue(c.existing());
        assertTrue(submit("k-2", 1).jobId().startsWith("job-2-"), "job numbers go on from where they were");
    }

    @Test
    void aFailedPartitionFailsItsJobAndCancelsTheOthers() throws Exception {
        open();
        String id = submit(null, 3).jobId();
        List<ClusterStore.Claim> cs = claim(1);
        assertTrue(store.queue().fail(cs.get(0), "local", "the witness does not satisfy the circuit"));
        ClusterStore.JobView v = store.views().job(id, false);
        assertEquals(JobState.FAILED, v.state());
        assertTrue(v.error().contains("the witness does not satisfy the circuit"), v.error());
        assertEquals(List.of(PartitionState.FAILED, PartitionState.CANCELLED, PartitionState.CANCELLED), v.parts().stream()
                .map(ClusterStore.PartitionView::state).toList());
        assertEquals(List.of(), claim(10), "nothing of a failed job is claimed");
        // the dashboard's cluster panel says why: the reason is in the queue's JSON, by partition and job
        JsonNode recent = new ObjectMapper().readTree(store.views().clusterJson(30)).get("recent").get(0);
        assertEquals("the witness does not satisfy the circuit",
                recent.get("partitions").get(0).get("error").asText());
        assertTrue(recent.get("partitions").get(1).get("error").isNull(), recent.toString());
        assertTrue(recent.get("error").asText().contains("the witness does not satisfy the circuit"), recent.toString());
    }

    @Test
    void aCancelledJobsResultsAreDiscarded() {
        open();
        String id = submit(null, 2).jobId();
        ClusterStore.Claim c = claim(1).getFirst();
        assertEquals(JobState.CANCELLED, store.queue().cancel(id));
        assertEquals(JobState.CANCELLED, store.queue().cancel(id), "cancelling again says its state");
        assertFalse(complete(c), "a proof made for a cancelled job is discarded");
        assertEquals(List.of(), claim(10));
        assertNull(store.queue().cancel("job-99"));
        assertEquals(List.of(id, "job-99"), store.views().ended(List.of(id, "job-99")));
    }

    @Test
    void aResultUnderALeaseThatWasGivenBackIsDiscarded() {
        open();
        submit(null, 1);
        ClusterStore.Claim first = claim(1).getFirst();
        assertTrue(store.queue().release(first, "no room for its key", true));
        ClusterStore.Claim second = claim(1).getFirst();
        assertNotEquals(first.token(), second.token());
        assertEquals(2, second.claims());
        assertEquals(2, second.attempts(), "a give-back by a living node is an attempt");
        assertFalse(complete(first), "the old lease's result");
        assertTrue(complete(second));
    }

    @Test
    void partitionsBeingProvedWhenTheProcessStoppedAreRequeuedWhenItsNodeStartsAgain() {
        open();
        String id = submit(null, 3).jobId();
        List<ClusterStore.Claim> held = claim(2);
        assertTrue(complete(held.get(0)));
        store.close(); // the process dies holding held.get(1)
        open();
        assertEquals(List.of(PartitionState.DONE, PartitionState.CLAIMED, PartitionState.QUEUED), store.views().job(id, false).parts().stream()
                .map(ClusterStore.PartitionView::state).toList(), "as the process left them");
        assertEquals(1, store.membership().leave("local"), "the node starting again gives back what its previous life held");
        List<ClusterStore.Claim> again = claim(10);
        assertEquals(List.of(1, 2), again.stream().map(ClusterStore.Claim::partition).toList());
        assertEquals(2, again.getFirst().claims());
        assertArrayEquals("witness 1".getBytes(StandardCharsets.UTF_8), again.getFirst().payload(),
                "the witness was kept for the restart");
        assertFalse(complete(held.get(1)), "the previous life's lease is void");
        again.forEach(this::complete);
        assertEquals(JobState.DONE, store.views().job(id, false).state());
    }

    @Test
    void claimsThatEndedWithTheirNodeAreCountedApartFromAttempts() {
        open();
        String id = submit(null, 1).jobId();
        for (int death = 0; death < 10; death++) {
            claim(1);
            store.close(); // the process dies holding the claim
            open();
            assertEquals(1, store.membership().leave("local"), "its next life gives the claim back");
        }
        ClusterStore.Claim c = claim(1).getFirst();
        assertEquals(11, c.claims());
        assertEquals(10, c.interrupted());
        assertEquals(1, c.attempts(), "ten deaths of its node are not ten attempts");
        assertTrue(store.queue().release(c, "the node is stopping", false));
        ClusterStore.Claim stopped = claim(1).getFirst();
        assertEquals(11, stopped.interrupted(), "a give-back by a stopping node is an interruption");
        assertEquals(JobState.RUNNING, store.views().job(id, false).state());
    }

    @Test
    void listenersHearOfNewWorkAndOfEndedJobs() throws Exception {
        open();
        try (ClusterStore.Notices n = store.database().listen()) {
            String id = submit(null, 1).jobId();
            assertEquals(List.of(new ClusterStore.Notice(ClusterStore.WORK, id + " multiplier d1")),
                    n.poll(Duration.ofSeconds(1)));
            complete(claim(1).getFirst());
            assertEquals(List.of(new ClusterStore.Notice(ClusterStore.JOBS, id + " DONE")), n.poll(Duration.ofSeconds(1)));
            assertEquals(List.of(), n.poll(Duration.ofMillis(10)));
        }
    }

    @Test
    void theQueueAsJsonShowsNodesPartitionsAndRecentJobs() throws Exception {
        open();
        store.membership().heartbeat(new ClusterStore.NodeInfo("local", "127.0.0.1:1", "127.0.0.1:2", "cpu", Instant.now(), 2, 0, 0,
                0, 0, "multiplier"), LEASE);
        String id = submit(null, 2).jobId();
        complete(claim(1).getFirst());
        JsonNode j = new ObjectMapper().readTree(store.views().clusterJson(30));
        assertEquals("local", j.get("nodes").get(0).get("id").asText());
        assertFalse(j.get("nodes").get(0).get("stopped").asBoolean());
        assertEquals(1, j.get("partitions").get("DONE").asInt());
        assertEquals(1, j.get("partitions").get("QUEUED").asInt());
        assertEquals(id, j.get("recent").get(0).get("id").asText());
        assertEquals("DONE", j.get("recent").get(0).get("partitions").get(0).get("state").asText());
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
