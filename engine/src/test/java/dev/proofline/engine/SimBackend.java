package dev.proofline.engine;

import java.util.function.IntPredicate;

/**
 * The simulated prover ({@code sim}): sleeps for configured durations instead of proving, so that
 * scheduling can be tested quickly and deterministically, and fails where a test asks it to. Its
 * "proof" of partition p is the string {@code "proof-" + payload}. It proves the payload of any job
 * (the simulated job's is the partition number, a circuit job's its synthesis), so its staged and
 * started states are plain objects. In this module's test jar, shared with the daemon's tests and
 * with the bench commands' {@code --backend sim} (module {@code lab}), and so in no jar an
 * application gets.
 */
public final class SimBackend implements ProverBackend<Object, Object, String> {

    private final long startMillis;
    private final long finishMillis;
    private final IntPredicate failStart;

    /**
     * {@code startMillis}: the device half of a proof; {@code finishMillis}: its CPU half;
     * {@code failStart} says for which payload (an int) {@code start} throws, for failure tests.
     */
    public SimBackend(long startMillis, long finishMillis, IntPredicate failStart) {
        this.startMillis = startMillis;
        this.finishMillis = finishMillis;
        this.failStart = failStart;
    }

    /** A prover that never fails, as the bench commands simulate one. */
    public SimBackend(long startMillis, long finishMillis) {
        this(startMillis, finishMillis, p -> false);
    }

    @Override
    public String name() {
        return "sim";
    }

    @Override
    public java.util.List<String> devices() {
        return java.util.List.of("simulated device (start " + startMillis + " ms, finish " + finishMillis + " ms)");
    }

    @Override
    public Object start(Object synthesized, int device) throws Exception {
        Thread.sleep(startMillis);
        if (synthesized instanceof Integer i && failStart.test(i)) {
            throw new IllegalStateException("simulated prover failure on " + i);
        }
        return synthesized;
    }

    @Override
    public String finish(Object started) throws Exception {
        Thread.sleep(finishMillis);
        return "proof-" + started;
    }

    /** A simulated job: synthesis sleeps {@code synthMillis} and yields the partition number. */
    public record Job(int partitions, long synthMillis, long bytes, IntPredicate failSynthesis)
            implements JobSpec<Integer> {

        /** A job whose synthesis never fails. */
        public Job(int partitions, long synthMillis, long bytes) {
            this(partitions, synthMillis, bytes, p -> false);
        }

        @Override
        public long workingSetBytes(int p) {
            return bytes;
        }

        @Override
        public String label() {
            return "sim";
        }

        @Override
        public Integer synthesize(int p) throws Exception {
            Thread.sleep(synthMillis);
            if (failSynthesis.test(p)) {
                throw new IllegalStateException("simulated synthesis failure on partition " + p);
            }
            return p;
        }
    }
}
