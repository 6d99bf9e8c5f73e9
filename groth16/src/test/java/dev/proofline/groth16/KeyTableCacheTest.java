package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Keys' tables written to disk and mapped back: proofs with them equal proofs without tables (same r and
 * s) and verify against snarkjs's verification key; a damaged, foreign or stale file is refused and
 * deleted; the cache keeps to its size, least recently used first.
 */
class KeyTableCacheTest {

    @TempDir
    Path tmp;

    private static final BigInteger R = BigInteger.valueOf(123456789);
    private static final BigInteger S = BigInteger.valueOf(987654321);

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void tablesMappedBackProveWhatAKeyWithoutTablesProves(String curve) throws IOException {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        Witness w = WtnsFile.read(fx.wtns());
        Prover prover = Prover.create().withRandomness(ProofRandomness.fixedForTesting(R, S));
        Proof plain;
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            plain = prover.prove(key, w);
        }
        KeyTableCache cache = new KeyTableCache(tmp.resolve("cache"), 1L << 30);
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            assertTrue(cache.load(key, Long.MAX_VALUE).isEmpty(), "nothing cached yet");
            String built = KeyTables.attachBuilt(key, Long.MAX_VALUE, cache, () -> { });
            assertTrue(built.startsWith("tables of"), built);
            assertEquals(plain, prover.prove(key, w), "built tables");
        }
        assertEquals(1, tableFiles().size(), "written once");
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            Optional<KeyTables> mapped = cache.load(key, Long.MAX_VALUE);
            assertTrue(mapped.isPresent(), "found again");
            assertEquals(5, mapped.get().count());
            assertTrue(key.attach(mapped.get()));
            Proof withMapped = prover.prove(key, w);
            assertEquals(plain, withMapped, "mapped tables");
            var vk = SnarkjsJson.readVerificationKey(fx.vk());
            assertTrue(Verifier.verify(vk, SnarkjsJson.readPublic(fx.publicJson()), withMapped));
        }
    }

    @Test
    void aZkeyProverWithTablesFromTheCacheProvesWhatSnarkjsVerifies() throws IOException {
        CircomFixtures.Fixture fx = CircomFixtures.build("bn128", "poseidon");
        for (int run = 0; run < 2; run++) {   // built and written, then mapped back
            try (ZkeyProver prover = ZkeyProver.open(fx.zkey()).withKeyTables(256L << 20, tmp.resolve("cache"))) {
                assertEquals(5, prover.key().tables().count());
                ProofWithSignals p = prover.prove(fx.wtns());
                assertTrue(p.verify(SnarkjsJson.readVerificationKey(fx.vk())).valid(), "with snarkjs's key");
            }
            assertEquals(1, tableFiles().size());
        }
    }

    @Test
    void aDamagedFileIsRefusedAndDeletedAndOneForAnotherBudgetOrKeyIsNotUsed() throws IOException {
        CircomFixtures.Fixture fx = CircomFixtures.build("bn128", "poseidon");
        KeyTableCache cache = new KeyTableCache(tmp.resolve("cache"), 1L << 30);
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            cache.store(key, Long.MAX_VALUE, KeyTables.build(key, Long.MAX_VALUE));
            assertTrue(cache.load(key, 1L << 20).isEmpty(), "another budget: other tables");
            try (KeyTables t = cache.load(key, Long.MAX_VALUE).orElseThrow()) {
                assertEquals(5, t.count());
            }
        }
        Path file = tableFiles().getFirst();
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(f.length() / 2);
            int b = f.read();
            f.seek(f.length() / 2);
            f.write(b ^ 0x40);   // one bit in a table's rows
        }
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            assertTrue(cache.load(key, Long.MAX_VALUE).isEmpty(), "a damaged file is not used");
        }
        assertFalse(Files.exists(file), "and is deleted");

        // a key file changed in place is another key: its tables are not the old ones
        Path copy = tmp.resolve("copy.zkey");
        Files.copy(fx.zkey(), copy);
        try (ProvingKey key = ZkeyFile.open(copy)) {
            cache.store(key, Long.MAX_VALUE, KeyTables.build(key, Long.MAX_VALUE));
            assertTrue(cache.load(key, Long.MAX_VALUE).isPresent());
        }
        CircomFixtures.Fixture other = CircomFixtures.build("bn128", "multiplier");
        Files.copy(other.zkey(), copy, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(copy, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
        try (ProvingKey key = ZkeyFile.open(copy)) {
            assertTrue(cache.load(key, Long.MAX_VALUE).isEmpty(), "the changed key finds no tables");
        }
    }

    @Test
    void theCacheKeepsToItsSizeLeastRecentlyUsedFirst() throws IOException {
        CircomFixtures.Fixture a = CircomFixtures.build("bn128", "poseidon");
        CircomFixtures.Fixture b = CircomFixtures.build("bn128", "multiplier");
        try (ProvingKey ka = ZkeyFile.open(a.zkey()); ProvingKey kb = ZkeyFile.open(b.zkey())) {
            long small = KeyTables.plannedBytes(ka, Long.MAX_VALUE) / 2;
            KeyTableCache measure = new KeyTableCache(tmp.resolve("measure"), Long.MAX_VALUE);
            long total = 0;
            for (Object[] entry : new Object[][] {{ka, Long.MAX_VALUE}, {ka, small}, {kb, Long.MAX_VALUE}}) {
                ProvingKey k = (ProvingKey) entry[0];
                long budget = (Long) entry[1];
                measure.store(k, budget, KeyTables.build(k, budget));
                total += Files.size(measure.fileFor(k, budget));
            }
            KeyTableCache cache = new KeyTableCache(tmp.resolve("cache"), total - 1);   // the three do not fit
            cache.store(ka, Long.MAX_VALUE, KeyTables.build(ka, Long.MAX_VALUE));
            cache.store(ka, small, KeyTables.build(ka, small));
            assertEquals(2, tableFiles().size(), "two fit");
            Files.setLastModifiedTime(cache.fileFor(ka, small), FileTime.fromMillis(1_000));
            Files.setLastModifiedTime(cache.fileFor(ka, Long.MAX_VALUE), FileTime.fromMillis(2_000));
            cache.load(ka, Long.MAX_VALUE).orElseThrow().close();   // used now: the most recent
            cache.store(kb, Long.MAX_VALUE, KeyTables.build(kb, Long.MAX_VALUE));
            assertEquals(2, tableFiles().size(), "one went");
            assertTrue(Files.exists(cache.fileFor(ka, Long.MAX_VALUE)), "the recently used one stays");
            assertFalse(Files.exists(cache.fileFor(ka, small)), "the least recently used one went");
            assertTrue(Files.exists(cache.fileFor(kb, Long.MAX_VALUE)), "the new one is kept");
        }
    }

    private List<Path> tableFiles() throws IOException {
        try (Stream<Path> s = Files.list(tmp.resolve("cache"))) {
            return s.filter(p -> p.toString().endsWith(".tables")).toList();
        }
    }
}
