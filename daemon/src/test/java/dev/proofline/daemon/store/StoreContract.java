package dev.proofline.daemon.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.daemon.jobs.StatusJson;
import dev.proofline.daemon.store.ClusterStore.JobState;
import dev.proofline.daemon.store.ClusterStore.PartitionState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The job store's contract ({@link ClusterStore}), the same for both kinds: each kind's test extends this
 * class and says how to open its store ({@code SqliteStoreTest} on a file, {@code PostgresStoreTest} on a
 * database of a private server), so every test here runs against SQLite and PostgreSQL alike. What only
 * one kind does (SQLite's clock, its file; a cluster's refusals) is tested beside it.
 */
public abstract class StoreContract {

    protected static final Duration LEASE = Duration.ofMinutes(1);
    protected static final List<String> CIRCUITS = List.of("multiplier");
    protected static final List<String> DIGESTS = List.of("d1");

    protected ClusterStore store;

    /** Opens the store under test: the same one again after a close, as a restarted process finds it. */
    protected abstract ClusterStore openStore();

    /** Lets {@code d} pass on the store's clock: the server's by waiting, or a clock of the test's own moved. */
    protected void elapse(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
    }

    protected ClusterStore open() {
        store = openStore();
        return store;
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    protected static ClusterStore.NewPartition wtns(String text) {
        return new ClusterStore.NewPartition(ClusterStore.PartitionKind.WTNS, text.getBytes(StandardCharsets.UTF_8));
    }

    protected ClusterStore.Submitted submit(String key, int partitions) {
        List<ClusterStore.NewPartition> ps = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            ps.add(wtns("witness " + p));
        }
        return store.queue().submit(key, "multiplier", "d1", 1, null, "local", ps);
    }

    protected List<ClusterStore.Claim> claim(int limit) {
        return store.queue().claim("local", limit, LEASE, CIRCUITS, DIGESTS);
    }

    protected boolean complete(ClusterStore.Claim c) {
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
        ClusterStore.Submitted d = submit("k-2", 1);
        assertFalse(d.existing());
        assertTrue(number(d.jobId()) > number(a.jobId()), "job numbers go on from where they were: " + d.jobId());
    }

    /** The number in a job id, {@code job-<number>-<random>}. */
    protected static long number(String jobId) {
        return Long.parseLong(jobId.split("-")[1]);
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
        JsonNode recent = new ObjectMapper().readTree(StatusJson.cluster(store.views().status(30))).get("recent").get(0);
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
    void aClaimWithoutALeaseNeverExpiresAndGoesBackWhenItsNodeStartsAgain() throws Exception {
        open();
        String id = submit(null, 2).jobId();
        ClusterStore.Claim held = store.queue().claim("local", 1, null, CIRCUITS, DIGESTS).getFirst();
        ClusterStore.Claim leased = store.queue().claim("local", 1, Duration.ofMillis(1), CIRCUITS, DIGESTS).getFirst();
        assertEquals(List.of(0, 1), List.of(held.partition(), leased.partition()));
        elapse(Duration.ofMillis(50));
        assertEquals(1, store.upkeep().run(Duration.ofHours(1), Duration.ofHours(1)),
                "the upkeep requeues the claim whose lease ran out, not the one without a lease");
        assertEquals(List.of(PartitionState.CLAIMED, PartitionState.QUEUED), store.views().job(id, false).parts().stream()
                .map(ClusterStore.PartitionView::state).toList());
        store.close(); // the process dies holding it
        open();
        assertEquals(1, store.membership().leave("local"), "its next life gives it back");
        assertFalse(complete(held), "the previous life's claim is void");
        List<ClusterStore.Claim> again = claim(10);
        assertEquals(List.of(0, 1), again.stream().map(ClusterStore.Claim::partition).toList());
        again.forEach(this::complete);
        assertEquals(JobState.DONE, store.views().job(id, false).state());
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
        JsonNode j = new ObjectMapper().readTree(StatusJson.cluster(store.views().status(30)));
        assertEquals("local", j.get("nodes").get(0).get("id").asText());
        assertFalse(j.get("nodes").get(0).get("stopped").asBoolean());
        assertEquals(1, j.get("partitions").get("DONE").asInt());
        assertEquals(1, j.get("partitions").get("QUEUED").asInt());
        assertEquals(id, j.get("recent").get(0).get("id").asText());
        assertEquals("DONE", j.get("recent").get(0).get("partitions").get(0).get("state").asText());
    }

    @Test
    void theStatusJsonHoldsEveryFieldOfNodesPartitionsAndRecentJobs() throws Exception {
        open();
        Instant startedB = Instant.parse("2026-01-02T03:04:05.678Z");
        Instant startedA = Instant.parse("2026-01-02T03:04:05Z");
        store.membership().heartbeat(new ClusterStore.NodeInfo("node-b", "10.0.0.2:9090", "10.0.0.2:8080", "cpu", startedB,
                4, 1, 0, 7, 0.25, "multiplier"), LEASE);
        store.membership().heartbeat(new ClusterStore.NodeInfo("node-a", "10.0.0.1:9090", "10.0.0.1:8080", "cuda", startedA,
                2, 0, 0, 0, 0, ""), LEASE);
        store.membership().leave("node-a");
        // done: both partitions proved by node-b
        String done = submit(null, 2).jobId();
        for (ClusterStore.Claim c : store.queue().claim("node-b", 2, LEASE, CIRCUITS, DIGESTS)) {
            assertTrue(store.queue().complete(c, "node-b", "{}", new byte[] {1}, List.of("1"), new double[6]));
        }
        // failed: its first partition failed on node-b, the others cancelled
        String failed = submit(null, 3).jobId();
        assertTrue(store.queue().fail(store.queue().claim("node-b", 1, LEASE, CIRCUITS, DIGESTS).getFirst(), "node-b",
                "bad \"witness\" \u00e9"));
        // running: its first partition held by node-b, the second queued
        String running = submit(null, 2).jobId();
        assertEquals(1, store.queue().claim("node-b", 1, LEASE, CIRCUITS, DIGESTS).size());

        JsonNode j = new ObjectMapper().readTree(StatusJson.cluster(store.views().status(30)));
        assertEquals(List.of("nodes", "partitions", "recent"), names(j));

        List<String> nodeFields = List.of("id", "grpc", "http", "backend", "started_at", "heartbeat_age_ms", "stopped",
                "permits_max", "permits_in_use", "proofs", "prover_busy", "circuits", "holding");
        assertEquals(2, j.get("nodes").size(), j.toString());
        JsonNode a = j.get("nodes").get(0);
        JsonNode b = j.get("nodes").get(1);
        assertEquals(nodeFields, names(a));
        assertEquals(nodeFields, names(b));
        assertEquals("node-a", a.get("id").textValue(), "nodes by id");
        assertEquals("10.0.0.1:9090", a.get("grpc").textValue());
        assertEquals("10.0.0.1:8080", a.get("http").textValue());
        assertEquals("cuda", a.get("backend").textValue());
        assertEquals("2026-01-02T03:04:05.000Z", a.get("started_at").textValue());
        assertTrue(a.get("stopped").isBoolean() && a.get("stopped").booleanValue(), a.toString());
        assertEquals(2, a.get("permits_max").intValue());
        assertEquals(0, a.get("permits_in_use").intValue());
        assertEquals(0, a.get("proofs").longValue());
        assertTrue(a.get("prover_busy").isNumber() && a.get("prover_busy").doubleValue() == 0, a.toString());
        assertEquals("", a.get("circuits").textValue());
        assertEquals(0, a.get("holding").longValue());
        assertEquals("node-b", b.get("id").textValue());
        assertEquals("10.0.0.2:9090", b.get("grpc").textValue());
        assertEquals("10.0.0.2:8080", b.get("http").textValue());
        assertEquals("cpu", b.get("backend").textValue());
        assertEquals("2026-01-02T03:04:05.678Z", b.get("started_at").textValue());
        assertTrue(b.get("stopped").isBoolean() && !b.get("stopped").booleanValue(), b.toString());
        assertEquals(4, b.get("permits_max").intValue());
        assertEquals(1, b.get("permits_in_use").intValue());
        assertEquals(7, b.get("proofs").longValue());
        assertEquals(0.25, b.get("prover_busy").doubleValue());
        assertEquals("multiplier", b.get("circuits").textValue());
        assertEquals(1, b.get("holding").longValue(), "the partition node-b holds claimed");
        for (JsonNode n : j.get("nodes")) {
            assertTrue(n.get("permits_max").isIntegralNumber() && n.get("proofs").isIntegralNumber()
                    && n.get("holding").isIntegralNumber(), n.toString());
            JsonNode age = n.get("heartbeat_age_ms");
            assertTrue(age.isIntegralNumber() && age.longValue() >= 0 && age.longValue() < LEASE.toMillis(), n.toString());
        }

        // counts by state, listed by the state's name
        assertEquals(List.of("CANCELLED", "CLAIMED", "DONE", "FAILED", "QUEUED"), names(j.get("partitions")));
        assertEquals(Map.of("CANCELLED", 2L, "CLAIMED", 1L, "DONE", 2L, "FAILED", 1L, "QUEUED", 1L),
                new ObjectMapper().convertValue(j.get("partitions"), new com.fasterxml.jackson.core.type.TypeReference<Map<String, Long>>() { }));
        for (JsonNode k : j.get("partitions")) {
            assertTrue(k.isIntegralNumber(), j.get("partitions").toString());
        }

        // the recent jobs, newest first, each with its partitions in order
        JsonNode recent = j.get("recent");
        assertEquals(3, recent.size(), recent.toString());
        List<String> jobFields = List.of("id", "circuit", "state", "error", "submitted_by", "submitted_at", "partitions");
        String[][] expected = {
            {running, "RUNNING", "CLAIMED node-b", "QUEUED"},
            {failed, "FAILED", "FAILED node-b bad \"witness\" \u00e9", "CANCELLED", "CANCELLED"},
            {done, "DONE", "DONE node-b", "DONE node-b"},
        };
        Instant previous = Instant.MAX;
        for (int i = 0; i < expected.length; i++) {
            JsonNode job = recent.get(i);
            assertEquals(jobFields, names(job));
            assertEquals(expected[i][0], job.get("id").textValue());
            assertEquals("multiplier", job.get("circuit").textValue());
            assertEquals(expected[i][1], job.get("state").textValue());
            assertEquals("local", job.get("submitted_by").textValue());
            String at = job.get("submitted_at").textValue();
            assertTrue(at.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"), at);
            assertFalse(Instant.parse(at).isAfter(previous), "newest first: " + recent);
            previous = Instant.parse(at);
            if (expected[i][0].equals(failed)) {
                assertTrue(job.get("error").textValue().contains("bad \"witness\" \u00e9"), job.toString());
            } else {
                assertTrue(job.get("error").isNull(), job.toString());
            }
            JsonNode parts = job.get("partitions");
            assertEquals(expected[i].length - 2, parts.size(), job.toString());
            for (int p = 0; p < parts.size(); p++) {
                String[] want = expected[i][p + 2].split(" ", 3);
                JsonNode part = parts.get(p);
                assertEquals(List.of("state", "node", "error"), names(part));
                assertEquals(want[0], part.get("state").textValue(), job.toString());
                if (want.length > 1) {
                    assertEquals(want[1], part.get("node").textValue(), job.toString());
                } else {
                    assertTrue(part.get("node").isNull(), job.toString());
                }
                if (want.length > 2) {
                    assertEquals(want[2], part.get("error").textValue(), job.toString());
                } else {
                    assertTrue(part.get("error").isNull(), job.toString());
                }
            }
        }

        // the newest only, as many as asked for
        JsonNode two = new ObjectMapper().readTree(StatusJson.cluster(store.views().status(2))).get("recent");
        assertEquals(List.of(running, failed), List.of(two.get(0).get("id").textValue(), two.get(1).get("id").textValue()));
        assertEquals(2, two.size());
    }

    private static List<String> names(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
