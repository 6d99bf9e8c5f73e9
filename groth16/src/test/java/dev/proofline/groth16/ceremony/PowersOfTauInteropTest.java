package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.Node;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Powers of tau against snarkjs 0.7.6, both ways, on both curves, at small powers. */
class PowersOfTauInteropTest {

    @TempDir
    Path dir;

    private static String s(Path p) {
        return p.toAbsolutePath().toString();
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void ourContributionPassesSnarkjsVerify(PairingCurve curve) throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        PowersOfTau.newAccumulator(curve, 4, p0);
        PowersOfTau.contribute(p0, p1, "first", "some entropy", m -> { });
        Node.snarkjs("powersoftau", "verify", s(p1));
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void preparedPhase2IsByteIdenticalToSnarkjs(PairingCurve curve) throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        Node.snarkjs("powersoftau", "new", curve.snarkjsName(), "5", s(p0));
        Node.snarkjs("powersoftau", "contribute", s(p0), s(p1), "--name=theirs", "-e=their entropy");
        Path ours = dir.resolve("ours.ptau");
        Path theirs = dir.resolve("theirs.ptau");
        PhaseTwoPreparation.prepare(p1, ours, m -> { });
        Node.snarkjs("powersoftau", "prepare", "phase2", s(p1), s(theirs));
        assertEquals(-1L, Files.mismatch(ours, theirs), "first differing byte");
        // the same with the multiplications on the lanes (larger steps take them once warm)
        Path lanes = dir.resolve("lanes.ptau");
        OnLanes.inBatches(() -> PhaseTwoPreparation.prepare(p1, lanes, m -> { }), true);
        assertEquals(-1L, Files.mismatch(lanes, theirs), "first differing byte, on the lanes");
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void snarkjsChainWithOurBeaconVerifiesBothWays(PairingCurve curve) throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        Path p2 = dir.resolve("p2.ptau");
        Path p3 = dir.resolve("p3.ptau");
        Path p4 = dir.resolve("p4.ptau");
        Node.snarkjs("powersoftau", "new", curve.snarkjsName(), "4", s(p0));
        Node.snarkjs("powersoftau", "contribute", s(p0), s(p1), "--name=theirs", "-e=their entropy");
        PowersOfTau.contribute(p1, p2, "ours", "our entropy", m -> { });
        String beacon = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
        OnLanes.run(() -> PowersOfTau.beacon(p2, p3, "our beacon", beacon, 10, m -> { }));
        Node.snarkjs("powersoftau", "beacon", s(p2), s(p4), beacon, "10", "--name=our beacon");
        // the beacon is deterministic: snarkjs's and ours agree on every point and hash
        try (PtauFile a = PtauFile.open(p3); PtauFile b = PtauFile.open(p4)) {
            for (int type = PtauFile.TAU_G1; type <= PtauFile.BETA_G2; type++) {
                assertEquals(-1L, a.section(type).mismatch(b.section(type)), "section " + type);
            }
            assertArrayEquals(b.contributions().getLast().nextChallenge(), a.contributions().getLast().nextChallenge());
        }
        Node.snarkjs("powersoftau", "verify", s(p3));
        assertEquals(3, PtauVerifier.verify(p4, m -> { }).size());
        Path prepared = dir.resolve("prepared.ptau");
        Node.snarkjs("powersoftau", "prepare", "phase2", s(p4), s(prepared));
        assertEquals(3, PtauVerifier.verify(prepared, m -> { }).size());
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aContributionThatDoesNotChainIsRefused(PairingCurve curve) throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        Path other = dir.resolve("other.ptau");
        Path p2 = dir.resolve("p2.ptau");
        PowersOfTau.newAccumulator(curve, 3, p0);
        PowersOfTau.contribute(p0, p1, "a", "entropy a", m -> { });
        PowersOfTau.contribute(p0, other, "b", "entropy b", m -> { });
        PowersOfTau.contribute(p1, p2, "c", "entropy c", m -> { });
        // the points of p2 with the contributions of `other`: the chain breaks
        try (PtauFile good = PtauFile.open(p2); PtauFile bad = PtauFile.open(other)) {
            byte[] whole = Files.readAllBytes(p2);
            long contributionsAt = good.section(PtauFile.CONTRIBUTIONS).address()
                    - good.binFile().whole().address();
            byte[] tail = bad.section(PtauFile.CONTRIBUTIONS).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            byte[] spliced = java.util.Arrays.copyOf(whole, (int) contributionsAt + tail.length);
            System.arraycopy(tail, 0, spliced, (int) contributionsAt, tail.length);
            java.nio.ByteBuffer.wrap(spliced, (int) contributionsAt - 8, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putLong(tail.length);
            Files.write(dir.resolve("spliced.ptau"), spliced);
        }
        var e = assertThrows(dev.proofline.r1cs.io.FormatException.class,
                () -> PtauVerifier.verify(dir.resolve("spliced.ptau"), m -> { }));
        assertTrue(e.getMessage().contains("spliced.ptau"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> Node.snarkjs("powersoftau", "verify", s(dir.resolve("spliced.ptau"))));
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void truncatedAndWrongCurveFilesAreRefusedNamingTheSection(PairingCurve curve) throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        PowersOfTau.newAccumulator(curve, 3, p0);
        byte[] whole = Files.readAllBytes(p0);
        Path cut = dir.resolve("cut.ptau");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 100));
        var e = assertThrows(dev.proofline.r1cs.io.FormatException.class, () -> PtauVerifier.verify(cut, m -> { }));
        assertTrue(e.getMessage().startsWith(cut.toString()) && e.getMessage().contains("truncated"), e.getMessage());
        Path other = dir.resolve("other.ptau");
        byte[] wrong = whole.clone();
        wrong[12 + 12 + 4] ^= 1;   // the modulus q in the header
        Files.write(other, wrong);
        e = assertThrows(dev.proofline.r1cs.io.FormatException.class, () -> PtauVerifier.verify(other, m -> { }));
        assertTrue(e.getMessage().contains("section 1 (header)") && e.getMessage().contains("base field"), e.getMessage());
    }
}
