package dev.proofline.cli;

import dev.proofline.groth16.Prover;
import dev.proofline.groth16.Step;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Prover.Listener} that notes when each step of a proof begins and, for steps that run side by
 * side, when it ends (and passes both on), so that each step's time can be read once the proof has
 * ended.
 */
public final class StepClock implements Prover.Listener {

    private final Prover.Listener next;
    private final List<Step> steps = new ArrayList<>();
    private final List<Long> starts = new ArrayList<>();
    private final Map<Integer, Long> ends = new HashMap<>();

    /** A clock that passes each step on to {@code next}. */
    public StepClock(Prover.Listener next) {
        this.next = next;
    }

    @Override
    public synchronized void step(Step step) {
        steps.add(step);
        starts.add(System.nanoTime());
        next.step(step);
    }

    @Override
    public synchronized void ended(Step step) {
        ends.put(steps.lastIndexOf(step), System.nanoTime());
        next.ended(step);
    }

    /** The steps begun, in order. */
    public synchronized List<Step> steps() {
        return List.copyOf(steps);
    }

    /**
     * Each step's milliseconds: from its beginning to its end where it was told, else to where the next
     * step began, the last one's to {@code endNanos}.
     */
    public synchronized double[] millis(long endNanos) {
        double[] ms = new double[starts.size()];
        for (int i = 0; i < ms.length; i++) {
            long end = ends.getOrDefault(i, i + 1 < ms.length ? starts.get(i + 1) : endNanos);
            ms[i] = (end - starts.get(i)) / 1e6;
        }
        return ms;
    }

    /** Whether some steps ran side by side: one began before another had ended. */
    synchronized boolean overlapped() {
        for (var e : ends.entrySet()) {
            int i = e.getKey();
            if (i + 1 < starts.size() && starts.get(i + 1) < e.getValue()) {
                return true;
            }
        }
        return false;
    }
}
