package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
