package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.ceremony.CheckedKeys.Outcome;
import dev.proofline.groth16.ceremony.CheckedKeys.Refused;
import dev.proofline.groth16.ceremony.CheckedKeys.Source;
import dev.proofline.groth16.ceremony.CheckedKeys.Verified;
import dev.proofline.groth16.io.OwnerOnlyFiles;
import dev.proofline.groth16.testing.TinyCeremony;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key, r1cs and ptau are checked once while their files do not change: verified or refused, the
 * outcome is found again in the same object and, through the folder of remembered outcomes, in another.
 */
class CheckedKeysTest {

    @TempDir
    static Path fixtures;

    private static Path ptau;

    @TempDir
    Path tmp;

    /** A prepared ptau of 2^4, and for each circuit its r1cs and a key with one contribution. */
    @BeforeAll
    static void ceremony() throws IOException {
        ptau = TinyCeremony.cubeAndSquare(fixtures, false);
    }

    @Test
    void aRefusalIsFoundWithItsReasonUntilAFileChangesThenTheKeyIsCheckedAgain() throws IOException {
        Path zkey = Files.copy(fixtures.resolve("square.zkey"), tmp.resolve("k.zkey"));   // another circuit's key
        Path r1cs = Files.copy(fixtures.resolve("cube.r1cs"), tmp.resolve("k.r1cs"));
        Optional<Path> remembered = OwnerOnlyFiles.directory(tmp.resolve("cache/verified-keys"));
        assertTrue(remembered.isPresent());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(remembered.get())));
        CheckedKeys keys = new CheckedKeys(ptau, remembered);

        Refused checked = assertInstanceOf(Refused.class, keys.check(zkey, r1cs));
        assertEquals(Source.CHECKED, checked.source());
        assertTrue(checked.why().contains("the circuit hash is not the circuit's"), checked.why());
        Refused again = assertInstanceOf(Refused.class, keys.check(zkey, r1cs));
        assertEquals(new Refused(checked.triple(), checked.why(), Source.KNOWN), again);

        // another process of the same folder: refused at once, for the same reason
        Path file = onlyFile(remembered.get());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(new Refused(checked.triple(), checked.why(), Source.REMEMBERED),
                new CheckedKeys(ptau, remembered).check(zkey, r1cs));

        // the key replaced by one of this circuit: checked again, and its success remembered in place of the refusal
        Files.copy(fixtures.resolve("cube.zkey"), zkey, StandardCopyOption.REPLACE_EXISTING);
        assertEquals(Source.CHECKED, assertInstanceOf(Verified.class, keys.check(zkey, r1cs)).source());
        assertEquals(Source.KNOWN, assertInstanceOf(Verified.class, keys.check(zkey, r1cs)).source());
        assertEquals(file, onlyFile(remembered.get()));
        assertEquals(Source.REMEMBERED, assertInstanceOf(Verified.class,
                new CheckedKeys(ptau, remembered).check(zkey, r1cs)).source());

        // and a changed r1cs too
        Files.copy(fixtures.resolve("square.r1cs"), r1cs, StandardCopyOption.REPLACE_EXISTING);
        assertEquals(Source.CHECKED, assertInstanceOf(Refused.class, keys.check(zkey, r1cs)).source());
    }

    @Test
    void requestsForTheSameBadKeyAtOnceCheckItOnce() throws Exception {
        Path zkey = Files.copy(fixtures.resolve("square.zkey"), tmp.resolve("k.zkey"));
        Path r1cs = Files.copy(fixtures.resolve("cube.r1cs"), tmp.resolve("k.r1cs"));
        CheckedKeys keys = new CheckedKeys(ptau, Optional.empty());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Outcome>> checks;
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            checks = Stream.generate(() -> pool.submit(() -> {
                go.await();
                return keys.check(zkey, r1cs);
            })).limit(4).toList();
            go.countDown();
        }
        List<Outcome> outcomes = checks.stream().map(Future::resultNow).toList();
        assertEquals(1, outcomes.stream().filter(o -> o.source() == Source.CHECKED).count(), outcomes::toString);
        assertTrue(outcomes.stream().allMatch(o -> o instanceof Refused), outcomes::toString);
    }

    private static Path onlyFile(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = files.toList();
            assertEquals(1, all.size(), all::toString);
            return all.getFirst();
        }
    }
}
