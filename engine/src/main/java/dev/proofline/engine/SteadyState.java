package dev.proofline.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The prover's steady state, read from the timeline's events: over the window from the end of the
 * first tenth of the prover runs to the start of the last tenth (so ramp-up and drain are left out),
 * the share of the window the prover workers spent in {@code start} and the prover starts per
 * millisecond. Both NaN with fewer than ten completed runs.
 */
record SteadyState(double proverBusy, double throughputPerMs) {

    static SteadyState of(List<Timeline.Event> events, int devices) {
        List<long[]> done = proverRuns(events);
        if (done.size() < 10) {
            return new SteadyState(Double.NaN, Double.NaN);
        }
        int k = done.size() / 10;
        long from = done.get(k)[0];
        long to = done.get(done.size() - 1 - k)[0];
        if (to <= from) {
            return new SteadyState(Double.NaN, Double.NaN);
        }
        long busy = 0;
        for (long[] r : done) {
            busy += Math.max(0, Math.min(r[1], to) - Math.max(r[0], from));
        }
        return new SteadyState((double) busy / ((to - from) * (double) devices),
                (double) (done.size() - 1 - 2 * k) / (to - from));
    }

    /** The completed prover runs among the events, as (start, end) offsets in ms, by start. */
    private static List<long[]> proverRuns(List<Timeline.Event> events) {
        Map<String, long[]> runs = new HashMap<>();
        for (Timeline.Event e : events) {
            if (e.kind() == Timeline.Kind.PROVER_START || e.kind() == Timeline.Kind.PROVER_END) {
                long[] r = runs.computeIfAbsent(e.job() + "/" + e.partition(), k -> new long[] {-1, -1});
                r[e.kind() == Timeline.Kind.PROVER_START ? 0 : 1] = e.offsetMs();
            }
        }
        List<long[]> done = new ArrayList<>();
        for (long[] r : runs.values()) {
            if (r[0] >= 0 && r[1] >= 0) {
                done.add(r);
            }
        }
        done.sort(Comparator.comparingLong(r -> r[0]));
        return done;
    }
}
