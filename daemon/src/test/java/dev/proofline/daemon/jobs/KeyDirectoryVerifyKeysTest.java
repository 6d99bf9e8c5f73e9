package dev.proofline.daemon.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.engine.MemoryBudget;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --verify-keys}: only circuits whose key verifies against their r1cs and the named ptau are registered. */
class KeyDirectoryVerifyKeysTest {

    @TempDir
    Path dir;

    private void folder(String id, Path zkey, Path r1cs) throws Exception {
        Path f = Files.createDirectories(dir.resolve(id));
        Files.copy(zkey, f.resolve("circuit.zkey"));
        if (r1cs != null) {
            Files.copy(r1cs, f.resolve("circuit.r1cs"));
        }
    }

    @Test
    void aKeyOfAnotherCircuitAndOneWithoutR1csAreSkippedSayingWhyAndAValidOneIsRegistered() throws Exception {
        Fixture mul = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        Fixture other = CircomFixtures.build(CircomFixtures.BN128, "nopublic");
        Path ptau = CircomFixtures.cacheDir().resolve("ptau/bn128_" + mul.power() + ".ptau");
        folder("good", mul.zkey(), mul.r1cs());
        folder("swapped", other.zkey(), mul.r1cs());   // a key made for another circuit
        folder("unchecked", mul.zkey(), null);
        List<String> warnings = new ArrayList<>();
        List<String> infos = new ArrayList<>();

        List<String> ids = KeyDirectory.register(new Circuits(new MemoryBudget(1L << 30), Duration.ofMinutes(1)), dir,
                ptau, warnings::add, infos::add);

        assertEquals(List.of("good"), ids, () -> String.join("\n", warnings));
        assertEquals(2, warnings.size(), () -> String.join("\n", warnings));
        assertTrue(warnings.get(0).startsWith(dir.resolve("swapped") + ": skipped: its key does not verify")
                && warnings.get(0).contains("section 2"), warnings.get(0));
        assertTrue(warnings.get(1).startsWith(dir.resolve("unchecked") + ": skipped")
                && warnings.get(1).contains("without circuit.r1cs"), warnings.get(1));
        assertTrue(infos.size() == 1 && infos.get(0).startsWith(dir.resolve("good") + ": key verified"), infos::toString);

        // without the check, all three are registered
        List<String> all = KeyDirectory.register(new Circuits(new MemoryBudget(1L << 30), Duration.ofMinutes(1)), dir,
                w -> { });
        assertEquals(List.of("good", "swapped", "unchecked"), all);
    }
}
