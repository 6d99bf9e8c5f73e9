package dev.proofline.cuda;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The step timings of {@link CudaMsm}: when switched on, an event recorded on the MSM's stream after each
 * step of a call, and the milliseconds between them once the stream is done.
 */
final class MsmStepTimes {

    private final Context context;
    private final Stream stream;
    /** Non-null while steps are timed: the events of the call under way, one after each step. */
    private List<Map.Entry<String, Event>> marks;
    private final List<Map<String, Double>> profiles = new ArrayList<>();

    MsmStepTimes(Context context, Stream stream) {
        this.context = context;
        this.stream = stream;
    }

    /** As {@link CudaMsm#profile}. */
    void profile(boolean on) {
        marks = on ? new ArrayList<>() : null;
        profiles.clear();
    }

    /** As {@link CudaMsm#profiles}. */
    List<Map<String, Double>> profiles() {
        return List.copyOf(profiles);
    }

    /** Records an event after the step {@code step} when steps are timed. */
    void mark(String step) {
        if (marks != null) {
            Event e = context.createEvent();
            marks.add(Map.entry(step, e));
            e.record(stream);
        }
    }

    /** After the stream is done: the time between the marks, then the events are destroyed. */
    void collect(double hostCopyMillis) {
        if (marks == null) {
            return;
        }
        Map<String, Double> times = new LinkedHashMap<>();
        if (hostCopyMillis >= 0) {
            times.put("scalars: host copy", hostCopyMillis);
        }
        for (int i = 1; i < marks.size(); i++) {
            times.merge(marks.get(i).getKey(),
                    (double) marks.get(i).getValue().elapsedMillisSince(marks.get(i - 1).getValue()), Double::sum);
        }
        for (Map.Entry<String, Event> m : marks) {
            m.getValue().close();
        }
        marks.clear();
        profiles.add(times);
    }
}
