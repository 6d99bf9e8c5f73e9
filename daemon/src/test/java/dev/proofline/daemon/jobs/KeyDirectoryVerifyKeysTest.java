package dev.proofline.daemon.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.engine.MemoryBudget;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.ceremony.CheckedKeys;
import dev.proofline.groth16.io.OwnerOnlyFiles;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.groth16.testing.TinyCeremony;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --verify-keys}: only circuits whose key verifies against their r1cs and the named ptau are
 * registered, and a restarted daemon finds the keys it checked before, their files unchanged, verified or
 * refused without checking them again.
 */
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
                new CheckedKeys(ptau, Optional.empty()), warnings::add, infos::add);

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

    @Test
    void aRestartWithUnchangedFilesFindsTheKeysVerifiedOrRefusedAndAChangedOneIsCheckedAgain() throws Exception {
        Path fixtures = Files.createDirectories(dir.resolve("fixtures"));
        Path ptau = TinyCeremony.cubeAndSquare(fixtures, false);
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Path state = dir.resolve("state");
        for (String id : List.of("good", "swapped")) {
            Path f = Files.createDirectories(keys.resolve(id));
            Files.copy(fixtures.resolve(id.equals("good") ? "cube.zkey" : "square.zkey"), f.resolve("circuit.zkey"));
            Files.copy(fixtures.resolve("cube.r1cs"), f.resolve("circuit.r1cs"));
        }

        Started first = start(keys, ptau, state);
        assertEquals(List.of("good"), first.ids());
        assertTrue(first.infos().size() == 1 && first.infos().get(0).matches(
                java.util.regex.Pattern.quote(keys.resolve("good") + ": key verified against its r1cs and " + ptau + " in ")
                        + "[0-9.]+ s"), first.infos()::toString);
        assertEquals(1, first.warnings().size(), first.warnings()::toString);
        String why = keys.resolve("swapped") + ": skipped: its key does not verify against its r1cs and " + ptau + ": ";
        assertTrue(first.warnings().get(0).startsWith(why) && !first.warnings().get(0).contains("earlier"),
                first.warnings()::toString);

        Started again = start(keys, ptau, state);
        assertEquals(List.of("good"), again.ids());
        assertEquals(List.of(keys.resolve("good") + ": key verified against its r1cs and " + ptau
                + " (found verified earlier; the files have not changed since)"), again.infos());
        assertEquals(List.of(first.warnings().get(0) + " (found refused earlier; the files have not changed since)"),
                again.warnings());

        // the swapped circuit's r1cs replaced by its own: checked again, and registered
        Files.copy(fixtures.resolve("square.r1cs"), keys.resolve("swapped/circuit.r1cs"),
                StandardCopyOption.REPLACE_EXISTING);
        Started changed = start(keys, ptau, state);
        assertEquals(List.of("good", "swapped"), changed.ids(), changed.warnings()::toString);
        assertEquals(again.infos().get(0), changed.infos().get(0));
        assertTrue(changed.infos().get(1).startsWith(keys.resolve("swapped") + ": key verified against its r1cs and "
                + ptau + " in "), changed.infos()::toString);
    }

    /** What a daemon's start registered and logged. */
    private record Started(List<String> ids, List<String> warnings, List<String> infos) {
    }

    /** A daemon's start on {@code keys}, its checks against {@code ptau} remembered under {@code state}. */
    private static Started start(Path keys, Path ptau, Path state) throws Exception {
        List<String> warnings = new ArrayList<>();
        List<String> infos = new ArrayList<>();
        List<String> ids = KeyDirectory.register(new Circuits(new MemoryBudget(1L << 30), Duration.ofMinutes(1)), keys,
                new CheckedKeys(ptau, OwnerOnlyFiles.directory(state.resolve("verified-keys"))), warnings::add, infos::add);
        return new Started(ids, warnings, infos);
    }
}
