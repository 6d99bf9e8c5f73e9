package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EngineConfigTest {

    @Test
    void theBuilderStartsFromTheDefaults() {
        int half = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        EngineConfig d = EngineConfig.defaults();
        assertEquals(d, EngineConfig.builder().build());
        assertTrue(d.autoPermits());
        assertEquals(half, d.synthesisThreads());
        assertEquals(1, d.proverWorkers());
        assertEquals(half, d.finalizerThreads());
        assertEquals(Runtime.getRuntime().maxMemory() / 4 * 3, d.budgetBytes());
        assertEquals(4096, d.timelineCapacity());
        assertEquals(Duration.ofMinutes(10), d.resultRetention());
        assertEquals(Duration.ofMinutes(5), d.loadTimeout());
        assertNull(d.timelineLog());
        assertEquals(0, d.keyTableBytes());
        assertNull(d.keyTableCache());
    }

    @Test
    void eachKnobChangesOnlyItself() {
        EngineConfig c = EngineConfig.builder().permits(3).synthesisThreads(4).proverWorkers(2).finalizerThreads(5)
                .budgetBytes(1L << 30).timelineCapacity(100)
                .resultRetention(Duration.ofSeconds(7)).loadTimeout(Duration.ofSeconds(8)).keyTableBytes(1 << 20)
                .keyTableCache(java.nio.file.Path.of("/tables")).build();
        assertEquals(new EngineConfig(3, 4, 2, 5, 1L << 30, 100, Duration.ofSeconds(7),
                Duration.ofSeconds(8), null, 1 << 20, java.nio.file.Path.of("/tables")), c);
        assertEquals(EngineConfig.defaults().budgetBytes(), EngineConfig.builder().permits(2).build().budgetBytes());
    }

    @Test
    void buildRejectsWhatTheEngineCannotRun() {
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.builder().permits(-1).build());
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.builder().synthesisThreads(0).build());
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.builder().proverWorkers(0).build());
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.builder().finalizerThreads(0).build());
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.builder().budgetBytes(0).build());
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.builder().timelineCapacity(0).build());
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.builder().keyTableBytes(-1).build());
    }
}
