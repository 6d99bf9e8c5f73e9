package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.daemon.config.DaemonConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the daemon says at start about its memory, before any port opens. */
class ListenersTest {

    private static List<String> heapWarnings(String budget, long maxHeap) {
        DaemonConfig c = DaemonConfig.parse("[engine]\nbudget = \"" + budget + "\"\n", "t.toml");
        List<String> said = new ArrayList<>();
        Listeners.warnOfAHeapBeyondTheBudget(c, maxHeap, said::add);
        return said;
    }

    @Test
    void aBudgetSetFarBelowTheHeapLimitIsSaidWithTheHeapThatBoundsIt() {
        List<String> said = heapWarnings("1536MiB", 6L << 30);
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).startsWith("warning: engine.budget is 1536MiB but the JVM's heap may grow to 6144 MiB"),
                said.get(0));
        assertTrue(said.get(0).contains("PROOFLINE_JAVA_OPTS=-Xmx1536m"), said.get(0));
        // a heap of at most four thirds of the budget is what "auto" would size the budget from
        assertEquals(List.of(), heapWarnings("1536MiB", 2048L << 20));
        assertEquals(1, heapWarnings("1536MiB", (2048L << 20) + 1).size());
        assertEquals(List.of(), heapWarnings("auto", 6L << 30));
    }
}
