package dev.proofline.lab;

import dev.proofline.engine.JobSpec;
import dev.proofline.engine.ProverBackend;
import java.util.List;

/**
 * The bench commands' simulated prover ({@code --backend sim}): sleeps for the given durations instead
 * of proving, so that permits and cluster nodes can be compared on a GPU-like workload without a GPU.
 * Its "proof" of a partition is the string {@code "proof-" + payload}; it proves the
 * payload of any job (the simulated job's is the partition number, a circuit job's its synthesis), so
 * its staged and started states are plain objects. Part of the command only: an application that
 * embeds the engine or the daemon never gets it.
 */
final class SimulatedBackend implements ProverBackend<Object, Object, String> {

    private final long startMillis;
    private final long finishMillis;

    /** {@code startMillis}: the device half of a proof; {@code finishMillis}: its CPU half. */
    SimulatedBackend(long startMillis, long finishMillis) {
        this.startMillis = startMillis;
        this.finishMillis = finishMillis;
    }

    @Override
    public String name() {
        return "sim";
    }

    @Override
    public List<String> devices() {
        return List.of("simulated device (start " + startMillis + " ms, finish " + finishMillis + " ms)");
    }

    @Override
    public Object start(Object synthesized, int device) throws Exception {
        Thread.sleep(startMillis);
        return synthesized;
    }

    @Override
    public String finish(Object started) throws Exception {
        Thread.sleep(finishMillis);
        return "proof-" + started;
    }

    /** A simulated job: synthesis sleeps {@code synthMillis} and yields the partition number. */
    record Job(int partitions, long synthMillis, long bytes) implements JobSpec<Integer> {
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
            return p;
        }
    }
}
