package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Phase 2 (zkey new, contribute, beacon, verify) against snarkjs 0.7.6, both ways, both curves. */
class ZkeyCeremonyInteropTest {

    @TempDir
    Path dir;

    static String s(Path p) {
        return p.toAbsolutePath().toString();
    }

    /** Each curve with a circuit whose domain is its ptau's power, and one with a larger ptau. */
    static Stream<Arguments> circuits() {
        List<Arguments> out = new ArrayList<>();
        for (String curve : List.of(CircomFixtures.BN128, CircomFixtures.BLS12381)) {
            out.add(Arguments.of(curve, "poseidon", 10));
            out.add(Arguments.of(curve, "multiplier", 10));
        }
        return out.stream();
    }

    static Path ptau(String curve, int power) {
        return CircomFixtures.cacheDir().resolve("ptau").resolve(curve + "_" + power + ".ptau");
    }

    @ParameterizedTest(name = "{0} {1} ptau 2^{2}")
    @MethodSource("circuits")
    void zkeyNewIsByteIdenticalToSnarkjsAndProves(String curve, String circuit, int power) throws IOException {
        Fixture fx = CircomFixtures.build(curve, circuit);
        CircomFixtures.build(curve, "poseidon");   // makes the power-10 ptau
        Path ours = dir.resolve("ours.zkey");
        Path theirs = dir.resolve("theirs.zkey");
        byte[] hash = InitialKey.create(fx.r1cs(), ptau(curve, power), ours, m -> { });
        snarkjs("zkey", "new", s(fx.r1cs()), s(ptau(curve, power)), s(theirs));
        assertEquals(-1L, Files.mismatch(ours, theirs), "first differing byte");
        assertEquals(64, hash.length);
        assertTrue(proofVerifiesWithSnarkjs(fx, ours));
        if (circuit.equals("poseidon")) {   // coefficients of full length: multiplications the lanes take
            Path lanes = dir.resolve("lanes.zkey");
            OnLanes.inBatches(() -> InitialKey.create(fx.r1cs(), ptau(curve, power), lanes, m -> { }), false);
            assertEquals(-1L, Files.mismatch(lanes, theirs), "first differing byte, on the lanes");
        }
    }

    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void aZkeyNewStoppedMidwayResumesKeepingTheFinishedSectionsAndIsByteIdenticalToSnarkjs(String curve)
            throws IOException {
        Fixture fx = CircomFixtures.build(curve, "poseidon");
        Path ptau = ptau(curve, 10);
        Path theirs = dir.resolve("theirs.zkey");
        snarkjs("zkey", "new", s(fx.r1cs()), s(ptau), s(theirs));

        // stopped once A is computed: IC, H, C and A are whole in the partial file, B1 and B2 are not
        Path out = dir.resolve("out.zkey");
        assertThrows(Stop.class, () -> InitialKey.create(fx.r1cs(), ptau, out, m -> {
            if (m.startsWith("A computed")) {
                throw new Stop();
            }
        }));
        assertFalse(Files.exists(out));
        assertTrue(Files.exists(dir.resolve("out.zkey.partial")));

        List<String> log = new ArrayList<>();
        byte[] hash = InitialKey.create(fx.r1cs(), ptau, out, log::add);
        assertTrue(log.getFirst().startsWith("resuming"), log::toString);
        for (String kept : List.of("IC", "H", "C", "A")) {
            assertTrue(log.contains(kept + ": kept from the earlier run"), log::toString);
            assertTrue(log.stream().noneMatch(l -> l.startsWith(kept + " computed") || l.equals(kept + " written")),
                    log::toString);
        }
        assertTrue(log.stream().anyMatch(l -> l.startsWith("B1 computed")), log::toString);
        assertTrue(log.stream().anyMatch(l -> l.startsWith("B2 computed")), log::toString);
        assertEquals(-1L, Files.mismatch(out, theirs), "first differing byte");
        // the circuit hash covers the kept sections, read back: snarkjs prints the same
        assertTrue(snarkjs("zkey", "verify", s(fx.r1cs()), s(ptau), s(out)).output().contains("ZKey Ok!"));
        assertEquals(64, hash.length);
        assertFalse(Files.exists(dir.resolve("out.zkey.partial")) || Files.exists(dir.resolve("out.zkey.partial.for")));

        // what a run on another input left is not used
        Path copy = dir.resolve("copy.r1cs");
        Files.copy(fx.r1cs(), copy);
        Path out2 = dir.resolve("out2.zkey");
        assertThrows(Stop.class, () -> InitialKey.create(copy, ptau, out2, m -> {
            if (m.startsWith("IC computed")) {
                throw new Stop();
            }
        }));
        Files.setLastModifiedTime(copy, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(copy).toMillis() - 60_000));
        log.clear();
        InitialKey.create(copy, ptau, out2, log::add);
        assertTrue(log.stream().noneMatch(l -> l.startsWith("resuming") || l.contains("kept")), log::toString);
        assertEquals(-1L, Files.mismatch(out2, theirs), "first differing byte");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void aMixedChainVerifiesBothWaysAndProves(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path ptau = ptau(curve, fx.power());
        Path k0 = dir.resolve("k0.zkey");
        Path k1 = dir.resolve("k1.zkey");
        Path k2 = dir.resolve("k2.zkey");
        Path k3 = dir.resolve("k3.zkey");
        InitialKey.create(fx.r1cs(), ptau, k0, m -> { });
        PhaseTwo.Result ours = PhaseTwo.contribute(k0, k1, "ours", "our entropy", m -> { });
        CircomFixtures.SnarkjsRun theirs = snarkjs("zkey", "contribute", s(k1), s(k2), "--name=theirs",
                "-e=their entropy");
        PhaseTwo.Result beacon = PhaseTwo.beacon(k2, k3, "our beacon", BEACON, 10, m -> { });

        CircomFixtures.SnarkjsRun verified = snarkjs("zkey", "verify", s(fx.r1cs()), s(ptau), s(k3));
        assertTrue(verified.output().contains("ZKey Ok!"), verified.output());
        // snarkjs prints our contributions' hashes as we computed them
        assertTrue(verified.output().contains(body(ours.contributionHash())), verified.output());
        assertTrue(verified.output().contains(body(beacon.contributionHash())), verified.output());
        List<String> report = ZkeyVerifier.verify(fx.r1cs(), ptau, k3, m -> { });
        assertEquals("ZKey Ok!", report.getLast());
        // and we print theirs as snarkjs printed it when it contributed
        String theirHash = report.stream().filter(l -> l.startsWith("contribution #2 theirs:")).findFirst()
                .orElseThrow();
        assertTrue(theirs.output().contains(theirHash.substring(theirHash.indexOf('\n'))), theirs.output());
        assertTrue(proofVerifiesWithSnarkjs(fx, k3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void ourBeaconIsByteIdenticalToSnarkjs(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path k0 = dir.resolve("k0.zkey");
        Path k1 = dir.resolve("k1.zkey");
        snarkjs("zkey", "new", s(fx.r1cs()), s(ptau(curve, fx.power())), s(k0));
        snarkjs("zkey", "contribute", s(k0), s(k1), "--name=theirs", "-e=their entropy");
        Path ours = dir.resolve("ours.zkey");
        Path theirs = dir.resolve("theirs.zkey");
        OnLanes.inBatches(() -> PhaseTwo.beacon(k1, ours, "final", BEACON, 10, m -> { }), true);
        snarkjs("zkey", "beacon", s(k1), s(theirs), BEACON, "10", "--name=final");
        assertEquals(-1L, Files.mismatch(ours, theirs), "first differing byte");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void aContributionThatDoesNotChainIsRefusedByBoth(String curve) throws IOException {
        Fixture fx = keyContributedOnce(curve);
        Path ptau = ptau(curve, fx.power());
        Path k0 = dir.resolve("k0.zkey");
        Path k1 = dir.resolve("k1.zkey");
        Path other = dir.resolve("other.zkey");
        Path k2 = dir.resolve("k2.zkey");
        PhaseTwo.contribute(k0, other, "b", "entropy b", m -> { });
        PhaseTwo.contribute(k1, k2, "c", "entropy c", m -> { });
        // k2 with the record of `other` in place of its first contribution: the second no longer follows
        byte[] whole = Files.readAllBytes(k2);
        byte[] o = Files.readAllBytes(other);
        int record = o.length - (int) Files.size(k0);   // one record (the names are of equal length)
        System.arraycopy(o, o.length - record, whole, whole.length - 2 * record, record);
        Path spliced = dir.resolve("spliced.zkey");
        Files.write(spliced, whole);
        var e = assertThrows(FormatException.class, () -> ZkeyVerifier.verify(fx.r1cs(), ptau, spliced, m -> { }));
        assertTrue(e.getMessage().startsWith(spliced.toString()) && e.getMessage().contains("section 10"),
                e.getMessage());
        CircomFixtures.SnarkjsRun r = CircomFixtures.snarkjs("zkey", "verify", s(fx.r1cs()), s(ptau), s(spliced));
        assertFalse(r.output().contains("ZKey Ok!"), r.output());
        // a truncated key is refused naming the file and the section
        Path cut = dir.resolve("cut.zkey");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 10));
        e = assertThrows(FormatException.class, () -> PhaseTwo.contribute(cut, dir.resolve("x.zkey"), "x", "",
                m -> { }));
        assertTrue(e.getMessage().startsWith(cut.toString()), e.getMessage());
    }

    /** The multiplier circuit's key made by us (k0.zkey) and contributed to once by us (k1.zkey). */
    private Fixture keyContributedOnce(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path k0 = dir.resolve("k0.zkey");
        InitialKey.create(fx.r1cs(), ptau(curve, fx.power()), k0, m -> { });
        PhaseTwo.contribute(k0, dir.resolve("k1.zkey"), "a", "entropy a", m -> { });
        return fx;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void aKeyWhoseHIsNotTheCircuitsOverDeltaIsRefusedByBoth(String curve) throws IOException {
        Fixture fx = keyContributedOnce(curve);
        Path ptau = ptau(curve, fx.power());
        Path k1 = dir.resolve("k1.zkey");
        long fallbacks = ZkeyVerifier.LOWER_DEGREE_CHECKS.get();
        assertEquals("ZKey Ok!", ZkeyVerifier.verify(fx.r1cs(), ptau, k1, m -> { }).getLast());
        assertEquals(fallbacks, ZkeyVerifier.LOWER_DEGREE_CHECKS.get(), "our key's H passed point by point");
        // its H with the first two points swapped: neither the check point by point nor that of the lower
        // degrees holds
        byte[] whole = Files.readAllBytes(k1);
        int at;
        int g;
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(k1)) {
            at = (int) key.offset(PhaseTwoKeyFile.H);
            g = (int) (key.section(PhaseTwoKeyFile.H).byteSize() / key.domainSize);
        }
        byte[] first = java.util.Arrays.copyOfRange(whole, at, at + g);
        System.arraycopy(whole, at + g, whole, at, g);
        System.arraycopy(first, 0, whole, at + g, g);
        Path swapped = dir.resolve("swapped.zkey");
        Files.write(swapped, whole);
        var e = assertThrows(FormatException.class, () -> ZkeyVerifier.verify(fx.r1cs(), ptau, swapped, m -> { }));
        assertTrue(e.getMessage().contains("section 9") && e.getMessage().contains("divided by delta"),
                e.getMessage());
        assertEquals(fallbacks + 1, ZkeyVerifier.LOWER_DEGREE_CHECKS.get(), "the lower degrees were checked too");
        CircomFixtures.SnarkjsRun r = CircomFixtures.snarkjs("zkey", "verify", s(fx.r1cs()), s(ptau), s(swapped));
        assertFalse(r.output().contains("ZKey Ok!"), r.output());
    }

    @Test
    void zkeyNewRefusesAPtauOfTheOtherCurveAndOneNotPrepared() throws IOException {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        CircomFixtures.build(CircomFixtures.BLS12381, "multiplier");   // makes the BLS12-381 ptau
        Path blsPtau = ptau(CircomFixtures.BLS12381, fx.power());
        var e = assertThrows(IllegalArgumentException.class,
                () -> InitialKey.create(fx.r1cs(), blsPtau, dir.resolve("x.zkey"), m -> { }));
        assertTrue(e.getMessage().contains(fx.r1cs().toString()) && e.getMessage().contains("bn128")
                && e.getMessage().contains("bls12381"), e.getMessage());
        Path raw = dir.resolve("raw.ptau");
        PowersOfTau.newAccumulator(PairingCurve.BN254, fx.power(), raw);
        var f = assertThrows(FormatException.class, () -> InitialKey.create(fx.r1cs(), raw, dir.resolve("y.zkey"),
                m -> { }));
        assertTrue(f.getMessage().startsWith(raw.toString()) && f.getMessage().contains("prepare phase2"),
                f.getMessage());
        assertFalse(Files.exists(dir.resolve("x.zkey")) || Files.exists(dir.resolve("y.zkey")),
                "no key is left behind");
    }

    static final String BEACON = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    static Stream<String> curves() {
        return Stream.of(CircomFixtures.BN128, CircomFixtures.BLS12381);
    }

    /** A hash's four lines as snarkjs prints them under a title. */
    static String body(byte[] hash) {
        return HexFormatting.hashBlock("", hash);
    }

    /** Runs snarkjs, which must succeed (exit 0, no error logged). */
    static CircomFixtures.SnarkjsRun snarkjs(String... args) {
        CircomFixtures.SnarkjsRun r = CircomFixtures.snarkjs(args);
        assertTrue(r.exitCode() == 0 && r.messages("ERROR").isEmpty(), "snarkjs " + String.join(" ", args) + ": "
                + r.output());
        return r;
    }

    /** A proof made here with {@code zkey} verifies with snarkjs against the key's verification key. */
    boolean proofVerifiesWithSnarkjs(Fixture fx, Path zkey) throws IOException {
        Path proof = dir.resolve("proof.json");
        Path pub = dir.resolve("public.json");
        try (ProvingKey key = ZkeyFile.open(zkey)) {
            Witness w = WtnsFile.read(fx.wtns());
            SnarkjsJson.write(proof, SnarkjsJson.proofJson(Prover.create().prove(key, w)));
            SnarkjsJson.write(pub, SnarkjsJson.publicJson(w.publicSignals(key.publicCount())));
        }
        Path vk = CircomFixtures.exportVk(zkey, dir.resolve("vk.json"));
        return CircomFixtures.snarkjsVerifies(vk, pub, proof);
    }
}
