package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.msm.FixedBaseTable;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import org.junit.jupiter.api.Test;

/**
 * Building a key's tables and attaching them: the outcome says what the key has, closed keys included; the
 * memory planned for them is what they take, within the memory given, H's table first.
 */
class KeyTablesTest {

    @Test
    void theTablesTakeTheMemoryPlannedWithinWhatIsGivenAndHIsGivenMemoryFirst() {
        CircomFixtures.Fixture fx = CircomFixtures.build("bn128", "poseidon");
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            var g1 = key.curve().g1();
            int nVars = key.variableCount();
            int finiteA = FixedBaseTable.finitePoints(g1, key.pointsA(), 0, nVars, nVars);
            int finiteB2 = FixedBaseTable.finitePoints(key.curve().g2(), key.pointsB2(), 0, nVars, nVars);
            assertTrue(finiteA < nVars && finiteB2 < nVars, "the fixture's A and B2 have points at infinity");
            long all = KeyTables.plannedBytes(key, Long.MAX_VALUE);
            long hBytes;
            try (KeyTables t = KeyTables.build(key, Long.MAX_VALUE)) {
                assertEquals(5, t.count());
                assertEquals(all, t.bytes(), "planned as built");
                assertEquals(finiteA, t.a().kept());
                assertEquals(finiteB2, t.b2().kept());
                assertEquals(FixedBaseTable.bytes(g1, finiteA, t.a().windowBits()), t.a().bytes(),
                        "A's table sized by its finite points");
                hBytes = t.h().bytes();
            }
            try (KeyTables t = KeyTables.build(key, hBytes)) {
                assertEquals(1, t.count(), "H's table and no other in the memory it takes");
                assertEquals(hBytes, t.h().bytes());
            }
            for (long budget : new long[] {0, hBytes / 2, hBytes + (all - hBytes) / 3, all / 2, all - 1, all}) {
                long planned = KeyTables.plannedBytes(key, budget);
                try (KeyTables t = KeyTables.build(key, budget)) {
                    assertTrue(planned <= budget, planned + " planned within " + budget);
                    assertEquals(planned, t.bytes(), "planned as built within " + budget);
                }
            }
        }
    }

    @Test
    void attachingGivesTheKeyItsTablesAndAClosedKeyGoesOnWithout() {
        CircomFixtures.Fixture fx = CircomFixtures.build("bn128", "poseidon");
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            String outcome = KeyTables.attachTo(key, Long.MAX_VALUE);
            assertTrue(key.tables() != null && key.tables().count() == 5, String.valueOf(key.tables()));
            assertEquals("tables of " + key.tables().bytes() + " bytes", outcome);
        }
        ProvingKey closed = ZkeyFile.open(fx.zkey());
        closed.close();
        String outcome = KeyTables.attachTo(closed, Long.MAX_VALUE);
        assertTrue(outcome.startsWith("no tables ("), outcome);
        assertNull(closed.tables());
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            assertEquals("no tables (none fits the memory given)", KeyTables.attachTo(key, 0));
        }
    }
}
