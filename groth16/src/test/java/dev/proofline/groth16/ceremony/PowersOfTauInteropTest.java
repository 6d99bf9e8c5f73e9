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
    }
}
