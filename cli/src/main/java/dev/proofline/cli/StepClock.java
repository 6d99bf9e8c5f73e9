package dev.proofline.cli;

import dev.proofline.groth16.Prover;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Prover.Listener} that notes when each step of a proof begins (and passes the step on), so
 * that each step's time can be read once the proof has ended.
 */
final class StepClock implements Prover.Listener {

    private final Prover.Listener next;
    private final List<String> names = new ArrayList<>();
    private final List<Long> starts = new ArrayList<>();

    /** A clock that passes each step on to {@code next}. */
    StepClock(Prover.Listener next) {
        this.next = next;
    }

    @Override
    public void step(int index, int total, String name) {
        names.add(name);
        starts.add(System.nanoTime());
        next.step(index, total, name);
    }

    /** The steps begun, in order. */
    List<String> names() {
        return List.copyOf(names);
    }

    /** Each step's milliseconds, a step ending where the next begins and the last at {@code endNanos}. */
    double[] millis(long endNanos) {
        double[] ms = new double[starts.size()];
        for (int i = 0; i < ms.length; i++) {
            long end = i + 1 < ms.length ? starts.get(i + 1) : endNanos;
            ms[i] = (end - starts.get(i)) / 1e6;
        }
        return ms;
    }
}
