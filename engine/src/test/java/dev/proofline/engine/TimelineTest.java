package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.engine.Timeline.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TimelineTest {

    @Test
    void theRingKeepsTheLastEventsInOrderAndTheSinkGetsEveryLine() {
        List<String> lines = new ArrayList<>();
        Timeline t = new Timeline(3, lines::add);
        for (int p = 0; p < 5; p++) {
            t.record("job-1", p, Kind.SYNTH_START, "");
        }
        t.record("job-1", -1, Kind.JOB_DONE, "5 proofs");
        assertEquals(6, t.recorded());
        List<Timeline.Event> held = t.snapshot();
        assertEquals(3, held.size());
        assertEquals(List.of(3, 4, -1), held.stream().map(Timeline.Event::partition).toList());
        assertEquals(6, lines.size());
        assertTrue(lines.get(5).endsWith("job-1 JOB_DONE 5 proofs"), lines.get(5));
        assertTrue(lines.get(0).matches("\\d+\\.\\d{3} job-1/0 SYNTH_START"), lines.get(0));
        for (int i = 1; i < held.size(); i++) {
            assertTrue(held.get(i).offsetMs() >= held.get(i - 1).offsetMs(), "offsets never go back");
        }
    }

    @Test
    void aPollerThatPassesEachPagesNextSeesEveryEventOnce() {
        Timeline t = new Timeline(100, null);
        Timeline.Page empty = t.since(0, 10);
        assertEquals(List.of(), empty.events());
        assertEquals(0, empty.next());
        for (int p = 0; p < 3; p++) {
            t.record("job-1", p, Kind.SYNTH_START, "");
        }
        Timeline.Page first = t.since(empty.next(), 10);
        assertEquals(List.of(0, 1, 2), first.events().stream().map(Timeline.Event::partition).toList());
        assertEquals(3, first.next());
        assertEquals(0, first.missed());
        assertEquals(List.of(), t.since(first.next(), 10).events(), "nothing new");
        t.record("job-2", 0, Kind.PROVER_START, "");
        Timeline.Page second = t.since(first.next(), 10);
        assertEquals(List.of("job-2"), second.events().stream().map(Timeline.Event::job).toList());
        assertEquals(4, second.next());
    }

    @Test
    void aPageHoldsTheNewestEventsAndCountsThoseItLeavesOut() {
        Timeline t = new Timeline(5, null);
        for (int p = 0; p < 8; p++) {
            t.record("job-1", p, Kind.SYNTH_START, "");
        }
        // the ring holds events 3..7: 0..2 are overwritten
        Timeline.Page all = t.since(0, 100);
        assertEquals(List.of(3, 4, 5, 6, 7), all.events().stream().map(Timeline.Event::partition).toList());
        assertEquals(3, all.missed());
        assertEquals(8, all.next());
        // at most max: the newest
        Timeline.Page two = t.since(4, 2);
        assertEquals(List.of(6, 7), two.events().stream().map(Timeline.Event::partition).toList());
        assertEquals(2, two.missed());
        assertEquals(8, two.next());
    }

    @Test
    void aCursorPastWhatWasRecordedIsRefused() {
        Timeline t = new Timeline(5, null);
        t.record("job-1", 0, Kind.QUEUED, "");
        assertThrows(IllegalArgumentException.class, () -> t.since(2, 10));
        assertThrows(IllegalArgumentException.class, () -> t.since(-1, 10));
        assertEquals(1, t.since(1, 10).next());
    }

    @Test
    void concurrentWritersLoseNothingTheRingCanHold() throws Exception {
        Timeline t = new Timeline(10_000, null);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        for (int w = 0; w < 4; w++) {
            final String job = "job-" + w;
            pool.execute(() -> {
                for (int i = 0; i < 2000; i++) {
                    t.record(job, i, Kind.PROVER_END, null);
                }
            });
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(8000, t.snapshot().size());
        assertEquals(2000, t.ofJob("job-2").size());
    }
}
