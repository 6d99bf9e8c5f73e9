package dev.proofline.daemon.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.daemon.store.ClusterStore;
import org.junit.jupiter.api.Test;

/** Every state the engine or a store gives a partition has its own, written as clients have read it. */
class PartitionStateTest {

    @Test
    void everyEngineStateIsOneOfTheJobsWrittenAsItsLowerCaseName() {
        for (dev.proofline.engine.PartitionState s : dev.proofline.engine.PartitionState.values()) {
            assertEquals(s.name().toLowerCase(java.util.Locale.ROOT), PartitionState.of(s).wire());
        }
        assertEquals("waiting_for_prover", PartitionState.of(dev.proofline.engine.PartitionState.WAITING_FOR_PROVER).wire());
    }

    @Test
    void everyStoredStateIsOneOfTheJobsWrittenAsItsLowerCaseName() {
        for (ClusterStore.PartitionState s : ClusterStore.PartitionState.values()) {
            assertEquals(s.name().toLowerCase(java.util.Locale.ROOT), PartitionState.of(s).wire());
        }
        assertEquals("claimed", PartitionState.of(ClusterStore.PartitionState.CLAIMED).wire());
    }
}
