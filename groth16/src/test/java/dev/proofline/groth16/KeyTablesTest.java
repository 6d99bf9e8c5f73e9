package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import org.junit.jupiter.api.Test;

/** Building a key's tables and attaching them: the outcome says what the key has, closed keys included. */
class KeyTablesTest {

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
            assertEquals("no tables (no point set of at most 2^17 points fits the memory given)", KeyTables.attachTo(key, 0));
        }
    }
}
