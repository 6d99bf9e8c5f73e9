package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

/**
 * Runs a ceremony step with its multiplications forced onto the 8-lane kernels (which real steps take
 * only when large and once the kernels are warm), and checks that the lanes did some of them (and, where
 * asked, that some were in affine batches: queues of more than eight).
 */
final class OnLanes {

    private OnLanes() {
    }

    interface Step {
        void run() throws IOException;
    }

    static void run(Step step) throws IOException {
        run(step, false, false);
    }

    /**
     * As {@link #run}, checking also that some multiplications were done in affine batches, and some in
     * batches sharing one scalar's digits where {@code sharing}.
     */
    static void inBatches(Step step, boolean sharing) throws IOException {
        run(step, true, sharing);
    }

    private static void run(Step step, boolean batches, boolean sharing) throws IOException {
        long before = Multiplications.ON_LANES.get();
        long batched = Multiplications.IN_BATCHES.get();
        long shared = Multiplications.SHARING.get();
        Multiplications.forceLanes = true;
        try {
            step.run();
        } finally {
            Multiplications.forceLanes = false;
        }
        assertTrue(Multiplications.ON_LANES.get() > before, "the lanes did the multiplications");
        if (batches) {
            assertTrue(Multiplications.IN_BATCHES.get() > batched, "some in affine batches");
        }
        if (sharing) {
            assertTrue(Multiplications.SHARING.get() > shared, "some in batches sharing one scalar");
        }
    }
}
